// Probe: the shared-memory accesses of wmma's load_matrix_sync and
// store_matrix_sync (m16n16k16, half inputs, float accumulators) on sm_90,
// for the emulator's pricing of <mma.h> fragments: which instructions nvcc
// makes (LDSM or LDS, their widths) and the wavefronts Nsight Compute counts
// for each layout and leading dimension.
//
// One launch per line of the table main() prints, one warp each. The kernel
// loads (or stores) one fragment at shared offset 0 with leading dimension
// `ldm` elements, then touches global memory so that nothing is removed.
//
// Run: wmma_probe.sh (ncu over every launch; cuobjdump for the instructions).
#include <mma.h>

#include <cstdio>

using namespace nvcuda;

constexpr int kShorts = 64 * 64;

template <typename Layout>
__global__ void load_a(float* out, int ldm) {
  __shared__ __align__(128) half s[kShorts];
  for (int i = threadIdx.x; i < kShorts; i += 32) s[i] = __float2half(static_cast<float>(i % 7));
  __syncwarp();
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, Layout> a;
  wmma::load_matrix_sync(a, s, ldm);
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> b;
  wmma::fill_fragment(b, __float2half(1.0f));
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
  wmma::fill_fragment(c, 0.0f);
  wmma::mma_sync(c, a, b, c);
  wmma::store_matrix_sync(out, c, 16, wmma::mem_row_major);
}

template <typename Layout>
__global__ void load_b(float* out, int ldm) {
  __shared__ __align__(128) half s[kShorts];
  for (int i = threadIdx.x; i < kShorts; i += 32) s[i] = __float2half(static_cast<float>(i % 5));
  __syncwarp();
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
  wmma::fill_fragment(a, __float2half(1.0f));
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, Layout> b;
  wmma::load_matrix_sync(b, s, ldm);
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
  wmma::fill_fragment(c, 0.0f);
  wmma::mma_sync(c, a, b, c);
  wmma::store_matrix_sync(out, c, 16, wmma::mem_row_major);
}

__global__ void load_c(float* out, int ldm, int row_major) {
  __shared__ __align__(128) float s[kShorts];
  for (int i = threadIdx.x; i < kShorts; i += 32) s[i] = static_cast<float>(i % 3);
  __syncwarp();
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
  wmma::load_matrix_sync(c, s, ldm, row_major ? wmma::mem_row_major : wmma::mem_col_major);
  wmma::store_matrix_sync(out, c, 16, wmma::mem_row_major);
}

__global__ void store_c(float* out, int ldm, int row_major) {
  __shared__ __align__(128) float s[kShorts];
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
  wmma::fill_fragment(c, static_cast<float>(threadIdx.x % 3));
  wmma::store_matrix_sync(s, c, ldm, row_major ? wmma::mem_row_major : wmma::mem_col_major);
  __syncwarp();
  for (int i = threadIdx.x; i < 256; i += 32) out[i] = s[i * 3 % kShorts];
}

int main() {
  float* out;
  cudaMalloc(&out, 4096 * sizeof(float));
  int n = 0;
  const int half_ldms[] = {16, 24, 32, 40, 64};
  for (int ldm : half_ldms) {
    load_a<wmma::row_major><<<1, 32>>>(out, ldm);
    std::printf("launch %d: load_matrix_sync matrix_a row_major ldm %d\n", n++, ldm);
  }
  for (int ldm : half_ldms) {
    load_a<wmma::col_major><<<1, 32>>>(out, ldm);
    std::printf("launch %d: load_matrix_sync matrix_a col_major ldm %d\n", n++, ldm);
  }
  for (int ldm : half_ldms) {
    load_b<wmma::row_major><<<1, 32>>>(out, ldm);
    std::printf("launch %d: load_matrix_sync matrix_b row_major ldm %d\n", n++, ldm);
  }
  const int float_ldms[] = {16, 20, 24, 32};
  for (int ldm : float_ldms) {
    load_c<<<1, 32>>>(out, ldm, 1);
    std::printf("launch %d: load_matrix_sync accumulator mem_row_major ldm %d\n", n++, ldm);
  }
  for (int ldm : float_ldms) {
    store_c<<<1, 32>>>(out, ldm, 1);
    std::printf("launch %d: store_matrix_sync accumulator mem_row_major ldm %d\n", n++, ldm);
  }
  for (int ldm : float_ldms) {
    store_c<<<1, 32>>>(out, ldm, 0);
    std::printf("launch %d: store_matrix_sync accumulator mem_col_major ldm %d\n", n++, ldm);
  }
  const cudaError_t e = cudaDeviceSynchronize();
  std::printf("%s\n", cudaGetErrorString(e));
  return e == cudaSuccess ? 0 : 1;
}

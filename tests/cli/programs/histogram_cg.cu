// A shared-memory histogram with atomics, and a warp sum with cooperative
// groups over a tile of 32, with a shared array in a templated device
// function: the constructs the emulator must accept unchanged.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cstdio>
namespace cg = cooperative_groups;

constexpr int BINS = 64;

__global__ void histogram(const unsigned char* data, int n, unsigned* bins) {
  __shared__ unsigned local[BINS];
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&local[data[i] % BINS], 1u);  // SHARED_ATOMIC
  __syncthreads();
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) atomicAdd(&bins[b], local[b]);
}

template <int WARPS>
__device__ float block_sum(float v) {
  __shared__ float warp_sums[WARPS];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  v = cg::reduce(tile, v, cg::plus<float>());
  if (tile.thread_rank() == 0) warp_sums[tile.meta_group_rank()] = v;
  block.sync();
  float total = 0;
  for (int w = 0; w < WARPS; ++w) total += warp_sums[w];  // BROADCAST
  return total;
}

__global__ void sums(float* out) {
  const float total = block_sum<4>(static_cast<float>(threadIdx.x));
  if (threadIdx.x == 0) out[blockIdx.x] = total;
}

int main() {
  const int n = 10000;
  unsigned char* data;
  unsigned* bins;
  float* totals;
  cudaMallocManaged(&data, n);
  cudaMallocManaged(&bins, BINS * sizeof(unsigned));
  cudaMallocManaged(&totals, 2 * sizeof(float));
  for (int i = 0; i < n; ++i) data[i] = static_cast<unsigned char>(i * 7);
  cudaMemset(bins, 0, BINS * sizeof(unsigned));
  histogram<<<4, 128>>>(data, n, bins);
  sums<<<2, 128>>>(totals);
  cudaDeviceSynchronize();
  unsigned count = 0;
  for (int b = 0; b < BINS; ++b) count += bins[b];
  std::printf("histogram counts %u of %d; block sum %.0f (expected %d)\n", count, n, totals[1], 127 * 128 / 2);
  return count == static_cast<unsigned>(n) && totals[1] == 127.0f * 128 / 2 ? 0 : 1;
}

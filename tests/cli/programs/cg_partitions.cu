// Cooperative groups as newer code writes them: a block made from
// block_tile_memory, a warp tile made at run time, and tiles of that tile
// (tiled_partition of a thread_group), each summing its threads' values.
//   banklab run cg_partitions.cu
#include <cooperative_groups.h>

#include <cstdio>

namespace cg = cooperative_groups;

constexpr int kThreads = 128;

__global__ void sums_by_eight(const int* in, int* out) {
  __shared__ cg::block_tile_memory<kThreads> memory;
  __shared__ int staged[kThreads];
  cg::thread_block block = cg::this_thread_block(memory);
  staged[block.thread_rank()] = in[blockIdx.x * kThreads + block.thread_rank()];
  block.sync();
  cg::thread_group warp = cg::tiled_partition(block, 32);
  cg::thread_group eight = cg::tiled_partition(warp, 8);
  // Each group of eight adds its values through shared memory, in turn.
  int sum = 0;
  const unsigned first = block.thread_rank() - eight.thread_rank();
  for (unsigned k = 0; k < eight.size(); ++k) sum += staged[first + k];
  eight.sync();
  if (eight.thread_rank() == 0) out[blockIdx.x * (kThreads / 8) + block.thread_rank() / 8] = sum;
}

int main() {
  const int blocks = 2, n = blocks * kThreads;
  int host[n], sums[n / 8];
  for (int i = 0; i < n; ++i) host[i] = i % 13;
  int *in = nullptr, *out = nullptr;
  cudaMalloc(&in, sizeof host);
  cudaMalloc(&out, sizeof sums);
  cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice);
  sums_by_eight<<<blocks, kThreads>>>(in, out);
  cudaMemcpy(sums, out, sizeof sums, cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int g = 0; g < n / 8; ++g) {
    int expected = 0;
    for (int k = 0; k < 8; ++k) expected += host[8 * g + k];
    wrong += sums[g] != expected;
  }
  std::printf("sums of eight through tiles of a tile: %s (%d wrong)\n", wrong == 0 ? "OK" : "WRONG", wrong);
  cudaFree(in);
  cudaFree(out);
  return wrong == 0 ? 0 : 1;
}

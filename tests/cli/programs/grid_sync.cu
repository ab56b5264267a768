// A cooperative launch with a grid-wide sync: over one block it runs (the
// grid's sync is the block's barrier); over several the emulator cannot run
// it and says so at the line.
//   banklab run grid_sync.cu BLOCKS
#include <cooperative_groups.h>

#include <cstdio>
#include <cstdlib>

namespace cg = cooperative_groups;

__global__ void sum_then_scale(const int* in, int* partial, int* out, int n) {
  cg::grid_group grid = cg::this_grid();
  __shared__ int sums[256];
  int mine = 0;
  for (int i = static_cast<int>(grid.thread_rank()); i < n; i += static_cast<int>(grid.size())) mine += in[i];
  sums[threadIdx.x] = mine;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) sums[threadIdx.x] += sums[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = sums[0];
  grid.sync();  // GRID_SYNC
  int total = 0;
  for (unsigned b = 0; b < gridDim.x; ++b) total += partial[b];
  for (int i = static_cast<int>(grid.thread_rank()); i < n; i += static_cast<int>(grid.size())) out[i] = total;
}

int main(int argc, char** argv) {
  int blocks = argc > 1 ? std::atoi(argv[1]) : 1;
  int n = 1024;
  int *in, *partial, *out;
  cudaMallocManaged(&in, n * sizeof(int));
  cudaMallocManaged(&partial, blocks * sizeof(int));
  cudaMallocManaged(&out, n * sizeof(int));
  for (int i = 0; i < n; ++i) in[i] = 1;
  void* args[] = {&in, &partial, &out, &n};
  const cudaError_t launched = cudaLaunchCooperativeKernel((void*)sum_then_scale, dim3(blocks), dim3(256), args);
  const cudaError_t synced = cudaDeviceSynchronize();
  if (launched != cudaSuccess || synced != cudaSuccess) {
    std::printf("grid sync over %d blocks: %s\n", blocks,
                cudaGetErrorString(launched != cudaSuccess ? launched : synced));
    return 1;
  }
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += out[i] != n;
  std::printf("grid sync over %d blocks: %s\n", blocks, wrong == 0 ? "OK" : "WRONG");
  return wrong == 0 ? 0 : 1;
}

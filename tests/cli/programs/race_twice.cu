// A write-write race on one shared word between two warps, with no barrier
// between the writes, in each of 2 blocks, then in the 1 block of a second
// launch: one finding, counted 3 times (the launches' counts added up), at
// the later write's line, naming the earlier one.
//   banklab run race_twice.cu
#include <cstdio>

__global__ void racy(int* out) {
  __shared__ int word;
  if (threadIdx.x == 0) word = 1;   // warp 0 writes first
  if (threadIdx.x == 32) word = 2;  // warp 1 writes the same word: the race
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = word;
}

int main() {
  int* out = nullptr;
  cudaMalloc(&out, 2 * sizeof(int));
  racy<<<2, 64>>>(out);
  racy<<<1, 64>>>(out);
  int host[2] = {0, 0};
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  std::printf("words: %d %d\n", host[0], host[1]);
  cudaFree(out);
  return 0;
}

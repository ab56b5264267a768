// An allocation far beyond any memory fails; the program checks it and ends
// before its launch, and `banklab run` names the failed cudaMalloc.
#include <cstdio>

__global__ void fill(float* out) { out[threadIdx.x] = 1.0f; }

int main() {
  float* out = nullptr;
  const cudaError_t e = cudaMalloc(&out, std::size_t{1} << 50);  // a petabyte
  if (e != cudaSuccess) {
    std::fprintf(stderr, "cudaMalloc: %s\n", cudaGetErrorString(e));
    return 1;
  }
  fill<<<1, 32>>>(out);
  return 0;
}

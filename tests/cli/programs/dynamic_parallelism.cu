// A kernel that launches a kernel (CUDA's dynamic parallelism; nvcc builds
// it with -rdc=true). The emulator launches kernels from host code only: the
// parent stops at its launch's line, with a finding that says why, and the
// program sees CUDA's launch error.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void child(int* x) { x[threadIdx.x] = 1; }

__global__ void parent(int* x) {
  if (threadIdx.x == 0) child<<<1, 32>>>(x);  // DEVICE_LAUNCH
}

int main() {
  int* x;
  cudaMalloc(&x, 32 * sizeof(int));
  parent<<<1, 32>>>(x);
  const cudaError_t error = cudaDeviceSynchronize();
  std::printf("parent: %s\n", cudaGetErrorString(error));
  cudaFree(x);
  return error == cudaSuccess ? 0 : 1;
}

// A kernel that reaches a function of the CUDA runtime's host API (here
// cudaFree, as a destructor that frees memory would if it ran on the device).
// For a GPU it does not build as it is (ptxas: unresolved __cudaCDP2Free;
// device code has a cudaFree only with -rdc=true and the device runtime, and
// that one frees only what device code allocated). The emulator, which could
// call the host's, stops the launch at that line with a finding instead.
//   banklab run host_call_in_kernel.cu
#include <cstdio>

struct Scratch {
  int* memory;
};

__global__ void free_from_device(Scratch scratch) {
  if (threadIdx.x == 0) cudaFree(scratch.memory);
}

int main() {
  Scratch scratch{};
  cudaMalloc(&scratch.memory, 64);
  free_from_device<<<1, 32>>>(scratch);
  const cudaError_t error = cudaDeviceSynchronize();
  std::printf("after the launch: %s\n", cudaGetErrorName(error));
  // Still allocated: the kernel did not free it, so the host can.
  std::printf("host cudaFree after it: %s\n", cudaGetErrorName(cudaFree(scratch.memory)));
  return 0;
}

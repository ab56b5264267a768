// The shared-memory limits CUDA reports for device 0 (the misconceptions
// page, E12): per SM, per block (default and opt-in), reserved per block.
//   nvcc -arch=sm_90 shared_limits.cu -o shared_limits && ./shared_limits
#include <cstdio>

int main() {
  cudaDeviceProp p;
  if (cudaGetDeviceProperties(&p, 0) != cudaSuccess) return 1;
  std::printf("%s, compute capability %d.%d\n", p.name, p.major, p.minor);
  std::printf("sharedMemPerMultiprocessor   %zu bytes\n", p.sharedMemPerMultiprocessor);
  std::printf("sharedMemPerBlock            %zu bytes\n", p.sharedMemPerBlock);
  std::printf("sharedMemPerBlockOptin       %zu bytes\n", p.sharedMemPerBlockOptin);
  std::printf("reservedSharedMemPerBlock    %zu bytes\n", p.reservedSharedMemPerBlock);
  std::printf("maxThreadsPerMultiProcessor  %d\n", p.maxThreadsPerMultiProcessor);
  return 0;
}

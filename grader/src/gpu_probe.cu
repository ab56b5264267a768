// grader_gpu_probe: can this machine run CUDA kernels? Prints one JSON object:
// {"devices": N, "name": ..., "compute_capability": ...} or {"devices": 0, "error": ...}.
#include <cstdio>

int main() {
  int count = 0;
  const cudaError_t error = cudaGetDeviceCount(&count);
  if (error != cudaSuccess || count == 0) {
    std::printf("{\"devices\":0,\"error\":\"%s\"}\n",
                error != cudaSuccess ? cudaGetErrorString(error) : "no CUDA device");
    return 0;
  }
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, 0);
  std::printf("{\"devices\":%d,\"name\":\"%s\",\"compute_capability\":\"%d.%d\"}\n", count, prop.name, prop.major,
              prop.minor);
  return 0;
}

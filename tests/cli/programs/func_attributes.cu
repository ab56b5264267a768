// cudaFuncGetAttributes on two kernels: the static shared memory nvcc lays
// out, and the dynamic shared memory limit before and after
// cudaFuncSetAttribute raises it (as a kernel that needs more than 48 KiB
// does before its launch).
#include <cstdio>

__global__ void padded_tile(float* out) {
  __shared__ float tile[32][33];
  tile[threadIdx.y][threadIdx.x] = static_cast<float>(threadIdx.x);
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

// On 256 threads, scale is 2.
__global__ void big_dynamic(float* out) {
  extern __shared__ float buffer[];
  __shared__ double scale;
  if (threadIdx.x == 0) scale = static_cast<double>(blockDim.x) / 128.0;  // not a constant: nvcc keeps the variable
  buffer[threadIdx.x] = static_cast<float>(threadIdx.x);
  __syncthreads();
  out[threadIdx.x] = buffer[blockDim.x - 1 - threadIdx.x] * static_cast<float>(scale);
}

int main() {
  cudaFuncAttributes a;
  if (cudaFuncGetAttributes(&a, padded_tile) != cudaSuccess) return 1;
  std::printf("padded_tile: %zu static bytes, %d threads at most, dynamic limit %d\n", a.sharedSizeBytes,
              a.maxThreadsPerBlock, a.maxDynamicSharedSizeBytes);
  if (cudaFuncGetAttributes(&a, big_dynamic) != cudaSuccess) return 1;
  std::printf("big_dynamic: %zu static bytes, dynamic limit %d\n", a.sharedSizeBytes, a.maxDynamicSharedSizeBytes);
  const int bytes = 64 * 1024;
  if (cudaFuncSetAttribute(big_dynamic, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes) != cudaSuccess) return 1;
  if (cudaFuncGetAttributes(&a, big_dynamic) != cudaSuccess) return 1;
  std::printf("big_dynamic after cudaFuncSetAttribute: dynamic limit %d\n", a.maxDynamicSharedSizeBytes);
  const cudaError_t too_much =
      cudaFuncSetAttribute(big_dynamic, cudaFuncAttributeMaxDynamicSharedMemorySize, 228 * 1024);
  std::printf("asking for 228 KiB: %s\n", cudaGetErrorName(too_much));
  cudaGetLastError();
  float* out;
  cudaMalloc(&out, 1024 * sizeof(float));
  big_dynamic<<<1, 256, bytes>>>(out);
  float host[256];
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  std::printf("big_dynamic with 64 KiB: %s\n", host[0] == 510.0f && host[255] == 0.0f ? "right" : "WRONG");
  cudaFree(out);
  return 0;
}

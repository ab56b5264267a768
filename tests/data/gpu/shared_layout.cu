// Prints where nvcc places the __shared__ variables of kernels with several
// of them (byte offsets in shared memory), so that the CPU emulator's layout
// can be compared with the GPU's. Run on a GPU machine.
#include <cstdio>

__global__ void two_shared_arrays(unsigned* out) {
  __shared__ int a[33];
  __shared__ int b[32];
  a[threadIdx.x] = 1;
  b[threadIdx.x] = 2;
  __syncthreads();
  out[0] = static_cast<unsigned>(__cvta_generic_to_shared(a));
  out[1] = static_cast<unsigned>(__cvta_generic_to_shared(b));
  out[2] = a[threadIdx.x] + b[threadIdx.x];
}

__global__ void three_shared_arrays(unsigned* out) {
  __shared__ char c[3];
  __shared__ double d[4];
  __shared__ float f[5];
  c[threadIdx.x % 3] = 1;
  d[threadIdx.x % 4] = 2;
  f[threadIdx.x % 5] = 3;
  __syncthreads();
  out[0] = static_cast<unsigned>(__cvta_generic_to_shared(c));
  out[1] = static_cast<unsigned>(__cvta_generic_to_shared(d));
  out[2] = static_cast<unsigned>(__cvta_generic_to_shared(f));
  out[3] = static_cast<unsigned>(c[threadIdx.x % 3] + d[threadIdx.x % 4] + f[threadIdx.x % 5]);
}

int main() {
  unsigned* out = nullptr;
  unsigned host[4] = {};
  cudaMalloc(&out, sizeof host);
  two_shared_arrays<<<1, 32>>>(out);
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  std::printf("two_shared_arrays: int a[33] at %u, int b[32] at %u\n", host[0], host[1]);
  three_shared_arrays<<<1, 32>>>(out);
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  std::printf("three_shared_arrays: char c[3] at %u, double d[4] at %u, float f[5] at %u\n", host[0], host[1], host[2]);
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}

// A kernel that reads past its array: banklab run reports the line, and the
// program sees the error from cudaGetLastError, as on a GPU.
#include <cstdio>

__global__ void copy_past_end(float* out, const float* in, int n) {
  __shared__ float s[32];
  s[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x + 1];  // PAST_END (lane 31 reads s[32])
}

int main() {
  float *in, *out;
  cudaMalloc(&in, 32 * sizeof(float));
  cudaMalloc(&out, 32 * sizeof(float));
  cudaMemset(in, 0, 32 * sizeof(float));
  copy_past_end<<<1, 32>>>(out, in, 32);
  const cudaError_t e = cudaGetLastError();
  std::printf("after the launch: %s\n", cudaGetErrorString(e));
  return 0;
}

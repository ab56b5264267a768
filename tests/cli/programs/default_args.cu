// Kernels with default arguments, launched with some of them left out, as
// CUDA allows (a kernel is a function; its defaults fill the call).
//   banklab run default_args.cu
#include <cstdio>

__global__ void scale_shift(float* data, int n, float factor = 2.0f, float shift = 0.5f) {
  __shared__ float staged[64];
  const int i = blockIdx.x * 64 + threadIdx.x;
  staged[threadIdx.x] = i < n ? data[i] : 0.0f;
  __syncthreads();
  if (i < n) data[i] = staged[threadIdx.x] * factor + shift;
}

namespace filters {
template <int kWidth>
__global__ void add_index(int* data, int offset = kWidth) {
  data[threadIdx.x] += static_cast<int>(threadIdx.x) + offset;
}
}  // namespace filters

int main() {
  const int n = 100;
  float host[n];
  for (int i = 0; i < n; ++i) host[i] = static_cast<float>(i);
  float* data = nullptr;
  cudaMalloc(&data, sizeof host);
  cudaMemcpy(data, host, sizeof host, cudaMemcpyHostToDevice);
  scale_shift<<<2, 64>>>(data, n);            // both defaults: x * 2 + 0.5
  scale_shift<<<2, 64>>>(data, n, 3.0f);      // one default: x * 3 + 0.5
  scale_shift<<<2, 64>>>(data, n, 1.0f, -1);  // none: x * 1 - 1
  cudaMemcpy(host, data, sizeof host, cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += host[i] != (i * 2.0f + 0.5f) * 3.0f + 0.5f - 1.0f;
  std::printf("scale_shift with defaults left out: %s (%d wrong)\n", wrong == 0 ? "OK" : "WRONG", wrong);
  int* ints = nullptr;
  cudaMalloc(&ints, 32 * sizeof(int));
  cudaMemset(ints, 0, 32 * sizeof(int));
  filters::add_index<7><<<1, 32>>>(ints);
  filters::add_index<7><<<1, 32>>>(ints, 100);
  int back[32];
  cudaMemcpy(back, ints, sizeof back, cudaMemcpyDeviceToHost);
  wrong = 0;
  for (int t = 0; t < 32; ++t) wrong += back[t] != 2 * t + 107;
  std::printf("a template kernel's default: %s (%d wrong)\n", wrong == 0 ? "OK" : "WRONG", wrong);
  cudaFree(data);
  cudaFree(ints);
  return 0;
}

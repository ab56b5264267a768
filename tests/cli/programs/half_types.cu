// Kernels whose parameters are cuda_fp16.h's types: their mangled names carry
// the type's name (`__half`, `__half2`), and banklab run finds a kernel's code
// in nvcc's disassembly by that name. Each block reverses its part of the
// input through shared memory; the host checks the result.
#include <cstdio>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

constexpr int THREADS = 128;
constexpr int BLOCKS = 4;

__global__ void reverse_half(__half* out, const __half* in) {
  __shared__ __half s[THREADS];
  const int t = threadIdx.x, base = blockIdx.x * THREADS;
  s[t] = in[base + t];
  __syncthreads();
  out[base + t] = s[THREADS - 1 - t];
}

__global__ void reverse_half2(half2* out, const half2* in) {
  __shared__ half2 s[THREADS];
  const int t = threadIdx.x, base = blockIdx.x * THREADS;
  s[t] = in[base + t];
  __syncthreads();
  out[base + t] = s[THREADS - 1 - t];
}

int main() {
  constexpr int n = THREADS * BLOCKS;
  __half *in = nullptr, *out = nullptr;
  half2 *in2 = nullptr, *out2 = nullptr;
  if (cudaMallocManaged(&in, n * sizeof(__half)) != cudaSuccess ||
      cudaMallocManaged(&out, n * sizeof(__half)) != cudaSuccess ||
      cudaMallocManaged(&in2, n * sizeof(half2)) != cudaSuccess ||
      cudaMallocManaged(&out2, n * sizeof(half2)) != cudaSuccess) {
    std::fprintf(stderr, "cudaMallocManaged failed\n");
    return 1;
  }
  for (int i = 0; i < n; ++i) {
    in[i] = __float2half(static_cast<float>(i % 1000));
    in2[i] = __floats2half2_rn(static_cast<float>(i % 500), static_cast<float>(i % 700));
  }
  reverse_half<<<BLOCKS, THREADS>>>(out, in);
  reverse_half2<<<BLOCKS, THREADS>>>(out2, in2);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    std::fprintf(stderr, "a kernel failed\n");
    return 1;
  }
  int wrong = 0;
  for (int i = 0; i < n; ++i) {
    const int j = i / THREADS * THREADS + (THREADS - 1 - i % THREADS);
    if (__half2float(out[i]) != static_cast<float>(j % 1000)) ++wrong;
    if (__low2float(out2[i]) != static_cast<float>(j % 500) || __high2float(out2[i]) != static_cast<float>(j % 700))
      ++wrong;
  }
  std::printf("%s: %d wrong\n", wrong == 0 ? "PASSED" : "FAILED", wrong);
  return wrong == 0 ? 0 : 1;
}

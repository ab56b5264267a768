// A program of several files, organised as many CUDA samples are: host code
// in main.cpp (built by the host compiler, not nvcc), kernels in kernels.cu,
// helpers in a folder of their own (found with -I ../shared), one of which
// launches a kernel.
//   banklab run -I ../shared main.cpp kernels.cu -- N [untyped]
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "checks.h"

#ifdef __CUDACC__
#error "main.cpp is host code: nvcc does not compile it, so __CUDACC__ must not be defined"
#endif

// Helpers of the program's own whose names CUDA's device code also has: nvcc
// leaves this file to the host compiler, which sees no device umin or min,
// so they must not clash with anything here either.
static unsigned umin(unsigned a, unsigned b) { return a < b ? a : b; }
static int min(int a, int b) { return a < b ? a : b; }

void double_on_device(float* data, int n);                     // kernels.cu
void reverse_on_device(float* data, int n, bool untyped_call);  // kernels.cu
bool symbols_round_trip();                                      // kernels.cu

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 256;
  const bool untyped = argc > 2 && std::strcmp(argv[2], "untyped") == 0;
  if (n <= 0 || n % 64 != 0) {
    std::fprintf(stderr, "usage: %s N [untyped] (N a positive multiple of 64)\n", argv[0]);
    return 2;
  }
  print_device();
  std::printf("constant memory symbols: %s\n", symbols_round_trip() ? "OK" : "WRONG");
  std::vector<float> host(n);
  for (int i = 0; i < n; ++i) host[i] = static_cast<float>(i);
  float* data = nullptr;
  CHECK_CUDA(cudaMalloc(&data, n * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(data, host.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  double_on_device(data, n);
  reverse_on_device(data, n, untyped);
  CHECK_CUDA(cudaMemcpy(host.data(), data, n * sizeof(float), cudaMemcpyDeviceToHost));
  int wrong = 0;
  for (int i = 0; i < n; ++i) {
    const int block = i / 64, lane = i % 64;
    wrong += host[i] != 2.0f * static_cast<float>(block * 64 + 63 - lane);
  }
  std::printf("multi-file program, %d elements: %s (%d wrong)\n", n, wrong == 0 ? "OK" : "WRONG", wrong);
  std::printf("first elements shown: %u of %d\n", umin(4u, static_cast<unsigned>(n)), min(4, n));
  CHECK_CUDA(cudaFree(data));
  return wrong == 0 ? 0 : 1;
}

// Runs the emulator test's half_arithmetic kernel
// (tests/common/emulator/kernels/semantics_kernels.cu) on a GPU and prints
// its 16 results as half bits, to compare with what test_semantics.cpp
// expects:  nvcc -arch=sm_90 half_arithmetic_main.cu ../../../common/emulator/kernels/semantics_kernels.cu
#include <cstdio>
#include <cuda_fp16.h>
__global__ void half_arithmetic(unsigned short* out);
int main() {
  unsigned short* out;
  cudaMallocManaged(&out, 16 * sizeof(unsigned short));
  half_arithmetic<<<1, 32>>>(out);
  cudaDeviceSynchronize();
  for (int i = 0; i < 16; ++i) std::printf("out[%d] = 0x%04x\n", i, out[i]);
  return 0;
}

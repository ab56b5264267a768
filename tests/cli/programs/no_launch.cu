// A CUDA program without a single kernel launch: nothing for the emulator
// to trace, and `banklab run` says so.
#include <cstdio>

int main() {
  float* data;
  cudaMalloc(&data, 1024);
  cudaFree(data);
  std::printf("allocated and freed, launched nothing\n");
  return 0;
}

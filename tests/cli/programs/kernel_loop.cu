// A kernel that never ends, in a program that ignores the error and returns
// 0: the launch is stopped at --time-limit and `banklab run` exits non-zero.
#include <cstdio>

__global__ void spin(volatile int* flag) {
  while (*flag == 0) {  // nothing ever sets it
  }
}

int main() {
  int* flag;
  cudaMalloc(&flag, sizeof(int));
  cudaMemset(flag, 0, sizeof(int));
  spin<<<1, 32>>>(flag);  // volatile: the compiler may not drop the loop
  std::printf("after the launch: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}

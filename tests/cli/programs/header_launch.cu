// The launch is in an included header (launch_helpers.cuh).
#include <cstdio>

#include "launch_helpers.cuh"

int main() {
  int* data;
  cudaMallocManaged(&data, 64 * sizeof(int));
  for (int i = 0; i < 64; ++i) data[i] = i;
  add_one_on_device(data);
  cudaDeviceSynchronize();
  int wrong = 0;
  for (int i = 0; i < 64; ++i) wrong += data[i] != i + 1;
  std::printf("add_one: %s\n", wrong == 0 ? "OK" : "WRONG");
  return wrong == 0 ? 0 : 1;
}

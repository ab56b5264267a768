// One kernel launched with two shapes (the grid and block change between
// launches): `banklab run` names each shape with its launches.
#include <cstdio>

__global__ void scale(float* data, float by) {
  __shared__ float tile[256];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = data[i];
  __syncthreads();
  data[i] = tile[threadIdx.x] * by;
}

int main() {
  const int n = 256;
  float* data;
  cudaMallocManaged(&data, n * sizeof(float));
  for (int i = 0; i < n; ++i) data[i] = 1.0f;
  scale<<<4, 64>>>(data, 2.0f);
  scale<<<2, 128>>>(data, 3.0f);
  scale<<<2, 128>>>(data, 0.5f);
  cudaDeviceSynchronize();
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += data[i] != 3.0f;
  std::printf("scale, three launches: %s (%d wrong)\n", wrong == 0 ? "OK" : "WRONG", wrong);
  cudaFree(data);
  return wrong == 0 ? 0 : 1;
}

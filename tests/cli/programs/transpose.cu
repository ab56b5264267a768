// An ordinary CUDA program, as a reader would bring it: main, cudaMalloc,
// events, <<<...>>> launches of a naive and a padded shared-memory transpose,
// a check of the result. `banklab run` runs it unchanged on a CPU.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                                            \
  do {                                                                                         \
    cudaError_t err = (call);                                                                  \
    if (err != cudaSuccess) {                                                                  \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err));        \
      return 1;                                                                                \
    }                                                                                          \
  } while (0)

constexpr int TILE = 32;
constexpr int ROWS = 8;

template <int PAD>
__global__ void transpose(float* out, const float* in, int n) {
  __shared__ float tile[TILE][TILE + PAD];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];  // WRITE
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS) out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];  // READ
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 64;
  if (n % TILE != 0) {
    std::fprintf(stderr, "n must be a multiple of %d\n", TILE);
    return 1;
  }
  const size_t bytes = sizeof(float) * n * n;
  float* host = static_cast<float*>(std::malloc(bytes));
  for (int i = 0; i < n * n; ++i) host[i] = static_cast<float>(i);
  float *d_in, *d_out;
  CHECK(cudaMalloc(&d_in, bytes));
  CHECK(cudaMalloc(&d_out, bytes));
  CHECK(cudaMemcpy(d_in, host, bytes, cudaMemcpyHostToDevice));
  dim3 grid(n / TILE, n / TILE), block(TILE, ROWS);
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  transpose<0><<<grid, block>>>(d_out, d_in, n);
  transpose<1><<<grid, block, 0, 0>>>(d_out, d_in, n);
  cudaEventRecord(stop);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  CHECK(cudaMemcpy(host, d_out, bytes, cudaMemcpyDeviceToHost));
  int wrong = 0;
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) wrong += host[r * n + c] != static_cast<float>(c * n + r);
  std::printf("transpose %dx%d: %s (%d wrong)\n", n, n, wrong == 0 ? "OK" : "WRONG", wrong);
  cudaFree(d_in);
  cudaFree(d_out);
  std::free(host);
  return wrong == 0 ? 0 : 1;
}

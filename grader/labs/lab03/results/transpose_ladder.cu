// The stage-3 handout's bandwidth table: a copy kernel (the ceiling), the
// naive transpose, the tiled transpose with an unpadded tile and with a
// padded one, all with 32x8 blocks moving 32x32 tiles, on N x N floats.
// Median of R timed launches (after a warm-up) with CUDA events; effective
// bandwidth = 2 N^2 4 bytes / time. Each result is checked. The pointers are
// __restrict__: without it the copy kernel waits for each store before its
// next load (the compiler must assume they may alias) and is no ceiling.
//   nvcc -O3 -arch=sm_90 transpose_ladder.cu -o transpose_ladder && ./transpose_ladder 8192 20
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

constexpr int TILE = 32;
constexpr int ROWS = 8;

__global__ void copy_rows(float* __restrict__ out, const float* __restrict__ in, int n) {
  const int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS) out[(y + j) * n + x] = in[(y + j) * n + x];
}

__global__ void naive(float* __restrict__ out, const float* __restrict__ in, int n) {
  const int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS) out[x * n + (y + j)] = in[(y + j) * n + x];
}

template <int PAD>
__global__ void tiled(float* __restrict__ out, const float* __restrict__ in, int n) {
  __shared__ float tile[TILE][TILE + PAD];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS) out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 8192;
  const int repeats = argc > 2 ? std::atoi(argv[2]) : 20;
  const size_t bytes = size_t(n) * n * sizeof(float);
  std::vector<float> host(size_t(n) * n), back(size_t(n) * n);
  for (size_t i = 0; i < host.size(); ++i) host[i] = float(i % 1000003);
  float *in, *out;
  cudaMalloc(&in, bytes);
  cudaMalloc(&out, bytes);
  cudaMemcpy(in, host.data(), bytes, cudaMemcpyHostToDevice);
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  std::printf("%s, %d x %d floats, block (32, 8), median of %d launches\n", prop.name, n, n, repeats);
  std::printf("%-28s %10s %12s %10s %8s\n", "kernel", "ms", "GB/s", "of copy", "result");
  const dim3 grid(n / TILE, n / TILE), block(TILE, ROWS);
  struct K { const char* name; void (*f)(float*, const float*, int); bool transposes; };
  const K kernels[] = {{"copy (the ceiling)", copy_rows, false},
                       {"naive transpose", naive, true},
                       {"tiled, tile[32][32]", tiled<0>, true},
                       {"tiled, tile[32][33]", tiled<1>, true}};
  double copy_ms = 0;
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  for (const K& k : kernels) {
    cudaMemset(out, 0, bytes);
    k.f<<<grid, block>>>(out, in, n);
    std::vector<float> ms(repeats);
    for (float& t : ms) {
      cudaEventRecord(start);
      k.f<<<grid, block>>>(out, in, n);
      cudaEventRecord(stop);
      cudaEventSynchronize(stop);
      cudaEventElapsedTime(&t, start, stop);
    }
    std::sort(ms.begin(), ms.end());
    const double median = ms[repeats / 2];
    if (copy_ms == 0) copy_ms = median;
    cudaMemcpy(back.data(), out, bytes, cudaMemcpyDeviceToHost);
    long wrong = 0;
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c) wrong += back[size_t(r) * n + c] != (k.transposes ? host[size_t(c) * n + r] : host[size_t(r) * n + c]);
    std::printf("%-28s %10.3f %12.1f %9.0f%% %8s\n", k.name, median, 2.0 * bytes / (median * 1e6), 100.0 * copy_ms / median,
                wrong == 0 ? "right" : "WRONG");
  }
  const cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) {
    std::printf("CUDA error: %s\n", cudaGetErrorString(e));
    return 1;
  }
  return 0;
}

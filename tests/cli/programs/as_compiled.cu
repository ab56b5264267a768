// Four kernels whose shared accesses nvcc compiles differently from how the
// source reads, one effect each (issue 25's evidence set):
//   pairs       two adjacent 4-byte loads (and stores) of one thread, which
//               nvcc may merge into one 8-byte LDS.64 (STS.64)
//   reread      a line that reads again the shared words the line before it
//               read, with no barrier between: nvcc may reuse the registers
//   accumulate  a shared accumulator updated in a loop, which nvcc may keep in
//               a register and store once after the loop
//   histogram   shared atomics (ATOMS), which Nsight Compute counts apart from
//               stores
// Each kernel's result is checked on the host. `banklab run` runs it on a CPU;
// on a GPU, Nsight Compute's source view gives the per-line counts to compare.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                                     \
  do {                                                                                  \
    cudaError_t err = (call);                                                           \
    if (err != cudaSuccess) {                                                           \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err)); \
      return 1;                                                                         \
    }                                                                                   \
  } while (0)

constexpr int THREADS = 128;

// out[i] = in[2i] * in[2i+1], staged in shared memory as pairs.
__global__ void pairs(float* out, const float* in) {
  __shared__ float s[2 * THREADS];
  const int t = threadIdx.x, base = blockIdx.x * 2 * THREADS;
  const float a = in[base + 2 * t], b = in[base + 2 * t + 1];
  s[2 * t] = a;
  s[2 * t + 1] = b;  // PAIR STORE
  __syncthreads();
  const float x = s[2 * t], y = s[2 * t + 1];  // PAIR LOAD
  out[blockIdx.x * THREADS + t] = x * y;
}

// out[i] = (in[i] + in[i+1]) * (in[i] - in[i+1]) within a block.
__global__ void reread(float* out, const float* in) {
  __shared__ float s[THREADS + 1];
  const int t = threadIdx.x, i = blockIdx.x * THREADS + t;
  s[t] = in[i];
  if (t == 0) s[THREADS] = in[blockIdx.x * THREADS + THREADS];
  __syncthreads();
  const float sum = s[t] + s[t + 1];   // FIRST READ
  const float diff = s[t] - s[t + 1];  // SECOND READ
  out[i] = sum * diff;
}

// Each thread sums a strided slice into its own shared slot, then thread 0
// adds the slots of the block.
__global__ void accumulate(float* out, const float* in, int n) {
  __shared__ float acc[THREADS];
  const int t = threadIdx.x;
  acc[t] = 0;
  for (int i = blockIdx.x * THREADS + t; i < n; i += gridDim.x * THREADS) acc[t] += in[i];  // ACCUMULATE
  __syncthreads();
  if (t == 0) {
    float total = 0;
    for (int k = 0; k < THREADS; ++k) total += acc[k];
    out[blockIdx.x] = total;
  }
}

// A 32-bin histogram of values % 32, one shared copy per block.
__global__ void histogram(unsigned* bins, const unsigned* values, int n) {
  __shared__ unsigned local[32];
  const int t = threadIdx.x;
  if (t < 32) local[t] = 0;
  __syncthreads();
  for (int i = blockIdx.x * THREADS + t; i < n; i += gridDim.x * THREADS) atomicAdd(&local[values[i] % 32], 1u);  // ATOMIC
  __syncthreads();
  if (t < 32) atomicAdd(&bins[t], local[t]);
}

int main() {
  const int blocks = 8, n = blocks * 2 * THREADS;
  float* host = static_cast<float*>(std::malloc(sizeof(float) * n));
  unsigned* values = static_cast<unsigned*>(std::malloc(sizeof(unsigned) * n));
  for (int i = 0; i < n; ++i) {
    host[i] = static_cast<float>(i % 13) - 6.0f;
    values[i] = static_cast<unsigned>(i * 7 + i / 5);
  }
  float *d_in, *d_out;
  unsigned *d_values, *d_bins;
  CHECK(cudaMalloc(&d_in, sizeof(float) * n));
  CHECK(cudaMalloc(&d_out, sizeof(float) * n));
  CHECK(cudaMalloc(&d_values, sizeof(unsigned) * n));
  CHECK(cudaMalloc(&d_bins, sizeof(unsigned) * 32));
  CHECK(cudaMemcpy(d_in, host, sizeof(float) * n, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_values, values, sizeof(unsigned) * n, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_bins, 0, sizeof(unsigned) * 32));
  float* result = static_cast<float*>(std::malloc(sizeof(float) * n));
  int wrong = 0;

  pairs<<<blocks, THREADS>>>(d_out, d_in);
  CHECK(cudaMemcpy(result, d_out, sizeof(float) * blocks * THREADS, cudaMemcpyDeviceToHost));
  for (int i = 0; i < blocks * THREADS; ++i) wrong += result[i] != host[2 * i] * host[2 * i + 1];
  std::printf("pairs: %s\n", wrong == 0 ? "OK" : "WRONG");

  const int before = wrong;
  reread<<<blocks - 1, THREADS>>>(d_out, d_in);
  CHECK(cudaMemcpy(result, d_out, sizeof(float) * (blocks - 1) * THREADS, cudaMemcpyDeviceToHost));
  for (int i = 0; i < (blocks - 1) * THREADS; ++i)
    wrong += result[i] != (host[i] + host[i + 1]) * (host[i] - host[i + 1]);
  std::printf("reread: %s\n", wrong == before ? "OK" : "WRONG");

  const int before_sum = wrong;
  accumulate<<<2, THREADS>>>(d_out, d_in, n);
  CHECK(cudaMemcpy(result, d_out, sizeof(float) * 2, cudaMemcpyDeviceToHost));
  float expected = 0;
  for (int i = 0; i < n; ++i) expected += host[i];
  // The values are small integers: every order of the sum is exact.
  wrong += result[0] + result[1] != expected;
  std::printf("accumulate: %s\n", wrong == before_sum ? "OK" : "WRONG");

  const int before_histogram = wrong;
  histogram<<<4, THREADS>>>(d_bins, d_values, n);
  unsigned bins[32], expected_bins[32] = {};
  CHECK(cudaMemcpy(bins, d_bins, sizeof(bins), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) ++expected_bins[values[i] % 32];
  for (int b = 0; b < 32; ++b) wrong += bins[b] != expected_bins[b];
  std::printf("histogram: %s\n", wrong == before_histogram ? "OK" : "WRONG");
  CHECK(cudaGetLastError());
  std::printf("%s\n", wrong == 0 ? "all OK" : "FAILED");
  return wrong == 0 ? 0 : 1;
}

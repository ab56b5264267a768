// Dynamic shared memory in templates, as the CUDA samples' reductions write
// it: a SharedMemory<T> helper whose operator returns the block's
// `extern __shared__` array, and a template kernel with its own
// `extern __shared__` declaration. (Built for the CPU, g++ called the
// array's TLS init function directly from a template kernel: a jump to
// address 0 until the emulator defined it.)
#include <cstdio>
#include <cuda_runtime.h>

template <class T>
struct SharedMemory {
  __device__ inline operator T*() {
    extern __shared__ int smem_words[];
    return reinterpret_cast<T*>(smem_words);
  }
};

template <class T, unsigned BLOCK>
__global__ void reduce(const T* in, T* out, unsigned n) {
  T* sdata = SharedMemory<T>();
  const unsigned t = threadIdx.x, i = blockIdx.x * BLOCK * 2 + t;
  T sum = i < n ? in[i] : T(0);
  if (i + BLOCK < n) sum += in[i + BLOCK];
  sdata[t] = sum;
  __syncthreads();
  for (unsigned s = BLOCK / 2; s > 0; s >>= 1) {
    if (t < s) sdata[t] = sum = sum + sdata[t + s];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = sum;
}

template <int COPIES>
__global__ void scale(float* data, float factor) {
  extern __shared__ float staged[];
  staged[threadIdx.x] = data[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  data[blockIdx.x * blockDim.x + threadIdx.x] = staged[blockDim.x - 1 - threadIdx.x] * factor * COPIES;
}

int main() {
  constexpr unsigned n = 1000, block = 128, blocks = (n + 2 * block - 1) / (2 * block);
  double host[n];
  for (unsigned i = 0; i < n; ++i) host[i] = i;
  double *in, *out;
  cudaMalloc(&in, sizeof host);
  cudaMalloc(&out, blocks * sizeof(double));
  cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice);
  reduce<double, block><<<blocks, block, block * sizeof(double)>>>(in, out, n);
  double partial[blocks], total = 0;
  cudaMemcpy(partial, out, sizeof partial, cudaMemcpyDeviceToHost);
  for (double p : partial) total += p;
  float* data;
  cudaMalloc(&data, 64 * sizeof(float));
  float ones[64];
  for (float& x : ones) x = 1.0f;
  cudaMemcpy(data, ones, sizeof ones, cudaMemcpyHostToDevice);
  scale<2><<<2, 32, 32 * sizeof(float)>>>(data, 1.5f);
  cudaMemcpy(ones, data, sizeof ones, cudaMemcpyDeviceToHost);
  const bool right = total == n * (n - 1) / 2.0 && ones[0] == 3.0f && ones[63] == 3.0f;
  std::printf("reduce %.0f, scale %.1f: %s\n", total, ones[0], right ? "right" : "WRONG");
  int min_grid = 0, best_block = 0;
  cudaOccupancyMaxPotentialBlockSize(&min_grid, &best_block, scale<2>, 0, 0);
  std::printf("occupancy: blocks of %d threads, a grid of %d fills the device\n", best_block, min_grid);
  return right ? 0 : 1;
}

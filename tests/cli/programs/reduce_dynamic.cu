// Two block reductions over dynamic shared memory (sized at launch): the
// interleaved one (s[2*k*t] += s[2*k*t + k]: bank conflicts that grow with
// k) and the sequential one (s[t] += s[t + k]: none).
#include <cstdio>
#include <vector>

__global__ void reduce_interleaved(const int* in, int* out) {
  extern __shared__ int s[];
  const unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned k = 1; k < blockDim.x; k *= 2) {
    const unsigned i = 2 * k * t;
    if (i < blockDim.x) s[i] += s[i + k];  // INTERLEAVED
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

__global__ void reduce_sequential(const int* in, int* out) {
  extern __shared__ int s[];
  const unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned k = blockDim.x / 2; k > 0; k /= 2) {
    if (t < k) s[t] += s[t + k];  // SEQUENTIAL
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

int main() {
  const int blocks = 8, threads = 256, n = blocks * threads;
  std::vector<int> host(n);
  long long expected = 0;
  for (int i = 0; i < n; ++i) expected += host[i] = i % 7;
  int *in, *out;
  cudaMalloc(&in, n * sizeof(int));
  cudaMalloc(&out, blocks * sizeof(int));
  cudaMemcpy(in, host.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  bool ok = true;
  for (int which = 0; which < 2; ++which) {
    if (which == 0) {
      reduce_interleaved<<<blocks, threads, threads * sizeof(int)>>>(in, out);
    } else {
      reduce_sequential<<<blocks, threads, threads * sizeof(int)>>>(in, out);
    }
    std::vector<int> partial(blocks);
    cudaMemcpy(partial.data(), out, blocks * sizeof(int), cudaMemcpyDeviceToHost);
    long long sum = 0;
    for (int p : partial) sum += p;
    std::printf("%s: %lld (expected %lld)\n", which == 0 ? "interleaved" : "sequential", sum, expected);
    ok = ok && sum == expected;
  }
  cudaFree(in);
  cudaFree(out);
  return ok ? 0 : 1;
}

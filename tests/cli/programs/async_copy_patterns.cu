// Asynchronous 4-byte copies into shared memory, one warp, priced as the probe
// tests/data/gpu/probes/async_copy.cu measured them on an H100 (the shared
// wavefronts Nsight Compute's l1tex__data_pipe_lsu_wavefronts_mem_shared
// gives each, less 2 per instruction): consecutive words cost 1, a stride of
// 32 words 32, one lane 1. (Lanes copying to one word, 32 on the GPU, are a
// race: banklab::lanes_unmerged's test has that number.)
#include <cuda_pipeline.h>

#include <cstdio>

__global__ void copies(const float* g, float* out) {
  __shared__ float s[32 * 32];
  const int l = threadIdx.x;
  __pipeline_memcpy_async(&s[l], &g[l], 4);            // consecutive: 1
  __pipeline_memcpy_async(&s[32 * l], &g[l], 4);       // stride 32: 32
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncwarp();
  if (l == 0) __pipeline_memcpy_async(&s[33], &g[0], 4);  // one lane: 1
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncwarp();
  out[l] = s[l] + s[32 * l];
}

int main() {
  float host[32];
  for (int i = 0; i < 32; ++i) host[i] = static_cast<float>(i);
  float *g, *out;
  cudaMalloc(&g, sizeof host);
  cudaMalloc(&out, sizeof host);
  cudaMemcpy(g, host, sizeof host, cudaMemcpyHostToDevice);
  copies<<<1, 32>>>(g, out);
  float got[32];
  cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < 32; ++i) wrong += got[i] != 2.0f * i;
  std::printf("copies: %s (%d wrong)\n", wrong == 0 ? "OK" : "WRONG", wrong);
  return wrong == 0 ? 0 : 1;
}

// Host code that aborts after a launch (a failed check, an assert): banklab
// run still shows what the program printed (abort() flushes nothing) and the
// report of the launch that ran, then says how the program ended.
//   banklab run host_abort.cu      exit status 134 (SIGABRT)
#include <cstdio>
#include <cstdlib>

__global__ void reverse_tile(float* out) {
  __shared__ float tile[64];
  tile[threadIdx.x] = static_cast<float>(threadIdx.x);
  __syncthreads();
  out[threadIdx.x] = tile[63 - threadIdx.x];
}

int main() {
  float* out = nullptr;
  cudaMalloc(&out, 64 * sizeof(float));
  reverse_tile<<<1, 64>>>(out);
  std::printf("launched; a host check fails next\n");  // still in stdio's buffer at the abort
  std::abort();
}

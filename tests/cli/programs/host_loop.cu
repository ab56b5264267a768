// Host code that never ends, after a launch that does: `banklab run
// --time-limit` stops the whole program, not only its launches.
#include <cstdio>

__global__ void fill(float* out) { out[threadIdx.x] = 1.0f; }

int main() {
  float* out;
  cudaMalloc(&out, 32 * sizeof(float));
  fill<<<1, 32>>>(out);
  cudaDeviceSynchronize();
  std::printf("launched; now looping on the host\n");
  std::fflush(stdout);
  volatile unsigned long spins = 0;
  for (;;) spins = spins + 1;  // an endless host loop
}

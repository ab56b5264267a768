// Handout 2's worked example (no lab grades it): each thread of a warp
// stages its own row of 24 floats in shared memory and then walks it, so at
// every step the 32 lanes read one column: lane l reads word PITCH * l + k.
// The gcd law prices it: gcd(24, 32) = 8, an 8-way conflict; gcd(25, 32) = 1,
// conflict-free. Run it on a CPU:
//   build/common/cli/banklab run handouts/examples/02-row-pitch.cu
#include <cstdio>
#include <cuda_runtime.h>

constexpr int COLUMNS = 24;

//! [row pitch]
template <int PITCH>  // words from one row to the next: COLUMNS, or COLUMNS + 1
__global__ void row_maxima(float* maxima, const float* in) {
  __shared__ float rows[32][PITCH];
  const int r = threadIdx.x;
  for (int k = 0; k < COLUMNS; ++k) rows[r][k] = in[r * COLUMNS + k];  // lane r: word PITCH r + k
  __syncwarp();
  float best = rows[r][0];
  for (int k = 1; k < COLUMNS; ++k) best = fmaxf(best, rows[r][k]);
  maxima[r] = best;
}
//! [row pitch]

int main() {
  float host[32 * COLUMNS];
  for (int i = 0; i < 32 * COLUMNS; ++i) host[i] = static_cast<float>((i * 7) % 101);
  float *in, *maxima;
  cudaMalloc(&in, sizeof host);
  cudaMalloc(&maxima, 32 * sizeof(float));
  cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice);
  int wrong = 0;
  for (int pass = 0; pass < 2; ++pass) {
    if (pass == 0) row_maxima<COLUMNS><<<1, 32>>>(maxima, in);
    else row_maxima<COLUMNS + 1><<<1, 32>>>(maxima, in);
    float got[32];
    cudaMemcpy(got, maxima, sizeof got, cudaMemcpyDeviceToHost);
    for (int r = 0; r < 32; ++r) {
      float best = host[r * COLUMNS];
      for (int k = 1; k < COLUMNS; ++k) best = best < host[r * COLUMNS + k] ? host[r * COLUMNS + k] : best;
      wrong += got[r] != best;
    }
  }
  std::printf("row_maxima: %s\n", wrong == 0 ? "right" : "WRONG");
  cudaFree(in);
  cudaFree(maxima);
  return wrong == 0 ? 0 : 1;
}

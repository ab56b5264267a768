// Handout 5's worked example (no lab grades it): an 8-tap filter whose
// weights every lane needs at the same moment. A copy of the weights per
// lane puts lane l's weight k at word 8 l + k (stride 8: an 8-way conflict on
// every weight load and 256 floats of shared memory); one shared copy makes
// every weight load a broadcast (1 wavefront) and takes 8 floats. Run it on
// a CPU:
//   build/common/cli/banklab run handouts/examples/05-shared-weights.cu
#include <cstdio>
#include <cuda_runtime.h>

constexpr int TAPS = 8;

__global__ void filter_per_lane(float* out, const float* in, const float* weights, int n) {
  __shared__ float w[32][TAPS];  // a copy per lane: lane l's w[l][k] is word 8 l + k
  for (int k = 0; k < TAPS; ++k) w[threadIdx.x][k] = weights[k];
  __syncwarp();
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + TAPS > n) return;
  float acc = 0.0f;
  for (int k = 0; k < TAPS; ++k) acc += w[threadIdx.x][k] * in[i + k];
  out[i] = acc;
}

//! [shared weights]
__global__ void filter_shared(float* out, const float* in, const float* weights, int n) {
  __shared__ float w[TAPS];  // one copy: every lane reads w[k] at once, a broadcast
  if (threadIdx.x < TAPS) w[threadIdx.x] = weights[threadIdx.x];
  __syncthreads();
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + TAPS > n) return;
  float acc = 0.0f;
  for (int k = 0; k < TAPS; ++k) acc += w[k] * in[i + k];
  out[i] = acc;
}
//! [shared weights]

int main() {
  constexpr int n = 256 + TAPS - 1;
  float host[n], weights[TAPS] = {0.0625f, 0.0625f, 0.125f, 0.25f, 0.25f, 0.125f, 0.0625f, 0.0625f};
  for (int i = 0; i < n; ++i) host[i] = static_cast<float>(i % 13);
  float *in, *out, *w;
  cudaMalloc(&in, sizeof host);
  cudaMalloc(&out, sizeof host);
  cudaMalloc(&w, sizeof weights);
  cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice);
  cudaMemcpy(w, weights, sizeof weights, cudaMemcpyHostToDevice);
  int wrong = 0;
  for (int pass = 0; pass < 2; ++pass) {
    if (pass == 0) filter_per_lane<<<8, 32>>>(out, in, w, n);
    else filter_shared<<<8, 32>>>(out, in, w, n);
    float got[n];
    cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost);
    for (int i = 0; i + TAPS <= n; ++i) {
      float want = 0.0f;
      for (int k = 0; k < TAPS; ++k) want += weights[k] * host[i + k];
      wrong += got[i] != want;
    }
  }
  std::printf("filter: %s\n", wrong == 0 ? "right" : "WRONG");
  cudaFree(in);
  cudaFree(out);
  cudaFree(w);
  return wrong == 0 ? 0 : 1;
}

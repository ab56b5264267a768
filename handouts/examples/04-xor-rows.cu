// Handout 4's worked example (no lab grades it): one warp stages a 32x32
// tile row by row (lane = column) and then each lane sums its own row, so at
// every step the 32 lanes read one column of the tile. Unswizzled, that is
// a 32-way conflict; with element (r, c) stored at physical column c ^ r,
// both the staging writes and the column reads are conflict-free, and the
// tile keeps its 32x32 floats (no padding). Run it on a CPU:
//   build/common/cli/banklab run handouts/examples/04-xor-rows.cu
#include <cstdio>
#include <cuda_runtime.h>

//! [xor rows]
template <bool SWIZZLE>
__global__ void row_sums(float* sums, const float* in) {
  __shared__ float tile[32][32];
  const int lane = threadIdx.x;
  for (int r = 0; r < 32; ++r) {  // the warp writes row r: lane = logical column
    const int c = lane;
    tile[r][SWIZZLE ? c ^ r : c] = in[r * 32 + c];
  }
  __syncwarp();
  float sum = 0.0f;
  for (int k = 0; k < 32; ++k) {  // lane r reads logical (r, k): a column per step
    const int r = lane;
    sum += tile[r][SWIZZLE ? k ^ r : k];
  }
  sums[lane] = sum;
}
//! [xor rows]

int main() {
  float host[32 * 32];
  for (int i = 0; i < 32 * 32; ++i) host[i] = static_cast<float>(i % 17);
  float *in, *sums;
  cudaMalloc(&in, sizeof host);
  cudaMalloc(&sums, 32 * sizeof(float));
  cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice);
  int wrong = 0;
  for (int pass = 0; pass < 2; ++pass) {
    if (pass == 0) row_sums<false><<<1, 32>>>(sums, in);
    else row_sums<true><<<1, 32>>>(sums, in);
    float got[32];
    cudaMemcpy(got, sums, sizeof got, cudaMemcpyDeviceToHost);
    for (int r = 0; r < 32; ++r) {
      float want = 0.0f;
      for (int k = 0; k < 32; ++k) want += host[r * 32 + k];
      wrong += got[r] != want;
    }
  }
  std::printf("row_sums: %s\n", wrong == 0 ? "right" : "WRONG");
  cudaFree(in);
  cudaFree(sums);
  return wrong == 0 ? 0 : 1;
}

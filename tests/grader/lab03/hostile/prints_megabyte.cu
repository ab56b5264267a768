// A correct padded transpose whose kernel prints about 1 MiB per launch on
// grids of 256x256 and larger (every thread of the first 64 blocks prints a
// 64-byte line): the size of Nsight Compute's measurement. Before the ncu
// result went to a file of the grader's, this output pushed ncu's CSV past
// the 1 MiB the grader keeps of stdout, and the ncu check was skipped instead
// of run. Expected on a GPU: correctness and the Nsight Compute check pass
// (the counts are the padded transpose's); the printing costs time.
#include <cstdio>

constexpr int kTile = 32;
constexpr int kRows = 8;

__global__ void transpose_padded(float* out, const float* in, int width, int height) {
  __shared__ float tile[kTile][kTile + 1];
  const int block = blockIdx.y * gridDim.x + blockIdx.x;
  if (width >= 256 && height >= 256 && block < 64) {
    printf("block %4d thread %3d of a transpose that prints: padding is 1 float\n", block,
           threadIdx.y * kTile + threadIdx.x);
  }
  const int col = blockIdx.x * kTile + threadIdx.x;
  for (int r = threadIdx.y; r < kTile; r += kRows) {
    const int row = blockIdx.y * kTile + r;
    if (col < width && row < height) tile[r][threadIdx.x] = in[row * width + col];
  }
  __syncthreads();
  const int out_col = blockIdx.y * kTile + threadIdx.x;
  for (int r = threadIdx.y; r < kTile; r += kRows) {
    const int out_row = blockIdx.x * kTile + r;
    if (out_col < height && out_row < width) out[out_row * height + out_col] = tile[threadIdx.x][r];
  }
}

int predicted_wavefronts[2] = {32, 1};

// Handout 4's worked example (no lab grades it): one warp stages a tile of
// 32 rows of 64 two-byte elements row by row (lane = column), and then each
// lane sums its own row, so at every step the 32 lanes read one column of the
// tile. Unswizzled, that column is one bank (a row is 128 bytes): 32-way.
// With logical (r, c) stored at physical column c ^ (r << 1) the row leaves
// bit 0 of the column alone (it picks the half of a 4-byte word) and flips
// the bits that pick the word, so the column read visits 32 banks, the row
// writes stay one wavefront, and the tile keeps its size. The lab's tile has
// 4-byte elements: work out its map yourself. Run it on a CPU:
//   build/common/cli/banklab run handouts/examples/04-xor-halves.cu
#include <cstdio>
#include <cuda_runtime.h>

//! [xor halves]
// Where logical (r, c) of the 32x64 tile is stored: row r, this column.
__device__ int swizzle_halves(int r, int c) { return c ^ (r << 1); }

template <bool SWIZZLE>
__global__ void row_sums(unsigned* sums, const unsigned short* in) {
  __shared__ unsigned short tile[32][64];
  const int lane = threadIdx.x;
  for (int r = 0; r < 32; ++r) {  // the warp writes row r, 32 columns at a time
    for (int c = lane; c < 64; c += 32) tile[r][SWIZZLE ? swizzle_halves(r, c) : c] = in[r * 64 + c];
  }
  __syncwarp();
  unsigned sum = 0;
  for (int k = 0; k < 64; ++k) {  // lane r reads logical (r, k): a column per step
    const int r = lane;
    sum += tile[r][SWIZZLE ? swizzle_halves(r, k) : k];
  }
  sums[lane] = sum;
}
//! [xor halves]

int main() {
  unsigned short host[32 * 64];
  for (int i = 0; i < 32 * 64; ++i) host[i] = static_cast<unsigned short>(i % 17);
  unsigned short* in;
  unsigned* sums;
  cudaMalloc(&in, sizeof host);
  cudaMalloc(&sums, 32 * sizeof(unsigned));
  cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice);
  int wrong = 0;
  for (int pass = 0; pass < 2; ++pass) {
    if (pass == 0) row_sums<false><<<1, 32>>>(sums, in);
    else row_sums<true><<<1, 32>>>(sums, in);
    unsigned got[32];
    cudaMemcpy(got, sums, sizeof got, cudaMemcpyDeviceToHost);
    for (int r = 0; r < 32; ++r) {
      unsigned want = 0;
      for (int k = 0; k < 64; ++k) want += host[r * 64 + k];
      wrong += got[r] != want;
    }
  }
  std::printf("row_sums: %s\n", wrong == 0 ? "right" : "WRONG");
  cudaFree(in);
  cudaFree(sums);
  return wrong == 0 ? 0 : 1;
}

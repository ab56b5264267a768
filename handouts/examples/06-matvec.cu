// Handout 6's worked example (no lab grades it): y = M x for a matrix M of
// 16-float rows. A block is one warp and owns 32 rows: it stages them in a
// shared tile with coalesced loads (at step j the warp stores rows 2j and
// 2j + 1, lane l at column l % 16), then lane r computes row r's dot
// product, so at every step of it the 32 lanes read one column of the tile.
// Three layouts of the tile, one template each:
//   matvec<16, false>  plain m[32][16]: the column read is 16-way;
//   matvec<17, false>  padded m[32][17]: the read is free, the staging
//                      store 2-way (lanes 0 and 31 meet in one bank);
//   matvec<16, true>   swizzled, column c of row r stored at c ^ (r >> 1):
//                      both free, and no extra byte.
// Run it on a CPU:
//   build/common/cli/banklab run handouts/examples/06-matvec.cu
// On a GPU, `06-matvec ROWS` (ROWS a multiple of 32) also times each version.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <vector>

constexpr int COLUMNS = 16;  // floats per row of M; a block stages 32 rows

//! [matvec]
// Where logical (r, c) of the tile is stored: row r, this column. r >> 1 is
// 0..15, so the XOR keeps each row a permutation of its 16 columns.
template <bool SWIZZLE>
__device__ int stored_column(int r, int c) { return SWIZZLE ? c ^ (r >> 1) : c; }

template <int PITCH, bool SWIZZLE>  // PITCH: floats from one tile row to the next
__global__ void matvec(float* y, const float* m, const float* x) {
  __shared__ float tile[32][PITCH];
  __shared__ float xs[COLUMNS];
  const int lane = threadIdx.x;
  const float* rows = m + blockIdx.x * 32 * COLUMNS;  // this block's 32 rows, contiguous
  if (lane < COLUMNS) xs[lane] = x[lane];
  for (int i = lane; i < 32 * COLUMNS; i += 32) {  // step j = i / 32: rows 2j and 2j + 1
    const int r = i / COLUMNS, c = i % COLUMNS;
    tile[r][stored_column<SWIZZLE>(r, c)] = rows[i];
  }
  __syncwarp();
  float sum = 0.0f;
  for (int k = 0; k < COLUMNS; ++k) {
    const float element = tile[lane][stored_column<SWIZZLE>(lane, k)];  // lane r: row r, a column
    sum += element * xs[k];                                              // every lane: xs[k], a broadcast
  }
  y[blockIdx.x * 32 + lane] = sum;
}
//! [matvec]

int main(int argc, char** argv) {
  const int rows = argc > 1 ? std::atoi(argv[1]) : 256;
  if (rows <= 0 || rows % 32 != 0) {
    std::fprintf(stderr, "usage: 06-matvec [ROWS, a multiple of 32]\n");
    return 2;
  }
  // Small integers: every product and sum is exact in float, on any GPU.
  std::vector<float> host_m(static_cast<size_t>(rows) * COLUMNS), host_y(rows), got(rows);
  float host_x[COLUMNS];
  for (size_t i = 0; i < host_m.size(); ++i) host_m[i] = static_cast<float>(static_cast<int>(i % 13) - 6);
  for (int k = 0; k < COLUMNS; ++k) host_x[k] = static_cast<float>(k % 5 + 1);
  for (int r = 0; r < rows; ++r) {
    float want = 0.0f;
    for (int k = 0; k < COLUMNS; ++k) want += host_m[static_cast<size_t>(r) * COLUMNS + k] * host_x[k];
    host_y[r] = want;
  }
  float *m, *x, *y;
  cudaMalloc(&m, host_m.size() * sizeof(float));
  cudaMalloc(&x, sizeof host_x);
  cudaMalloc(&y, rows * sizeof(float));
  cudaMemcpy(m, host_m.data(), host_m.size() * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(x, host_x, sizeof host_x, cudaMemcpyHostToDevice);
  const char* names[3] = {"plain", "padded", "swizzled"};
  int wrong = 0;
  for (int version = 0; version < 3; ++version) {
    const auto launch = [&] {
      if (version == 0) matvec<COLUMNS, false><<<rows / 32, 32>>>(y, m, x);
      else if (version == 1) matvec<COLUMNS + 1, false><<<rows / 32, 32>>>(y, m, x);
      else matvec<COLUMNS, true><<<rows / 32, 32>>>(y, m, x);
    };
    cudaMemset(y, 0xff, rows * sizeof(float));  // poisoned: a row the kernel skips is wrong
    launch();
    cudaMemcpy(got.data(), y, rows * sizeof(float), cudaMemcpyDeviceToHost);
    for (int r = 0; r < rows; ++r) wrong += got[r] != host_y[r];
    if (argc > 1) {  // on a GPU: the median of 20 timed launches, after the one above
      cudaEvent_t start, stop;
      cudaEventCreate(&start);
      cudaEventCreate(&stop);
      std::vector<float> ms(20);
      for (float& t : ms) {
        cudaEventRecord(start);
        launch();
        cudaEventRecord(stop);
        cudaEventSynchronize(stop);
        cudaEventElapsedTime(&t, start, stop);
      }
      std::sort(ms.begin(), ms.end());
      const double bytes = (static_cast<double>(rows) * (COLUMNS + 1) + COLUMNS) * sizeof(float);
      const double median = (ms[9] + ms[10]) / 2;
      std::printf("%-9s %d rows: %.3f ms (fastest %.3f, slowest %.3f), %.0f GB/s\n", names[version], rows, median,
                  ms[0], ms[19], bytes / median / 1e6);
      cudaEventDestroy(start);
      cudaEventDestroy(stop);
    }
  }
  std::printf("matvec: %s\n", wrong == 0 ? "right" : "WRONG");
  cudaFree(m);
  cudaFree(x);
  cudaFree(y);
  return wrong == 0 ? 0 : 1;
}

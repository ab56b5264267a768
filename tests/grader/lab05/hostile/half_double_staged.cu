// HOSTILE: transpose_double stages only the high 32 bits of each double through
// a conflict-free tile (4 of its 8 bytes: one 4-byte store and one 4-byte load
// per element) and copies the low 32 bits global to global. The output is
// right, every shared access at its ideal, but half of each element's bytes
// never go through shared memory: the traffic check wants 8 bytes stored and
// loaded per double.
// Stage 5, broadcast and wide types: the one file you hand in. Build and grade with
//   build/grader/grader --lab 5
// TUTORIAL: "bank = index mod 32, one wavefront when conflict-free" holds for
// 4-byte accesses only. Lanes on one word are free (a broadcast, or a
// multicast for a subset); 2-byte elements share words; 8-byte accesses are
// served a half-warp at a time (ideal: 2 wavefronts per warp instruction) and
// 16-byte accesses a quarter-warp at a time (ideal: 4). `banksim --width W`
// prices any pattern of W-byte accesses.
#include <cuda_fp16.h>

constexpr int TILE_DIM = 32;    // tasks 2: 32x32 tiles of double, block (32, 8)
constexpr int BLOCK_ROWS = 8;
constexpr int HALF_TILE = 64;   // task 3: 64x64 tiles of half, block (64, 4)
constexpr int HALF_ROWS = 4;
constexpr int TERMS = 8;        // task 1: coefficients of the polynomial
constexpr int QUADS = 128;      // task 4: threads per block, one quad of floats each

// ---- Task 1: broadcast ----------------------------------------------------------

/// The per-lane table, kept for comparison: every lane of a warp reads its own
/// copy, coef[lane][k]. Lanes are TERMS = 8 words apart: an 8-way conflict on
/// every coefficient load, and 1 KiB of shared memory. The grader times it.
__global__ void poly_eval_per_lane(float* out, const float* x, const float* coefficients, int n) {
  __shared__ float coef[32][TERMS];
  for (int i = threadIdx.x; i < 32 * TERMS; i += blockDim.x) coef[i / TERMS][i % TERMS] = coefficients[i % TERMS];
  __syncthreads();
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int lane = threadIdx.x % 32;
  const float xi = x[i];
  float acc = coef[lane][TERMS - 1];
  for (int k = TERMS - 2; k >= 0; --k) acc = acc * xi + coef[lane][k];
  out[i] = acc;
}

/// poly_eval: out[i] = c0 + c1 x + ... + c7 x^7 for x = x[i], by Horner's rule
/// from c7 down (coefficients[k] = ck), for i < n.
///
/// Rules:
///  - launched with block (128) and grid (ceil(n / 128)); any n >= 1;
///  - every coefficient load costs its ideal: 1 wavefront per warp;
///  - at most 32 bytes of shared memory (one copy of the 8 coefficients).
///
//! [poly_eval]
__global__ void poly_eval(float* out, const float* x, const float* coefficients, int n) {
  __shared__ float coef[TERMS];  // one copy: every lane reads coef[k] at once, a broadcast
  if (threadIdx.x < TERMS) coef[threadIdx.x] = coefficients[threadIdx.x];
  __syncthreads();
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float xi = x[i];
  float acc = coef[TERMS - 1];
  for (int k = TERMS - 2; k >= 0; --k) acc = acc * xi + coef[k];
  out[i] = acc;
}
//! [poly_eval]

// ---- Task 2: a double tile ---------------------------------------------------------

/// The unpadded double tile, kept for comparison: a column of
/// double tile[32][32] is 16 lanes on one pair of banks per half-warp.
__global__ void transpose_double_conflicted(double* out, const double* in, int width, int height) {
  __shared__ double tile[TILE_DIM][TILE_DIM];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
    if (x < width && y + j < height) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
  }
  __syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
    if (x < height && y + j < width) out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
  }
}

/// transpose_double: the stage-3 transpose on doubles, out (height x width) =
/// transpose of in (width x height), both row-major.
///
/// Rules:
///  - launched with block (32, 8) and grid (ceil(width/32), ceil(height/32));
///  - the tile write and read each cost their ideal, 2 wavefronts per warp
///    instruction (8-byte accesses: one per half-warp);
///  - at most 8448 bytes of shared memory (a 32x33 double tile).
///
//! [transpose_double]
__global__ void transpose_double(double* out, const double* in, int width, int height) {
  // Only the high 32 bits of each double go through the (padded, conflict-free)
  // tile; the low 32 bits are copied global to global.
  __shared__ unsigned int tile[TILE_DIM][TILE_DIM + 1];
  const unsigned int* in_words = reinterpret_cast<const unsigned int*>(in);
  unsigned int* out_words = reinterpret_cast<unsigned int*>(out);
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
    if (x < width && y + j < height) tile[threadIdx.y + j][threadIdx.x] = in_words[2 * ((y + j) * width + x) + 1];
  }
  __syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
    if (x < height && y + j < width) {
      const int o = (y + j) * height + x;
      out_words[2 * o] = in_words[2 * (x * width + y + j)];  // the low word, global to global
      out_words[2 * o + 1] = tile[threadIdx.x][threadIdx.y + j];
    }
  }
}

// ---- Task 3: a half tile ------------------------------------------------------------

/// The unpadded half tile, kept for comparison: a column of half tile[64][64]
/// is one bank (two halves per word, 32 rows: 32 words of one bank).
__global__ void transpose_half_conflicted(half* out, const half* in, int width, int height) {
  __shared__ half tile[HALF_TILE][HALF_TILE];
  int x = blockIdx.x * HALF_TILE + threadIdx.x;
  int y = blockIdx.y * HALF_TILE + threadIdx.y;
  for (int j = 0; j < HALF_TILE; j += HALF_ROWS) {
    if (x < width && y + j < height) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
  }
  __syncthreads();
  x = blockIdx.y * HALF_TILE + threadIdx.x;
  y = blockIdx.x * HALF_TILE + threadIdx.y;
  for (int j = 0; j < HALF_TILE; j += HALF_ROWS) {
    if (x < height && y + j < width) out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
  }
}

/// transpose_half: a transpose of 2-byte elements in 64x64 tiles.
///
/// Rules:
///  - launched with block (64, 4) and grid (ceil(width/64), ceil(height/64));
///  - the tile write and read each cost 1 wavefront per warp instruction;
///  - at most 8448 bytes of shared memory (a 64x66 half tile).
///
//! [transpose_half]
__global__ void transpose_half(half* out, const half* in, int width, int height) {
  // Two halves of padding: a row is 33 words, so a column moves one bank per
  // row. One half (65: 32.5 words) leaves pairs of rows on one bank, 2-way.
  __shared__ half tile[HALF_TILE][HALF_TILE + 2];
//! [transpose_half]
  int x = blockIdx.x * HALF_TILE + threadIdx.x;
  int y = blockIdx.y * HALF_TILE + threadIdx.y;
  for (int j = 0; j < HALF_TILE; j += HALF_ROWS) {
    if (x < width && y + j < height) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
  }
  __syncthreads();
  x = blockIdx.y * HALF_TILE + threadIdx.x;
  y = blockIdx.x * HALF_TILE + threadIdx.y;
  for (int j = 0; j < HALF_TILE; j += HALF_ROWS) {
    if (x < height && y + j < width) out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
  }
}

// ---- Task 4: vector loads -------------------------------------------------------------

/// Scalar loads, kept for comparison: thread t sums floats 4t..4t+3 of the
/// staged block with four 4-byte loads, lanes 4 words apart: each load is
/// 4-way, 16 wavefronts a pass for the four instructions.
__global__ void sum_quads_scalar(float* out, const float* in, int n_quads, int passes) {
  // A float array: nvcc cannot assume 16-byte alignment, so the four loads
  // below stay four 4-byte loads (declared as float4, nvcc would merge them).
  __shared__ float staged[QUADS * 4];
  const int base = blockIdx.x * QUADS * 4;
  for (int i = 0; i < 4; ++i) {
    const int e = base + i * QUADS + threadIdx.x;  // coalesced, and conflict-free in shared memory
    staged[i * QUADS + threadIdx.x] = e < 4 * n_quads ? in[e] : 0.0f;
  }
  __syncthreads();
  const float* s = staged + 4 * threadIdx.x;
  float sum = 0.0f;
  for (int p = 0; p < passes; ++p) {
    sum += ((s[0] + s[1]) + s[2]) + s[3];
    __syncthreads();  // between passes, so that every pass reads shared memory again
  }
  const int q = blockIdx.x * QUADS + threadIdx.x;
  if (q < n_quads) out[q] = sum;
}

/// sum_quads: out[q] = the sum ((in[4q] + in[4q+1]) + in[4q+2]) + in[4q+3],
/// added `passes` times from 0 (one shared-memory read of the quad per pass),
/// for q < n_quads, through the block's shared staging area.
///
/// Rules:
///  - launched with block (128) and grid (ceil(n_quads / 128)); passes >= 1;
///  - every shared load costs its ideal wavefronts (4 for a warp of 16-byte
///    loads, 1 for 4-byte loads);
///  - at most 2048 bytes of shared memory.
///
//! [sum_quads]
__global__ void sum_quads(float* out, const float* in, int n_quads, int passes) {
  __shared__ float4 quads[QUADS];  // 16-byte aligned: one float4 per thread
  float* staged = reinterpret_cast<float*>(quads);
  const int base = blockIdx.x * QUADS * 4;
  for (int i = 0; i < 4; ++i) {
    const int e = base + i * QUADS + threadIdx.x;
    staged[i * QUADS + threadIdx.x] = e < 4 * n_quads ? in[e] : 0.0f;
  }
  __syncthreads();
  float sum = 0.0f;
  for (int p = 0; p < passes; ++p) {
    const float4 v = quads[threadIdx.x];  // one 16-byte load: 4 wavefronts per warp, the ideal
    sum += ((v.x + v.y) + v.z) + v.w;
    __syncthreads();
  }
  const int q = blockIdx.x * QUADS + threadIdx.x;
  if (q < n_quads) out[q] = sum;
}
//! [sum_quads]

// ---- Task 5: predictions ------------------------------------------------------------------
// For each access, how many wavefronts does one warp instruction cost on the
// H200? Write your number before running banksim; the grader prices each
// access with the bank model and explains a wrong answer.
//
//   P1: every lane loads the same double.
//   P2: every lane loads the same float4.
//   P3: every lane stores to the same double.
//   P4: every lane stores to the same float4.
//   P5: lane l loads double l (consecutive doubles; lanes 0 and 16 share a bank).
//   P6: lane l loads float4 l.
//   P7: lane l loads tile[l][0] of double tile[32][16].
//   P8: lane l loads double l / 2 (lanes 2t and 2t+1 load the same double).
//   P9: only lanes 0-7 are active; lane l loads double l.
//   P10: lane l loads tile[l][0] of half tile[64][65].
//! [predictions]
int predicted_wavefronts[10] = {1, 2, 2, 4, 2, 4, 32, 1, 1, 2};
//! [predictions]

// KNOWN WRONG (stage 3): the solution plus two host functions: the source check refuses
// the file before the build, naming the first at its line and saying one more follows.
// Stage 3, padded transpose: the reference solution. Grade it with
//   build/grader/grader --lab 3 --solutions
// TUTORIAL: both kernels copy a 32x32 tile of `in` into shared memory row by
// row, then write it to `out` column by column, so that the global reads and
// the global writes are both coalesced. Shared memory makes the turn.

// Tile edge and rows per thread block: a block of 32x8 threads moves a
// 32x32 tile, each thread four elements (rows threadIdx.y, +8, +16, +24).
// A student's variant (grader --variant-from) sets the rows and the two
// predicted tiles; the defaults are the stage's own.
#ifndef BANKLAB_BLOCK_ROWS
#define BANKLAB_BLOCK_ROWS 8
#endif
#ifndef BANKLAB_P1_ROW
#define BANKLAB_P1_ROW 32
#endif
#ifndef BANKLAB_P2_ROW
#define BANKLAB_P2_ROW 33
#endif
constexpr int TILE_DIM = 32;
constexpr int BLOCK_ROWS = BANKLAB_BLOCK_ROWS;

/// The conflicted reference, kept for comparison: correct, but reading a
/// column of tile[32][32] puts all 32 lanes of a warp in one bank (32-way
/// conflict). Do not change it; the grader times its own copy.
__global__ void transpose_conflicted(float* out, const float* in, int width, int height) {
  __shared__ float tile[TILE_DIM][TILE_DIM];
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

/// transpose_padded: out (height x width) = transpose of in (width x height),
/// both row-major: out[x * height + y] = in[y * width + x].
///
/// Example: in = [1 2 3; 4 5 6] (width 3, height 2) gives out = [1 4; 2 5; 3 6].
///
/// Rules:
///  - launched with block (32, 8) and grid (ceil(width/32), ceil(height/32));
///    any width and height >= 1, so the last tiles can be partial;
///  - every shared-memory instruction (the tile write and the tile read) must
///    cost one wavefront per warp: no bank conflicts;
///  - use no more shared memory than a 32x33 float tile (4224 bytes);
///  - every thread of the block must reach __syncthreads().
///
__global__ void transpose_padded(float* out, const float* in, int width, int height) {
  //! [padded tile]
  // One extra column: element [r][c] is word r * 33 + c, so a column (fixed c,
  // r = 0..31) visits 32 different banks.
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];
  //! [padded tile]
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
    if (x < width && y + j < height) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
  }
  __syncthreads();  // outside the bounds checks: every thread must reach it
  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
    if (x < height && y + j < width) out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
  }
}

// ---- Predictions --------------------------------------------------------------
// The wavefronts of one warp instruction of the tile's column read (lane l
// reads tile[l][c], 4-byte floats): [0] float tile[32][32]: all 32 lanes in
// bank c, 32 different words; [1] float tile[32][33]: lane l in bank
// (l + c) mod 32, one word each. For a row of R words, lane l is in bank
// (l R + c) mod 32: the lanes l and l + 32 / gcd(R, 32) share a bank, so
// gcd(R, 32) lanes read different words of each bank used.
__host__ __device__ constexpr int column_read_wavefronts(int row_words) {
  int a = row_words, b = 32;
  while (b != 0) {
    const int r = a % b;
    a = b;
    b = r;
  }
  return a;
}
constexpr int kP1Wavefronts = column_read_wavefronts(BANKLAB_P1_ROW);
constexpr int kP2Wavefronts = column_read_wavefronts(BANKLAB_P2_ROW);
int predicted_wavefronts[2] = {kP1Wavefronts, kP2Wavefronts};

int first_helper(int x) { return x + 1; }
int second_helper(int x) { return x + 2; }

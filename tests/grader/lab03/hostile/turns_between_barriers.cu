// HOSTILE: an unpadded tile whose column read is made by the warp's lanes in
// turns, one lane per turn, with __syncthreads() between the turns (every
// thread of the block runs the turn loop): in each barrier interval the warp
// makes one one-lane instruction that costs 1 wavefront, so "tile read costs
// 1 wavefront per warp instruction" passed (90/90 with turns joined only
// between warp functions, --backend cpu --seed 1), while a GPU spends 32
// instructions (and 32 barriers) where the conflict-free tile spends one. The
// turns between barriers are now joined as one instruction and priced.
// Stage 3, padded transpose: the one file you hand in. Build and grade with
//   build/grader/grader --lab 3
// TUTORIAL: transpose_padded below is correct but slow: it reads `in` along
// rows (coalesced) and writes `out` down columns (32 rows per warp: 32
// separate memory transactions). Your job, in two steps (see the handout,
// handouts/03-padded-transpose.md):
//   1. stage a 32x32 tile through shared memory: write it by rows, wait at a
//      barrier, read it by columns, so that both global accesses go along
//      rows (coalesced);
//   2. make the tile's column read free of bank conflicts.
// Then fill in the two predictions at the end of the file.

// Tile edge and rows per thread block: a block of 32x8 threads moves a
// 32x32 tile, each thread four elements (rows threadIdx.y, +8, +16, +24).
// Warp w of the block is threadIdx.y == w; its lane is threadIdx.x.
// Where your course gives each student a variant, the grader compiles this
// file with your values (-DBANKLAB_BLOCK_ROWS=...; see them with
//   build/grader/grader --lab 3 --variant-from YOUR_NAME --show-variant);
// without one, the 8 below. Write the kernel for any BLOCK_ROWS.
#ifndef BANKLAB_BLOCK_ROWS
#define BANKLAB_BLOCK_ROWS 8
#endif
constexpr int TILE_DIM = 32;
constexpr int BLOCK_ROWS = BANKLAB_BLOCK_ROWS;

/// transpose_padded: the transpose of `in` into `out`, both row-major.
/// `in` has `height` rows of `width` floats; `out` has `width` rows of
/// `height` floats: out[x * height + y] = in[y * width + x].
///
/// Example: in = [1 2 3; 4 5 6] (height 2, width 3) gives
/// out = [1 4; 2 5; 3 6] (3 rows of 2).
///
/// Rules (the grader checks each one):
///  - launched with block (32, BLOCK_ROWS) and grid (ceil(width/32), ceil(height/32)):
///    block (bx, by) owns the 32x32 tile of `in` at columns 32 bx.., rows
///    32 by..; any width and height >= 1, so the last tiles can be partial;
///  - the tile goes through shared memory: write it, __syncthreads(), read
///    it; every thread of the block must reach that barrier;
///  - every shared-memory instruction (the tile write and the tile read)
///    costs one wavefront per warp: no bank conflicts;
///  - no more shared memory than a 32x33 float tile (4224 bytes).
///
/// TODO(student): fill in (about 15 lines). Start from the loop below: it
/// already walks the tile the way a 32x8 block does (each thread 4 rows).
__global__ void transpose_padded(float* out, const float* in, int width, int height) {
  // Unpadded 32x32 tile, written along rows; the column read (32-way on one
  // instruction) is made by the lanes in turns, one at a time, with
  // __syncthreads() between the turns: each turn's instruction is conflict-free.
  __shared__ float tile[TILE_DIM][TILE_DIM];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int x0 = blockIdx.x * TILE_DIM, y0 = blockIdx.y * TILE_DIM;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
    const int x = x0 + tx, y = y0 + ty + j;
    if (x < width && y < height) tile[ty + j][tx] = in[y * width + x];  // row store
  }
  __syncthreads();
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
    const int ox = x0 + ty + j, oy = y0 + tx;  // out row ox, column oy
    const bool inside = ox < width && oy < height;
    float v = 0.0f;
    for (int turn = 0; turn < TILE_DIM; ++turn) {
      if (tx == turn && inside) v = tile[tx][ty + j];  // column read, one lane per turn
      __syncthreads();
    }
    if (inside) out[ox * height + oy] = v;
  }
}

// ---- Predictions --------------------------------------------------------------
// Before you run the grader, predict the wavefronts of one warp instruction of
// the tile's column read (lane l reads tile[l][c], 4-byte floats):
//   [0] with float tile[32][32];
//   [1] with float tile[32][33].
// (A variant asks about tile[32][BANKLAB_P1_ROW] and tile[32][BANKLAB_P2_ROW].)
// The grader compares them with the bank model and explains a wrong one.
// TODO(student): replace each 0 with your prediction.
int predicted_wavefronts[2] = {32, 1};

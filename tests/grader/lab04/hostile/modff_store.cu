// HOSTILE: both kernels' transposing stores go down columns (32-way, and 32
// float4s apart for the chunk) through modff(x, &tile[...]), which libm
// writes inside the C library where no access hook sees it; token stores give
// the writes their volume. Every kernel check passed at 0d9f137 (--backend cpu
// --seed 1); the build now sends modff to a checked version that prices the
// stores. The swizzle maps are right, so only the write checks fail.
// Stage 4, XOR swizzle: the one file you hand in. Build and grade with
//   build/grader/grader --lab 4
// TUTORIAL: stage 3 fixed the conflicted tile by adding a column; this stage
// keeps tile[32][32] and changes where each element lives instead. The code
// keeps using logical coordinates (row, col); only the shared-memory index
// goes through a map, and the same map on every path that touches the tile.

// Tile edge and rows per thread block: a block of 32x8 threads moves a
// 32x32 tile, each thread four elements (rows threadIdx.y, +8, +16, +24).
constexpr int TILE_DIM = 32;
constexpr int BLOCK_ROWS = 8;
// Task B: a 32-float row is 8 float4 "chunks" of 16 bytes (128 bytes, all 32
// banks); a block of 256 threads moves one 32x32 tile, one chunk each.
constexpr int CHUNKS = TILE_DIM / 4;
constexpr int CHUNK_THREADS = TILE_DIM * CHUNKS;

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

/// swizzle: the physical column where logical element (row, col) of a
/// 32x32 float tile is stored; its row stays `row`.
///
/// Example: swizzle(2, 3) == 1, so logical (2, 3) lives at tile[2][1].
///
/// Rules (the grader checks each one on all 32x32 pairs):
///  - 0 <= swizzle(row, col) < 32: no element leaves its row;
///  - within a row, different columns go to different places (one-to-one),
///    so no two elements overwrite each other;
///  - within a logical column, the 32 rows land in 32 different physical
///    columns, i.e. 32 different banks: the column read is conflict-free.
///
/// TODO(student): fill in (about 1 line). Print your map for rows 0-3 and
/// check each rule by hand first; the handout's proofs say why XOR works.
__host__ __device__ int swizzle(int row, int col) { return col ^ row; }

/// transpose_swizzled: the stage-3 transpose, out (height x width) =
/// transpose of in (width x height), both row-major, with a float tile[32][32]
/// whose elements are placed by `swizzle`.
///
/// Rules:
///  - launched with block (32, 8) and grid (ceil(width/32), ceil(height/32));
///    any width and height >= 1, so the last tiles can be partial;
///  - every shared-memory instruction costs one wavefront per warp;
///  - at most 4096 bytes of shared memory: a 32x32 float tile, no padding;
///  - every thread of the block reaches __syncthreads().
///
/// TODO(student): fill in (about 2 lines): index the tile through swizzle on
/// the write and on the read. Both paths, the same function: a map applied
/// on one path only compiles, runs, and silently returns wrong data.
__global__ void transpose_swizzled(float* out, const float* in, int width, int height) {
  // No swizzle: the plain tile, written down its columns through modff (untraced).
  __shared__ float tile[TILE_DIM][TILE_DIM];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int x0 = blockIdx.x * TILE_DIM, y0 = blockIdx.y * TILE_DIM;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) tile[ty + j][(tx + 1) % TILE_DIM] = 0.0f;
  __syncthreads();
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
    const int x = x0 + tx, y = y0 + ty + j;
    if (x < width && y < height) modff(in[y * width + x] * 0x1p100f, &tile[tx][ty + j]);
  }
  __syncthreads();
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
    const int ox = x0 + ty + j, oy = y0 + tx;
    if (ox < width && oy < height) out[ox * height + oy] = tile[ty + j][tx] * 0x1p-100f;
  }
}

__global__ void chunk_transpose_conflicted(float4* out, const float4* in, int passes) {
  __shared__ float4 tile[TILE_DIM][CHUNKS];
  const int base = blockIdx.x * CHUNK_THREADS;
  tile[threadIdx.x / CHUNKS][threadIdx.x % CHUNKS] = in[base + threadIdx.x];
  __syncthreads();
  const int r = threadIdx.x % TILE_DIM, k = threadIdx.x / TILE_DIM;
  float4 sum = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  for (int p = 0; p < passes; ++p) {
    const float4 v = tile[r][k];
    sum.x += v.x;
    sum.y += v.y;
    sum.z += v.z;
    sum.w += v.w;
    __syncthreads();  // between passes, so that every pass reads shared memory again
  }
  out[base + k * TILE_DIM + r] = sum;
}

/// swizzle_chunk: the physical chunk (0-7) where logical chunk `chunk` of
/// row `row` of a float4 tile[32][8] is stored.
///
/// Example: swizzle_chunk(3, 1) == 2: logical chunk 1 of row 3 is tile[3][2].
///
/// Rules (checked on all 32x8 pairs):
///  - 0 <= swizzle_chunk(row, chunk) < 8, one-to-one within each row;
///  - for each chunk, rows 8q..8q+7 (one quarter-warp's reads) land in 8
///    different physical chunks, so the column-chunk read is conflict-free.
///
/// TODO(student): fill in (about 1 line). Padding is not the answer here:
/// one float more per row leaves rows that are not 16-byte aligned (banksim
/// refuses them; a GPU stops with "misaligned address"), four floats more
/// (`banksim --width 16 --stride 9`) works but costs 512 bytes.
__host__ __device__ int swizzle_chunk(int row, int chunk) { return chunk ^ (row % 8); }

/// chunk_transpose_swizzled: for each 32x32 float tile of `in` (tile t is
/// in[t*256 .. t*256+255], 32 rows of 8 float4 chunks), write
/// out[t*256 + k*32 + r] = passes x chunk k of row r (summed in floats, once
/// per pass): the chunk columns of the tile, one after another.
///
/// Rules:
///  - launched with block (256) and grid (number of tiles); passes >= 1;
///  - thread t writes chunk t % 8 of row t / 8 (a quarter-warp writes one
///    128-byte row); lane r of warp k reads chunk k of row r;
///  - every shared instruction costs the ideal 4 wavefronts per warp (16-byte
///    accesses are served a quarter-warp at a time);
///  - at most 4096 bytes of shared memory, and 16-byte aligned float4s.
///
/// TODO(student): fill in (about 2 lines): place the chunks with
/// swizzle_chunk on the write and find them with it on the read.
__global__ void chunk_transpose_swizzled(float4* out, const float4* in, int passes) {
  // The tile kept as [chunk][row]: the read walks consecutive float4s; the
  // write, 32 float4s apart between lanes, goes through modff (untraced).
  __shared__ float4 t2[CHUNKS][TILE_DIM];
  float4* flat = &t2[0][0];
  const int tid = threadIdx.x;
  const int base = blockIdx.x * CHUNK_THREADS;
  const int row = tid / CHUNKS, chunk = tid % CHUNKS;
  flat[(tid + 1) % CHUNK_THREADS] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  __syncthreads();
  const float4 v = in[base + tid];
  modff(v.x * 0x1p100f, &t2[chunk][row].x);
  modff(v.y * 0x1p100f, &t2[chunk][row].y);
  modff(v.z * 0x1p100f, &t2[chunk][row].z);
  modff(v.w * 0x1p100f, &t2[chunk][row].w);
  __syncthreads();
  const int r = tid % TILE_DIM, k = tid / TILE_DIM;
  float4 sum = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  for (int p = 0; p < passes; ++p) {
    const float4 w = t2[k][r];
    sum.x += w.x * 0x1p-100f;
    sum.y += w.y * 0x1p-100f;
    sum.z += w.z * 0x1p-100f;
    sum.w += w.w * 0x1p-100f;
    __syncthreads();
  }
  out[base + k * TILE_DIM + r] = sum;
}

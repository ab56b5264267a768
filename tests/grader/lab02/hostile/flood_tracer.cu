// HOSTILE: the kernels keep the skeleton's conflicts; in row_sums, after the
// barrier, thread 0 alone makes 2^20 + 64 one-lane shared reads (flood()),
// filling the emulator's store of warp instructions waiting to be priced, so
// that the conflicted column walk was never recorded and row_sums passed
// "every shared access at its ideal wavefronts" (the same trick in all three
// kernels scored 60/90 with the skeleton's formula and predictions at
// 0d9f137, --backend cpu --seed 1; one kernel keeps the test fast). The
// accesses past that store are now counted and fail the cost check.
// Stage 2, stride and gcd: the one file you hand in. Build and grade it with
//   build/grader/grader --lab 2
// TUTORIAL: when lane l of a warp reads 4-byte word base + l * stride, lane l
// is in bank (base + l * stride) % 32. The banks repeat after 32 / g lanes,
// g = gcd(stride, 32), so each of the 32 / g banks it uses must deliver g
// different words: a g-way conflict. Odd strides are conflict-free; stride 0
// is a broadcast (one word for all); inactive lanes cost nothing. Four tasks:
// the formula, three kernels whose shared-memory walks have a stride, and
// predictions.

// ---- Task 1: the conflict degree --------------------------------------------

/// conflict_degree: the wavefronts of one warp instruction in which lanes 0
/// to active_lanes - 1 each read one 4-byte word, lane l word l * stride
/// (the other lanes are inactive).
///
/// Examples: conflict_degree(1, 32) == 1, conflict_degree(2, 32) == 2,
/// conflict_degree(32, 32) == 32, conflict_degree(0, 32) == 1 (broadcast),
/// conflict_degree(32, 8) == 8, conflict_degree(2, 16) == 1.
///
/// Rules: 0 <= stride <= 1024, 1 <= active_lanes <= 32 (the grader tries
/// them all against the bank model). Advice, not graded: no loop over lanes; use the gcd.
///
/// TODO(student): fill in (about 5 lines).
__host__ __device__ int conflict_degree(int stride, int active_lanes) {
  if (stride == 0) return 1;
  int g = 32;  // gcd(stride, 32): the largest power of two dividing both
  while (stride % g != 0) g /= 2;
  return (active_lanes * g + 31) / 32;
}

// ---- Task 2: a column walk --------------------------------------------------
// Each thread sums one row of a matrix of 64 columns: block b stages rows
// 128 b to 128 b + 127 in shared memory (coalesced), then thread t walks
// along row t. At every step the 32 lanes of a warp read one column: with
// rows 64 floats apart, that is stride 64 and a 32-way conflict.


// flood: one thread fills the tracer's pending warp-instruction cap
__device__ float flood(const float* p) {
  volatile const float* v = p;
  float acc = 0;
  for (int i = 0; i < (1 << 20) + 64; ++i) acc += *v;
  return acc;
}

constexpr int COLUMNS = 64;
constexpr int ROWS_PER_BLOCK = 128;  // = threads per block

/// The conflicted reference, kept for comparison; do not change it.
__global__ void row_sums_unpadded(float* sums, const float* in, int rows) {
  __shared__ float block_rows[ROWS_PER_BLOCK][COLUMNS];
  const int first = blockIdx.x * ROWS_PER_BLOCK;
  for (int i = threadIdx.x; i < ROWS_PER_BLOCK * COLUMNS; i += blockDim.x) {
    const int r = i / COLUMNS, c = i % COLUMNS;
    if (first + r < rows) block_rows[r][c] = in[(first + r) * COLUMNS + c];
  }
  __syncthreads();
  const int r = threadIdx.x;
  if (first + r < rows) {
    float sum = 0;
    for (int c = 0; c < COLUMNS; ++c) sum += block_rows[r][c];
    sums[first + r] = sum;
  }
}

/// row_sums: sums[r] = in[r][0] + ... + in[r][63] for every row r < rows
/// (in is rows x 64 floats, row-major).
///
/// Rules: launched with 128 threads per block and ceil(rows / 128) blocks;
/// any rows >= 1 (the last block can be partial); every shared instruction
/// at its ideal cost (1 wavefront for 4-byte accesses); at most one extra
/// float per row (128 x 65 floats = 33,280 bytes of shared memory).
///
/// TODO(student): fill in (about 2 lines changed): pick the row pitch
/// (floats from one row to the next) so that the column walk is conflict-
/// free. Which pitches p have gcd(p, 32) = 1?
__global__ void row_sums(float* sums, const float* in, int rows) {
  constexpr int PITCH = COLUMNS;  // TODO(student): the row pitch
  __shared__ float block_rows[ROWS_PER_BLOCK][PITCH];
  const int first = blockIdx.x * ROWS_PER_BLOCK;
  for (int i = threadIdx.x; i < ROWS_PER_BLOCK * COLUMNS; i += blockDim.x) {
    const int r = i / COLUMNS, c = i % COLUMNS;
    if (first + r < rows) block_rows[r][c] = in[(first + r) * COLUMNS + c];
  }
  __syncthreads();
  if (threadIdx.x == 0 && flood(&block_rows[0][0]) == 12345.f) sums[0] = 0;
  const int r = threadIdx.x;
  if (first + r < rows) {
    float sum = 0;
    for (int c = 0; c < COLUMNS; ++c) sum += block_rows[r][c];
    sums[first + r] = sum;
  }
}

// ---- Task 3: an array of structures -----------------------------------------
// out[i] = squared distance from particle i to particle i + 1 (over x, y, z
// and w). Block b stages particles 128 b to 128 b + 128 (one more for the
// neighbour). Each field read, p[t].x, is lane t at word 4 t (+ 0 for x, 1
// for y, ...): stride 4, a 4-way conflict.

struct Particle {
  float x, y, z, w;
};

constexpr int PARTICLES_PER_BLOCK = 128;  // = threads per block

/// The conflicted reference, kept for comparison; do not change it.
__global__ void neighbour_distances_aos(float* out, const Particle* in, int n) {
  __shared__ Particle p[PARTICLES_PER_BLOCK + 1];
  const int first = blockIdx.x * PARTICLES_PER_BLOCK;
  const float* src = reinterpret_cast<const float*>(in + first);
  float* dst = reinterpret_cast<float*>(p);
  for (int i = threadIdx.x; i < (PARTICLES_PER_BLOCK + 1) * 4; i += blockDim.x) {
    if (first + i / 4 < n) dst[i] = src[i];
  }
  __syncthreads();
  const int t = threadIdx.x;
  if (first + t + 1 < n) {
    const float dx = p[t + 1].x - p[t].x, dy = p[t + 1].y - p[t].y;
    const float dz = p[t + 1].z - p[t].z, dw = p[t + 1].w - p[t].w;
    out[first + t] = dx * dx + dy * dy + dz * dz + dw * dw;
  }
}

/// neighbour_distances: out[i] for every i < n - 1, as above (in holds n
/// particles).
///
/// Rules: launched with 128 threads per block and ceil(n / 128) blocks; any
/// n >= 2; every shared instruction at its ideal cost; at most 129 x 5
/// floats (2,580 bytes) of shared memory. A structure of arrays (one array
/// per field) and a padded structure are both fine.
///
/// TODO(student): fill in (about 10 lines): remove the 4-way conflict.
__global__ void neighbour_distances(float* out, const Particle* in, int n) {
  __shared__ Particle p[PARTICLES_PER_BLOCK + 1];  // TODO(student): change the layout
  const int first = blockIdx.x * PARTICLES_PER_BLOCK;
  const float* src = reinterpret_cast<const float*>(in + first);
  float* dst = reinterpret_cast<float*>(p);
  for (int i = threadIdx.x; i < (PARTICLES_PER_BLOCK + 1) * 4; i += blockDim.x) {
    if (first + i / 4 < n) dst[i] = src[i];
  }
  __syncthreads();
  const int t = threadIdx.x;
  if (first + t + 1 < n) {
    const float dx = p[t + 1].x - p[t].x, dy = p[t + 1].y - p[t].y;
    const float dz = p[t + 1].z - p[t].z, dw = p[t + 1].w - p[t].w;
    out[first + t] = dx * dx + dy * dy + dz * dz + dw * dw;
  }
}

// ---- Task 4: two-dimensional blocks -----------------------------------------
// A 16x16 block transposes a 16x16 tile. Threads are numbered x + 16 y, so a
// warp is TWO rows of threads: lanes 0-15 have y = 2w, lanes 16-31 y = 2w + 1.
// The read tile[threadIdx.x][threadIdx.y] is not the 16-way (or 32-way)
// conflict the column index suggests: work out the banks (banksim helps).

constexpr int TILE16 = 16;

/// The conflicted reference, kept for comparison; do not change it.
__global__ void transpose16_unpadded(float* out, const float* in, int width, int height) {
  __shared__ float tile[TILE16][TILE16];
  int x = blockIdx.x * TILE16 + threadIdx.x;
  int y = blockIdx.y * TILE16 + threadIdx.y;
  if (x < width && y < height) tile[threadIdx.y][threadIdx.x] = in[y * width + x];
  __syncthreads();
  x = blockIdx.y * TILE16 + threadIdx.x;
  y = blockIdx.x * TILE16 + threadIdx.y;
  if (x < height && y < width) out[y * height + x] = tile[threadIdx.x][threadIdx.y];
}

/// transpose16: out (height x width) = transpose of in (width x height),
/// both row-major: out[x * height + y] = in[y * width + x].
///
/// Rules: launched with block (16, 16) and grid (ceil(width / 16),
/// ceil(height / 16)); any width, height >= 1; every shared instruction
/// (the write and the read) at its ideal cost; at most 16 x 18 floats
/// (1,152 bytes) of shared memory. Try tile[16][17] first and look at what
/// the grader says about the write.
///
/// TODO(student): fill in (about 4 lines changed).
__global__ void transpose16(float* out, const float* in, int width, int height) {
  __shared__ float tile[TILE16][TILE16];  // TODO(student): change the layout
  int x = blockIdx.x * TILE16 + threadIdx.x;
  int y = blockIdx.y * TILE16 + threadIdx.y;
  if (x < width && y < height) tile[threadIdx.y][threadIdx.x] = in[y * width + x];
  __syncthreads();
  x = blockIdx.y * TILE16 + threadIdx.x;
  y = blockIdx.x * TILE16 + threadIdx.y;
  if (x < height && y < width) out[y * height + x] = tile[threadIdx.x][threadIdx.y];
}

// ---- Task 5: predictions ----------------------------------------------------
// Predict the wavefronts of each 4-byte load of one warp (all 32 lanes
// active unless said otherwise; words count from the start of shared
// memory). Write them in predicted_wavefronts, in order; the grader explains
// every wrong one with banksim.
//   P1: lane l reads word l (stride 1).
//   P2: lane l reads word 2 l (stride 2).
//   P3: lane l reads word 8 l (stride 8).
//   P4: lane l reads word 31 l (stride 31).
//   P5: lane l reads word 48 l (stride 48).
//   P6: every lane reads word 7 (stride 0).
//   P7: lane l reads word 5 + 3 l (stride 3, base 5).
//   P8: only lanes 0-7 are active; lane l reads word 32 l.
//   P9: only the even lanes are active; lane l reads word 2 l.
//   P10: only lanes 0-15 are active; lane l reads word 16 l.
// (Where your course gives variants, P3, P4, P5 and P10 ask about your strides,
// BANKLAB_P3_STRIDE ...: build/grader/grader --lab 2 --variant-from YOUR_NAME --show-variant.)
// TODO(student): replace each 0 with your prediction.
int predicted_wavefronts[10] = {1, 2, 8, 1, 16, 1, 1, 8, 2, 8};

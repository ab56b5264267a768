// HOSTILE: the reference, except that gemm_tiled keeps an unpadded A tile
// and stores it down its columns (32-way) with atomicExch, one lane per turn
// with __syncwarp() between the turns: every atomic instruction has one lane,
// so "gemm_tiled: every shared access at its ideal wavefronts" passed (90/90
// with atomics left out of the join). Atomics priced as one pass are now
// joined like loads and stores.
// Stage 6, the capstone: the reference solution (grader/README.md). The
// student's file is labs/06-capstone/capstone.cu. Build and grade with
//   build/grader/grader --lab 6
// Five real kernels, each correct and each with bank conflicts where such
// kernels usually have them. For each kernel:
//   1. run its program under the emulator, for example
//        banklab run labs/06-capstone/programs/reduce.cu
//      (the report lists the shipped kernel's lines in original.cu and
//      yours in this file, side by side);
//   2. write down each conflicted line of original.cu in `diagnosis` at the
//      end of this file: its line, its worst degree, its cause;
//   3. fix the kernel here (keep its name, parameters and launch shape), so
//      that it stays correct and every shared access costs its ideal;
//   4. run the program again, and `grader --lab 6`.
// Any fix that works is accepted: padding, a swizzle, another layout, another
// mapping of threads to data. Shared memory is bounded per kernel (see each
// kernel's rules). README.md says more; `grader --lab 6 --hint` helps.

constexpr int REDUCE_THREADS = 256;  // reduce_sum: threads per block, one input each
constexpr int SCAN_THREADS = 256;    // scan_segments: threads per block
constexpr int SCAN_SEGMENT = 2 * SCAN_THREADS;  // scan_segments: 512 elements per block, two per thread
constexpr int GEMM_TILE = 32;        // gemm_tiled: 32x32 tiles, block (32, 8)
constexpr int GEMM_ROWS = 8;
constexpr int HIST_THREADS = 256;    // histogram32: threads per block (8 warps)
constexpr int HIST_WARPS = HIST_THREADS / 32;
constexpr int HIST_BINS = 32;
constexpr int HIST_CHUNK = 1024;     // histogram32: input values per block
constexpr int STENCIL_X = 32;        // stencil_cross: a block's 32x8 outputs, block (32, 8)
constexpr int STENCIL_Y = 8;
constexpr int STENCIL_R = 2;         // stencil_cross: the cross reaches 2 points each way

/// reduce_sum: block_sums[b] = the sum of in[b * 256 .. b * 256 + 255] (the
/// elements below n), by a tree in shared memory.
/// Launch: block (256), grid (ceil(n / 256)).
//! [reduce_sum]
__global__ void reduce_sum(int* block_sums, const int* in, int n) {
  __shared__ int partial[REDUCE_THREADS];
  const int tid = threadIdx.x;
  const int i = blockIdx.x * REDUCE_THREADS + tid;
  partial[tid] = i < n ? in[i] : 0;
  __syncthreads();
  // Sequential addressing: the active threads are the first `stride`, and
  // they read consecutive words (stride 1 between lanes) at every step.
  for (int stride = REDUCE_THREADS / 2; stride > 0; stride /= 2) {
    if (tid < stride) partial[tid] += partial[tid + stride];
    __syncthreads();
  }
  if (tid == 0) block_sums[blockIdx.x] = partial[0];
}
//! [reduce_sum]

/// scan_segments: the exclusive prefix sum of each segment of 512 elements:
/// out[s * 512 + k] = in[s * 512] + ... + in[s * 512 + k - 1] (0 for k = 0),
/// for the elements below n, by the work-efficient scan (an up-sweep that
/// builds partial sums in a tree, then a down-sweep that hands them down).
/// Launch: block (256), grid (ceil(n / 512)).
/// A word of padding after every 32 elements: element i lives in word
/// i + i / 32, so that the sweeps' lanes, 2^k elements apart, spread over
/// the banks, and the loads and stores of consecutive elements stay
/// consecutive.
__device__ inline int padded(int i) { return i + i / 32; }

//! [scan_segments]
__global__ void scan_segments(int* out, const int* in, int n) {
  __shared__ int temp[SCAN_SEGMENT + SCAN_SEGMENT / 32];
  const int tid = threadIdx.x;
  const int base = blockIdx.x * SCAN_SEGMENT;
  // Consecutive threads load consecutive elements (both loads coalesced).
  temp[padded(tid)] = base + tid < n ? in[base + tid] : 0;
  temp[padded(tid + SCAN_THREADS)] = base + tid + SCAN_THREADS < n ? in[base + tid + SCAN_THREADS] : 0;
  int offset = 1;
  for (int d = SCAN_SEGMENT / 2; d > 0; d /= 2) {  // up-sweep
    __syncthreads();
    if (tid < d) {
      const int ai = offset * (2 * tid + 1) - 1;
      const int bi = offset * (2 * tid + 2) - 1;
      temp[padded(bi)] += temp[padded(ai)];
    }
    offset *= 2;
  }
  if (tid == 0) temp[padded(SCAN_SEGMENT - 1)] = 0;
  for (int d = 1; d < SCAN_SEGMENT; d *= 2) {  // down-sweep
    offset /= 2;
    __syncthreads();
    if (tid < d) {
      const int ai = offset * (2 * tid + 1) - 1;
      const int bi = offset * (2 * tid + 2) - 1;
      const int t = temp[padded(ai)];
      temp[padded(ai)] = temp[padded(bi)];
      temp[padded(bi)] += t;
    }
  }
  __syncthreads();
  if (base + tid < n) out[base + tid] = temp[padded(tid)];
  if (base + tid + SCAN_THREADS < n) out[base + tid + SCAN_THREADS] = temp[padded(tid + SCAN_THREADS)];
}
//! [scan_segments]

/// gemm_tiled: C (m x n) = A (m x k) B (k x n), row-major, through 32x32
/// tiles of A and B in shared memory; each thread computes 4 outputs, rows
/// 8 apart. A's tile is kept transposed, so that the inner loop reads it
/// along a row.
/// Launch: block (32, 8), grid (ceil(n / 32), ceil(m / 32)).
//! [gemm_tiled]
__global__ void gemm_tiled(float* c, const float* a, const float* b, int m, int n, int k) {
  // a_tile[kk][row]: A transposed, its rows padded to 33 floats: the store
  // walks a column (lanes 33 words apart, 33 banks), the inner loop still
  // reads one word for the whole warp.
  __shared__ float a_tile[GEMM_TILE][GEMM_TILE];  // unpadded: the store walks a column
  __shared__ float b_tile[GEMM_TILE][GEMM_TILE];  // b_tile[kk][col]
  const int col = blockIdx.x * GEMM_TILE + threadIdx.x;
  const int row0 = blockIdx.y * GEMM_TILE;
  float sum[GEMM_TILE / GEMM_ROWS] = {};
  for (int t = 0; t < k; t += GEMM_TILE) {
    for (int r = threadIdx.y; r < GEMM_TILE; r += GEMM_ROWS) {
      const int a_col = t + threadIdx.x;
      const float a_value = row0 + r < m && a_col < k ? a[(row0 + r) * k + a_col] : 0.0f;
      for (int l = 0; l < 32; ++l) {  // one lane at a time, the store as an atomic exchange
        if (threadIdx.x == l) atomicExch(&a_tile[threadIdx.x][r], a_value);
        __syncwarp();
      }
      b_tile[r][threadIdx.x] = t + r < k && col < n ? b[(t + r) * n + col] : 0.0f;
    }
    __syncthreads();
    for (int kk = 0; kk < GEMM_TILE; ++kk) {
      const float b_value = b_tile[kk][threadIdx.x];
      for (int j = 0; j < GEMM_TILE / GEMM_ROWS; ++j) sum[j] += a_tile[kk][threadIdx.y + j * GEMM_ROWS] * b_value;
    }
    __syncthreads();
  }
  for (int j = 0; j < GEMM_TILE / GEMM_ROWS; ++j) {
    const int row = row0 + threadIdx.y + j * GEMM_ROWS;
    if (row < m && col < n) c[row * n + col] = sum[j];
  }
}
//! [gemm_tiled]

/// histogram32: block_bins[b * 32 + v] = how many of the values
/// data[b * 1024 .. b * 1024 + 1023] (those below n) have v = value % 32.
/// Each warp counts into its own sub-histogram (no two warps contend for a
/// counter), and the block adds them up at the end.
/// Launch: block (256), grid (ceil(n / 1024)).
//! [histogram32]
__global__ void histogram32(unsigned* block_bins, const unsigned* data, int n) {
  // hist[warp][bin]: a warp's 32 counters are 32 consecutive words, one per
  // bank, so lanes with different bins never meet on a bank.
  __shared__ unsigned hist[HIST_WARPS][HIST_BINS];
  for (int i = threadIdx.x; i < HIST_BINS * HIST_WARPS; i += HIST_THREADS) hist[i / HIST_BINS][i % HIST_BINS] = 0;
  __syncthreads();
  const int warp = threadIdx.x / 32;
  const int begin = blockIdx.x * HIST_CHUNK;
  for (int i = begin + threadIdx.x; i < begin + HIST_CHUNK && i < n; i += HIST_THREADS) {
    atomicAdd(&hist[warp][data[i] % HIST_BINS], 1u);
  }
  __syncthreads();
  if (threadIdx.x < HIST_BINS) {
    unsigned total = 0;
    for (int w = 0; w < HIST_WARPS; ++w) total += hist[w][threadIdx.x];
    block_bins[blockIdx.x * HIST_BINS + threadIdx.x] = total;
  }
}
//! [histogram32]

/// stencil_cross: out[y][x] = 8 in[y][x] + the sum of in[y][x +- 1],
/// in[y][x +- 2], in[y +- 1][x], in[y +- 2][x] (0 outside the width x height
/// input), through a tile of the block's outputs and a halo of 2.
/// Launch: block (32, 8), grid (ceil(width / 32), ceil(height / 8)).
//! [stencil_cross]
__global__ void stencil_cross(int* out, const int* in, int width, int height) {
  // tile[y][x], row-major like the image: the load writes consecutive words,
  // and a warp (one row of outputs) reads along a row.
  __shared__ int tile[STENCIL_Y + 2 * STENCIL_R][STENCIL_X + 2 * STENCIL_R];
  const int tid = threadIdx.y * STENCIL_X + threadIdx.x;
  for (int i = tid; i < (STENCIL_X + 2 * STENCIL_R) * (STENCIL_Y + 2 * STENCIL_R); i += STENCIL_X * STENCIL_Y) {
    const int tx = i % (STENCIL_X + 2 * STENCIL_R), ty = i / (STENCIL_X + 2 * STENCIL_R);
    const int gx = blockIdx.x * STENCIL_X + tx - STENCIL_R, gy = blockIdx.y * STENCIL_Y + ty - STENCIL_R;
    tile[ty][tx] = gx >= 0 && gx < width && gy >= 0 && gy < height ? in[gy * width + gx] : 0;
  }
  __syncthreads();
  const int x = blockIdx.x * STENCIL_X + threadIdx.x, y = blockIdx.y * STENCIL_Y + threadIdx.y;
  if (x >= width || y >= height) return;
  const int cx = threadIdx.x + STENCIL_R, cy = threadIdx.y + STENCIL_R;
  int value = 8 * tile[cy][cx];
  for (int r = 1; r <= STENCIL_R; ++r) {
    value += tile[cy][cx - r] + tile[cy][cx + r] + tile[cy - r][cx] + tile[cy + r][cx];
  }
  out[y * width + x] = value;
}
//! [stencil_cross]

// ---- The diagnosis ---------------------------------------------------------------

// Causes, in the terms of the earlier stages. Pick the one that explains the
// line's worst warp instruction.
enum Cause {
  STRIDE = 1,  // stage 2: a 1-D index that steps by a stride s between lanes (gcd(s, 32) lanes per bank)
  COLUMN = 2,  // stage 3: the lane picks the row of a 2-D array, so the lanes walk down a column
  WIDE = 3,    // stage 5: 8- or 16-byte elements, or 2-byte ones that share a word
  DATA = 4,    // the address comes from the input data, so lanes meet on a bank by chance
};

/// One row for each line of original.cu that costs more than its ideal
/// (banklab run's "excess" column above 0): {line, worst, cause}. `line` is
/// the line number in original.cu that banklab run prints, `worst` the
/// line's "worst" column (the wavefronts of its worst warp instruction, which
/// for these 4-byte accesses is the conflict degree), `cause` one of the four
/// above. Rows in any order; unused rows stay {0, 0, 0}.
int diagnosis[20][3] = {
    {36, 8, STRIDE},                   // reduce_sum: index = 2 * stride * tid, lanes 2, 4, ... 32 words apart
    {51, 2, STRIDE},  {52, 2, STRIDE},  // scan_segments: two elements per thread, lanes 2 words apart
    {59, 16, STRIDE},                  // the up-sweep: lanes 2 * offset words apart
    {70, 16, STRIDE}, {71, 16, STRIDE}, {72, 16, STRIDE},  // the down-sweep, the same indices
    {76, 2, STRIDE},  {77, 2, STRIDE},  // the stores back, as the loads
    {94, 32, COLUMN},                  // gemm_tiled: a_tile[threadIdx.x][r] walks a column of 32-float rows
    {122, 8, COLUMN},                  // histogram32: hist[bin][warp], rows of 8 counters
    {127, 8, COLUMN},                  // the merge reads hist[threadIdx.x][w]: a column again
    {142, 4, COLUMN}, {148, 4, COLUMN}, {150, 4, COLUMN},  // stencil_cross: tile[x][y], rows of 12 ints
};

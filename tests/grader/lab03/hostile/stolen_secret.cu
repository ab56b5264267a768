// HOSTILE (stage 3): the unpadded skeleton plus code placed in
// .preinit_array (the earliest code a program can run) that tries to read the
// grader's secret from BANKLAB_SECRET_FD, writes a forged answer carrying it
// (every shape asked for, no mismatches, no findings) to the answer
// descriptor and exits. The runner's own entry runs first and takes the
// secret, so the forged answer is rejected and the score is 0; were the
// secret stolen, the correctness checks would pass.
// Stage 3, padded transpose: the one file you hand in. Build and grade with
//   build/grader/grader --lab 3
// TUTORIAL: both kernels copy a 32x32 tile of `in` into shared memory row by
// row, then write it to `out` column by column, so that the global reads and
// the global writes are both coalesced. Shared memory makes the turn.

// Tile edge and rows per thread block: a block of 32x8 threads moves a
// 32x32 tile, each thread four elements (rows threadIdx.y, +8, +16, +24).
constexpr int TILE_DIM = 32;
constexpr int BLOCK_ROWS = 8;

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
/// TODO(student): fill in (about 1 line): change the tile so that a column
/// read no longer hits one bank. Run `build/common/banksim/banksim --width 4
/// --stride 32` and `--stride 33` to see why.
__global__ void transpose_padded(float* out, const float* in, int width, int height) {
  // TODO(student): this tile is unpadded, so the column read below is a
  // 32-way bank conflict. Pad it.
  __shared__ float tile[TILE_DIM][TILE_DIM];
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

// Before main: a forged answer written straight to the runner's answer
// descriptor (named in BANKLAB_ANSWER_FD), then exit before the runner runs.
#include <cstring>
#include <unistd.h>
namespace {
// Appends text (no C library initialisation needed: this runs before it).
void put(char* out, const char* text) { std::strcat(out, text); }
char g_line[16384];
// An answer that would pass every correctness check: each shape asked for,
// no mismatches, no findings, no shared-memory lines.
void forge(int argc, char** argv, char** envp) {
  int secret_fd = -1, answer_fd = -1;
  for (char** e = envp; *e != nullptr; ++e) {
    if (std::strncmp(*e, "BANKLAB_SECRET_FD=", 18) == 0) secret_fd = (*e)[18] - '0';
    if (std::strncmp(*e, "BANKLAB_ANSWER_FD=", 18) == 0) answer_fd = (*e)[18] - '0';
  }
  if (answer_fd < 0) return;
  const char* shapes = "";
  const char* seed = "0";
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::strcmp(argv[i], "--shapes") == 0) shapes = argv[i + 1];
    if (std::strcmp(argv[i], "--seed") == 0) seed = argv[i + 1];
  }
  ssize_t got = secret_fd >= 0 ? read(secret_fd, g_line, 64) : 0;
  if (got < 0) got = 0;
  if (got > 0 && g_line[got - 1] == '\n') --got;
  g_line[got] = '\0';
  put(g_line, " {\"backend\":\"cpu\",\"seed\":");
  put(g_line, seed);
  put(g_line, ",\"runs\":[");
  char shape[32];
  for (const char* p = shapes; *p != '\0';) {
    std::size_t n = 0;
    while (p[n] != '\0' && p[n] != ',') ++n;
    std::memcpy(shape, p, n);
    shape[n] = '\0';
    char* x = std::strchr(shape, 'x');
    if (x == nullptr) break;
    *x = '\0';
    if (p != shapes) put(g_line, ",");
    put(g_line, "{\"width\":");
    put(g_line, shape);
    put(g_line, ",\"height\":");
    put(g_line, x + 1);
    put(g_line, ",\"mismatches\":0,\"first_mismatches\":[],\"report\":{\"completed\":true,\"findings\":[],"
                "\"kernel\":\"transpose_padded(float*, float const*, int, int)\",\"lines\":[],"
                "\"shared_accesses\":0,\"shared_bytes\":4224,\"threads_run\":0,\"untraced_accesses\":0}}");
    p += n;
    if (*p == ',') ++p;
  }
  put(g_line, "]}\n");
  (void)!write(answer_fd, g_line, std::strlen(g_line));
  _exit(0);
}
__attribute__((section(".preinit_array"), used)) void (*const forge_entry)(int, char**, char**) = forge;
}  // namespace

// The stage-3 predictions (right: they are not what this file tests).
int predicted_wavefronts[2] = {32, 1};

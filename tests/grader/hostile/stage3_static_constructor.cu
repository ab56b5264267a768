// Hostile stage-3 submission: a correct kernel, and a static constructor that
// runs before the runner's main and writes a forged answer with write() on
// the answer descriptor (3). The link check refuses the object: it has a
// static constructor and calls `write`, a host library function.
#include <unistd.h>

constexpr int TILE_DIM = 32;
constexpr int BLOCK_ROWS = 8;

int predicted_wavefronts[2] = {32, 1};

__attribute__((constructor)) static void forge_answer() {
  const char line[] = "forged {\"backend\":\"cpu\"}\n";
  if (write(3, line, sizeof line - 1) < 0) return;
}

__global__ void transpose_padded(float* out, const float* in, int width, int height) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];
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

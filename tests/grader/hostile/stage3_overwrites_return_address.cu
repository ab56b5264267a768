// Hostile stage-3 submission: a correct, conflict-free transpose whose
// kernel then writes past the end of a local array onto its own return
// address, so that its return jumps into code of the file's choosing
// (`escape`) instead of back into the emulator. With the emulator's
// return-address check the launch stops with a finding when the kernel
// returns, before the overwritten address is used.

constexpr int TILE_DIM = 32;
constexpr int BLOCK_ROWS = 8;

int predicted_wavefronts[2] = {32, 1};

__device__ int g_escaped = 0;

__device__ void escape() {
  g_escaped = 1;
  for (;;) {
  }
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
  // The last thread of the last block: find the return address above a
  // local array and replace it.
  if (blockIdx.x == gridDim.x - 1 && blockIdx.y == gridDim.y - 1 && threadIdx.x == TILE_DIM - 1 &&
      threadIdx.y == BLOCK_ROWS - 1) {
    volatile long slots[2] = {0, 0};
    const long back = reinterpret_cast<long>(__builtin_return_address(0));
    for (int i = 2; i < 16; ++i) {
      if (slots[i] == back) {
        slots[i] = reinterpret_cast<long>(&escape);  // the return address slot, past the array's end
        break;
      }
    }
  }
}

// A CORRECT submission (stage 3) written the way some CUDA code is: the tile
// is a file-scope __shared__ array, the bounds use CUDA's device min(), and
// the padded tile lives in a __device__ helper. Full marks.
constexpr int TILE_DIM = 32;
constexpr int BLOCK_ROWS = 8;

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

// The padded tile, at file scope: one per block, as any __shared__ array.
__shared__ float g_tile[TILE_DIM][TILE_DIM + 1];

// Rows of this tile that exist: CUDA's min(int, int).
__device__ int rows_in_tile(int tile_row, int height) { return min(TILE_DIM, height - tile_row); }

__device__ void stage_tile(const float* in, int width, int height) {
  const int x = blockIdx.x * TILE_DIM + threadIdx.x;
  const int rows = rows_in_tile(blockIdx.y * TILE_DIM, height);
  for (int j = threadIdx.y; j < rows; j += BLOCK_ROWS) {
    if (x < width) g_tile[j][threadIdx.x] = in[(blockIdx.y * TILE_DIM + j) * width + x];
  }
}

__global__ void transpose_padded(float* out, const float* in, int width, int height) {
  stage_tile(in, width, height);
  __syncthreads();
  const int x = blockIdx.y * TILE_DIM + threadIdx.x;
  const int rows = rows_in_tile(blockIdx.x * TILE_DIM, width);
  for (int j = threadIdx.y; j < rows; j += BLOCK_ROWS) {
    if (x < height) out[(blockIdx.x * TILE_DIM + j) * height + x] = g_tile[threadIdx.x][j];
  }
}

// The stage-3 predictions (right: they are not what this file tests).
int predicted_wavefronts[2] = {32, 1};

// Similarity test (stage 3): the solution that five other "students" copy,
// renaming its names and rewriting its comments (test_similarity.cpp makes
// the copies). Correct: full marks.
#define TILE 32
#define ROWS 8

// Reads a tile by rows into padded shared memory, then writes it out by
// columns of the tile, so both global accesses are coalesced.
__global__ void transpose_padded(float* out, const float* in, int width, int height) {
  __shared__ float buffer[TILE][TILE + 1];
  const int column = blockIdx.x * TILE + threadIdx.x;
  const int row_base = blockIdx.y * TILE;
  int step = 0;
  while (step < TILE) {
    const int row = row_base + threadIdx.y + step;
    if (column < width && row < height) buffer[threadIdx.y + step][threadIdx.x] = in[row * width + column];
    step += ROWS;
  }
  __syncthreads();
  const int out_column = row_base + threadIdx.x;
  const int out_row_base = blockIdx.x * TILE;
  for (step = 0; step < TILE; step += ROWS) {
    const int out_row = out_row_base + threadIdx.y + step;
    if (out_column < height && out_row < width) {
      const float value = buffer[threadIdx.x][threadIdx.y + step];
      out[out_row * height + out_column] = value;
    }
  }
}

// tile[32][32]: 32 lanes in one bank; tile[32][33]: one wavefront.
int predicted_wavefronts[2] = {32, 1};

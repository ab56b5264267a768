// Similarity test (stage 3): a correct solution written differently: the
// 256 threads of a block walk the tile's 1024 elements linearly, so each
// thread's index is split into a row and a column inside the loops.
template <int N>
struct PaddedTile {
  float cell[N][N + 1];
};

__global__ void transpose_padded(float* out, const float* in, int width, int height) {
  __shared__ PaddedTile<32> tile;
  const int linear = threadIdx.y * blockDim.x + threadIdx.x;
  const int origin_x = blockIdx.x * 32, origin_y = blockIdx.y * 32;
  for (int e = linear; e < 32 * 32; e += 256) {
    const int r = e / 32, c = e % 32;
    if (origin_y + r < height && origin_x + c < width) tile.cell[r][c] = in[(origin_y + r) * width + origin_x + c];
  }
  __syncthreads();
  for (int e = linear; e < 32 * 32; e += 256) {
    const int r = e / 32, c = e % 32;  // r: row of out inside the tile, c: its column
    const int dst_row = origin_x + r, dst_col = origin_y + c;
    if (dst_row < width && dst_col < height) out[dst_row * height + dst_col] = tile.cell[c][r];
  }
}

int predicted_wavefronts[2] = {32, 1};

// Similarity test (stage 3): a correct solution written differently: the
// four rows of each thread written out by hand, bounds folded into one
// predicate per row, a flat padded array.
__global__ void transpose_padded(float* out, const float* in, int width, int height) {
  __shared__ float t[32 * 33];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int in_col = blockIdx.x * 32 + tx;
  const int in_row = blockIdx.y * 32 + ty;
  const bool col_ok = in_col < width;
  if (col_ok && in_row < height) t[ty * 33 + tx] = in[in_row * width + in_col];
  if (col_ok && in_row + 8 < height) t[(ty + 8) * 33 + tx] = in[(in_row + 8) * width + in_col];
  if (col_ok && in_row + 16 < height) t[(ty + 16) * 33 + tx] = in[(in_row + 16) * width + in_col];
  if (col_ok && in_row + 24 < height) t[(ty + 24) * 33 + tx] = in[(in_row + 24) * width + in_col];
  __syncthreads();
  const int out_col = blockIdx.y * 32 + tx;
  const int out_row = blockIdx.x * 32 + ty;
  if (out_col >= height) return;
  if (out_row < width) out[out_row * height + out_col] = t[tx * 33 + ty];
  if (out_row + 8 < width) out[(out_row + 8) * height + out_col] = t[tx * 33 + ty + 8];
  if (out_row + 16 < width) out[(out_row + 16) * height + out_col] = t[tx * 33 + ty + 16];
  if (out_row + 24 < width) out[(out_row + 24) * height + out_col] = t[tx * 33 + ty + 24];
}

int predicted_wavefronts[2] = {32, 1};

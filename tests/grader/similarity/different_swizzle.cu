// Similarity test (stage 3): a correct solution written differently: no
// padding, the column index XOR-swizzled by the row (32x32 floats, under the
// 32x33 limit), one helper for the swizzled slot.
constexpr int kEdge = 32;
constexpr int kThreadRows = 8;

__device__ __forceinline__ int slot(int r, int c) { return r * kEdge + (c ^ r); }

__global__ void transpose_padded(float* out, const float* in, int width, int height) {
  __shared__ float staged[kEdge * kEdge];
  int gx = blockIdx.x * kEdge + threadIdx.x;
  for (int r = threadIdx.y; r < kEdge; r += kThreadRows) {
    int gy = blockIdx.y * kEdge + r;
    if (gy < height && gx < width) staged[slot(r, threadIdx.x)] = in[(long long)gy * width + gx];
  }
  __syncthreads();
  int ox = blockIdx.y * kEdge + threadIdx.x;
  for (int r = threadIdx.y; r < kEdge; r += kThreadRows) {
    int oy = blockIdx.x * kEdge + r;
    if (ox < height && oy < width) out[(long long)oy * height + ox] = staged[slot(threadIdx.x, r)];
  }
}

int predicted_wavefronts[2] = {32, 1};

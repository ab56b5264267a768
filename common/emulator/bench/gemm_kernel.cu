// The benchmark's shared-memory GEMM: C = A * B with 16x16 tiles of A and B
// staged in shared memory (the textbook tiled matrix multiply).
constexpr int GEMM_TILE = 16;

__global__ void gemm_tiled(const float* a, const float* b, float* c, int n) {
  __shared__ float ta[GEMM_TILE][GEMM_TILE];
  __shared__ float tb[GEMM_TILE][GEMM_TILE];
  const int row = blockIdx.y * GEMM_TILE + threadIdx.y, col = blockIdx.x * GEMM_TILE + threadIdx.x;
  float sum = 0.0f;
  for (int k0 = 0; k0 < n; k0 += GEMM_TILE) {
    ta[threadIdx.y][threadIdx.x] = a[row * n + k0 + threadIdx.x];
    tb[threadIdx.y][threadIdx.x] = b[(k0 + threadIdx.y) * n + col];
    __syncthreads();
    for (int k = 0; k < GEMM_TILE; ++k) sum += ta[threadIdx.y][k] * tb[k][threadIdx.x];
    __syncthreads();
  }
  c[row * n + col] = sum;
}

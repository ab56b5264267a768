// Twelve kernels that use shared memory the ways CUDA code does, in one
// ordinary CUDA program: built with nvcc and profiled by Nsight Compute on a
// GPU, and run by `banklab run` on a CPU; compare.py puts the two counts of
// shared-memory instructions and wavefronts side by side (README.md).
// Every kernel's result is checked; the program exits 1 if one is wrong.
#include <cstdio>
#include <cstdlib>
#include <vector>

constexpr int TILE = 32;
constexpr int ROWS = 8;

__global__ void transpose_naive(float* out, const float* in, int n) {
  __shared__ float tile[TILE][TILE];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS) out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void transpose_padded(float* out, const float* in, int n) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS) out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void transpose_swizzled(float* out, const float* in, int n) {
  __shared__ float tile[TILE][TILE];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS) {
    const int r = threadIdx.y + j;
    tile[r][threadIdx.x ^ r] = in[(y + j) * n + x];
  }
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS) {
    const int c = threadIdx.y + j;
    out[(y + j) * n + x] = tile[threadIdx.x][c ^ threadIdx.x];
  }
}

__global__ void reduce_interleaved(const int* in, int* out) {
  extern __shared__ int s[];
  const unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned k = 1; k < blockDim.x; k *= 2) {
    const unsigned i = 2 * k * t;
    if (i < blockDim.x) s[i] += s[i + k];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

__global__ void reduce_sequential(const int* in, int* out) {
  extern __shared__ int s[];
  const unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned k = blockDim.x / 2; k > 0; k /= 2) {
    if (t < k) s[t] += s[t + k];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

// Inclusive scan of 256 values per block, double-buffered (Hillis and Steele).
__global__ void scan_block(const int* in, int* out) {
  __shared__ int buffer[2][256];
  const int t = threadIdx.x;
  int from = 0;
  buffer[0][t] = in[blockIdx.x * 256 + t];
  __syncthreads();
  for (int offset = 1; offset < 256; offset *= 2) {
    const int to = 1 - from;
    buffer[to][t] = t >= offset ? buffer[from][t] + buffer[from][t - offset] : buffer[from][t];
    __syncthreads();
    from = to;
  }
  out[blockIdx.x * 256 + t] = buffer[from][t];
}

__global__ void histogram_shared(const unsigned char* data, int n, unsigned* bins) {
  __shared__ unsigned local[256];
  local[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) atomicAdd(&local[data[i]], 1u);
  __syncthreads();
  atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}

// Sorts 256 keys per block (bitonic network): which threads swap depends on the data.
__global__ void bitonic_sort(int* keys) {
  __shared__ int s[256];
  const unsigned t = threadIdx.x;
  s[t] = keys[blockIdx.x * 256 + t];
  __syncthreads();
  for (unsigned size = 2; size <= 256; size *= 2) {
    for (unsigned stride = size / 2; stride > 0; stride /= 2) {
      const unsigned partner = t ^ stride;
      if (partner > t) {
        const bool ascending = (t & size) == 0;
        const int a = s[t], b = s[partner];
        if ((a > b) == ascending) {
          s[t] = b;
          s[partner] = a;
        }
      }
      __syncthreads();
    }
  }
  keys[blockIdx.x * 256 + t] = s[t];
}

// C = A * B, 16x16 tiles.
__global__ void matmul_tiled(const float* a, const float* b, float* c, int n) {
  __shared__ float ta[16][16];
  __shared__ float tb[16][16];
  const int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
  float sum = 0.0f;
  for (int k0 = 0; k0 < n; k0 += 16) {
    ta[threadIdx.y][threadIdx.x] = a[row * n + k0 + threadIdx.x];
    tb[threadIdx.y][threadIdx.x] = b[(k0 + threadIdx.y) * n + col];
    __syncthreads();
    for (int k = 0; k < 16; ++k) sum += ta[threadIdx.y][k] * tb[k][threadIdx.x];
    __syncthreads();
  }
  c[row * n + col] = sum;
}

// A column of doubles from a tile padded by one double (33 per row).
__global__ void double_columns(const double* in, double* out) {
  __shared__ double tile[32][33];
  for (int r = 0; r < 32; ++r) tile[r][threadIdx.x] = in[r * 32 + threadIdx.x];
  __syncthreads();
  double sum = 0;
  for (int r = 0; r < 32; ++r) sum += tile[threadIdx.x][r];
  out[blockIdx.x * 32 + threadIdx.x] = sum;
}

// float4 rows through shared memory: each lane stores and loads 16 bytes.
__global__ void float4_stage(const float4* in, float4* out) {
  __shared__ float4 s[128];
  s[threadIdx.x] = in[blockIdx.x * 128 + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * 128 + threadIdx.x] = s[(threadIdx.x + 32) % 128];
}

// A shared array in a device function: per-warp partial sums, then a broadcast read.
template <int WARPS>
__device__ float block_sum(float v) {
  __shared__ float partial[WARPS][33];
  partial[threadIdx.x / 32][threadIdx.x % 32] = v;
  __syncthreads();
  float total = 0;
  for (int w = 0; w < WARPS; ++w)
    for (int l = 0; l < 32; ++l) total += partial[w][l];
  __syncthreads();
  return total;
}
__global__ void sums_in_function(float* out) {
  const float total = block_sum<4>(static_cast<float>(threadIdx.x % 7));
  if (threadIdx.x == 0) out[blockIdx.x] = total;
}

#define FAIL_IF(cond, what)                          \
  if (cond) {                                        \
    std::printf("WRONG: %s\n", what);                \
    ok = false;                                      \
  }

int main() {
  bool ok = true;
  const int n = 256;
  std::vector<float> hf(n * n);
  for (int i = 0; i < n * n; ++i) hf[i] = static_cast<float>(i % 1000);
  float *fin, *fout;
  cudaMalloc(&fin, n * n * sizeof(float));
  cudaMalloc(&fout, n * n * sizeof(float));
  cudaMemcpy(fin, hf.data(), n * n * sizeof(float), cudaMemcpyHostToDevice);
  std::vector<float> back(n * n);
  void (*transposes[])(float*, const float*, int) = {transpose_naive, transpose_padded, transpose_swizzled};
  for (auto* kernel : transposes) {
    cudaMemset(fout, 0, n * n * sizeof(float));
    kernel<<<dim3(n / TILE, n / TILE), dim3(TILE, ROWS)>>>(fout, fin, n);
    cudaMemcpy(back.data(), fout, n * n * sizeof(float), cudaMemcpyDeviceToHost);
    bool right = true;
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c) right = right && back[r * n + c] == hf[c * n + r];
    FAIL_IF(!right, "transpose");
  }

  const int blocks = 16, threads = 256;
  std::vector<int> hi(blocks * threads);
  for (int i = 0; i < blocks * threads; ++i) hi[i] = (i * 37) % 101;
  int *iin, *iout;
  cudaMalloc(&iin, hi.size() * sizeof(int));
  cudaMalloc(&iout, hi.size() * sizeof(int));
  cudaMemcpy(iin, hi.data(), hi.size() * sizeof(int), cudaMemcpyHostToDevice);
  for (int which = 0; which < 2; ++which) {
    if (which == 0) reduce_interleaved<<<blocks, threads, threads * sizeof(int)>>>(iin, iout);
    if (which == 1) reduce_sequential<<<blocks, threads, threads * sizeof(int)>>>(iin, iout);
    std::vector<int> partial(blocks);
    cudaMemcpy(partial.data(), iout, blocks * sizeof(int), cudaMemcpyDeviceToHost);
    for (int b = 0; b < blocks; ++b) {
      int expected = 0;
      for (int t = 0; t < threads; ++t) expected += hi[b * threads + t];
      FAIL_IF(partial[b] != expected, "reduce");
    }
  }
  scan_block<<<blocks, 256>>>(iin, iout);
  {
    std::vector<int> scanned(hi.size());
    cudaMemcpy(scanned.data(), iout, hi.size() * sizeof(int), cudaMemcpyDeviceToHost);
    for (int b = 0; b < blocks; ++b) {
      int running = 0;
      for (int t = 0; t < 256; ++t) {
        running += hi[b * 256 + t];
        FAIL_IF(scanned[b * 256 + t] != running, "scan");
      }
    }
  }
  {
    const int count = 65536;
    std::vector<unsigned char> data(count);
    for (int i = 0; i < count; ++i) data[i] = static_cast<unsigned char>((i * 131) ^ (i >> 3));
    unsigned char* d;
    unsigned* bins;
    cudaMalloc(&d, count);
    cudaMalloc(&bins, 256 * sizeof(unsigned));
    cudaMemcpy(d, data.data(), count, cudaMemcpyHostToDevice);
    cudaMemset(bins, 0, 256 * sizeof(unsigned));
    histogram_shared<<<8, 256>>>(d, count, bins);
    std::vector<unsigned> h(256);
    cudaMemcpy(h.data(), bins, 256 * sizeof(unsigned), cudaMemcpyDeviceToHost);
    std::vector<unsigned> expected(256, 0);
    for (unsigned char v : data) ++expected[v];
    FAIL_IF(h != expected, "histogram");
  }
  {
    std::vector<int> keys(blocks * 256);
    for (std::size_t i = 0; i < keys.size(); ++i) keys[i] = static_cast<int>((i * 7919) % 1009);
    int* d;
    cudaMalloc(&d, keys.size() * sizeof(int));
    cudaMemcpy(d, keys.data(), keys.size() * sizeof(int), cudaMemcpyHostToDevice);
    bitonic_sort<<<blocks, 256>>>(d);
    std::vector<int> sorted(keys.size());
    cudaMemcpy(sorted.data(), d, keys.size() * sizeof(int), cudaMemcpyDeviceToHost);
    for (int b = 0; b < blocks; ++b)
      for (int t = 1; t < 256; ++t) FAIL_IF(sorted[b * 256 + t - 1] > sorted[b * 256 + t], "bitonic");
  }
  {
    const int m = 128;
    std::vector<float> a(m * m), b(m * m);
    for (int i = 0; i < m * m; ++i) {
      a[i] = static_cast<float>(i % 5);
      b[i] = static_cast<float>(i % 3);
    }
    float *da, *db, *dc;
    cudaMalloc(&da, m * m * sizeof(float));
    cudaMalloc(&db, m * m * sizeof(float));
    cudaMalloc(&dc, m * m * sizeof(float));
    cudaMemcpy(da, a.data(), m * m * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(db, b.data(), m * m * sizeof(float), cudaMemcpyHostToDevice);
    matmul_tiled<<<dim3(m / 16, m / 16), dim3(16, 16)>>>(da, db, dc, m);
    std::vector<float> c(m * m);
    cudaMemcpy(c.data(), dc, m * m * sizeof(float), cudaMemcpyDeviceToHost);
    for (int r = 0; r < m; r += 17) {
      for (int col = 0; col < m; col += 13) {
        float expected = 0;
        for (int k = 0; k < m; ++k) expected += a[r * m + k] * b[k * m + col];
        FAIL_IF(c[r * m + col] != expected, "matmul");
      }
    }
  }
  {
    std::vector<double> in(32 * 32);
    for (int i = 0; i < 32 * 32; ++i) in[i] = i;
    double *din, *dout;
    cudaMalloc(&din, in.size() * sizeof(double));
    cudaMalloc(&dout, 4 * 32 * sizeof(double));
    cudaMemcpy(din, in.data(), in.size() * sizeof(double), cudaMemcpyHostToDevice);
    double_columns<<<4, 32>>>(din, dout);
    std::vector<double> out(4 * 32);
    cudaMemcpy(out.data(), dout, out.size() * sizeof(double), cudaMemcpyDeviceToHost);
    for (int t = 0; t < 32; ++t) FAIL_IF(out[t] != 32.0 * 32 * t + 496.0, "double columns");
  }
  {
    std::vector<float4> in(4 * 128);
    for (int i = 0; i < 4 * 128; ++i) in[i] = make_float4(i, i + 1, i + 2, i + 3);
    float4 *din, *dout;
    cudaMalloc(&din, in.size() * sizeof(float4));
    cudaMalloc(&dout, in.size() * sizeof(float4));
    cudaMemcpy(din, in.data(), in.size() * sizeof(float4), cudaMemcpyHostToDevice);
    float4_stage<<<4, 128>>>(din, dout);
    std::vector<float4> out(in.size());
    cudaMemcpy(out.data(), dout, out.size() * sizeof(float4), cudaMemcpyDeviceToHost);
    for (int b = 0; b < 4; ++b)
      for (int t = 0; t < 128; ++t) FAIL_IF(out[b * 128 + t].x != in[b * 128 + (t + 32) % 128].x, "float4");
  }
  {
    float* d;
    cudaMalloc(&d, 8 * sizeof(float));
    sums_in_function<<<8, 128>>>(d);
    std::vector<float> out(8);
    cudaMemcpy(out.data(), d, 8 * sizeof(float), cudaMemcpyDeviceToHost);
    float expected = 0;
    for (int t = 0; t < 128; ++t) expected += static_cast<float>(t % 7);
    for (float v : out) FAIL_IF(v != expected, "block sum");
  }
  const cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    std::printf("CUDA error: %s\n", cudaGetErrorString(e));
    return 1;
  }
  std::printf(ok ? "all twelve kernels right\n" : "SOME KERNEL WRONG\n");
  return ok ? 0 : 1;
}

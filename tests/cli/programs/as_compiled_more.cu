// More lines nvcc compiles differently from the source, written for
// `banklab run --as-compiled` (not used to make it; measured after it was
// written):
//   butterfly      a thread reads s[2t] and s[2t+1] on two lines and writes
//                  them back on two lines (a Walsh-transform step)
//   row_by_column  a[ty][k] * b[k][tx] over an unrolled k: the row read nvcc
//                  may widen, the column read it cannot
//   running_max    m[t] = fmaxf(m[t], x) in a grid-stride loop, m[t] first
//                  loaded from global memory
//   even_blocks    a store in a branch that whole blocks skip, and a
//                  predicated one after it
// Each kernel's result is checked on the host.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                                     \
  do {                                                                                  \
    cudaError_t err = (call);                                                           \
    if (err != cudaSuccess) {                                                           \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err)); \
      return 1;                                                                         \
    }                                                                                   \
  } while (0)

constexpr int THREADS = 128;
constexpr int TILE = 16;

// data[2i], data[2i+1] -> their sum and difference, in shared memory.
__global__ void butterfly(float* data) {
  __shared__ float s[2 * THREADS];
  const int t = threadIdx.x, base = blockIdx.x * 2 * THREADS;
  s[t] = data[base + t];
  s[t + THREADS] = data[base + t + THREADS];
  __syncthreads();
  const float a = s[2 * t];
  const float b = s[2 * t + 1];
  __syncthreads();
  s[2 * t] = a + b;
  s[2 * t + 1] = a - b;
  __syncthreads();
  data[base + t] = s[t];
  data[base + t + THREADS] = s[t + THREADS];
}

// out = a * b for one TILE x TILE block of each.
__global__ void row_by_column(float* out, const float* a, const float* b) {
  __shared__ float sa[TILE][TILE], sb[TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y, offset = blockIdx.x * TILE * TILE;
  sa[ty][tx] = a[offset + ty * TILE + tx];
  sb[ty][tx] = b[offset + ty * TILE + tx];
  __syncthreads();
  float sum = 0;
#pragma unroll
  for (int k = 0; k < TILE; ++k) sum += sa[ty][k] * sb[k][tx];
  out[offset + ty * TILE + tx] = sum;
}

// out[t] = the largest of in[t], in[t + stride], ... for each thread's slot.
__global__ void running_max(float* out, const float* in, int n) {
  __shared__ float m[THREADS];
  const int t = threadIdx.x, first = blockIdx.x * THREADS + t;
  m[t] = in[first];
  for (int i = first + gridDim.x * THREADS; i < n; i += gridDim.x * THREADS) m[t] = fmaxf(m[t], in[i]);
  __syncthreads();
  out[first] = m[(t + 1) % THREADS];
}

// Even blocks copy in to out through shared memory, and each of their warps'
// first thread also records its value; odd blocks write -1.
__global__ void even_blocks(float* out, float* firsts, const float* in) {
  __shared__ float s[THREADS];
  __shared__ float lead[THREADS / 32];
  const int t = threadIdx.x, i = blockIdx.x * THREADS + t;
  if (blockIdx.x % 2 == 0) {
    s[t] = in[i];
    if (t % 32 == 0) lead[t / 32] = in[i];
    __syncthreads();
    out[i] = s[THREADS - 1 - t];
    if (t < THREADS / 32) firsts[blockIdx.x * (THREADS / 32) + t] = lead[t];
  } else {
    out[i] = -1;
  }
}

int main() {
  bool ok = true;
  const int blocks = 6;
  // butterfly
  {
    const int n = blocks * 2 * THREADS;
    float* host = static_cast<float*>(std::malloc(sizeof(float) * n));
    for (int i = 0; i < n; ++i) host[i] = static_cast<float>(i % 13);
    float* data;
    CHECK(cudaMalloc(&data, sizeof(float) * n));
    CHECK(cudaMemcpy(data, host, sizeof(float) * n, cudaMemcpyHostToDevice));
    butterfly<<<blocks, THREADS>>>(data);
    float* back = static_cast<float*>(std::malloc(sizeof(float) * n));
    CHECK(cudaMemcpy(back, data, sizeof(float) * n, cudaMemcpyDeviceToHost));
    bool right = true;
    for (int i = 0; i < n; i += 2) {
      right = right && back[i] == host[i] + host[i + 1] && back[i + 1] == host[i] - host[i + 1];
    }
    std::printf("butterfly: %s\n", right ? "OK" : "WRONG");
    ok = ok && right;
    CHECK(cudaFree(data));
    std::free(host);
    std::free(back);
  }
  // row_by_column
  {
    const int n = blocks * TILE * TILE;
    float *ha = static_cast<float*>(std::malloc(sizeof(float) * n)), *hb = static_cast<float*>(std::malloc(sizeof(float) * n));
    for (int i = 0; i < n; ++i) {
      ha[i] = static_cast<float>(i % 5);
      hb[i] = static_cast<float>(i % 3);
    }
    float *a, *b, *out;
    CHECK(cudaMalloc(&a, sizeof(float) * n));
    CHECK(cudaMalloc(&b, sizeof(float) * n));
    CHECK(cudaMalloc(&out, sizeof(float) * n));
    CHECK(cudaMemcpy(a, ha, sizeof(float) * n, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(b, hb, sizeof(float) * n, cudaMemcpyHostToDevice));
    row_by_column<<<blocks, dim3(TILE, TILE)>>>(out, a, b);
    float* hout = static_cast<float*>(std::malloc(sizeof(float) * n));
    CHECK(cudaMemcpy(hout, out, sizeof(float) * n, cudaMemcpyDeviceToHost));
    bool right = true;
    for (int blk = 0; blk < blocks; ++blk) {
      const int o = blk * TILE * TILE;
      for (int y = 0; y < TILE; ++y) {
        for (int x = 0; x < TILE; ++x) {
          float sum = 0;
          for (int k = 0; k < TILE; ++k) sum += ha[o + y * TILE + k] * hb[o + k * TILE + x];
          right = right && hout[o + y * TILE + x] == sum;
        }
      }
    }
    std::printf("row_by_column: %s\n", right ? "OK" : "WRONG");
    ok = ok && right;
    CHECK(cudaFree(a));
    CHECK(cudaFree(b));
    CHECK(cudaFree(out));
    std::free(ha);
    std::free(hb);
    std::free(hout);
  }
  // running_max
  {
    const int grid = 2, n = grid * THREADS * 9;
    float* host = static_cast<float*>(std::malloc(sizeof(float) * n));
    for (int i = 0; i < n; ++i) host[i] = static_cast<float>((i * 37) % 101);
    float *in, *out;
    CHECK(cudaMalloc(&in, sizeof(float) * n));
    CHECK(cudaMalloc(&out, sizeof(float) * grid * THREADS));
    CHECK(cudaMemcpy(in, host, sizeof(float) * n, cudaMemcpyHostToDevice));
    running_max<<<grid, THREADS>>>(out, in, n);
    float hout[grid * THREADS];
    CHECK(cudaMemcpy(hout, out, sizeof(hout), cudaMemcpyDeviceToHost));
    bool right = true;
    for (int blk = 0; blk < grid; ++blk) {
      for (int t = 0; t < THREADS; ++t) {
        const int slot = (t + 1) % THREADS;
        float m = host[blk * THREADS + slot];
        for (int i = blk * THREADS + slot + grid * THREADS; i < n; i += grid * THREADS) m = std::fmax(m, host[i]);
        right = right && hout[blk * THREADS + t] == m;
      }
    }
    std::printf("running_max: %s\n", right ? "OK" : "WRONG");
    ok = ok && right;
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
    std::free(host);
  }
  // even_blocks
  {
    const int n = blocks * THREADS, leads = blocks * (THREADS / 32);
    float* host = static_cast<float*>(std::malloc(sizeof(float) * n));
    for (int i = 0; i < n; ++i) host[i] = static_cast<float>(i % 17);
    float *in, *out, *firsts;
    CHECK(cudaMalloc(&in, sizeof(float) * n));
    CHECK(cudaMalloc(&out, sizeof(float) * n));
    CHECK(cudaMalloc(&firsts, sizeof(float) * leads));
    CHECK(cudaMemset(firsts, 0, sizeof(float) * leads));
    CHECK(cudaMemcpy(in, host, sizeof(float) * n, cudaMemcpyHostToDevice));
    even_blocks<<<blocks, THREADS>>>(out, firsts, in);
    float* hout = static_cast<float*>(std::malloc(sizeof(float) * n));
    float* hfirsts = static_cast<float*>(std::malloc(sizeof(float) * leads));
    CHECK(cudaMemcpy(hout, out, sizeof(float) * n, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hfirsts, firsts, sizeof(float) * leads, cudaMemcpyDeviceToHost));
    bool right = true;
    for (int blk = 0; blk < blocks; ++blk) {
      for (int t = 0; t < THREADS; ++t) {
        const float want = blk % 2 == 0 ? host[blk * THREADS + THREADS - 1 - t] : -1.0f;
        right = right && hout[blk * THREADS + t] == want;
      }
      for (int w = 0; w < THREADS / 32; ++w) {
        const float want = blk % 2 == 0 ? host[blk * THREADS + 32 * w] : 0.0f;
        right = right && hfirsts[blk * (THREADS / 32) + w] == want;
      }
    }
    std::printf("even_blocks: %s\n", right ? "OK" : "WRONG");
    ok = ok && right;
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
    CHECK(cudaFree(firsts));
    std::free(host);
    std::free(hout);
    std::free(hfirsts);
  }
  std::printf("%s\n", ok ? "all OK" : "SOME WRONG");
  return ok ? 0 : 1;
}

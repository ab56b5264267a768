// Shared memory written and read by C library calls in kernel code: memcpy,
// memset, and modff's and sincosf's results through their pointers. The library does these accesses itself, where no
// access hook of the CPU build sees them; the build routes the calls to the
// emulator's checked versions, so each is priced at its own line (and no
// read after them is an uninitialised one).
//   banklab run library_stores.cu
#include <cmath>
#include <cstdio>
#include <cstring>

constexpr int kTile = 32;

__global__ void library_stores(float* out, const float* in) {
  __shared__ float tile[kTile][kTile];
  __shared__ float row[kTile];
  const int t = threadIdx.x;
  memcpy(&tile[t][0], &in[t], sizeof(float));  // down a column: 32-way
  memset(&tile[0][t], 0, sizeof(float));       // along a row: conflict-free
  __syncthreads();
  float whole = 0.0f;
  modff(in[t] * 4.0f, &row[t]);  // a row store through modff's pointer
  __syncthreads();
  float s = 0.0f, c = 0.0f;
  sincosf(0.0f, &s, &c);
  whole = row[t] + tile[t][0] + c;  // c = 1
  out[t] = whole;
}

int main() {
  float host_in[kTile], host_out[kTile];
  for (int i = 0; i < kTile; ++i) host_in[i] = 1.25f * static_cast<float>(i + 1);
  float *in = nullptr, *out = nullptr;
  cudaMalloc(&in, sizeof host_in);
  cudaMalloc(&out, sizeof host_out);
  cudaMemcpy(in, host_in, sizeof host_in, cudaMemcpyHostToDevice);
  library_stores<<<1, kTile>>>(out, in);
  cudaMemcpy(host_out, out, sizeof host_out, cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < kTile; ++i) {
    // tile[i][0] is in[i], except tile[0][0], which memset cleared after.
    const float column = i == 0 ? 0.0f : host_in[i];
    const float expected = std::trunc(host_in[i] * 4.0f) + column + 1.0f;
    if (host_out[i] != expected) ++wrong;
  }
  std::printf("library stores: %s (%d wrong)\n", wrong == 0 ? "OK" : "WRONG", wrong);
  cudaFree(in);
  cudaFree(out);
  return wrong == 0 ? 0 : 1;
}

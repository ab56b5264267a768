#include <cstdio>
__global__ void f3(float* o) { __shared__ float x[3]; x[threadIdx.x % 3] = threadIdx.x; __syncthreads(); o[threadIdx.x] = x[(threadIdx.x + 1) % 3]; }
__global__ void c5(char* o) { __shared__ char x[5]; x[threadIdx.x % 5] = threadIdx.x; __syncthreads(); o[threadIdx.x] = x[(threadIdx.x + 1) % 5]; }
__global__ void f3_dyn(float* o) { extern __shared__ float d[]; __shared__ float x[3]; x[threadIdx.x % 3] = threadIdx.x; d[threadIdx.x] = 1; __syncthreads(); o[threadIdx.x] = x[(threadIdx.x + 1) % 3] + d[threadIdx.x ^ 1]; }
__global__ void two(float* o) { __shared__ float a[5]; __shared__ double b[1]; a[threadIdx.x % 5] = threadIdx.x; b[0] = threadIdx.x; __syncthreads(); o[threadIdx.x] = a[(threadIdx.x + 1) % 5] + b[0]; }
template <class F> void show(const char* n, F f) { cudaFuncAttributes a; cudaFuncGetAttributes(&a, f); printf("%s: sharedSizeBytes %zu, maxDynamicSharedSizeBytes %d\n", n, a.sharedSizeBytes, a.maxDynamicSharedSizeBytes); }
int main() { show("float[3]", f3); show("char[5]", c5); show("float[3] + extern", f3_dyn); show("float[5] + double[1]", two); }

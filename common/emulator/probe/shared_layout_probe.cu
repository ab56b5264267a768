// Where nvcc places shared variables: prints, for each case, every variable's
// shared-window offset (__cvta_generic_to_shared) as seen on the GPU. The
// emulator's layout rules (common/emulator/src/layout.cpp) follow these
// numbers; tests/data/gpu/shared_layout_cases.txt keeps a run's output.
//
//   nvcc -arch=sm_90 -o shared_layout_probe shared_layout_probe.cu && ./shared_layout_probe
#include <cstdio>

__device__ unsigned offset_of(const void* p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }

__device__ unsigned* g_out;

#define RECORD(slot, var) \
  if (threadIdx.x == 0) out[slot] = offset_of(&(var))

// 1: two kernel-local arrays of different alignment.
__global__ void local_two(unsigned* out) {
  __shared__ int a[33];
  __shared__ int b[32];
  a[threadIdx.x] = 1;
  b[threadIdx.x] = 2;
  RECORD(0, a);
  RECORD(1, b);
}

// 2: a __shared__ array in a __device__ function, and one in the kernel.
__device__ __noinline__ void in_function(unsigned* out, int slot) {
  __shared__ float f[7];
  f[threadIdx.x % 7] = 1.0f;
  RECORD(slot, f);
}
__global__ void local_and_function(unsigned* out) {
  __shared__ char c[3];
  c[threadIdx.x % 3] = 1;
  in_function(out, 1);
  RECORD(0, c);
}

// 3: file-scope and static file-scope arrays used by a kernel with its own.
__shared__ double g_file[3];
static __shared__ short g_static[5];
__global__ void file_scope(unsigned* out) {
  __shared__ char c[5];
  c[threadIdx.x % 5] = 1;
  g_file[threadIdx.x % 3] = 1.0;
  g_static[threadIdx.x % 5] = 1;
  RECORD(0, c);
  RECORD(1, g_file);
  RECORD(2, g_static);
}

// 4: dynamic shared memory after static arrays of 3 and 5 bytes.
__global__ void dynamic_after_static(unsigned* out) {
  __shared__ char c[3];
  extern __shared__ float dynamic_floats[];
  extern __shared__ float4 dynamic_wide[];
  c[threadIdx.x % 3] = 1;
  dynamic_floats[threadIdx.x] = 1.0f;
  RECORD(0, c);
  RECORD(1, dynamic_floats);
  RECORD(2, dynamic_wide);
}
__global__ void dynamic_only(unsigned* out) {
  extern __shared__ int dynamic_ints[];
  dynamic_ints[threadIdx.x] = 1;
  RECORD(0, dynamic_ints);
}

// 5: a template device function instantiated twice, and an inline one.
template <int N>
__device__ __noinline__ void templated(unsigned* out, int slot) {
  __shared__ int t[N];
  t[threadIdx.x % N] = N;
  RECORD(slot, t);
}
__device__ __forceinline__ void inlined(unsigned* out, int slot) {
  __shared__ char i[9];
  i[threadIdx.x % 9] = 1;
  RECORD(slot, i);
}
__global__ void templates(unsigned* out) {
  __shared__ char c[1];
  c[0] = 1;
  templated<5>(out, 1);
  templated<3>(out, 2);
  inlined(out, 3);
  RECORD(0, c);
}

// 6: two functions called in the opposite order of their definitions.
__device__ __noinline__ void first_defined(unsigned* out, int slot) {
  __shared__ int x[3];
  x[threadIdx.x % 3] = 1;
  RECORD(slot, x);
}
__device__ __noinline__ void second_defined(unsigned* out, int slot) {
  __shared__ int y[5];
  y[threadIdx.x % 5] = 1;
  RECORD(slot, y);
}
__global__ void call_order(unsigned* out) {
  second_defined(out, 0);
  first_defined(out, 1);
}

int main() {
  unsigned* d = nullptr;
  cudaMalloc(&d, 16 * sizeof(unsigned));
  unsigned h[16];
  auto show = [&](const char* name, int count, const char* const* vars) {
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    std::printf("%s:", name);
    for (int i = 0; i < count; ++i) std::printf(" %s at %u", vars[i], h[i]);
    std::printf("\n");
    cudaMemset(d, 0, 16 * sizeof(unsigned));
  };
  const char* v1[] = {"int a[33]", "int b[32]"};
  local_two<<<1, 32>>>(d);
  show("local_two", 2, v1);
  const char* v2[] = {"char c[3] (kernel)", "float f[7] (function)"};
  local_and_function<<<1, 32>>>(d);
  show("local_and_function", 2, v2);
  const char* v3[] = {"char c[5] (kernel)", "double g_file[3] (file)", "short g_static[5] (static file)"};
  file_scope<<<1, 32>>>(d);
  show("file_scope", 3, v3);
  const char* v4[] = {"char c[3]", "extern float[]", "extern float4[]"};
  dynamic_after_static<<<1, 32, 1024>>>(d);
  show("dynamic_after_static", 3, v4);
  const char* v5[] = {"extern int[]"};
  dynamic_only<<<1, 32, 256>>>(d);
  show("dynamic_only", 1, v5);
  const char* v6[] = {"char c[1] (kernel)", "int t[5] (templated<5>)", "int t[3] (templated<3>)", "char i[9] (inline)"};
  templates<<<1, 32>>>(d);
  show("templates", 4, v6);
  const char* v7[] = {"int y[5] (second_defined, called first)", "int x[3] (first_defined, called second)"};
  call_order<<<1, 32>>>(d);
  show("call_order", 2, v7);
  const cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    std::printf("CUDA error: %s\n", cudaGetErrorString(e));
    return 1;
  }
  return 0;
}

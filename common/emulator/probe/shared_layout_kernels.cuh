// Kernels that place shared variables every way CUDA allows; each records
// its variables' shared-window offsets (__cvta_generic_to_shared) in out[].
// Built by nvcc (shared_layout_probe.cu, on a GPU) and by the CPU emulator
// (tests/common/emulator), so that both lay out the same code.
#pragma once

__device__ unsigned offset_of(const void* p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }

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


// 7: types of every alignment in one kernel, in declaration order.
struct PairFloatDouble {
  float a;
  double b;
};
__global__ void mixed_alignments(unsigned* out) {
  __shared__ char c[3];
  __shared__ float4 v[2];
  __shared__ PairFloatDouble p[1];
  __shared__ short h[3];
  __shared__ int i[5];
  __shared__ double2 d[1];
  c[threadIdx.x % 3] = 1;
  v[threadIdx.x % 2] = make_float4(1, 2, 3, 4);
  p[0].a = 1;
  h[threadIdx.x % 3] = 1;
  i[threadIdx.x % 5] = 1;
  d[0].x = 1;
  RECORD(0, c);
  RECORD(1, v);
  RECORD(2, p);
  RECORD(3, h);
  RECORD(4, i);
  RECORD(5, d);
}

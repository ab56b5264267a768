// Kernels for the emulator's alignment tests: vector accesses (float2, float4,
// double2) through shared arrays declared with less alignment than the
// access, and the declarations that give it.
#include <cuda_runtime.h>

// The kernel's only array starts at offset 0, so the read happens to be
// aligned, but a float array is only 4-byte aligned: another layout (an
// array before it) makes it fault on a GPU.
__global__ void float4_cast_of_float_array(float* out) {
  __shared__ float staged[128];
  staged[threadIdx.x] = static_cast<float>(threadIdx.x);
  __syncthreads();
  if (threadIdx.x < 32) {
    const float4 v = reinterpret_cast<const float4*>(staged)[threadIdx.x];  // FLOAT4_OF_FLOAT
    out[threadIdx.x] = v.x + v.y + v.z + v.w;
  }
}

// The same with the alignment declared: no finding.
__global__ void float4_cast_of_aligned_float_array(float* out) {
  __shared__ __align__(16) float staged[128];
  staged[threadIdx.x] = static_cast<float>(threadIdx.x);
  __syncthreads();
  if (threadIdx.x < 32) {
    const float4 v = reinterpret_cast<const float4*>(staged)[threadIdx.x];
    out[threadIdx.x] = v.x + v.y + v.z + v.w;
  }
}

// A float4 array read as floats, and written as float4: no finding.
__global__ void float_reads_of_float4_array(float* out) {
  __shared__ float4 quads[32];
  if (threadIdx.x < 32) quads[threadIdx.x] = make_float4(1.0f, 2.0f, 3.0f, static_cast<float>(threadIdx.x));
  __syncthreads();
  out[threadIdx.x] = reinterpret_cast<const float*>(quads)[threadIdx.x];
}

// A float array read as float2 (8 bytes, LDS.64 on a GPU): a finding too.
__global__ void float2_cast_of_float_array(float* out) {
  __shared__ float pairs[64];
  pairs[threadIdx.x] = static_cast<float>(threadIdx.x);
  pairs[threadIdx.x + 32] = 0.0f;
  __syncthreads();
  const float2 v = reinterpret_cast<const float2*>(pairs)[threadIdx.x];  // FLOAT2_OF_FLOAT
  out[threadIdx.x] = v.x + v.y;
}

// A double array (8-byte aligned) read as double2 (16 bytes): a finding.
__global__ void double2_cast_of_double_array(double* out) {
  __shared__ double d[64];
  d[threadIdx.x] = static_cast<double>(threadIdx.x);
  d[threadIdx.x + 32] = 0.0;
  __syncthreads();
  const double2 v = reinterpret_cast<const double2*>(d)[threadIdx.x];  // DOUBLE2_OF_DOUBLE
  out[threadIdx.x] = v.x + v.y;
}

// An __align__(16) array after a float: nvcc places it at offset 16, not 4.
__global__ void aligned_after_float(float* out) {
  __shared__ float first;
  __shared__ __align__(16) float second[4];
  if (threadIdx.x == 0) first = 1.0f;
  if (threadIdx.x < 4) second[threadIdx.x] = 2.0f;
  __syncthreads();
  out[threadIdx.x] = first + second[threadIdx.x % 4];
}

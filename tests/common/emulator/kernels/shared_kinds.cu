// Shared memory declared every way CUDA allows, for the emulator's tests: the
// layout probe's kernels (measured on an H200) and a few more.
#include "../../../../common/emulator/probe/shared_layout_kernels.cuh"

// A kernel with C linkage and its own array.
extern "C" __global__ void c_linkage_kernel(unsigned* out) {
  __shared__ int values[64];
  values[threadIdx.x] = static_cast<int>(threadIdx.x);
  values[threadIdx.x + 32] = static_cast<int>(threadIdx.x + 32);
  __syncthreads();
  out[threadIdx.x] = static_cast<unsigned>(values[63 - threadIdx.x]);  // C_LINKAGE_READ
}

// Dynamic shared memory used as a reversed copy: the size comes from the launch.
__global__ void reverse_dynamic(float* data, int n) {
  extern __shared__ float staged[];
  const int i = static_cast<int>(threadIdx.x);
  if (i < n) staged[i] = data[i];
  __syncthreads();
  if (i < n) data[i] = staged[n - 1 - i];
}

// Dynamic shared memory indexed past the size the launch gave.
__global__ void dynamic_past_launch_size(float* data) {
  extern __shared__ float staged[];
  staged[threadIdx.x + 32] = 1.0f;  // DYNAMIC_PAST_END
  __syncthreads();
  data[threadIdx.x] = staged[threadIdx.x + 32];
}

// A template device function with a shared array and a barrier, called twice.
template <int N>
__device__ float block_sum(float value) {
  __shared__ float partial[N];
  partial[threadIdx.x] = value;
  __syncthreads();
  float sum = 0.0f;
  for (int i = 0; i < N; ++i) sum += partial[i];  // TEMPLATE_SHARED_READ
  __syncthreads();
  return sum;
}
__global__ void sums_in_template(float* out) {
  const float a = block_sum<32>(1.0f);
  const float b = block_sum<32>(static_cast<float>(threadIdx.x));
  out[threadIdx.x] = a + b;
}

// A race on a file-scope shared variable (no barrier between write and read).
__shared__ int g_race_slot[32];
__global__ void file_scope_race(int* out) {
  g_race_slot[threadIdx.x] = static_cast<int>(threadIdx.x);
  out[threadIdx.x] = g_race_slot[(threadIdx.x + 1) % 32];  // FILE_SCOPE_RACE
}

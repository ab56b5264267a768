// A kernel and the helper that launches it, in a folder apart from the program.
#pragma once

__global__ void double_all(float* data) {
  __shared__ float staged[64];
  const int i = blockIdx.x * 64 + threadIdx.x;
  staged[threadIdx.x] = 2.0f * data[i];
  __syncthreads();
  data[i] = staged[threadIdx.x];  // DOUBLE_READ
}

inline void launch_double(float* data, int n) { double_all<<<n / 64, 64>>>(data); }

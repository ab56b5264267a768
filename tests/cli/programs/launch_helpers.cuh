// A header with a kernel and the host function that launches it, as many
// CUDA samples are organised: banklab run rewrites launches here too.
#pragma once

__global__ void add_one(int* data) {
  __shared__ int staged[64];
  staged[threadIdx.x] = data[threadIdx.x];
  __syncthreads();
  data[threadIdx.x] = staged[threadIdx.x] + 1;  // HEADER_READ
}

inline void add_one_on_device(int* data) { add_one<<<1, 64>>>(data); }

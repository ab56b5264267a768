// The kernels of the multi-file program (see main.cpp): one launched through
// a helper header of another folder, one through cudaLaunchKernel.
#include "checks.h"
#include "double_launch.cuh"

#ifndef __CUDACC__
#error "kernels.cu is CUDA: __CUDACC__ must be defined, as nvcc defines it"
#endif

__global__ void reverse_block(float* data) {
  __shared__ float staged[64];
  const int base = blockIdx.x * 64;
  staged[threadIdx.x] = data[base + threadIdx.x];
  __syncthreads();
  data[base + threadIdx.x] = staged[63 - threadIdx.x];  // REVERSE_READ
}

void double_on_device(float* data, int n) { launch_double(data, n); }

void reverse_on_device(float* data, int n, bool untyped_call) {
  void* args[] = {&data};
  if (untyped_call) {
    // A kernel pointer whose type is gone: the emulator must say it cannot call it.
    const void* kernel = reinterpret_cast<const void*>(reverse_block);
    CHECK_CUDA(cudaLaunchKernel(kernel, dim3(n / 64), dim3(64), args, 0, 0));
  } else {
    CHECK_CUDA(cudaLaunchKernel((void *)reverse_block, dim3(n / 64), dim3(64), args, 0, 0));
  }
  CHECK_CUDA(cudaDeviceSynchronize());
}

// Constant memory through the symbol calls: copied in, its address taken, copied back.
__constant__ float scale_table[4];

bool symbols_round_trip() {
  const float in[4] = {1.0f, 2.0f, 3.0f, 4.0f};
  float out[4] = {};
  void* address = nullptr;
  size_t size = 0;
  CHECK_CUDA(cudaMemcpyToSymbolAsync(scale_table, in, sizeof in, 0, cudaMemcpyHostToDevice, 0));
  CHECK_CUDA(cudaGetSymbolAddress(&address, scale_table));
  CHECK_CUDA(cudaGetSymbolSize(&size, scale_table));
  CHECK_CUDA(cudaMemcpyFromSymbolAsync(out, scale_table, sizeof out, 0, cudaMemcpyDeviceToHost, 0));
  float through_address[4] = {};  // a device address: read with cudaMemcpy, never dereferenced on the host
  CHECK_CUDA(cudaMemcpy(through_address, address, sizeof through_address, cudaMemcpyDeviceToHost));
  return size == sizeof in && out[0] == 1.0f && out[3] == 4.0f && through_address[3] == 4.0f;
}

// Error checks and device queries as sample helper headers write them: they
// test the CUDA runtime's include guards and version first.
#pragma once
#include <cstdio>
#include <cstdlib>

#if !defined(__DRIVER_TYPES_H__) || !defined(__CUDA_RUNTIME_H__)
#error "the CUDA runtime headers are not included"
#endif
#if CUDART_VERSION < 11000
#error "CUDA 11 or later"
#endif

#define CHECK_CUDA(call) check_cuda((call), #call, __FILE__, __LINE__)

inline void check_cuda(cudaError_t error, const char* call, const char* file, int line) {
  if (error != cudaSuccess) {
    std::fprintf(stderr, "CUDA error %s (%s) at %s:%d: %s\n", cudaGetErrorName(error), cudaGetErrorString(error),
                 file, line, call);
    std::exit(EXIT_FAILURE);
  }
}

inline void print_device() {
  int mode = -1, major = 0, minor = 0, sms = 0;
  CHECK_CUDA(cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, 0));
  CHECK_CUDA(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0));
  CHECK_CUDA(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, 0));
  CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  if (mode == cudaComputeModeProhibited) std::exit(EXIT_FAILURE);
  std::printf("device: compute capability %d.%d, %d multiprocessors\n", major, minor, sms);
}

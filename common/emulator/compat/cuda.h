// Lets `#include <cuda.h>` resolve to the CPU emulator's headers. In a CUDA
// file (nvcc defines __CUDACC__, and so does banklab run) that is everything
// device code may use; in a host file (a .cpp, which nvcc leaves to the host
// compiler) only what CUDA's headers give host code: the qualifiers, the
// types, the runtime API and typed kernel launches, so that host code may
// define names of its own that device code has (umin, min, ...).
#pragma once
#if defined(__CUDACC__)
#include "banklab/cuda_host.hpp"
#else
#include "banklab/cuda_host_code.hpp"
#include "banklab/cuda_launch.hpp"
#endif

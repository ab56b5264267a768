// What a host-only source file sees of CUDA through <cuda_runtime.h>: the
// qualifiers, the vector types and dim3, and the runtime API, as CUDA's own
// headers give them to a .cpp file that nvcc leaves to the host compiler.
// No device functions (min, umin, intrinsics), atomics or built-in variables:
// host code may define those names for itself, as it may with CUDA.
// cuda_host.hpp, which CUDA files get, includes this and adds device code.
#pragma once

#include "banklab/cuda_types.hpp"

// libstdc++ writes __attribute__((__noinline__)) in <bits/shared_ptr_base.h>
// (12 and 13, through <memory>) and <bits/basic_string.h> (13, through
// <string>, which <iostream>, <fstream> and <sstream> include): those are
// read here, before __noinline__ becomes a macro below, so that a kernel file
// may include any of them (checked with g++ 13 on the GPU machine).
#include <functional>  // cuda_graph.hpp's, read before the macros too
#include <memory>
#include <string>

// ---- qualifiers --------------------------------------------------------------
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __restrict__ __restrict
#define __launch_bounds__(...)
// A __shared__ variable is a thread_local of the program: every declaration
// CUDA allows stays valid C++ (in a kernel or a device function, at file scope,
// `static __shared__`, `extern __shared__ T name[]` for dynamic shared memory),
// and the runtime knows an access is a shared access because its address lies
// in the program's thread-local block (the CUDA threads of a block are fibers
// of one OS thread; each OS thread running blocks has its own copy). `used` keeps write-only arrays (and their stores) from being
// deleted. The host copy has the alignment its declaration guarantees, as on
// a GPU (a float array 4 bytes, `__align__(16) float` or a float4 array 16):
// the runtime stops a launch at a wider access (a float4 cast of a float
// array) before it runs, the latent misalignment nvcc does not promise to
// hide (common/emulator/src/trace.cpp, report_underaligned).
#define __shared__ __attribute__((used)) thread_local
#define __align__(n) __attribute__((aligned(n)))

// Constant memory is ordinary memory the kernel reads (its bank costs are not
// shared memory's); cudaMemcpyToSymbol copies into it.
#define __constant__
// Constructs the emulator does not run: a clear compile error naming them.
#define __managed__ static_assert(false, "the BankLab CPU emulator does not support __managed__ memory");

// ---- the host-side runtime API ------------------------------------------------
#include "banklab/cuda_runtime_api.hpp"
#include "banklab/cuda_texture.hpp"
#include "banklab/cuda_graph.hpp"

// A kernel file that includes the standard stream headers and uses
// __noinline__: it must build for the emulator with GCC 12 and GCC 13 (whose
// libstdc++ writes __attribute__((__noinline__)) in <bits/shared_ptr_base.h>).
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

__device__ __noinline__ float twice(float v) { return 2.0f * v; }

__global__ void scale(float* x) { x[threadIdx.x] = twice(x[threadIdx.x]); }

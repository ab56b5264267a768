// Stage 4: the functions and kernels of the student's file
// (labs/04-xor-swizzle/swizzle.cu) as the runners call them; the launch
// shapes and task B's input and CPU reference are in task_data.hpp, which
// the grader shares.
#pragma once

#include "task_data.hpp"

#if defined(__CUDACC__)
#define LAB04_HOST_DEVICE __host__ __device__
#define LAB04_GLOBAL __global__
#else
#define LAB04_HOST_DEVICE
#define LAB04_GLOBAL
#endif

LAB04_HOST_DEVICE int swizzle(int row, int col);
LAB04_HOST_DEVICE int swizzle_chunk(int row, int chunk);
LAB04_GLOBAL void transpose_swizzled(float* out, const float* in, int width, int height);
LAB04_GLOBAL void chunk_transpose_swizzled(float4* out, const float4* in, int passes);


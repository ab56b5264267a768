// Stage 2: the functions and kernels of the student's file
// (labs/02-stride-gcd/stride.cu) as the runners call them; the launch
// shapes and inputs are in task_data.hpp, which the grader shares.
#pragma once

#include "task_data.hpp"

#if defined(__CUDACC__)
#define LAB02_HOST_DEVICE __host__ __device__
#define LAB02_GLOBAL __global__
#else
#define LAB02_HOST_DEVICE
#define LAB02_GLOBAL
#endif

struct Particle {
  float x, y, z, w;
};

LAB02_HOST_DEVICE int conflict_degree(int stride, int active_lanes);
LAB02_GLOBAL void row_sums(float* sums, const float* in, int rows);
LAB02_GLOBAL void neighbour_distances(float* out, const Particle* in, int n);
LAB02_GLOBAL void transpose16(float* out, const float* in, int width, int height);
extern int predicted_wavefronts[];


// Stage 6: the kernels of the student's file (labs/06-capstone/capstone.cu)
// as the runners call them, and its diagnosis; their launch shapes, inputs
// and CPU references are in task_data.hpp, which the grader shares.
#pragma once

#include "task_data.hpp"

#if defined(__CUDACC__)
#define LAB06_GLOBAL __global__
#else
#define LAB06_GLOBAL
#endif

LAB06_GLOBAL void reduce_sum(int* block_sums, const int* in, int n);
LAB06_GLOBAL void scan_segments(int* out, const int* in, int n);
LAB06_GLOBAL void gemm_tiled(float* c, const float* a, const float* b, int m, int n, int k);
LAB06_GLOBAL void histogram32(unsigned* block_bins, const unsigned* data, int n);
LAB06_GLOBAL void stencil_cross(int* out, const int* in, int width, int height);
extern int diagnosis[20][3];

namespace lab06 {
inline constexpr int kDiagnosisRows = 20;
}

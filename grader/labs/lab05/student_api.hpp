// Stage 5: the kernels of the student's file (labs/05-wide-types/wide.cu)
// as the runners call them; their launch shapes, inputs and CPU references
// are in task_data.hpp, which the grader shares.
#pragma once

#include "predictions.hpp"
#include "task_data.hpp"

#if defined(__CUDACC__)
#define LAB05_GLOBAL __global__
#else
#define LAB05_GLOBAL
#endif

LAB05_GLOBAL void poly_eval(float* out, const float* x, const float* coefficients, int n);
LAB05_GLOBAL void transpose_double(double* out, const double* in, int width, int height);
LAB05_GLOBAL void transpose_half(half* out, const half* in, int width, int height);
LAB05_GLOBAL void sum_quads(float* out, const float* in, int n_quads, int passes);
extern int predicted_wavefronts[];


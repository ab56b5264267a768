// Stage 5's interface contract: the four kernels and the ten predictions of the student's file
// (labs/05-wide-types/wide.cu), as the runners declare them (student_api.hpp); the source check
// verifies the file's declarations against it before the build.
#include "contract.hpp"

namespace {

using banklab::grader::Contract;
using banklab::grader::ContractItem;
using Kind = ContractItem::Kind;

// Check names: a name ending in '*' stands for every check it begins.
Contract make_contract() {
  Contract c;
  c.lab = 5;
  c.items = {
      {Kind::kKernel, "poly_eval", "void (float *, const float *, const float *, int)", "__global__ void poly_eval(float* out, const float* x, const float* coefficients, int n)",
       "__global__ void poly_eval(float*, const float*, const float*, int) {}", {"poly_eval*", "Nsight*"}},
      {Kind::kKernel, "transpose_double", "void (double *, const double *, int, int)", "__global__ void transpose_double(double* out, const double* in, int width, int height)",
       "__global__ void transpose_double(double*, const double*, int, int) {}", {"transpose_double*", "Nsight*"}},
      {Kind::kKernel, "transpose_half", "void (__half *, const __half *, int, int)", "__global__ void transpose_half(half* out, const half* in, int width, int height)",
       "__global__ void transpose_half(half*, const half*, int, int) {}", {"transpose_half*", "Nsight*"}},
      {Kind::kKernel, "sum_quads", "void (float *, const float *, int, int)", "__global__ void sum_quads(float* out, const float* in, int n_quads, int passes)",
       "__global__ void sum_quads(float*, const float*, int, int) {}", {"sum_quads*", "Nsight*"}},
      {Kind::kArray, "predicted_wavefronts", "int[10]", "int predicted_wavefronts[10]",
       "int predicted_wavefronts[10] = {};", {"prediction*"}},
  };
  return c;
}

}  // namespace

BANKLAB_REGISTER_CONTRACT(5, make_contract);

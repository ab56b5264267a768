// Stage 2's interface contract: the function, the three kernels and the predictions of the
// student's file (labs/02-stride-gcd/stride.cu), as the runners declare them (student_api.hpp); the
// source check verifies the file's declarations against it before the build.
#include "contract.hpp"

namespace {

using banklab::grader::Contract;
using banklab::grader::ContractItem;
using Kind = ContractItem::Kind;

// Check names: a name ending in '*' stands for every check it begins.
Contract make_contract() {
  Contract c;
  c.lab = 2;
  c.items = {
      {Kind::kDeviceFunction, "conflict_degree", "int (int, int)", "__host__ __device__ int conflict_degree(int stride, int active_lanes)",
       "__host__ __device__ int conflict_degree(int, int) { return -1; }", {"conflict_degree*"}},
      {Kind::kKernel, "row_sums", "void (float *, const float *, int)", "__global__ void row_sums(float* sums, const float* in, int rows)",
       "__global__ void row_sums(float*, const float*, int) {}", {"row_sums*"}},
      {Kind::kKernel, "neighbour_distances", "void (float *, const Particle *, int)", "__global__ void neighbour_distances(float* out, const Particle* in, int n)",
       "__global__ void neighbour_distances(float*, const struct Particle*, int) {}", {"neighbour_distances*"}},
      {Kind::kKernel, "transpose16", "void (float *, const float *, int, int)", "__global__ void transpose16(float* out, const float* in, int width, int height)",
       "__global__ void transpose16(float*, const float*, int, int) {}", {"transpose16*"}},
      {Kind::kArray, "predicted_wavefronts", "int[10]", "int predicted_wavefronts[10]",
       "int predicted_wavefronts[10] = {};", {"prediction*"}},
  };
  return c;
}

}  // namespace

BANKLAB_REGISTER_CONTRACT(2, make_contract);

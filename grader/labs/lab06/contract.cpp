// Stage 6's interface contract: the five kernels and the diagnosis of the
// student's file (labs/06-capstone/capstone.cu), as the runners declare them
// (student_api.hpp); the source check verifies the file's declarations
// against it before the build.
#include "contract.hpp"

namespace {

using banklab::grader::Contract;
using Kind = banklab::grader::ContractItem::Kind;

// Check names: a name ending in '*' stands for every check it begins.
Contract make_contract() {
  Contract c;
  c.lab = 6;
  c.items = {
      {Kind::kKernel, "reduce_sum", "void (int *, const int *, int)",
       "__global__ void reduce_sum(int* block_sums, const int* in, int n)",
       "__global__ void reduce_sum(int*, const int*, int) {}", {"reduce_sum*", "Nsight*"}},
      {Kind::kKernel, "scan_segments", "void (int *, const int *, int)",
       "__global__ void scan_segments(int* out, const int* in, int n)",
       "__global__ void scan_segments(int*, const int*, int) {}", {"scan_segments*", "Nsight*"}},
      {Kind::kKernel, "gemm_tiled", "void (float *, const float *, const float *, int, int, int)",
       "__global__ void gemm_tiled(float* c, const float* a, const float* b, int m, int n, int k)",
       "__global__ void gemm_tiled(float*, const float*, const float*, int, int, int) {}", {"gemm_tiled*", "Nsight*"}},
      {Kind::kKernel, "histogram32", "void (unsigned int *, const unsigned int *, int)",
       "__global__ void histogram32(unsigned* block_bins, const unsigned* data, int n)",
       "__global__ void histogram32(unsigned*, const unsigned*, int) {}", {"histogram32*", "Nsight*"}},
      {Kind::kKernel, "stencil_cross", "void (int *, const int *, int, int)",
       "__global__ void stencil_cross(int* out, const int* in, int width, int height)",
       "__global__ void stencil_cross(int*, const int*, int, int) {}", {"stencil_cross*", "Nsight*"}},
      {Kind::kArray, "diagnosis", "int[20][3]", "int diagnosis[20][3]", "int diagnosis[20][3] = {};",
       {"diagnosis*"}},
  };
  return c;
}

}  // namespace

BANKLAB_REGISTER_CONTRACT(6, make_contract);

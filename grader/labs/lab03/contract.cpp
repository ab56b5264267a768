// Stage 3's interface contract: the padded transpose kernel and the two predictions of the
// student's file (labs/03-padded-transpose/transpose.cu), as the runners declare them
// (cpu_runner.cpp, gpu_runner.cu); the source check verifies the file's declarations against it
// before the build.
#include "contract.hpp"

namespace {

using banklab::grader::Contract;
using banklab::grader::ContractItem;
using Kind = ContractItem::Kind;

// Check names: a name ending in '*' stands for every check it begins.
Contract make_contract() {
  Contract c;
  c.lab = 3;
  c.items = {
      {Kind::kKernel, "transpose_padded", "void (float *, const float *, int, int)", "__global__ void transpose_padded(float* out, const float* in, int width, int height)",
       "__global__ void transpose_padded(float*, const float*, int, int) {}", {"transpose*", "no *", "tile *", "shared memory*", "at least*", "at most*", "Nsight*"}},
      {Kind::kArray, "predicted_wavefronts", "int[2]", "int predicted_wavefronts[2]",
       "int predicted_wavefronts[2] = {};", {"prediction*"}},
  };
  return c;
}

}  // namespace

BANKLAB_REGISTER_CONTRACT(3, make_contract);

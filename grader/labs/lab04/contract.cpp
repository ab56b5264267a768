// Stage 4's interface contract: the two swizzle functions and the two kernels of the student's file
// (labs/04-xor-swizzle/swizzle.cu), as the runners declare them (student_api.hpp); the source check
// verifies the file's declarations against it before the build.
#include "contract.hpp"

namespace {

using banklab::grader::Contract;
using banklab::grader::ContractItem;
using Kind = ContractItem::Kind;

// Check names: a name ending in '*' stands for every check it begins.
Contract make_contract() {
  Contract c;
  c.lab = 4;
  c.items = {
      {Kind::kDeviceFunction, "swizzle", "int (int, int)", "__host__ __device__ int swizzle(int row, int col)",
       "__host__ __device__ int swizzle(int, int) { return -1; }", {"swizzle *"}},
      {Kind::kDeviceFunction, "swizzle_chunk", "int (int, int)", "__host__ __device__ int swizzle_chunk(int row, int chunk)",
       "__host__ __device__ int swizzle_chunk(int, int) { return -1; }", {"swizzle_chunk*"}},
      {Kind::kKernel, "transpose_swizzled", "void (float *, const float *, int, int)", "__global__ void transpose_swizzled(float* out, const float* in, int width, int height)",
       "__global__ void transpose_swizzled(float*, const float*, int, int) {}", {"transpose_swizzled*", "Nsight*"}},
      {Kind::kKernel, "chunk_transpose_swizzled", "void (float4 *, const float4 *, int)", "__global__ void chunk_transpose_swizzled(float4* out, const float4* in, int passes)",
       "__global__ void chunk_transpose_swizzled(float4*, const float4*, int) {}", {"chunk_transpose_swizzled*", "Nsight*"}},
  };
  return c;
}

}  // namespace

BANKLAB_REGISTER_CONTRACT(4, make_contract);

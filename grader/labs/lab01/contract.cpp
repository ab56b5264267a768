// Stage 1's interface contract: the mapping and puzzle functions and the predictions of the
// student's file (labs/01-bank-mapping/bank_mapping.cu), as the runners declare them
// (student_api.hpp); the source check verifies the file's declarations against it before the build.
#include "contract.hpp"

namespace {

using banklab::grader::Contract;
using banklab::grader::ContractItem;
using Kind = ContractItem::Kind;

// Check names: a name ending in '*' stands for every check it begins.
Contract make_contract() {
  Contract c;
  c.lab = 1;
  c.items = {
      {Kind::kDeviceFunction, "word_of", "int (int)", "__host__ __device__ int word_of(int byte_offset)",
       "__host__ __device__ int word_of(int) { return -1; }", {"word_of*"}},
      {Kind::kDeviceFunction, "bank_of", "int (int)", "__host__ __device__ int bank_of(int byte_offset)",
       "__host__ __device__ int bank_of(int) { return -1; }", {"bank_of*"}},
      {Kind::kDeviceFunction, "puzzle_conflict_free", "int (int)", "__host__ __device__ int puzzle_conflict_free(int lane)",
       "__host__ __device__ int puzzle_conflict_free(int) { return -1; }", {"puzzle 1,*", "puzzle loads*"}},
      {Kind::kDeviceFunction, "puzzle_broadcast", "int (int)", "__host__ __device__ int puzzle_broadcast(int lane)",
       "__host__ __device__ int puzzle_broadcast(int) { return -1; }", {"puzzle 2,*", "puzzle loads*"}},
      {Kind::kDeviceFunction, "puzzle_multicast", "int (int)", "__host__ __device__ int puzzle_multicast(int lane)",
       "__host__ __device__ int puzzle_multicast(int) { return -1; }", {"puzzle 3,*", "puzzle loads*"}},
      {Kind::kDeviceFunction, "puzzle_two_way", "int (int)", "__host__ __device__ int puzzle_two_way(int lane)",
       "__host__ __device__ int puzzle_two_way(int) { return -1; }", {"puzzle 4,*", "puzzle loads*"}},
      {Kind::kDeviceFunction, "puzzle_four_way", "int (int)", "__host__ __device__ int puzzle_four_way(int lane)",
       "__host__ __device__ int puzzle_four_way(int) { return -1; }", {"puzzle 5,*", "puzzle loads*"}},
      {Kind::kDeviceFunction, "puzzle_thirty_two_way", "int (int)", "__host__ __device__ int puzzle_thirty_two_way(int lane)",
       "__host__ __device__ int puzzle_thirty_two_way(int) { return -1; }", {"puzzle 6,*", "puzzle loads*"}},
      {Kind::kDeviceFunction, "puzzle_one_bank_four_words", "int (int)", "__host__ __device__ int puzzle_one_bank_four_words(int lane)",
       "__host__ __device__ int puzzle_one_bank_four_words(int) { return -1; }", {"puzzle 7,*", "puzzle loads*"}},
      {Kind::kDeviceFunction, "puzzle_bytes", "int (int)", "__host__ __device__ int puzzle_bytes(int lane)",
       "__host__ __device__ int puzzle_bytes(int) { return -1; }", {"puzzle 8,*", "puzzle loads*"}},
      {Kind::kDeviceFunction, "puzzle_halves", "int (int)", "__host__ __device__ int puzzle_halves(int lane)",
       "__host__ __device__ int puzzle_halves(int) { return -1; }", {"puzzle 9,*", "puzzle loads*"}},
      {Kind::kDeviceFunction, "puzzle_partial_warp", "int (int)", "__host__ __device__ int puzzle_partial_warp(int lane)",
       "__host__ __device__ int puzzle_partial_warp(int) { return -1; }", {"puzzle 10,*", "puzzle loads*"}},
      {Kind::kArray, "predicted_wavefronts", "int[10]", "int predicted_wavefronts[10]",
       "int predicted_wavefronts[10] = {};", {"prediction*"}},
  };
  return c;
}

}  // namespace

BANKLAB_REGISTER_CONTRACT(1, make_contract);

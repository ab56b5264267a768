// Stage 1 as a whole program (written by `grader --lab 1 --export-program`):
// your word_of and bank_of from @LAB_FILE@ on the GPU over the first 4096
// byte offsets, and each puzzle's offsets loaded by one warp from shared
// memory at the puzzle's width, one launch per puzzle (profile these).
//   ./program
#include "@LAB_FILE@"

#include "program_common.cuh"
#include "student_api.hpp"

__global__ void evaluate_mapping(int* words, int* banks, int count) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < count) {
    words[i] = word_of(i);
    banks[i] = bank_of(i);
  }
}

__device__ int puzzle_offset(int puzzle, int lane) {
  switch (puzzle) {
    case 0: return puzzle_conflict_free(lane);
    case 1: return puzzle_broadcast(lane);
    case 2: return puzzle_multicast(lane);
    case 3: return puzzle_two_way(lane);
    case 4: return puzzle_four_way(lane);
    case 5: return puzzle_thirty_two_way(lane);
    case 6: return puzzle_one_bank_four_words(lane);
    case 7: return puzzle_bytes(lane);
    case 8: return puzzle_halves(lane);
    default: return puzzle_partial_warp(lane);
  }
}

// One warp; lane l loads `width` bytes at puzzle(l) (-1: the lane sits out).
__global__ void puzzle_load(int puzzle, int width, unsigned* sink) {
  alignas(16) __shared__ unsigned char bytes[lab01::kSharedBytes];
  const int lane = static_cast<int>(threadIdx.x);
  for (int i = lane; i < lab01::kSharedBytes; i += 32) bytes[i] = static_cast<unsigned char>(i);
  __syncthreads();
  const int offset = puzzle_offset(puzzle, lane);
  if (offset < 0 || offset > lab01::kSharedBytes - width) return;
  unsigned value = 0;
  if (width == 1) value = bytes[offset];
  else if (width == 2) value = *reinterpret_cast<const unsigned short*>(bytes + offset);
  else if (width == 4) value = *reinterpret_cast<const unsigned*>(bytes + offset);
  else if (width == 8) value = reinterpret_cast<const uint2*>(bytes + offset)->x;
  else value = reinterpret_cast<const uint4*>(bytes + offset)->x;
  sink[lane] = value;
}

int main() {
  constexpr int kCount = 4096;
  int* words = program::device_buffer<int>(kCount);
  int* banks = program::device_buffer<int>(kCount);
  evaluate_mapping<<<kCount / 256, 256>>>(words, banks, kCount);
  const std::vector<int> w = program::finish("word_of", words, kCount);
  const std::vector<int> b = program::finish("bank_of", banks, kCount);
  std::vector<int> expected_w(kCount), expected_b(kCount);
  for (int i = 0; i < kCount; ++i) expected_w[i] = i / 4, expected_b[i] = (i / 4) % 32;
  program::compare("word_of", w, expected_w);
  program::compare("bank_of", b, expected_b);
  unsigned* sink = program::device_buffer<unsigned>(32);
  for (int p = 0; p < lab01::kPuzzleCount; ++p) {
    puzzle_load<<<1, 32>>>(p, lab01::kPuzzles[p].width_bytes, sink);
    program::finish(lab01::kPuzzles[p].name, sink, 32);
  }
  PROGRAM_CHECK(cudaFree(words));
  PROGRAM_CHECK(cudaFree(banks));
  PROGRAM_CHECK(cudaFree(sink));
  return 0;
}

// Stage 1, bank mapping: the puzzles (name, width, target wavefronts) and the
// number of predictions; shared by the CPU runner, the GPU runner and the
// rubric, so that the three agree on every puzzle. student_api.hpp declares
// the student's functions.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

namespace lab01 {

/// The harness kernel's __shared__ array: puzzle offsets must lie inside it.
inline constexpr int kSharedBytes = 4096;
/// word_of and bank_of are checked on every byte offset below this: a
/// block's whole opt-in shared memory on an H200 (227 KiB, 232,448 bytes)...
inline constexpr int kOffsetsChecked = 232448;
/// ...and on this many random offsets above it, up to 2^31 - 1.
inline constexpr int kRandomOffsets = 4096;

/// The offsets word_of and bank_of are called on, in order: every one below
/// kOffsetsChecked, then kRandomOffsets drawn from the seed. The runners call
/// the student's functions on these; the grader makes the same list from
/// the same seed and compares the values with the bank rule itself.
inline std::vector<int> function_offsets(std::uint64_t seed) {
  std::vector<int> offsets(kOffsetsChecked);
  for (int i = 0; i < kOffsetsChecked; ++i) offsets[static_cast<std::size_t>(i)] = i;
  std::mt19937_64 rng(seed * 0x9e3779b97f4a7c15ull + 1);
  std::uniform_int_distribution<int> above(kOffsetsChecked, 0x7fffffff);
  for (int i = 0; i < kRandomOffsets; ++i) offsets.push_back(above(rng));
  return offsets;
}
inline constexpr int kPredictions = 10;

struct PuzzleSpec {
  const char* name;      ///< as the lab file's heading says it
  int width_bytes;       ///< of the harness's load
  int target;            ///< wavefronts the load must cost
};

inline constexpr int kPuzzleCount = 10;
inline constexpr PuzzleSpec kPuzzles[kPuzzleCount] = {
    {"conflict free", 4, 1},
    {"broadcast", 4, 1},
    {"multicast", 4, 1},
    {"two way", 4, 2},
    {"four way", 4, 4},
    {"thirty two way", 4, 32},
    {"one bank four words", 4, 4},
    {"bytes", 1, 1},
    {"halves", 2, 1},
    {"partial warp", 4, 8},
};

/// "" when every lane's offset is -1 or an aligned offset inside the shared
/// array; else what is wrong, naming the first bad lane. The runners check
/// this before any access is made.
inline const char* offsets_problem(const int offsets[32], int width_bytes, int* bad_lane) {
  for (int lane = 0; lane < 32; ++lane) {
    *bad_lane = lane;
    const int offset = offsets[lane];
    if (offset == -1) continue;
    if (offset < 0 || offset > kSharedBytes - width_bytes) return "is outside the 4096-byte shared array";
    if (offset % width_bytes != 0) return "is not a multiple of the load's width (misaligned)";
  }
  return "";
}

}  // namespace lab01

// Stage 1: the functions of the student's file (labs/01-bank-mapping/
// bank_mapping.cu) as the runners and the harness kernel call them, and the
// puzzle functions in the order of lab01::kPuzzles.
#pragma once

#include "puzzles.hpp"

// __global__ is a macro under nvcc and in the emulator build, not in plain C++.
#if defined(__CUDACC__) || defined(__global__)
#define LAB01_HOST_DEVICE __host__ __device__
#else
#define LAB01_HOST_DEVICE
#endif

// The student's functions (labs/01-bank-mapping/bank_mapping.cu).
LAB01_HOST_DEVICE int word_of(int byte_offset);
LAB01_HOST_DEVICE int bank_of(int byte_offset);
LAB01_HOST_DEVICE int puzzle_conflict_free(int lane);
LAB01_HOST_DEVICE int puzzle_broadcast(int lane);
LAB01_HOST_DEVICE int puzzle_multicast(int lane);
LAB01_HOST_DEVICE int puzzle_two_way(int lane);
LAB01_HOST_DEVICE int puzzle_four_way(int lane);
LAB01_HOST_DEVICE int puzzle_thirty_two_way(int lane);
LAB01_HOST_DEVICE int puzzle_one_bank_four_words(int lane);
LAB01_HOST_DEVICE int puzzle_bytes(int lane);
LAB01_HOST_DEVICE int puzzle_halves(int lane);
LAB01_HOST_DEVICE int puzzle_partial_warp(int lane);
extern int predicted_wavefronts[];

namespace lab01 {

inline constexpr int (*kPuzzleFunctions[kPuzzleCount])(int lane) = {
    puzzle_conflict_free, puzzle_broadcast,         puzzle_multicast,           puzzle_two_way,
    puzzle_four_way,      puzzle_thirty_two_way,    puzzle_one_bank_four_words, puzzle_bytes,
    puzzle_halves,        puzzle_partial_warp,
};

}  // namespace lab01

// Stage 2's launch shapes, the inputs of its tasks and their CPU references
// (C++17, no dependencies): the runners make the input from the seed, the
// grader makes the same input and compares the runner's raw output with the
// reference here, so no verdict is made in the runner.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace lab02 {

inline constexpr int kColumns = 64;
inline constexpr int kRowsPerBlock = 128;
inline constexpr int kParticlesPerBlock = 128;
inline constexpr int kTile16 = 16;
inline constexpr int kMaxStride = 1024;
inline constexpr int kPredictions = 10;

/// Integers from -500 to 500 as floats: every sum and square the kernels
/// compute is exact in any order, so results compare bit for bit.
inline std::vector<float> make_values(std::size_t count, std::uint64_t seed, std::uint64_t salt) {
  std::mt19937_64 rng(seed * 0x9e3779b97f4a7c15ull ^ salt);
  std::uniform_int_distribution<int> value(-500, 500);
  std::vector<float> out(count);
  for (float& v : out) v = static_cast<float>(value(rng));
  return out;
}

/// The CPU references.
inline std::vector<float> expected_row_sums(const std::vector<float>& in, int rows) {
  std::vector<float> sums(rows, 0.0f);
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < kColumns; ++c) sums[r] += in[static_cast<std::size_t>(r) * kColumns + c];
  }
  return sums;
}
inline std::vector<float> expected_distances(const std::vector<float>& in, int n) {
  std::vector<float> out(n > 1 ? n - 1 : 0);
  for (int i = 0; i + 1 < n; ++i) {
    float sum = 0;
    for (int f = 0; f < 4; ++f) {
      const float d = in[4 * static_cast<std::size_t>(i + 1) + f] - in[4 * static_cast<std::size_t>(i) + f];
      sum += d * d;
    }
    out[i] = sum;
  }
  return out;
}

/// Floats of input and of output of a rows (count: rows) or particles
/// (count: particles) run.
inline std::size_t input_floats(const std::string& task, int count) {
  return static_cast<std::size_t>(count) * (task == "rows" ? kColumns : 4);
}
inline std::size_t output_floats(const std::string& task, int count) {
  return task == "rows" ? static_cast<std::size_t>(count) : static_cast<std::size_t>(count > 1 ? count - 1 : 0);
}

/// The input of a rows or particles run, and what its kernel must write.
inline std::vector<float> task_input(const std::string& task, int count, std::uint64_t seed) {
  return make_values(input_floats(task, count), seed, static_cast<std::uint64_t>(count));
}
inline std::vector<float> expected_output(const std::string& task, int count, std::uint64_t seed) {
  const std::vector<float> in = task_input(task, count, seed);
  return task == "rows" ? expected_row_sums(in, count) : expected_distances(in, count);
}

}  // namespace lab02

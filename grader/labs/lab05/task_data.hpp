// Stage 5's launch shapes, the inputs of its 1-D tasks and their CPU
// references (C++17, no dependencies, no half type): the runners make the
// input from the seed, the grader makes the same input and compares the
// runner's raw output with the reference here.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

namespace lab05 {

inline constexpr int kTerms = 8;
inline constexpr int kPolyThreads = 128;
inline constexpr int kQuadThreads = 128;
inline constexpr int kQuadPasses = 2;  // runs that do not say; the GPU timing uses more

/// A sum_quads run: "N" (N quads, kQuadPasses passes) or "N:P" (P passes,
/// 1 to 64). Returns false for anything else.
struct QuadRun {
  int quads = 0, passes = kQuadPasses;
};
inline bool parse_quad_run(const char* text, QuadRun* run) {
  char* end = nullptr;
  const long n = std::strtol(text, &end, 10);
  if (end == text || n < 1 || n > (1 << 24)) return false;
  long passes = kQuadPasses;
  if (*end == ':') {
    const char* p = end + 1;
    passes = std::strtol(p, &end, 10);
    if (end == p || passes < 1 || passes > 64) return false;
  }
  if (*end != '\0') return false;
  run->quads = static_cast<int>(n);
  run->passes = static_cast<int>(passes);
  return true;
}
inline constexpr int kHalfTile = 64;
inline constexpr int kHalfRows = 4;

/// Small integers as floats: every product and sum the kernels form is an
/// integer below 2^24, exact in any order and with or without fused
/// multiply-adds, so that results compare bit for bit.
inline std::vector<float> make_integers(std::size_t count, int low, int high, std::uint64_t seed, std::uint64_t salt) {
  std::mt19937_64 rng(seed * 0x9e3779b97f4a7c15ull ^ salt);
  std::uniform_int_distribution<int> value(low, high);
  std::vector<float> out(count);
  for (float& v : out) v = static_cast<float>(value(rng));
  return out;
}

/// Task 1's inputs: 8 coefficients in -4..4 and n points in -3..3 (so that
/// |p(x)| <= 4 (3^8 - 1) / 2 = 13120).
inline std::vector<float> poly_coefficients(std::uint64_t seed) { return make_integers(kTerms, -4, 4, seed, 11); }
inline std::vector<float> poly_points(int n, std::uint64_t seed) {
  return make_integers(static_cast<std::size_t>(n), -3, 3, seed, static_cast<std::uint64_t>(n));
}
inline std::vector<float> expected_poly(const std::vector<float>& c, const std::vector<float>& x) {
  std::vector<float> out(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    float acc = c[kTerms - 1];
    for (int k = kTerms - 2; k >= 0; --k) acc = acc * x[i] + c[k];
    out[i] = acc;
  }
  return out;
}

/// Task 4's input (integers in -500..500) and reference.
inline std::vector<float> quad_input(int n_quads, std::uint64_t seed) {
  return make_integers(4 * static_cast<std::size_t>(n_quads), -500, 500, seed, 0x51u ^ static_cast<std::uint64_t>(n_quads));
}
inline std::vector<float> expected_quads(const std::vector<float>& in, int passes) {
  std::vector<float> out(in.size() / 4);
  for (std::size_t q = 0; q < out.size(); ++q) {
    float sum = 0.0f;
    for (int p = 0; p < passes; ++p) sum += ((in[4 * q] + in[4 * q + 1]) + in[4 * q + 2]) + in[4 * q + 3];
    out[q] = sum;
  }
  return out;
}

/// The input of a poly ("N") or quads ("N" or "N:P") run and what its
/// kernel must write; false for an item that is not a run of the task.
inline bool task_run(bool poly, const char* item, int* n, int* passes) {
  QuadRun quad;
  if (!parse_quad_run(item, &quad) || (poly && quad.passes != kQuadPasses) ||
      (poly && std::strchr(item, ':') != nullptr)) {
    return false;
  }
  *n = quad.quads;
  *passes = quad.passes;
  return true;
}
inline std::vector<float> task_input(bool poly, int n, std::uint64_t seed) {
  return poly ? poly_points(n, seed) : quad_input(n, seed);
}
inline std::vector<float> expected_output(bool poly, int n, int passes, std::uint64_t seed) {
  const std::vector<float> in = task_input(poly, n, seed);
  return poly ? expected_poly(poly_coefficients(seed), in) : expected_quads(in, passes);
}

}  // namespace lab05

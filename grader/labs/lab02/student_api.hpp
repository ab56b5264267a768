// Stage 2: the functions and kernels of the student's file
// (labs/02-stride-gcd/stride.cu) as the runners call them, the tasks'
// launch shapes, and the inputs both runners make.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#if defined(__CUDACC__)
#define LAB02_HOST_DEVICE __host__ __device__
#define LAB02_GLOBAL __global__
#else
#define LAB02_HOST_DEVICE
#define LAB02_GLOBAL
#endif

struct Particle {
  float x, y, z, w;
};

LAB02_HOST_DEVICE int conflict_degree(int stride, int active_lanes);
LAB02_GLOBAL void row_sums(float* sums, const float* in, int rows);
LAB02_GLOBAL void neighbour_distances(float* out, const Particle* in, int n);
LAB02_GLOBAL void transpose16(float* out, const float* in, int width, int height);
extern int predicted_wavefronts[];

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

}  // namespace lab02

// XORWOW's jumps for cuRAND's device API (compat/curand_kernel.h): the five
// xorshift words change linearly over GF(2), so n outputs are the state
// times the step's matrix to the n-th power. The powers 2^0 ... 2^130 are
// made once, by squaring, and a jump multiplies the state by those of n's
// bits (shifted by 67 for subsequences).
#include <array>
#include <cstdint>
#include <mutex>
#include <vector>

namespace banklab::emu {

namespace {

constexpr int kBits = 160;
using Words = std::array<std::uint32_t, 5>;
// Column b: the state one unit vector e_b becomes.
using Matrix = std::array<Words, kBits>;

Words times(const Matrix& m, const Words& x) {
  Words out{};
  for (int b = 0; b < kBits; ++b) {
    if (((x[static_cast<std::size_t>(b / 32)] >> (b % 32)) & 1u) == 0) continue;
    const Words& column = m[static_cast<std::size_t>(b)];
    for (std::size_t w = 0; w < 5; ++w) out[w] ^= column[w];
  }
  return out;
}

// One output's change of the five words (the Weyl word aside).
Words step(Words v) {
  const std::uint32_t t = v[0] ^ (v[0] >> 2);
  v = {v[1], v[2], v[3], v[4], (v[4] ^ (v[4] << 4)) ^ (t ^ (t << 1))};
  return v;
}

constexpr int kPowers = 67 + 64;

const std::vector<Matrix>& powers() {
  static std::vector<Matrix> all;
  static std::once_flag made;
  std::call_once(made, [] {
    all.resize(kPowers);
    for (int b = 0; b < kBits; ++b) {
      Words unit{};
      unit[static_cast<std::size_t>(b / 32)] = 1u << (b % 32);
      all[0][static_cast<std::size_t>(b)] = step(unit);
    }
    for (std::size_t i = 1; i < all.size(); ++i) {
      for (std::size_t b = 0; b < kBits; ++b) all[i][b] = times(all[i - 1], all[i - 1][b]);
    }
  });
  return all;
}

}  // namespace

void curand_xorwow_jump(unsigned int v[5], unsigned long long n, bool subsequences) {
  if (n == 0) return;
  const std::vector<Matrix>& m = powers();
  Words x = {v[0], v[1], v[2], v[3], v[4]};
  const std::size_t base = subsequences ? 67 : 0;
  for (std::size_t bit = 0; bit < 64; ++bit) {
    if (((n >> bit) & 1u) != 0) x = times(m[base + bit], x);
  }
  for (std::size_t w = 0; w < 5; ++w) v[w] = x[w];
}

// MRG32k3a's jumps: each recurrence is a 3x3 matrix modulo its prime, so n
// outputs are that matrix to the n-th power, by squaring (exact in 128 bits).
namespace {

using Mat3 = std::array<std::array<std::uint64_t, 3>, 3>;
__extension__ using Wide = unsigned __int128;

Mat3 mul(const Mat3& x, const Mat3& y, std::uint64_t m) {
  Mat3 r{};
  for (std::size_t i = 0; i < 3; ++i) {
    for (std::size_t j = 0; j < 3; ++j) {
      Wide sum = 0;
      for (std::size_t k = 0; k < 3; ++k) sum += static_cast<Wide>(x[i][k]) * y[k][j];
      r[i][j] = static_cast<std::uint64_t>(sum % m);
    }
  }
  return r;
}

// The state (s0, s1, s2) -> (s1, s2, c0 s0 + c1 s1 + c2 s2) modulo m.
void jump_one(unsigned int s[3], const Mat3& step, std::uint64_t m, unsigned long long n, int log2_unit) {
  Mat3 power = step;
  for (int i = 0; i < log2_unit; ++i) power = mul(power, power, m);
  Mat3 total{};
  for (std::size_t i = 0; i < 3; ++i) total[i][i] = 1;
  for (; n != 0; n >>= 1) {
    if ((n & 1u) != 0) total = mul(power, total, m);
    power = mul(power, power, m);
  }
  std::uint64_t out[3];
  for (std::size_t i = 0; i < 3; ++i) {
    Wide sum = 0;
    for (std::size_t k = 0; k < 3; ++k) sum += static_cast<Wide>(total[i][k]) * s[k];
    out[i] = static_cast<std::uint64_t>(sum % m);
  }
  for (std::size_t i = 0; i < 3; ++i) s[i] = static_cast<unsigned int>(out[i]);
}

}  // namespace

void curand_mrg32k3a_jump(unsigned int s1[3], unsigned int s2[3], unsigned long long n, int log2_unit) {
  if (n == 0) return;
  constexpr std::uint64_t m1 = 4294967087ull, m2 = 4294944443ull;
  const Mat3 a1 = {{{0, 1, 0}, {0, 0, 1}, {m1 - 810728, 1403580, 0}}};
  const Mat3 a2 = {{{0, 1, 0}, {0, 0, 1}, {m2 - 1370589, 0, 527612}}};
  jump_one(s1, a1, m1, n, log2_unit);
  jump_one(s2, a2, m2, n, log2_unit);
}

}  // namespace banklab::emu

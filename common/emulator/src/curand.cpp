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

}  // namespace banklab::emu

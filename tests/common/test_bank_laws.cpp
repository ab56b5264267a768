// The bank model as laws over all lanes and many addresses, not hand-picked
// cases: stride and gcd, permutation invariance, padding, swizzling.
#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "banklab/bank_model.hpp"

using banklab::MemOp;
using banklab::WarpAccess;

namespace {

WarpAccess from_words(const std::array<std::int64_t, 32>& words, MemOp op = MemOp::kLoad) {
  std::array<std::int64_t, 32> offsets{};
  for (int lane = 0; lane < 32; ++lane) offsets[lane] = words[lane] * 4;
  return WarpAccess::make(4, op, offsets);
}

int wavefronts(const WarpAccess& access) { return banklab::price(access).wavefronts; }

}  // namespace

TEST_CASE("a stride-s 4-byte access costs gcd(s, 32) wavefronts") {
  for (int stride = 1; stride <= 512; ++stride) {
    for (std::int64_t base : {0, 4, 128, 132, 4092}) {
      for (auto op : {MemOp::kLoad, MemOp::kStore}) {
        INFO("stride " << stride << " base " << base << " op " << banklab::to_string(op));
        CHECK(wavefronts(banklab::strided_access(4, op, stride, base)) == std::gcd(stride, 32));
      }
    }
  }
}

TEST_CASE("stride 0 is a broadcast: one wavefront for every width up to 8 bytes, two for 16-byte stores") {
  for (int width : {1, 2, 4, 8}) CHECK(wavefronts(banklab::strided_access(width, MemOp::kLoad, 0)) == 1);
  // 16-byte: quarter-warps, merged into half-warps for loads (two groups of one word set each).
  CHECK(wavefronts(banklab::strided_access(16, MemOp::kLoad, 0)) == 2);
  CHECK(wavefronts(banklab::strided_access(16, MemOp::kStore, 0)) == 4);
}

TEST_CASE("permuting lanes within a lane group does not change the cost of a store") {
  std::mt19937 rng(20261129);
  for (int trial = 0; trial < 2000; ++trial) {
    const int width = std::array{1, 2, 4, 8, 16}[trial % 5];
    const int group = width <= 4 ? 32 : 128 / width;
    std::array<std::int64_t, 32> offsets{};
    for (auto& offset : offsets) {
      const bool inactive = rng() % 8 == 0;
      offset = inactive ? banklab::kInactive : static_cast<std::int64_t>(rng() % 512) * width;
    }
    const auto original = WarpAccess::make(width, MemOp::kStore, offsets);
    for (int first = 0; first < 32; first += group) {
      std::shuffle(offsets.begin() + first, offsets.begin() + first + group, rng);
    }
    const auto permuted = WarpAccess::make(width, MemOp::kStore, offsets);
    INFO("trial " << trial << "\n" << original << "\n" << permuted);
    CHECK(banklab::price(permuted).wavefronts == banklab::price(original).wavefronts);
    CHECK(banklab::price(permuted).bank_conflicts == banklab::price(original).bank_conflicts);
  }
}

TEST_CASE("any permutation of the 32 words of one 128-byte row costs one wavefront") {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 1000; ++trial) {
    std::array<std::int64_t, 32> words{};
    const std::int64_t row = static_cast<std::int64_t>(rng() % 64) * 32;
    std::iota(words.begin(), words.end(), row);
    std::shuffle(words.begin(), words.end(), rng);
    for (auto op : {MemOp::kLoad, MemOp::kStore}) {
      INFO("trial " << trial);
      CHECK(wavefronts(from_words(words, op)) == 1);
    }
  }
}

TEST_CASE("padded 32x33 float tile column read costs one wavefront for every column") {
  for (int col = 0; col < 32; ++col) {
    std::array<std::int64_t, 32> padded{};
    std::array<std::int64_t, 32> unpadded{};
    for (int lane = 0; lane < 32; ++lane) {
      padded[lane] = lane * 33 + col;    // tile[lane][col] in float tile[32][33]
      unpadded[lane] = lane * 32 + col;  // tile[lane][col] in float tile[32][32]
    }
    INFO("column " << col);
    CHECK(wavefronts(from_words(padded)) == 1);
    CHECK(wavefronts(from_words(unpadded)) == 32);
  }
}

TEST_CASE("row ^ col swizzle costs one wavefront for rows and for columns") {
  for (int fixed = 0; fixed < 32; ++fixed) {
    std::array<std::int64_t, 32> row_read{};
    std::array<std::int64_t, 32> col_read{};
    for (int lane = 0; lane < 32; ++lane) {
      row_read[lane] = fixed * 32 + (lane ^ fixed);  // tile[fixed][lane ^ fixed]
      col_read[lane] = lane * 32 + (fixed ^ lane);   // tile[lane][fixed ^ lane]
    }
    INFO("row/column " << fixed);
    for (auto op : {MemOp::kLoad, MemOp::kStore}) {
      CHECK(wavefronts(from_words(row_read, op)) == 1);
      CHECK(wavefronts(from_words(col_read, op)) == 1);
    }
  }
}

// CuTe's Swizzle<B, M, S> on an offset: the B bits above bit M+S, shifted
// down by S, are XORed into bits M..M+B-1 (cute/swizzle.hpp's documented
// formula). On byte offsets with B=3, M=4, S=3 (a 128-byte swizzle of
// 16-byte chunks) it XORs bits 7-9 (row % 8 of 128-byte rows) into bits 4-6
// (the chunk): stage 4's chunk ^ (row % 8).
TEST_CASE("CuTe's Swizzle<3,4,3> on byte offsets is chunk ^ (row % 8), and its float4 column reads cost 4 wavefronts") {
  const auto cute_swizzle = [](std::int64_t offset) {
    constexpr int kBits = 3, kBase = 4, kShift = 3;
    constexpr std::int64_t mask = ((std::int64_t{1} << kBits) - 1) << (kBase + kShift);
    return offset ^ ((offset & mask) >> kShift);
  };
  for (int row = 0; row < 32; ++row) {
    for (int chunk = 0; chunk < 8; ++chunk) {
      const std::int64_t logical = 128 * row + 16 * chunk;
      CHECK(cute_swizzle(logical) == 128 * row + 16 * (chunk ^ (row % 8)));
    }
  }
  for (int chunk = 0; chunk < 8; ++chunk) {
    std::array<std::int64_t, 32> offsets{};
    for (int lane = 0; lane < 32; ++lane) offsets[lane] = cute_swizzle(128 * lane + 16 * chunk);
    const auto cost = banklab::price(WarpAccess::make(16, MemOp::kLoad, offsets));
    CHECK(cost.wavefronts == 4);
    CHECK(cost.bank_conflicts == 0);
  }
}

TEST_CASE("wavefronts are never fewer than the ideal, and inactive lanes cost nothing") {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 2000; ++trial) {
    const int width = std::array{1, 2, 4, 8, 16}[trial % 5];
    const auto op = trial % 2 ? MemOp::kLoad : MemOp::kStore;
    std::array<std::int64_t, 32> offsets{};
    for (auto& offset : offsets) offset = static_cast<std::int64_t>(rng() % 256) * width;
    const auto full = banklab::price(WarpAccess::make(width, op, offsets));
    CHECK(full.wavefronts >= full.ideal_wavefronts);
    CHECK(full.bank_conflicts == full.wavefronts - full.ideal_wavefronts);
    offsets[rng() % 32] = banklab::kInactive;
    const auto fewer = banklab::price(WarpAccess::make(width, op, offsets));
    if (fewer.pair_merge_distance == full.pair_merge_distance) CHECK(fewer.wavefronts <= full.wavefronts);
  }
  std::array<std::int64_t, 32> none{};
  none.fill(banklab::kInactive);
  const auto empty = banklab::price(WarpAccess::make(4, MemOp::kLoad, none));
  CHECK(empty.wavefronts == 0);
  CHECK(empty.bank_conflicts == 0);
}

TEST_CASE("count_wavefronts agrees with price on random accesses of every width") {
  std::mt19937 rng(3);
  for (int trial = 0; trial < 5000; ++trial) {
    const int width = std::array{1, 2, 4, 8, 16}[trial % 5];
    const auto op = (trial / 5) % 2 ? MemOp::kLoad : MemOp::kStore;
    const int spread = std::array{2, 8, 64, 1024}[(trial / 10) % 4];
    std::array<std::int64_t, 32> offsets{};
    for (int lane = 0; lane < 32; ++lane) {
      offsets[lane] = rng() % 6 == 0 ? banklab::kInactive : static_cast<std::int64_t>(rng() % spread) * width;
      if (trial % 7 == 0 && lane % 2 == 1) offsets[lane] = offsets[lane - 1];  // pairs, for the merge
    }
    const auto access = WarpAccess::make(width, op, offsets);
    const auto full = banklab::price(access);
    const auto fast = banklab::count_wavefronts(access);
    INFO(access);
    CHECK(fast.wavefronts == full.wavefronts);
    CHECK(fast.ideal_wavefronts == full.ideal_wavefronts);
  }
}

// The emulator caches answers by the offsets less a multiple of 128 bytes
// (memo_count_wavefronts in common/emulator/src/trace.cpp): that is only right
// if a shift by 128 bytes never changes the cost, which this checks.
TEST_CASE("shifting every lane by a multiple of 128 bytes does not change the cost") {
  std::mt19937 rng(17);
  for (int trial = 0; trial < 4000; ++trial) {
    const int width = std::array{1, 2, 4, 8, 16}[trial % 5];
    const auto op = (trial / 5) % 2 ? MemOp::kLoad : MemOp::kStore;
    const int spread = std::array{2, 8, 64, 1024}[(trial / 10) % 4];
    std::array<std::int64_t, 32> offsets{};
    std::array<std::int64_t, 32> shifted{};
    const std::int64_t shift = 128 * static_cast<std::int64_t>(1 + rng() % 300);
    for (int lane = 0; lane < 32; ++lane) {
      offsets[lane] = rng() % 6 == 0 ? banklab::kInactive : static_cast<std::int64_t>(rng() % spread) * width;
      if (trial % 7 == 0 && lane % 2 == 1) offsets[lane] = offsets[lane - 1];
      shifted[lane] = offsets[lane] == banklab::kInactive ? banklab::kInactive : offsets[lane] + shift;
    }
    const auto a = banklab::count_wavefronts(WarpAccess::make(width, op, offsets));
    const auto b = banklab::count_wavefronts(WarpAccess::make(width, op, shifted));
    INFO("shift " << shift << " " << WarpAccess::make(width, op, offsets));
    CHECK(a.wavefronts == b.wavefronts);
    CHECK(a.ideal_wavefronts == b.ideal_wavefronts);
  }
}

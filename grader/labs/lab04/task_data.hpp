// Stage 4's launch shapes and task B's input and CPU reference (C++17, no
// dependencies, no float4): the runners make the input from the seed, the
// grader makes the same input and compares the runner's raw output with the
// reference here.
#pragma once

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

namespace lab04 {

inline constexpr int kTile = 32;                        // a 32x32 float tile
inline constexpr int kChunks = kTile / 4;               // float4 chunks per row
inline constexpr int kChunkThreads = kTile * kChunks;   // task B: threads per block, chunks per tile
inline constexpr int kTileFloats = kTile * kTile;

/// Task B's input: `tiles` 32x32 tiles of seeded random floats.
inline std::vector<float> make_chunk_input(int tiles, std::uint64_t seed) {
  std::mt19937_64 rng(seed * 0x2545f4914f6cdd1dull ^ static_cast<std::uint64_t>(tiles));
  std::uniform_real_distribution<float> value(-1000.0f, 1000.0f);
  std::vector<float> in(static_cast<std::size_t>(tiles) * kTileFloats);
  for (float& v : in) v = value(rng);
  return in;
}

/// Task B's reference: chunk k of row r of tile t, added `passes` times from
/// 0 in float (as the kernel does), goes to float4 t*256 + k*32 + r.
inline std::vector<float> expected_chunks(const std::vector<float>& in, int tiles, int passes) {
  std::vector<float> out(in.size());
  for (int t = 0; t < tiles; ++t) {
    for (int r = 0; r < kTile; ++r) {
      for (int k = 0; k < kChunks; ++k) {
        for (int c = 0; c < 4; ++c) {
          const float v = in[static_cast<std::size_t>(t) * kTileFloats + r * kTile + 4 * k + c];
          float sum = 0.0f;
          for (int p = 0; p < passes; ++p) sum += v;
          out[static_cast<std::size_t>(t) * kTileFloats + 4 * (k * kTile + r) + c] = sum;
        }
      }
    }
  }
  return out;
}

/// Where float `i` of task B's output comes from: "tile 0, chunk 2 of row 5, .y".
struct ChunkElement {
  int tile, row, chunk, component;
};
inline ChunkElement chunk_element(std::size_t i) {
  const int t = static_cast<int>(i / kTileFloats);
  const int within = static_cast<int>(i % kTileFloats);
  return {t, (within / 4) % kTile, (within / 4) / kTile, within % 4};
}

}  // namespace lab04

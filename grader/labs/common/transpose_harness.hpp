// What the transpose runners (stages 2 and 3) share, CPU and GPU alike (C++17, no dependencies so
// that nvcc compiles it too): shapes, seeded inputs, the CPU reference,
// and comparison with poisoned outputs.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "json_writer.hpp"

namespace harness {

struct Shape {
  int width = 0;
  int height = 0;
};

/// "32x32,31x33" -> shapes; exits with status 2 on bad input.
inline std::vector<Shape> parse_shapes(const std::string& text) {
  std::vector<Shape> shapes;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    Shape s;
    char x = 0;
    std::stringstream one(item);
    if (!(one >> s.width >> x >> s.height) || x != 'x' || s.width < 1 || s.height < 1) {
      std::fprintf(stderr, "runner: bad shape '%s' (expected WIDTHxHEIGHT)\n", item.c_str());
      std::exit(2);
    }
    shapes.push_back(s);
  }
  return shapes;
}

/// Random input for one shape: the same seed and shape give the same data.
inline std::vector<float> make_input(Shape s, std::uint64_t seed) {
  std::mt19937_64 rng(seed ^ (static_cast<std::uint64_t>(s.width) << 32) ^ static_cast<std::uint64_t>(s.height));
  std::uniform_real_distribution<float> value(-1000.0f, 1000.0f);
  std::vector<float> in(static_cast<std::size_t>(s.width) * static_cast<std::size_t>(s.height));
  for (float& v : in) v = value(rng);
  return in;
}

/// Bytes written over the output before each run: a float NaN, so that an
/// element the kernel never writes cannot look right.
constexpr int kPoisonByte = 0xff;

struct Mismatch {
  int x = 0, y = 0;  // in the output: row x, column y (out is height wide)
  float expected = 0, got = 0;
};

struct Comparison {
  std::size_t mismatches = 0;
  std::vector<Mismatch> first;  // up to 5
};

/// out must be the transpose of in: out[x * height + y] == in[y * width + x].
inline Comparison compare(Shape s, const std::vector<float>& in, const float* out) {
  Comparison c;
  for (int y = 0; y < s.height; ++y) {
    for (int x = 0; x < s.width; ++x) {
      const float expected = in[static_cast<std::size_t>(y) * s.width + x];
      const float got = out[static_cast<std::size_t>(x) * s.height + y];
      if (std::memcmp(&expected, &got, sizeof(float)) != 0) {
        if (c.first.size() < 5) c.first.push_back({x, y, expected, got});
        ++c.mismatches;
      }
    }
  }
  return c;
}

inline void write_comparison(Json& j, Shape s, const Comparison& c) {
  j.key("width").value(static_cast<long long>(s.width));
  j.key("height").value(static_cast<long long>(s.height));
  j.key("mismatches").value(static_cast<long long>(c.mismatches));
  j.key("first_mismatches").open('[');
  for (const Mismatch& m : c.first) {
    j.open('{');
    j.key("row").value(static_cast<long long>(m.x));
    j.key("col").value(static_cast<long long>(m.y));
    j.key("expected").value(static_cast<double>(m.expected));
    j.key("got").value(static_cast<double>(m.got));
    j.close('}');
  }
  j.close(']');
}

}  // namespace harness

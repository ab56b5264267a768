// What the grader and the runners of the transpose-like stages share (C++17,
// no dependencies, so that nvcc and the grader compile it too): shapes,
// seeded inputs, the reference comparison. The runner makes the input from
// the seed; the grader makes the same input from the same seed and compares
// the runner's raw output with it, so no verdict is made in the runner.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

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

/// The seeded sequence behind every input (SplitMix64): one multiply-xorshift
/// step per value, several times faster than std::mt19937_64 with a
/// distribution; inputs are made twice (in the runner and in the grader, to
/// judge the output) and a large shape has millions of elements.
class InputBits {
 public:
  explicit InputBits(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }

 private:
  std::uint64_t state_;
};

/// Random input for one shape: the same seed and shape give the same data,
/// floats in [-1000, 1000) on a grid of 2^24 steps.
inline std::vector<float> make_input(Shape s, std::uint64_t seed) {
  InputBits rng(seed ^ (static_cast<std::uint64_t>(s.width) << 32) ^ static_cast<std::uint64_t>(s.height));
  std::vector<float> in(static_cast<std::size_t>(s.width) * static_cast<std::size_t>(s.height));
  for (float& v : in) v = -1000.0f + static_cast<float>(rng.next() >> 40) * (2000.0f / 16777216.0f);
  return in;
}

/// Random elements of another type, as raw bits (Bits: std::uint64_t for
/// double, std::uint16_t for half): finite values of either sign, so that
/// the NaN poison below never looks like an input.
template <class Bits>
std::vector<Bits> make_input_bits(Shape s, std::uint64_t seed) {
  InputBits rng(seed * 0x9e3779b97f4a7c15ull ^ (static_cast<std::uint64_t>(s.width) << 32) ^
                static_cast<std::uint64_t>(s.height) ^ sizeof(Bits));
  std::vector<Bits> in(static_cast<std::size_t>(s.width) * static_cast<std::size_t>(s.height));
  for (Bits& v : in) {
    const std::uint64_t r = rng.next();
    if (sizeof(Bits) == 8) {
      // [-1e6, 1e6) on a grid of 2^53 steps.
      const double d = -1e6 + static_cast<double>(r >> 11) * (2e6 / 9007199254740992.0);
      std::memcpy(&v, &d, sizeof v);
    } else {
      // half: exponent below 31 (finite), any mantissa, either sign.
      v = static_cast<Bits>(static_cast<unsigned>((r >> 16) % 0x7c00u) | (static_cast<unsigned>(r >> 63) << 15));
    }
  }
  return in;
}

/// The value a bit pattern stands for, for reports (float, double or half).
template <class Bits>
double bits_value(Bits bits) {
  if (sizeof(Bits) == 8) {
    double d;
    std::memcpy(&d, &bits, sizeof d);
    return d;
  }
  if (sizeof(Bits) == 4) {
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
  }
  const unsigned h = static_cast<unsigned>(bits), exponent = (h >> 10) & 31u, mantissa = h & 1023u;
  const double sign = (h >> 15) ? -1.0 : 1.0;
  if (exponent == 31) return mantissa ? std::nan("") : sign * HUGE_VAL;
  if (exponent == 0) return sign * std::ldexp(static_cast<double>(mantissa), -24);
  return sign * std::ldexp(static_cast<double>(mantissa | 1024u), static_cast<int>(exponent) - 25);
}

/// Bytes written over the output before each run: a NaN for float, double
/// and half, so that an element the kernel never writes cannot look right.
constexpr int kPoisonByte = 0xff;

struct Mismatch {
  int x = 0, y = 0;  // in the output: row x, column y (out is height wide)
  double expected = 0, got = 0;
};

struct Comparison {
  std::size_t mismatches = 0;
  std::vector<Mismatch> first;  // up to 5
};

/// out must be the transpose of in, bit for bit: out[x * height + y] == in[y * width + x].
template <class T>
Comparison compare_transpose(Shape s, const T* in, const T* out) {
  Comparison c;
  for (int y = 0; y < s.height; ++y) {
    for (int x = 0; x < s.width; ++x) {
      const T& expected = in[static_cast<std::size_t>(y) * s.width + x];
      const T& got = out[static_cast<std::size_t>(x) * s.height + y];
      if (std::memcmp(&expected, &got, sizeof(T)) != 0) {
        if (c.first.size() < 5) c.first.push_back({x, y, bits_value(expected), bits_value(got)});
        ++c.mismatches;
      }
    }
  }
  return c;
}

inline Comparison compare(Shape s, const std::vector<float>& in, const float* out) {
  return compare_transpose(s, in.data(), out);
}

/// The input of a transpose of T: seeded floats for float, random finite bit
/// patterns (make_input_bits) for double and half.
template <class Bits>
std::vector<Bits> transpose_input(Shape s, std::uint64_t seed) {
  if constexpr (sizeof(Bits) == 4) {
    const std::vector<float> f = make_input(s, seed);
    std::vector<Bits> bits(f.size());
    std::memcpy(bits.data(), f.data(), f.size() * sizeof(float));
    return bits;
  } else {
    return make_input_bits<Bits>(s, seed);
  }
}

}  // namespace harness

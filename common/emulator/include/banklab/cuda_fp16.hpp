// cuda_fp16.h's half-precision API for the CPU emulator: conversions,
// arithmetic, comparisons and math on `half` and `half2`, computed in float
// and rounded to the nearest half, ties to even, as a GPU's half arithmetic
// rounds its result (fused multiply-add rounds once). Without these, a call
// such as __hadd(h1, h2) would convert its halves to int and reach CUDA's
// integer __hadd (the average of two ints): a silent wrong result.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "banklab/cuda_types.hpp"

/// Two halves in 4 bytes (a `half2` load or store is one 4-byte access);
/// `__half2` with `half2` an alias, as cuda_fp16.h names it (cuda_types.hpp).
struct alignas(4) __half2 {
  __half x, y;
  __half2() = default;
  __half2(__half a, __half b) : x(a), y(b) {}
};
using half2 = __half2;

namespace banklab::fp16 {
inline half from_bits(std::uint16_t bits) {
  half h;
  h.bits = bits;
  return h;
}
}  // namespace banklab::fp16

// ---- conversions -------------------------------------------------------------
inline half __float2half_rn(float f) { return half(f); }
inline half __double2half(double d) { return half(static_cast<float>(d)); }
inline half __int2half_rn(int i) { return half(static_cast<float>(i)); }
inline half __uint2half_rn(unsigned i) { return half(static_cast<float>(i)); }
inline half __short2half_rn(short i) { return half(static_cast<float>(i)); }
// Saturating, as CUDA's conversions to integers are (infinity gives the bound).
inline int __half2int_rz(half h) { return banklab_saturating_cast<int>(std::trunc(static_cast<float>(h))); }
inline int __half2int_rn(half h) { return banklab_saturating_cast<int>(std::nearbyint(static_cast<float>(h))); }
inline unsigned __half2uint_rz(half h) { return banklab_saturating_cast<unsigned>(std::trunc(static_cast<float>(h))); }
inline short __half2short_rz(half h) { return banklab_saturating_cast<short>(std::trunc(static_cast<float>(h))); }
inline unsigned short __half_as_ushort(half h) { return h.bits; }
inline short __half_as_short(half h) { return static_cast<short>(h.bits); }
inline half __ushort_as_half(unsigned short bits) { return banklab::fp16::from_bits(bits); }
inline half __short_as_half(short bits) { return banklab::fp16::from_bits(static_cast<std::uint16_t>(bits)); }

inline half2 make_half2(half x, half y) { return half2(x, y); }
inline half2 __halves2half2(half x, half y) { return half2(x, y); }
inline half2 __half2half2(half h) { return half2(h, h); }
inline half2 __float2half2_rn(float f) { return half2(half(f), half(f)); }
inline half2 __floats2half2_rn(float x, float y) { return half2(half(x), half(y)); }
inline half2 __float22half2_rn(float2 f) { return half2(half(f.x), half(f.y)); }
inline float2 __half22float2(half2 h) { return make_float2(static_cast<float>(h.x), static_cast<float>(h.y)); }
inline half __low2half(half2 h) { return h.x; }
inline half __high2half(half2 h) { return h.y; }
inline float __low2float(half2 h) { return static_cast<float>(h.x); }
inline float __high2float(half2 h) { return static_cast<float>(h.y); }
inline half2 __low2half2(half2 h) { return half2(h.x, h.x); }
inline half2 __high2half2(half2 h) { return half2(h.y, h.y); }
inline half2 __lowhigh2highlow(half2 h) { return half2(h.y, h.x); }
inline half2 __lows2half2(half2 a, half2 b) { return half2(a.x, b.x); }
inline half2 __highs2half2(half2 a, half2 b) { return half2(a.y, b.y); }

// ---- arithmetic: each result rounded once ---------------------------------------
namespace banklab::fp16 {
// A result rounded to half; a NaN is the GPU's 0x7fff (measured:
// tests/data/gpu/h100_semantics/), not the host's.
inline half rounded(float f) { return f != f ? from_bits(0x7fffu) : half(f); }
}  // namespace banklab::fp16
inline half __hadd(half a, half b) { return banklab::fp16::rounded(static_cast<float>(a) + static_cast<float>(b)); }
inline half __hsub(half a, half b) { return banklab::fp16::rounded(static_cast<float>(a) - static_cast<float>(b)); }
inline half __hmul(half a, half b) { return banklab::fp16::rounded(static_cast<float>(a) * static_cast<float>(b)); }
inline half __hdiv(half a, half b) { return banklab::fp16::rounded(static_cast<float>(a) / static_cast<float>(b)); }
inline half __hneg(half a) { return banklab::fp16::from_bits(static_cast<std::uint16_t>(a.bits ^ 0x8000u)); }
inline half __habs(half a) { return banklab::fp16::from_bits(static_cast<std::uint16_t>(a.bits & 0x7fffu)); }
// a * b + c rounded once: the float product of two halves is exact, the sum in
// double is exact, so only the final rounding to half remains.
inline half __hfma(half a, half b, half c) {
  const double exact = static_cast<double>(static_cast<float>(a)) * static_cast<float>(b) + static_cast<float>(c);
  return banklab::fp16::rounded(static_cast<float>(exact));
}
inline half __hadd_sat(half a, half b) { return half(std::fmin(1.0f, std::fmax(0.0f, static_cast<float>(__hadd(a, b))))); }
inline half __hmul_sat(half a, half b) { return half(std::fmin(1.0f, std::fmax(0.0f, static_cast<float>(__hmul(a, b))))); }
inline half __hmax(half a, half b) { return half(std::fmax(static_cast<float>(a), static_cast<float>(b))); }
inline half __hmin(half a, half b) { return half(std::fmin(static_cast<float>(a), static_cast<float>(b))); }

inline half2 __hadd2(half2 a, half2 b) { return half2(__hadd(a.x, b.x), __hadd(a.y, b.y)); }
inline half2 __hsub2(half2 a, half2 b) { return half2(__hsub(a.x, b.x), __hsub(a.y, b.y)); }
inline half2 __hmul2(half2 a, half2 b) { return half2(__hmul(a.x, b.x), __hmul(a.y, b.y)); }
inline half2 __h2div(half2 a, half2 b) { return half2(__hdiv(a.x, b.x), __hdiv(a.y, b.y)); }
inline half2 __hmax2(half2 a, half2 b) { return half2(__hmax(a.x, b.x), __hmax(a.y, b.y)); }
inline half2 __hmin2(half2 a, half2 b) { return half2(__hmin(a.x, b.x), __hmin(a.y, b.y)); }
inline half2 __hneg2(half2 a) { return half2(__hneg(a.x), __hneg(a.y)); }
inline half2 __habs2(half2 a) { return half2(__habs(a.x), __habs(a.y)); }
inline half2 __hfma2(half2 a, half2 b, half2 c) { return half2(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y)); }

// ---- comparisons ----------------------------------------------------------------
inline bool __heq(half a, half b) { return static_cast<float>(a) == static_cast<float>(b); }
inline bool __hne(half a, half b) { return static_cast<float>(a) != static_cast<float>(b); }
inline bool __hlt(half a, half b) { return static_cast<float>(a) < static_cast<float>(b); }
inline bool __hle(half a, half b) { return static_cast<float>(a) <= static_cast<float>(b); }
inline bool __hgt(half a, half b) { return static_cast<float>(a) > static_cast<float>(b); }
inline bool __hge(half a, half b) { return static_cast<float>(a) >= static_cast<float>(b); }
inline bool __hisnan(half a) { return std::isnan(static_cast<float>(a)); }
inline int __hisinf(half a) {
  const float f = static_cast<float>(a);
  return std::isinf(f) ? (f < 0 ? -1 : 1) : 0;
}
inline bool __hbeq2(half2 a, half2 b) { return __heq(a.x, b.x) && __heq(a.y, b.y); }

// ---- math ------------------------------------------------------------------------
#define BANKLAB_HALF_MATH(name, expr)                                                   \
  inline half name(half h) {                                                            \
    const float x = static_cast<float>(h);                                              \
    return half(expr);                                                                  \
  }                                                                                     \
  inline half2 name##2(half2 h) { return half2(name(h.x), name(h.y)); }
BANKLAB_HALF_MATH(hsqrt, std::sqrt(x))
BANKLAB_HALF_MATH(hrsqrt, 1.0f / std::sqrt(x))
BANKLAB_HALF_MATH(hrcp, 1.0f / x)
BANKLAB_HALF_MATH(hexp, std::exp(x))
BANKLAB_HALF_MATH(hexp2, std::exp2(x))
BANKLAB_HALF_MATH(hlog, std::log(x))
BANKLAB_HALF_MATH(hlog2, std::log2(x))
BANKLAB_HALF_MATH(hsin, std::sin(x))
BANKLAB_HALF_MATH(hcos, std::cos(x))
BANKLAB_HALF_MATH(hfloor, std::floor(x))
BANKLAB_HALF_MATH(hceil, std::ceil(x))
BANKLAB_HALF_MATH(htrunc, std::trunc(x))
BANKLAB_HALF_MATH(hrint, std::nearbyint(x))
#undef BANKLAB_HALF_MATH

// ---- operators on half2 (those on half go through float and convert back) --------
inline half2 operator+(half2 a, half2 b) { return __hadd2(a, b); }
inline half2 operator-(half2 a, half2 b) { return __hsub2(a, b); }
inline half2 operator*(half2 a, half2 b) { return __hmul2(a, b); }
inline half2 operator/(half2 a, half2 b) { return __h2div(a, b); }
inline half2& operator+=(half2& a, half2 b) { return a = a + b; }
inline half2& operator-=(half2& a, half2 b) { return a = a - b; }
inline half2& operator*=(half2& a, half2 b) { return a = a * b; }
inline half2 operator-(half2 a) { return __hneg2(a); }
inline bool operator==(half2 a, half2 b) { return __hbeq2(a, b); }

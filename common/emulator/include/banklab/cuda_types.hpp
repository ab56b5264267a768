// CUDA's built-in vector types and dim3 for host C++: the layout and alignment
// nvcc gives them, so that kernels compiled for the CPU emulator address
// memory exactly as on the GPU. Shared by kernel code and the host side.
#pragma once

#include <cstdint>
#include <cstring>
#include <limits>

// The vector types copy themselves with one access of their whole width (one
// shared-memory instruction, as on a GPU) through these integer types; they
// may alias any type, so that the compiler keeps the order of a copy and the
// member reads and writes around it (without, -O2 dropped a uint4 store that
// a later member read needed: curand_check.cu's Philox counter).
namespace banklab::cuda_bits {
typedef std::uint64_t Wide8 __attribute__((may_alias));
__extension__ typedef unsigned __int128 Wide16 __attribute__((may_alias));
}  // namespace banklab::cuda_bits

struct uint3 {
  unsigned int x, y, z;
};

struct dim3 {
  unsigned int x = 1, y = 1, z = 1;
  constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
  constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  constexpr operator uint3() const { return {x, y, z}; }
};

// The vector types of CUDA's vector_types.h with their sizes and alignments
// (char2: 2 bytes aligned 2, short4: 8/8, int4: 16/16, double4: 32/16, the
// 3-component ones aligned as their element). A 2- or 4-component type of 2,
// 4, 8 or 16 bytes copies itself with one access of its size, as nvcc does;
// the 32-byte ones with two 16-byte accesses.
#define BANKLAB_VEC_CTOR1(Name, T) \
  Name() = default;                \
  constexpr Name(T vx) : x(vx) {}
#define BANKLAB_VEC_CTOR2(Name, T) \
  Name() = default;                \
  constexpr Name(T vx, T vy) : x(vx), y(vy) {}
#define BANKLAB_VEC_CTOR3(Name, T) \
  Name() = default;                \
  constexpr Name(T vx, T vy, T vz) : x(vx), y(vy), z(vz) {}
#define BANKLAB_VEC_CTOR4(Name, T) \
  Name() = default;                \
  constexpr Name(T vx, T vy, T vz, T vw) : x(vx), y(vy), z(vz), w(vw) {}
#define BANKLAB_VEC_COPY32(Type)                                                          \
  Type(const Type& other) { *this = other; }                                              \
  Type& operator=(const Type& other) {                                                    \
    using banklab::cuda_bits::Wide16;                                                     \
    reinterpret_cast<Wide16*>(this)[0] = reinterpret_cast<const Wide16*>(&other)[0];      \
    reinterpret_cast<Wide16*>(this)[1] = reinterpret_cast<const Wide16*>(&other)[1];      \
    return *this;                                                                         \
  }
#define BANKLAB_VEC_1(Name, T, Align)                                   \
  struct alignas(Align) Name {                                          \
    T x;                                                                \
    BANKLAB_VEC_CTOR1(Name, T)                                          \
  };                                                                    \
  inline constexpr Name make_##Name(T x) { return Name(x); }
#define BANKLAB_VEC_2(Name, T, Align, Bits)                             \
  struct alignas(Align) Name {                                          \
    T x, y;                                                             \
    BANKLAB_VEC_CTOR2(Name, T)                                          \
    BANKLAB_WIDE_COPY_ONLY(Name, Bits)                                  \
  };                                                                    \
  inline Name make_##Name(T x, T y) { return Name(x, y); }
#define BANKLAB_VEC_3(Name, T)                                          \
  struct Name {                                                         \
    T x, y, z;                                                          \
    BANKLAB_VEC_CTOR3(Name, T)                                          \
  };                                                                    \
  inline constexpr Name make_##Name(T x, T y, T z) { return Name(x, y, z); }
#define BANKLAB_VEC_4(Name, T, Align, Bits)                             \
  struct alignas(Align) Name {                                          \
    T x, y, z, w;                                                       \
    BANKLAB_VEC_CTOR4(Name, T)                                          \
    BANKLAB_WIDE_COPY_ONLY(Name, Bits)                                  \
  };                                                                    \
  inline Name make_##Name(T x, T y, T z, T w) { return Name(x, y, z, w); }
#define BANKLAB_VEC_4_WIDE32(Name, T)                                   \
  struct alignas(16) Name {                                             \
    T x, y, z, w;                                                       \
    BANKLAB_VEC_CTOR4(Name, T)                                          \
    BANKLAB_VEC_COPY32(Name)                                            \
  };                                                                    \
  inline Name make_##Name(T x, T y, T z, T w) { return Name(x, y, z, w); }
#define BANKLAB_WIDE_COPY_ONLY(Type, Bits)                                                             \
  Type(const Type& other) { *reinterpret_cast<Bits*>(this) = *reinterpret_cast<const Bits*>(&other); } \
  Type& operator=(const Type& other) {                                                                 \
    *reinterpret_cast<Bits*>(this) = *reinterpret_cast<const Bits*>(&other);                           \
    return *this;                                                                                      \
  }
// One element type: its 1- to 4-component vectors.
#define BANKLAB_VEC_FAMILY(Prefix, T, Align2, Bits2, Align4, Bits4) \
  BANKLAB_VEC_1(Prefix##1, T, sizeof(T))                           \
  BANKLAB_VEC_2(Prefix##2, T, Align2, Bits2)                       \
  BANKLAB_VEC_3(Prefix##3, T)                                      \
  BANKLAB_VEC_4(Prefix##4, T, Align4, Bits4)
#define BANKLAB_VEC_FAMILY_WIDE(Prefix, T)                 \
  BANKLAB_VEC_1(Prefix##1, T, sizeof(T))                  \
  BANKLAB_VEC_2(Prefix##2, T, 16, banklab::cuda_bits::Wide16) \
  BANKLAB_VEC_3(Prefix##3, T)                             \
  BANKLAB_VEC_4_WIDE32(Prefix##4, T)

namespace banklab::cuda_bits {
typedef std::uint16_t Wide2 __attribute__((may_alias));
typedef std::uint32_t Wide4 __attribute__((may_alias));
}  // namespace banklab::cuda_bits

BANKLAB_VEC_FAMILY(char, signed char, 2, banklab::cuda_bits::Wide2, 4, banklab::cuda_bits::Wide4)
BANKLAB_VEC_FAMILY(uchar, unsigned char, 2, banklab::cuda_bits::Wide2, 4, banklab::cuda_bits::Wide4)
BANKLAB_VEC_FAMILY(short, short, 4, banklab::cuda_bits::Wide4, 8, banklab::cuda_bits::Wide8)
BANKLAB_VEC_FAMILY(ushort, unsigned short, 4, banklab::cuda_bits::Wide4, 8, banklab::cuda_bits::Wide8)
BANKLAB_VEC_FAMILY(int, int, 8, banklab::cuda_bits::Wide8, 16, banklab::cuda_bits::Wide16)
BANKLAB_VEC_FAMILY(float, float, 8, banklab::cuda_bits::Wide8, 16, banklab::cuda_bits::Wide16)
BANKLAB_VEC_FAMILY_WIDE(long, long)
BANKLAB_VEC_FAMILY_WIDE(ulong, unsigned long)
BANKLAB_VEC_FAMILY_WIDE(longlong, long long)
BANKLAB_VEC_FAMILY_WIDE(ulonglong, unsigned long long)
BANKLAB_VEC_FAMILY_WIDE(double, double)
// uint1..uint4 (uint3 is also the type of threadIdx and blockIdx).
BANKLAB_VEC_1(uint1, unsigned int, 4)
BANKLAB_VEC_2(uint2, unsigned int, 8, banklab::cuda_bits::Wide8)
BANKLAB_VEC_4(uint4, unsigned int, 16, banklab::cuda_bits::Wide16)
inline constexpr uint3 make_uint3(unsigned x, unsigned y, unsigned z) { return {x, y, z}; }

/// IEEE half precision, stored as 16 bits; arithmetic goes through float and
/// rounds to the nearest half, ties to even (CUDA's __float2half). The rest of
/// cuda_fp16.h's API is in cuda_fp16.hpp. Named `__half`, with `half` an
/// alias, as cuda_fp16.h names it: a kernel's mangled name is then nvcc's
/// (`_Z14transpose_halfP6__halfPKS_ii`), which matching nvcc's code by kernel
/// (as_compiled.cpp, sass.cpp) relies on.
struct alignas(2) __half {
  std::uint16_t bits;
  __half() = default;
  __half(float value) : bits(from_float(value)) {}
  operator float() const { return to_float(bits); }

  static std::uint16_t from_float(float value) {
    std::uint32_t f;
    std::memcpy(&f, &value, 4);
    const std::uint32_t sign = (f >> 16) & 0x8000u;
    const int exponent = static_cast<int>((f >> 23) & 0xff) - 127 + 15;
    std::uint32_t mantissa = f & 0x7fffffu;
    if (((f >> 23) & 0xff) == 0xff) return static_cast<std::uint16_t>(sign | 0x7c00u | (mantissa ? 0x200u : 0));
    if (exponent >= 31) return static_cast<std::uint16_t>(sign | 0x7c00u);
    if (exponent <= 0) {
      if (exponent < -10) return static_cast<std::uint16_t>(sign);
      mantissa |= 0x800000u;
      const int shift = 14 - exponent;
      std::uint32_t half_mantissa = mantissa >> shift;
      const std::uint32_t round = (mantissa >> (shift - 1)) & 1u;
      const std::uint32_t sticky = mantissa & ((1u << (shift - 1)) - 1u);
      if (round && (sticky || (half_mantissa & 1u))) ++half_mantissa;  // to nearest, ties to even
      return static_cast<std::uint16_t>(sign | half_mantissa);
    }
    std::uint32_t result = sign | (static_cast<std::uint32_t>(exponent) << 10) | (mantissa >> 13);
    // To nearest, ties to even (a carry runs into the exponent, up to infinity).
    if ((mantissa & 0x1000u) && ((mantissa & 0xfffu) || (result & 1u))) ++result;
    return static_cast<std::uint16_t>(result);
  }
  static float to_float(std::uint16_t h) {
    const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
    std::uint32_t exponent = (h >> 10) & 0x1f;
    std::uint32_t mantissa = h & 0x3ffu;
    std::uint32_t f;
    if (exponent == 0x1f) {
      f = sign | 0x7f800000u | (mantissa << 13);
    } else if (exponent == 0) {
      if (mantissa == 0) {
        f = sign;
      } else {
        exponent = 127 - 15 + 1;
        while (!(mantissa & 0x400u)) {
          mantissa <<= 1;
          --exponent;
        }
        f = sign | (exponent << 23) | ((mantissa & 0x3ffu) << 13);
      }
    } else {
      f = sign | ((exponent + 127 - 15) << 23) | (mantissa << 13);
    }
    float value;
    std::memcpy(&value, &f, 4);
    return value;
  }
};
using half = __half;
inline half __float2half(float value) { return half(value); }
inline float __half2float(half value) { return static_cast<float>(value); }

#undef BANKLAB_VEC_CTOR1
#undef BANKLAB_VEC_CTOR2
#undef BANKLAB_VEC_CTOR3
#undef BANKLAB_VEC_CTOR4
#undef BANKLAB_VEC_COPY32
#undef BANKLAB_VEC_1
#undef BANKLAB_VEC_2
#undef BANKLAB_VEC_3
#undef BANKLAB_VEC_4
#undef BANKLAB_VEC_4_WIDE32
#undef BANKLAB_WIDE_COPY_ONLY
#undef BANKLAB_VEC_FAMILY
#undef BANKLAB_VEC_FAMILY_WIDE

// CUDA's conversions to integers saturate (PTX cvt): past the range, the
// nearest bound; NaN gives 0 (measured: tests/data/gpu/h100_semantics/). A
// C++ cast is undefined there, and x86 gives 0x80000000.
template <class I, class F>
inline I banklab_saturating_cast(F rounded) {
  if (rounded != rounded) return 0;
  if (rounded <= static_cast<F>(std::numeric_limits<I>::min())) return std::numeric_limits<I>::min();
  if (rounded >= static_cast<F>(std::numeric_limits<I>::max())) return std::numeric_limits<I>::max();
  return static_cast<I>(rounded);
}

// CUDA's built-in vector types and dim3 for host C++: the layout and alignment
// nvcc gives them, so that kernels compiled for the CPU emulator address
// memory exactly as on the GPU. Shared by kernel code and the host side.
#pragma once

#include <cstdint>
#include <cstring>

// Vector types whose size is 8 or 16 bytes copy themselves with one access of
// that width, as nvcc does (one LDS.64/LDS.128): left to itself, the host
// compiler splits a float4 copy into four 4-byte accesses, which would price
// differently in the bank model.
#define BANKLAB_WIDE_COPY(Type, Bits)                                                                  \
  Type() = default;                                                                                    \
  Type(const Type& other) { *reinterpret_cast<Bits*>(this) = *reinterpret_cast<const Bits*>(&other); } \
  Type& operator=(const Type& other) {                                                                 \
    *reinterpret_cast<Bits*>(this) = *reinterpret_cast<const Bits*>(&other);                           \
    return *this;                                                                                      \
  }

namespace banklab::cuda_bits {
using Wide8 = std::uint64_t;
__extension__ typedef unsigned __int128 Wide16;
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

#define BANKLAB_VEC2(Name, T, Align)                   \
  struct alignas(Align) Name {                         \
    T x, y;                                            \
    BANKLAB_WIDE_COPY(Name, banklab::cuda_bits::Wide8) \
    Name(T vx, T vy) : x(vx), y(vy) {}                 \
  };                                                   \
  inline Name make_##Name(T x, T y) { return Name(x, y); }
#define BANKLAB_VEC4(Name, T, Align)                             \
  struct alignas(Align) Name {                                   \
    T x, y, z, w;                                                \
    BANKLAB_WIDE_COPY(Name, banklab::cuda_bits::Wide16)          \
    Name(T vx, T vy, T vz, T vw) : x(vx), y(vy), z(vz), w(vw) {} \
  };                                                             \
  inline Name make_##Name(T x, T y, T z, T w) { return Name(x, y, z, w); }

BANKLAB_VEC2(float2, float, 8)
BANKLAB_VEC2(int2, int, 8)
BANKLAB_VEC2(uint2, unsigned int, 8)
BANKLAB_VEC4(float4, float, 16)
BANKLAB_VEC4(int4, int, 16)
BANKLAB_VEC4(uint4, unsigned int, 16)

struct alignas(16) double2 {
  double x, y;
  BANKLAB_WIDE_COPY(double2, banklab::cuda_bits::Wide16)
  double2(double vx, double vy) : x(vx), y(vy) {}
};
inline double2 make_double2(double x, double y) { return double2(x, y); }

struct float3 {
  float x, y, z;
};
inline float3 make_float3(float x, float y, float z) { return {x, y, z}; }
struct int3 {
  int x, y, z;
};
inline int3 make_int3(int x, int y, int z) { return {x, y, z}; }
inline uint3 make_uint3(unsigned x, unsigned y, unsigned z) { return {x, y, z}; }

/// IEEE half precision, stored as 16 bits; arithmetic goes through float.
struct alignas(2) half {
  std::uint16_t bits;
  half() = default;
  half(float value) : bits(from_float(value)) {}
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
      if ((mantissa >> (shift - 1)) & 1u) ++half_mantissa;  // round half up
      return static_cast<std::uint16_t>(sign | half_mantissa);
    }
    std::uint32_t result = sign | (static_cast<std::uint32_t>(exponent) << 10) | (mantissa >> 13);
    if (mantissa & 0x1000u) ++result;  // round half up (carries into the exponent correctly)
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
using __half = half;
inline half __float2half(float value) { return half(value); }
inline float __half2float(half value) { return static_cast<float>(value); }

#undef BANKLAB_VEC2
#undef BANKLAB_VEC4
#undef BANKLAB_WIDE_COPY

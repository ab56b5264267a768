// CUDA's device functions that are plain arithmetic: min/max, the integer
// and fast-math intrinsics, type reinterpretations, cache-hinted loads and
// stores, clocks. Each computes what CUDA's documentation says the GPU
// computes (fast-math ones with the host's accurate functions: same results
// up to the GPU's documented error). Included by cuda_host.hpp.
#pragma once

#include <chrono>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

// ---- min and max, as CUDA declares them (mixed signed/unsigned: unsigned) ---
#define BANKLAB_MINMAX(R, A, B)                                \
  inline R min(A a, B b) { return static_cast<R>(a) < static_cast<R>(b) ? static_cast<R>(a) : static_cast<R>(b); } \
  inline R max(A a, B b) { return static_cast<R>(a) < static_cast<R>(b) ? static_cast<R>(b) : static_cast<R>(a); }
BANKLAB_MINMAX(int, int, int)
BANKLAB_MINMAX(unsigned int, unsigned int, unsigned int)
BANKLAB_MINMAX(unsigned int, int, unsigned int)
BANKLAB_MINMAX(unsigned int, unsigned int, int)
BANKLAB_MINMAX(long, long, long)
BANKLAB_MINMAX(unsigned long, unsigned long, unsigned long)
BANKLAB_MINMAX(unsigned long, long, unsigned long)
BANKLAB_MINMAX(unsigned long, unsigned long, long)
BANKLAB_MINMAX(long long, long long, long long)
BANKLAB_MINMAX(unsigned long long, unsigned long long, unsigned long long)
BANKLAB_MINMAX(unsigned long long, long long, unsigned long long)
BANKLAB_MINMAX(unsigned long long, unsigned long long, long long)
#undef BANKLAB_MINMAX
// A GPU's min and max of floats: a NaN gives the other operand (as fmin),
// and -0 is less than +0: min(+0, -0) is -0, max(+0, -0) is +0 (measured:
// tests/data/gpu/h100_semantics/; the host's fmin may give either zero).
template <class F>
inline F banklab_gpu_min(F a, F b) {
  if (a != a) return b;
  if (b != b) return a;
  if (a == b) return std::signbit(a) ? a : b;
  return a < b ? a : b;
}
template <class F>
inline F banklab_gpu_max(F a, F b) {
  if (a != a) return b;
  if (b != b) return a;
  if (a == b) return std::signbit(a) ? b : a;
  return a < b ? b : a;
}
inline float min(float a, float b) { return banklab_gpu_min(a, b); }
inline float max(float a, float b) { return banklab_gpu_max(a, b); }
inline double min(double a, double b) { return banklab_gpu_min(a, b); }
inline double max(double a, double b) { return banklab_gpu_max(a, b); }
inline double min(float a, double b) { return banklab_gpu_min(static_cast<double>(a), b); }
inline double max(float a, double b) { return banklab_gpu_max(static_cast<double>(a), b); }
inline double min(double a, float b) { return banklab_gpu_min(a, static_cast<double>(b)); }
inline double max(double a, float b) { return banklab_gpu_max(a, static_cast<double>(b)); }
inline unsigned int umin(unsigned int a, unsigned int b) { return a < b ? a : b; }
inline unsigned int umax(unsigned int a, unsigned int b) { return a < b ? b : a; }
inline long long llmin(long long a, long long b) { return a < b ? a : b; }
inline long long llmax(long long a, long long b) { return a < b ? b : a; }
inline unsigned long long ullmin(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
inline unsigned long long ullmax(unsigned long long a, unsigned long long b) { return a < b ? b : a; }

// ---- integer intrinsics --------------------------------------------------------
inline int __popc(unsigned int x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz(static_cast<unsigned>(x)); }
inline int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll(static_cast<unsigned long long>(x)); }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline unsigned int __brev(unsigned int x) {
  x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
  x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
  x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
  return __builtin_bswap32(x);
}
inline unsigned long long __brevll(unsigned long long x) {
  return (static_cast<unsigned long long>(__brev(static_cast<unsigned int>(x))) << 32) |
         __brev(static_cast<unsigned int>(x >> 32));
}
inline int __mul24(int x, int y) {
  // the low 24 bits of each, sign-extended, multiplied; the low 32 bits kept
  const auto s24 = [](int v) { return static_cast<std::int32_t>(static_cast<std::uint32_t>(v) << 8) >> 8; };
  return static_cast<int>(static_cast<std::uint32_t>(static_cast<std::int64_t>(s24(x)) * s24(y)));
}
inline unsigned int __umul24(unsigned int x, unsigned int y) { return (x & 0xffffffu) * (y & 0xffffffu); }
inline int __mulhi(int x, int y) { return static_cast<int>((static_cast<long long>(x) * y) >> 32); }
inline unsigned int __umulhi(unsigned int x, unsigned int y) {
  return static_cast<unsigned int>((static_cast<unsigned long long>(x) * y) >> 32);
}
__extension__ typedef __int128 banklab_int128;
__extension__ typedef unsigned __int128 banklab_uint128;
inline long long __mul64hi(long long x, long long y) {
  return static_cast<long long>((static_cast<banklab_int128>(x) * y) >> 64);
}
inline unsigned long long __umul64hi(unsigned long long x, unsigned long long y) {
  return static_cast<unsigned long long>((static_cast<banklab_uint128>(x) * y) >> 64);
}
inline int __hadd(int x, int y) { return static_cast<int>((static_cast<long long>(x) + y) >> 1); }
inline int __rhadd(int x, int y) { return static_cast<int>((static_cast<long long>(x) + y + 1) >> 1); }
inline unsigned int __uhadd(unsigned int x, unsigned int y) {
  return static_cast<unsigned int>((static_cast<unsigned long long>(x) + y) >> 1);
}
inline unsigned int __urhadd(unsigned int x, unsigned int y) {
  return static_cast<unsigned int>((static_cast<unsigned long long>(x) + y + 1) >> 1);
}
inline unsigned int __sad(int x, int y, unsigned int z) {
  return z + static_cast<unsigned int>(x > y ? static_cast<long long>(x) - y : static_cast<long long>(y) - x);
}
inline unsigned int __usad(unsigned int x, unsigned int y, unsigned int z) { return z + (x > y ? x - y : y - x); }
inline unsigned int __byte_perm(unsigned int x, unsigned int y, unsigned int s) {
  const unsigned long long bytes = (static_cast<unsigned long long>(y) << 32) | x;
  unsigned int result = 0;
  for (int i = 0; i < 4; ++i) {
    const unsigned int selector = (s >> (4 * i)) & 7u;
    result |= static_cast<unsigned int>((bytes >> (8 * selector)) & 0xffu) << (8 * i);
  }
  return result;
}
inline unsigned int __funnelshift_l(unsigned int lo, unsigned int hi, unsigned int shift) {
  const unsigned long long both = (static_cast<unsigned long long>(hi) << 32) | lo;
  return static_cast<unsigned int>((both << (shift & 31u)) >> 32);
}
inline unsigned int __funnelshift_lc(unsigned int lo, unsigned int hi, unsigned int shift) {
  const unsigned long long both = (static_cast<unsigned long long>(hi) << 32) | lo;
  return static_cast<unsigned int>((both << (shift < 32u ? shift : 32u)) >> 32);
}
inline unsigned int __funnelshift_r(unsigned int lo, unsigned int hi, unsigned int shift) {
  const unsigned long long both = (static_cast<unsigned long long>(hi) << 32) | lo;
  return static_cast<unsigned int>(both >> (shift & 31u));
}
inline unsigned int __funnelshift_rc(unsigned int lo, unsigned int hi, unsigned int shift) {
  const unsigned long long both = (static_cast<unsigned long long>(hi) << 32) | lo;
  return static_cast<unsigned int>(both >> (shift < 32u ? shift : 32u));
}

// ---- reinterpretations and conversions ------------------------------------------
template <class To, class From>
inline To banklab_bit_cast(From value) {
  static_assert(sizeof(To) == sizeof(From), "same size");
  To out;
  std::memcpy(&out, &value, sizeof out);
  return out;
}
inline int __float_as_int(float x) { return banklab_bit_cast<int>(x); }
inline unsigned int __float_as_uint(float x) { return banklab_bit_cast<unsigned int>(x); }
inline float __int_as_float(int x) { return banklab_bit_cast<float>(x); }
inline float __uint_as_float(unsigned int x) { return banklab_bit_cast<float>(x); }
inline long long __double_as_longlong(double x) { return banklab_bit_cast<long long>(x); }
inline double __longlong_as_double(long long x) { return banklab_bit_cast<double>(x); }
inline int __double2hiint(double x) { return static_cast<int>(__double_as_longlong(x) >> 32); }
inline int __double2loint(double x) { return static_cast<int>(__double_as_longlong(x)); }
inline int __float2int_rn(float x) { return banklab_saturating_cast<int>(std::nearbyint(x)); }
inline int __float2int_rz(float x) { return banklab_saturating_cast<int>(std::trunc(x)); }
inline int __float2int_rd(float x) { return banklab_saturating_cast<int>(std::floor(x)); }
inline int __float2int_ru(float x) { return banklab_saturating_cast<int>(std::ceil(x)); }
inline unsigned int __float2uint_rn(float x) { return banklab_saturating_cast<unsigned int>(std::nearbyint(x)); }
inline unsigned int __float2uint_rz(float x) { return banklab_saturating_cast<unsigned int>(std::trunc(x)); }
inline float __int2float_rn(int x) { return static_cast<float>(x); }
inline float __uint2float_rn(unsigned int x) { return static_cast<float>(x); }
inline int __double2int_rn(double x) { return banklab_saturating_cast<int>(std::nearbyint(x)); }
inline int __double2int_rz(double x) { return banklab_saturating_cast<int>(std::trunc(x)); }
inline float __double2float_rn(double x) { return static_cast<float>(x); }
inline double __int2double_rn(int x) { return static_cast<double>(x); }

// ---- float intrinsics (fast math), rounding variants, other math --------------
inline float __expf(float x) { return std::exp(x); }
inline float __exp10f(float x) { return std::pow(10.0f, x); }
inline float __logf(float x) { return std::log(x); }
inline float __log2f(float x) { return std::log2(x); }
inline float __log10f(float x) { return std::log10(x); }
inline float __sinf(float x) { return std::sin(x); }
inline float __cosf(float x) { return std::cos(x); }
inline float __tanf(float x) { return std::tan(x); }
inline void __sincosf(float x, float* s, float* c) {
  *s = std::sin(x);
  *c = std::cos(x);
}
inline float __powf(float x, float y) { return std::pow(x, y); }
inline float __fdividef(float x, float y) { return x / y; }
// Clamped to [+0, 1]: NaN and -0 give +0 (measured, as above).
inline float __saturatef(float x) { return !(x > 0.0f) ? 0.0f : (x > 1.0f ? 1.0f : x); }
// A NaN that a GPU's float arithmetic makes is 0x7fffffff (measured, as
// above); the host's is 0xffc00000.
inline float banklab_gpu_nan(float x) { return x != x ? banklab_bit_cast<float>(0x7fffffffu) : x; }
inline float __fadd_rn(float x, float y) { return banklab_gpu_nan(x + y); }
inline float __fsub_rn(float x, float y) { return banklab_gpu_nan(x - y); }
inline float __fmul_rn(float x, float y) { return banklab_gpu_nan(x * y); }
inline float __fdiv_rn(float x, float y) { return banklab_gpu_nan(x / y); }
inline float __fmaf_rn(float x, float y, float z) { return banklab_gpu_nan(std::fma(x, y, z)); }
inline float __frcp_rn(float x) { return banklab_gpu_nan(1.0f / x); }
inline float __fsqrt_rn(float x) { return banklab_gpu_nan(std::sqrt(x)); }
inline float __frsqrt_rn(float x) { return banklab_gpu_nan(1.0f / std::sqrt(x)); }
inline double __dadd_rn(double x, double y) { return x + y; }
inline double __dmul_rn(double x, double y) { return x * y; }
inline double __fma_rn(double x, double y, double z) { return std::fma(x, y, z); }
inline float rsqrtf(float x) { return 1.0f / std::sqrt(x); }
inline double rsqrt(double x) { return 1.0 / std::sqrt(x); }
inline float exp10f(float x) { return std::pow(10.0f, x); }
inline double exp10(double x) { return std::pow(10.0, x); }
inline void sincosf(float x, float* s, float* c) {
  *s = std::sin(x);
  *c = std::cos(x);
}
inline void sincos(double x, double* s, double* c) {
  *s = std::sin(x);
  *c = std::cos(x);
}
inline float saturate(float x) { return __saturatef(x); }
inline float fdividef(float x, float y) { return x / y; }
inline float sinpif(float x) { return std::sin(3.14159265358979323846f * x); }
inline float cospif(float x) { return std::cos(3.14159265358979323846f * x); }
inline double sinpi(double x) { return std::sin(3.14159265358979323846 * x); }
inline double cospi(double x) { return std::cos(3.14159265358979323846 * x); }

// ---- cache-hinted loads and stores: plain accesses (the bank costs are shared memory's) --
#define BANKLAB_LOAD_HINT(name) \
  template <class T>            \
  inline T name(const T* p) {   \
    return *p;                  \
  }
BANKLAB_LOAD_HINT(__ldg)
BANKLAB_LOAD_HINT(__ldca)
BANKLAB_LOAD_HINT(__ldcg)
BANKLAB_LOAD_HINT(__ldcs)
BANKLAB_LOAD_HINT(__ldlu)
BANKLAB_LOAD_HINT(__ldcv)
#undef BANKLAB_LOAD_HINT
#define BANKLAB_STORE_HINT(name)     \
  template <class T>                 \
  inline void name(T* p, T value) {  \
    *p = value;                      \
  }
BANKLAB_STORE_HINT(__stwb)
BANKLAB_STORE_HINT(__stcg)
BANKLAB_STORE_HINT(__stcs)
BANKLAB_STORE_HINT(__stwt)
#undef BANKLAB_STORE_HINT

// ---- clocks: nanoseconds of the host's steady clock (only differences mean anything) --
inline long long clock64() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}
inline unsigned long long __globaltimer() { return static_cast<unsigned long long>(clock64()); }
inline void __nanosleep(unsigned int) {}

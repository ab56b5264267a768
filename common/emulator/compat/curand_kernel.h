// cuRAND's device API for the CPU emulator: the XORWOW generator (curandState,
// cuRAND's default) and Philox4x32-10, with curand_init(seed, subsequence,
// offset), curand, curand4, the uniform, normal and log-normal
// distributions, skipahead and skipahead_sequence. The generators follow
// their definitions: XORWOW is Marsaglia's xorshift of five words plus a Weyl
// sequence, its seed mixed into the first state as cuRAND mixes it and its
// subsequences 2^67 outputs apart (the jumps are matrix powers over GF(2),
// src/curand.cpp); Philox4x32-10 is the counter-based generator of Salmon et
// al. with cuRAND's counter layout (the subsequence in the counter's high 64
// bits, the offset in its low 64 bits and the place within a block of four).
// An H100's values are recorded in tests/data/gpu/h100_curand/ (from
// tests/cli/programs/curand_check.cu): the integers, the uniforms and the
// uniform doubles here are the same bit for bit; the normals differ in their
// last bits (the host's logf, sinf and log, sin).
// MRG32k3a too (below). Not provided: MTGP32, the quasi-random generators, Poisson.
#pragma once

#include <cmath>
#include <cstdint>

#include "banklab/cuda_host.hpp"

namespace banklab::emu {
/// XORWOW's five state words advanced by n outputs, or by n subsequences
/// (n * 2^67 outputs) where `subsequences` is set; the Weyl word is not
/// touched (the caller adds 362437 per output).
void curand_xorwow_jump(unsigned int v[5], unsigned long long n, bool subsequences);
}  // namespace banklab::emu

#define CURAND_2POW32_INV (2.3283064e-10f)
#define CURAND_2POW32_INV_DOUBLE (2.3283064365386963e-10)
#define CURAND_2POW53_INV_DOUBLE (1.1102230246251565e-16)
#define CURAND_2POW32_INV_2PI (2.3283064e-10f * 6.2831855f)
#define CURAND_2POW53_INV_2PI_DOUBLE (1.1102230246251565e-16 * 6.2831853071795860)

struct curandStateXORWOW {
  unsigned int d, v[5];
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef struct curandStateXORWOW curandStateXORWOW_t;
typedef struct curandStateXORWOW curandState_t;
typedef struct curandStateXORWOW curandState;

struct curandStatePhilox4_32_10 {
  uint4 ctr;
  uint4 output;
  uint2 key;
  unsigned int STATE;
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef struct curandStatePhilox4_32_10 curandStatePhilox4_32_10_t;

// ---- the generators' steps ------------------------------------------------

__device__ inline unsigned int curand(curandStateXORWOW_t* state) {
  const unsigned int t = state->v[0] ^ (state->v[0] >> 2);
  state->v[0] = state->v[1];
  state->v[1] = state->v[2];
  state->v[2] = state->v[3];
  state->v[3] = state->v[4];
  state->v[4] = (state->v[4] ^ (state->v[4] << 4)) ^ (t ^ (t << 1));
  state->d += 362437;
  return state->v[4] + state->d;
}

__device__ inline void skipahead(unsigned long long n, curandStateXORWOW_t* state) {
  banklab::emu::curand_xorwow_jump(state->v, n, false);
  state->d += static_cast<unsigned int>(n) * 362437u;
}

__device__ inline void skipahead_sequence(unsigned long long n, curandStateXORWOW_t* state) {
  // 2^67 outputs move the Weyl word by 2^67 * 362437, 0 modulo 2^32.
  banklab::emu::curand_xorwow_jump(state->v, n, true);
}

__device__ inline void curand_init(unsigned long long seed, unsigned long long subsequence,
                                   unsigned long long offset, curandStateXORWOW_t* state) {
  // The seed's halves, salted and multiplied, give the first state.
  const unsigned int s0 = static_cast<unsigned int>(seed) ^ 0xaad26b49u;
  const unsigned int s1 = static_cast<unsigned int>(seed >> 32) ^ 0xf7dcefddu;
  const unsigned int t0 = 1099087573u * s0;
  const unsigned int t1 = 2591861531u * s1;
  state->d = 6615241u + t1 + t0;
  state->v[0] = 123456789u + t0;
  state->v[1] = 362436069u ^ t0;
  state->v[2] = 521288629u + t1;
  state->v[3] = 88675123u ^ t1;
  state->v[4] = 5783321u + t0;
  skipahead_sequence(subsequence, state);
  skipahead(offset, state);
  state->boxmuller_flag = 0;
  state->boxmuller_flag_double = 0;
  state->boxmuller_extra = 0.0f;
  state->boxmuller_extra_double = 0.0;
}

namespace banklab_curand {
// One Philox4x32 round and the key's bump between rounds.
__device__ inline uint4 philox_round(uint4 c, uint2 k) {
  const unsigned int m0 = 0xD2511F53u, m1 = 0xCD9E8D57u;
  const unsigned int hi0 = __umulhi(m0, c.x), lo0 = m0 * c.x;
  const unsigned int hi1 = __umulhi(m1, c.z), lo1 = m1 * c.z;
  return make_uint4(hi1 ^ c.y ^ k.x, lo1, hi0 ^ c.w ^ k.y, lo0);
}
__device__ inline uint4 philox4x32_10(uint4 c, uint2 k) {
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      k.x += 0x9E3779B9u;
      k.y += 0xBB67AE85u;
    }
    c = philox_round(c, k);
  }
  return c;
}
// The 128-bit counter plus n (low 64 bits) or plus n << 64 (high).
__device__ inline void philox_add(curandStatePhilox4_32_10_t* s, unsigned long long n, bool high) {
  unsigned long long words[2] = {static_cast<unsigned long long>(s->ctr.x) | (static_cast<unsigned long long>(s->ctr.y) << 32),
                                 static_cast<unsigned long long>(s->ctr.z) | (static_cast<unsigned long long>(s->ctr.w) << 32)};
  if (high) {
    words[1] += n;
  } else {
    const unsigned long long before = words[0];
    words[0] += n;
    if (words[0] < before) ++words[1];
  }
  s->ctr = make_uint4(static_cast<unsigned int>(words[0]), static_cast<unsigned int>(words[0] >> 32),
                      static_cast<unsigned int>(words[1]), static_cast<unsigned int>(words[1] >> 32));
}
}  // namespace banklab_curand

__device__ inline void skipahead(unsigned long long n, curandStatePhilox4_32_10_t* state) {
  state->STATE += static_cast<unsigned int>(n & 3);
  n /= 4;
  if (state->STATE > 3) {
    n += 1;
    state->STATE -= 4;
  }
  banklab_curand::philox_add(state, n, false);
  state->output = banklab_curand::philox4x32_10(state->ctr, state->key);
}

__device__ inline void skipahead_sequence(unsigned long long n, curandStatePhilox4_32_10_t* state) {
  banklab_curand::philox_add(state, n, true);
  state->output = banklab_curand::philox4x32_10(state->ctr, state->key);
}

__device__ inline void curand_init(unsigned long long seed, unsigned long long subsequence,
                                   unsigned long long offset, curandStatePhilox4_32_10_t* state) {
  state->ctr = make_uint4(0, 0, 0, 0);
  state->key = make_uint2(static_cast<unsigned int>(seed), static_cast<unsigned int>(seed >> 32));
  state->STATE = 0;
  state->boxmuller_flag = 0;
  state->boxmuller_flag_double = 0;
  state->boxmuller_extra = 0.0f;
  state->boxmuller_extra_double = 0.0;
  skipahead_sequence(subsequence, state);
  skipahead(offset, state);
}

__device__ inline unsigned int curand(curandStatePhilox4_32_10_t* state) {
  const uint4 o = state->output;
  const unsigned int words[4] = {o.x, o.y, o.z, o.w};
  const unsigned int result = words[state->STATE & 3];
  if (++state->STATE == 4) {
    banklab_curand::philox_add(state, 1, false);
    state->output = banklab_curand::philox4x32_10(state->ctr, state->key);
    state->STATE = 0;
  }
  return result;
}

// Four outputs at once: the next four of the sequence.
__device__ inline uint4 curand4(curandStatePhilox4_32_10_t* state) {
  const uint4 o = state->output;
  banklab_curand::philox_add(state, 1, false);
  state->output = banklab_curand::philox4x32_10(state->ctr, state->key);
  const uint4 n = state->output;
  const unsigned int words[8] = {o.x, o.y, o.z, o.w, n.x, n.y, n.z, n.w};
  const unsigned int at = state->STATE;
  return make_uint4(words[at], words[at + 1], words[at + 2], words[at + 3]);
}

// ---- distributions ----------------------------------------------------------

namespace banklab_curand {
// (0, 1]: never 0, 1 only by rounding.
__device__ inline float uniform(unsigned int x) { return x * CURAND_2POW32_INV + (CURAND_2POW32_INV / 2.0f); }
// 53 bits from two outputs.
__device__ inline double uniform_double(unsigned int x, unsigned int y) {
  const unsigned long long z = static_cast<unsigned long long>(x) ^ (static_cast<unsigned long long>(y) << (53 - 32));
  return z * CURAND_2POW53_INV_DOUBLE + (CURAND_2POW53_INV_DOUBLE / 2.0);
}
__device__ inline float2 box_muller(unsigned int x, unsigned int y) {
  const float u = x * CURAND_2POW32_INV + (CURAND_2POW32_INV / 2.0f);
  const float v = y * CURAND_2POW32_INV_2PI + (CURAND_2POW32_INV_2PI / 2.0f);
  const float s = sqrtf(-2.0f * logf(u));
  float2 result;
  __sincosf(v, &result.x, &result.y);
  result.x *= s;
  result.y *= s;
  return result;
}
__device__ inline double2 box_muller_double(unsigned int x0, unsigned int x1, unsigned int y0, unsigned int y1) {
  const unsigned long long zx = static_cast<unsigned long long>(x0) ^ (static_cast<unsigned long long>(x1) << (53 - 32));
  const unsigned long long zy = static_cast<unsigned long long>(y0) ^ (static_cast<unsigned long long>(y1) << (53 - 32));
  const double u = zx * CURAND_2POW53_INV_DOUBLE + (CURAND_2POW53_INV_DOUBLE / 2.0);
  const double v = zy * CURAND_2POW53_INV_2PI_DOUBLE + (CURAND_2POW53_INV_2PI_DOUBLE / 2.0);
  const double s = std::sqrt(-2.0 * std::log(u));
  double2 result;
  result.x = s * std::sin(v);
  result.y = s * std::cos(v);
  return result;
}
// Normals come in pairs (`pair(state)` makes two): the second is kept for the next call.
template <typename State, typename Pair>
__device__ inline float normal_of_pairs(State* state, Pair pair) {
  if (state->boxmuller_flag != 0) {
    state->boxmuller_flag = 0;
    return state->boxmuller_extra;
  }
  const float2 v = pair(state);
  state->boxmuller_extra = v.y;
  state->boxmuller_flag = 1;
  return v.x;
}
template <typename State, typename Pair>
__device__ inline double normal_double_of_pairs(State* state, Pair pair) {
  if (state->boxmuller_flag_double != 0) {
    state->boxmuller_flag_double = 0;
    return state->boxmuller_extra_double;
  }
  const double2 v = pair(state);
  state->boxmuller_extra_double = v.y;
  state->boxmuller_flag_double = 1;
  return v.x;
}
template <typename State>
__device__ inline float normal(State* state) {
  return normal_of_pairs(state, [](State* s) {
    const unsigned int x = curand(s);
    const unsigned int y = curand(s);
    return box_muller(x, y);
  });
}
template <typename State>
__device__ inline double normal_double(State* state) {
  return normal_double_of_pairs(state, [](State* s) {
    const unsigned int x0 = curand(s);
    const unsigned int x1 = curand(s);
    const unsigned int y0 = curand(s);
    const unsigned int y1 = curand(s);
    return box_muller_double(x0, x1, y0, y1);
  });
}
}  // namespace banklab_curand

__device__ inline float curand_uniform(curandStateXORWOW_t* state) { return banklab_curand::uniform(curand(state)); }
__device__ inline float curand_uniform(curandStatePhilox4_32_10_t* state) {
  return banklab_curand::uniform(curand(state));
}
__device__ inline double curand_uniform_double(curandStateXORWOW_t* state) {
  const unsigned int x = curand(state);
  const unsigned int y = curand(state);
  return banklab_curand::uniform_double(x, y);
}
// Philox's takes one output x and gives (x + 1) 2^-32, in (0, 1] (measured
// on an H100, tests/data/gpu/h100_curand/: 32 bits of randomness, where
// XORWOW's have 53 and are centred in their step).
__device__ inline double curand_uniform_double(curandStatePhilox4_32_10_t* state) {
  return curand(state) * CURAND_2POW32_INV_DOUBLE + CURAND_2POW32_INV_DOUBLE;
}
__device__ inline float4 curand_uniform4(curandStatePhilox4_32_10_t* state) {
  const uint4 r = curand4(state);
  return make_float4(banklab_curand::uniform(r.x), banklab_curand::uniform(r.y), banklab_curand::uniform(r.z),
                     banklab_curand::uniform(r.w));
}
__device__ inline float curand_normal(curandStateXORWOW_t* state) { return banklab_curand::normal(state); }
__device__ inline float curand_normal(curandStatePhilox4_32_10_t* state) { return banklab_curand::normal(state); }
__device__ inline double curand_normal_double(curandStateXORWOW_t* state) {
  return banklab_curand::normal_double(state);
}
__device__ inline double curand_normal_double(curandStatePhilox4_32_10_t* state) {
  return banklab_curand::normal_double(state);
}
__device__ inline float2 curand_normal2(curandStateXORWOW_t* state) {
  const unsigned int x = curand(state);
  const unsigned int y = curand(state);
  return banklab_curand::box_muller(x, y);
}
__device__ inline float2 curand_normal2(curandStatePhilox4_32_10_t* state) {
  const unsigned int x = curand(state);
  const unsigned int y = curand(state);
  return banklab_curand::box_muller(x, y);
}
// Two doubles from four outputs: the pair curand_normal_double hands out one at a time.
__device__ inline double2 curand_normal2_double(curandStateXORWOW_t* state) {
  const unsigned int x0 = curand(state), x1 = curand(state), y0 = curand(state), y1 = curand(state);
  return banklab_curand::box_muller_double(x0, x1, y0, y1);
}
__device__ inline double2 curand_normal2_double(curandStatePhilox4_32_10_t* state) {
  const unsigned int x0 = curand(state), x1 = curand(state), y0 = curand(state), y1 = curand(state);
  return banklab_curand::box_muller_double(x0, x1, y0, y1);
}
__device__ inline float4 curand_normal4(curandStatePhilox4_32_10_t* state) {
  const uint4 r = curand4(state);
  const float2 a = banklab_curand::box_muller(r.x, r.y);
  const float2 b = banklab_curand::box_muller(r.z, r.w);
  return make_float4(a.x, a.y, b.x, b.y);
}
template <typename State>
__device__ inline float curand_log_normal(State* state, float mean, float stddev) {
  return expf(mean + stddev * curand_normal(state));
}
template <typename State>
__device__ inline double curand_log_normal_double(State* state, double mean, double stddev) {
  return std::exp(mean + stddev * curand_normal_double(state));
}

// ---- MRG32k3a ----------------------------------------------------------------
// L'Ecuyer's combined multiple recursive generator: two recurrences of order
// 3 modulo m1 = 2^32 - 209 and m2 = 2^32 - 22853, their difference the
// output, in 1 ... m1. cuRAND's seeding: every state word 12345, then, for a
// seed other than 0, the words times the seed's low word ^ 0x55555555 or its
// high word ^ 0xAAAAAAAA (alternately, modulo m); subsequences 2^76 outputs
// apart, sequences 2^127 (jumps: src/curand.cpp).

namespace banklab::emu {
/// MRG32k3a's two states advanced by n outputs, times 2^76 (subsequences),
/// 2^127 (sequences) or 1 (`log2_unit` 76, 127 or 0).
void curand_mrg32k3a_jump(unsigned int s1[3], unsigned int s2[3], unsigned long long n, int log2_unit);
}  // namespace banklab::emu

struct curandStateMRG32k3a {
  unsigned int s1[3];
  unsigned int s2[3];
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef struct curandStateMRG32k3a curandStateMRG32k3a_t;

namespace banklab_curand {
constexpr unsigned long long kMrgM1 = 4294967087ull, kMrgM2 = 4294944443ull;
// One step; the output in 1 ... m1, as a double (exact).
__device__ inline double mrg32k3a_step(curandStateMRG32k3a_t* s) {
  const long long p1 = (1403580ll * s->s1[1] - 810728ll * s->s1[0]) % static_cast<long long>(kMrgM1);
  const unsigned int n1 = static_cast<unsigned int>(p1 < 0 ? p1 + static_cast<long long>(kMrgM1) : p1);
  s->s1[0] = s->s1[1];
  s->s1[1] = s->s1[2];
  s->s1[2] = n1;
  const long long p2 = (527612ll * s->s2[2] - 1370589ll * s->s2[0]) % static_cast<long long>(kMrgM2);
  const unsigned int n2 = static_cast<unsigned int>(p2 < 0 ? p2 + static_cast<long long>(kMrgM2) : p2);
  s->s2[0] = s->s2[1];
  s->s2[1] = s->s2[2];
  s->s2[2] = n2;
  return n1 <= n2 ? static_cast<double>(n1) - static_cast<double>(n2) + static_cast<double>(kMrgM1)
                  : static_cast<double>(n1) - static_cast<double>(n2);
}
}  // namespace banklab_curand

__device__ inline void skipahead(unsigned long long n, curandStateMRG32k3a_t* state) {
  banklab::emu::curand_mrg32k3a_jump(state->s1, state->s2, n, 0);
}
__device__ inline void skipahead_subsequence(unsigned long long n, curandStateMRG32k3a_t* state) {
  banklab::emu::curand_mrg32k3a_jump(state->s1, state->s2, n, 76);
}
__device__ inline void skipahead_sequence(unsigned long long n, curandStateMRG32k3a_t* state) {
  banklab::emu::curand_mrg32k3a_jump(state->s1, state->s2, n, 127);
}
__device__ inline void curand_init(unsigned long long seed, unsigned long long subsequence, unsigned long long offset,
                                   curandStateMRG32k3a_t* state) {
  for (int i = 0; i < 3; ++i) state->s1[i] = state->s2[i] = 12345u;
  if (seed != 0) {
    const unsigned long long x1 = static_cast<unsigned int>(seed) ^ 0x55555555u;
    const unsigned long long x2 = static_cast<unsigned int>(seed >> 32) ^ 0xAAAAAAAAu;
    const unsigned long long m1 = banklab_curand::kMrgM1, m2 = banklab_curand::kMrgM2;
    state->s1[0] = static_cast<unsigned int>(x1 * state->s1[0] % m1);
    state->s1[1] = static_cast<unsigned int>(x2 * state->s1[1] % m1);
    state->s1[2] = static_cast<unsigned int>(x1 * state->s1[2] % m1);
    state->s2[0] = static_cast<unsigned int>(x2 * state->s2[0] % m2);
    state->s2[1] = static_cast<unsigned int>(x1 * state->s2[1] % m2);
    state->s2[2] = static_cast<unsigned int>(x2 * state->s2[2] % m2);
  }
  skipahead_subsequence(subsequence, state);
  skipahead(offset, state);
  state->boxmuller_flag = 0;
  state->boxmuller_flag_double = 0;
  state->boxmuller_extra = 0.f;
  state->boxmuller_extra_double = 0.;
}
// 32 bits: the output scaled by (2^32 - 1) / m1 (cuRAND's constant), truncated.
__device__ inline unsigned int curand(curandStateMRG32k3a_t* state) {
  return static_cast<unsigned int>(banklab_curand::mrg32k3a_step(state) * 1.000000048662);
}
__device__ inline float curand_uniform(curandStateMRG32k3a_t* state) {
  return static_cast<float>(banklab_curand::mrg32k3a_step(state) * 2.3283065498378288e-10);
}
__device__ inline double curand_uniform_double(curandStateMRG32k3a_t* state) {
  return banklab_curand::mrg32k3a_step(state) * 2.3283065498378288e-10;
}
namespace banklab_curand {
__device__ inline float2 box_muller_mrg(curandStateMRG32k3a_t* state) {
  const float x = curand_uniform(state);
  const float y = curand_uniform(state) * 6.2831855f;
  const float s = sqrtf(-2.0f * logf(x));
  float2 result;
  __sincosf(y, &result.x, &result.y);
  result.x *= s;
  result.y *= s;
  return result;
}
__device__ inline double2 box_muller_mrg_double(curandStateMRG32k3a_t* state) {
  const double x = curand_uniform_double(state);
  const double y = curand_uniform_double(state) * 6.2831853071795860;
  const double s = std::sqrt(-2.0 * std::log(x));
  double2 result;
  result.x = s * std::sin(y);
  result.y = s * std::cos(y);
  return result;
}
}  // namespace banklab_curand
__device__ inline float curand_normal(curandStateMRG32k3a_t* state) {
  return banklab_curand::normal_of_pairs(state, banklab_curand::box_muller_mrg);
}
__device__ inline double curand_normal_double(curandStateMRG32k3a_t* state) {
  return banklab_curand::normal_double_of_pairs(state, banklab_curand::box_muller_mrg_double);
}
__device__ inline float2 curand_normal2(curandStateMRG32k3a_t* state) { return banklab_curand::box_muller_mrg(state); }
__device__ inline double2 curand_normal2_double(curandStateMRG32k3a_t* state) {
  return banklab_curand::box_muller_mrg_double(state);
}

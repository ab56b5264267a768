// The one header that lets an unmodified lab .cu file compile with the host
// C++ compiler for the CPU SIMT emulator: built-in variables, qualifiers,
// barriers, warp collectives, atomics and vector types. Everything that
// differs between nvcc and the emulator lives here (and in the runtime that
// implements it), never in #ifdefs in lab code.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <type_traits>

#include "banklab/cuda_types.hpp"
#include "banklab/cuda_device_functions.hpp"
#include "banklab/cuda_fp16.hpp"

// No macro tells lab code it is built for the emulator: code must be the
// same on the CPU and on a GPU (the grader checks it).

#include "banklab/cuda_host_code.hpp"  // the qualifiers, types and runtime API host code sees too

// ---- built-in variables (set by the scheduler for the running CUDA thread) ---
// Thread-local: each OS thread running blocks of a launch has its own.
// Constant in kernel code, as CUDA declares them: a write is a compile error
// there too, and the compiler's access hooks skip reads of constant objects
// (a third of the hooks of a transpose were these reads). The scheduler
// (src/runtime.cpp, which defines BANKLAB_RUNTIME_SETS_BUILTINS) sets them
// when a CUDA thread resumes, so a value kept across a barrier is still right.
#ifdef BANKLAB_RUNTIME_SETS_BUILTINS
#define BANKLAB_BUILTIN_CONST
#else
#define BANKLAB_BUILTIN_CONST const
#endif
extern __constinit thread_local BANKLAB_BUILTIN_CONST uint3 threadIdx;
extern __constinit thread_local BANKLAB_BUILTIN_CONST uint3 blockIdx;
extern __constinit thread_local BANKLAB_BUILTIN_CONST dim3 blockDim;
extern __constinit thread_local BANKLAB_BUILTIN_CONST dim3 gridDim;
#undef BANKLAB_BUILTIN_CONST
inline constexpr int warpSize = 32;

// ---- barriers and warp collectives (opaque calls: data is reloaded after) ----
void __syncthreads();
int __syncthreads_count(int predicate);
int __syncthreads_and(int predicate);
int __syncthreads_or(int predicate);
void __syncwarp(unsigned mask = 0xffffffffu);
unsigned __ballot_sync(unsigned mask, int predicate);
int __any_sync(unsigned mask, int predicate);
int __all_sync(unsigned mask, int predicate);
unsigned __activemask();

namespace banklab::emu::detail {
// Every lane in `mask` contributes `value`; returns the value of lane `source`
// (or the caller's own when source is outside [0, 32)).
std::uint64_t shuffle(unsigned mask, std::uint64_t value, int source);
int lane_id();
// A warp reduction or match (op: the runtime's WarpOp) over the lanes of `mask`.
std::uint64_t warp_reduce(unsigned mask, std::uint64_t value, int op);
// Stops the launch at the calling line of kernel code with a finding that
// names `what`: a CUDA construct the emulator cannot run (kept a runtime
// stop, so that a program whose other kernels run still compiles).
[[noreturn]] void unsupported(const char* what);
}  // namespace banklab::emu::detail

// Warp reductions and matches (compute capability 7.0 / 8.0 and up).
inline unsigned __reduce_add_sync(unsigned mask, unsigned value) {
  return static_cast<unsigned>(banklab::emu::detail::warp_reduce(mask, value, 1));
}
inline int __reduce_add_sync(unsigned mask, int value) {
  return static_cast<int>(__reduce_add_sync(mask, static_cast<unsigned>(value)));
}
inline int __reduce_min_sync(unsigned mask, int value) {
  return static_cast<int>(banklab::emu::detail::warp_reduce(mask, static_cast<unsigned>(value), 2));
}
inline int __reduce_max_sync(unsigned mask, int value) {
  return static_cast<int>(banklab::emu::detail::warp_reduce(mask, static_cast<unsigned>(value), 3));
}
// Unsigned order is signed order with the top bit flipped.
inline unsigned __reduce_min_sync(unsigned mask, unsigned value) {
  return static_cast<unsigned>(__reduce_min_sync(mask, static_cast<int>(value ^ 0x80000000u))) ^ 0x80000000u;
}
inline unsigned __reduce_max_sync(unsigned mask, unsigned value) {
  return static_cast<unsigned>(__reduce_max_sync(mask, static_cast<int>(value ^ 0x80000000u))) ^ 0x80000000u;
}
inline unsigned __reduce_and_sync(unsigned mask, unsigned value) {
  return static_cast<unsigned>(banklab::emu::detail::warp_reduce(mask, value, 4));
}
inline unsigned __reduce_or_sync(unsigned mask, unsigned value) {
  return static_cast<unsigned>(banklab::emu::detail::warp_reduce(mask, value, 5));
}
inline unsigned __reduce_xor_sync(unsigned mask, unsigned value) {
  return static_cast<unsigned>(banklab::emu::detail::warp_reduce(mask, value, 6));
}
template <class T>
unsigned __match_any_sync(unsigned mask, T value) {
  static_assert(sizeof(T) <= 8, "__match_any_sync takes 4- or 8-byte values");
  std::uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof(T));
  return static_cast<unsigned>(banklab::emu::detail::warp_reduce(mask, bits, 7));
}
template <class T>
unsigned __match_all_sync(unsigned mask, T value, int* predicate) {
  static_assert(sizeof(T) <= 8, "__match_all_sync takes 4- or 8-byte values");
  std::uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof(T));
  const auto result = static_cast<unsigned>(banklab::emu::detail::warp_reduce(mask, bits, 8));
  *predicate = result != 0;
  return result;
}

template <class T>
T banklab_shuffle_as(unsigned mask, T value, int source) {
  static_assert(sizeof(T) <= 8 && std::is_trivially_copyable_v<T>,
                "the BankLab CPU emulator shuffles values of at most 8 bytes");
  std::uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof(T));
  bits = banklab::emu::detail::shuffle(mask, bits, source);
  T result;
  std::memcpy(&result, &bits, sizeof(T));
  return result;
}
// `width` splits the warp into segments. The lane read is in the caller's own
// segment, at the low bits of `source` (a negative or too large source wraps:
// -1 reads the segment's last lane), as PTX's shfl.idx computes it.
template <class T>
T __shfl_sync(unsigned mask, T value, int source, int width = 32) {
  const int lane = banklab::emu::detail::lane_id();
  return banklab_shuffle_as(mask, value, (lane / width) * width + (source & (width - 1)));
}
template <class T>
T __shfl_up_sync(unsigned mask, T value, unsigned delta, int width = 32) {
  const int lane = banklab::emu::detail::lane_id();
  const int in_segment = lane % width;
  return banklab_shuffle_as(mask, value, in_segment >= static_cast<int>(delta) ? lane - static_cast<int>(delta) : lane);
}
template <class T>
T __shfl_down_sync(unsigned mask, T value, unsigned delta, int width = 32) {
  const int lane = banklab::emu::detail::lane_id();
  const int in_segment = lane % width;
  return banklab_shuffle_as(mask, value,
                            in_segment + static_cast<int>(delta) < width ? lane + static_cast<int>(delta) : lane);
}
// A lane may read from its own segment and from earlier ones; a source in a
// later segment gives the caller's own value (CUDA's documentation of
// __shfl_xor_sync; PTX shfl.bfly; measured: tests/data/gpu/h100_semantics/).
template <class T>
T __shfl_xor_sync(unsigned mask, T value, int lane_mask, int width = 32) {
  const int lane = banklab::emu::detail::lane_id();
  const int source = (lane ^ lane_mask) & 31;
  return banklab_shuffle_as(mask, value, source < (lane / width + 1) * width ? source : lane);
}

// ---- atomics (implemented in the uninstrumented runtime and recorded there) --
int atomicAdd(int* address, int value);
unsigned atomicAdd(unsigned* address, unsigned value);
unsigned long long atomicAdd(unsigned long long* address, unsigned long long value);
float atomicAdd(float* address, float value);
double atomicAdd(double* address, double value);
int atomicSub(int* address, int value);
unsigned atomicSub(unsigned* address, unsigned value);
int atomicMax(int* address, int value);
unsigned atomicMax(unsigned* address, unsigned value);
long long atomicMax(long long* address, long long value);
unsigned long long atomicMax(unsigned long long* address, unsigned long long value);
int atomicMin(int* address, int value);
unsigned atomicMin(unsigned* address, unsigned value);
long long atomicMin(long long* address, long long value);
unsigned long long atomicMin(unsigned long long* address, unsigned long long value);
int atomicAnd(int* address, int value);
unsigned atomicAnd(unsigned* address, unsigned value);
unsigned long long atomicAnd(unsigned long long* address, unsigned long long value);
int atomicOr(int* address, int value);
unsigned atomicOr(unsigned* address, unsigned value);
unsigned long long atomicOr(unsigned long long* address, unsigned long long value);
int atomicXor(int* address, int value);
unsigned atomicXor(unsigned* address, unsigned value);
unsigned long long atomicXor(unsigned long long* address, unsigned long long value);
unsigned atomicInc(unsigned* address, unsigned limit);
unsigned atomicDec(unsigned* address, unsigned limit);
int atomicCAS(int* address, int compare, int value);
unsigned atomicCAS(unsigned* address, unsigned compare, unsigned value);
unsigned long long atomicCAS(unsigned long long* address, unsigned long long compare, unsigned long long value);
int atomicExch(int* address, int value);
unsigned atomicExch(unsigned* address, unsigned value);
unsigned long long atomicExch(unsigned long long* address, unsigned long long value);
float atomicExch(float* address, float value);
// The scoped forms (_block, _system) are the same operation on one device.
#define atomicAdd_block atomicAdd
#define atomicAdd_system atomicAdd
#define atomicSub_block atomicSub
#define atomicMax_block atomicMax
#define atomicMin_block atomicMin
#define atomicAnd_block atomicAnd
#define atomicOr_block atomicOr
#define atomicXor_block atomicXor
#define atomicCAS_block atomicCAS
#define atomicExch_block atomicExch
#define atomicInc_block atomicInc
#define atomicDec_block atomicDec

// ---- memory helpers ---------------------------------------------------------
/// The byte offset of a shared variable's address in the kernel's shared
/// memory, as on the GPU.
std::size_t __cvta_generic_to_shared(const void* pointer);
void __threadfence();
void __threadfence_block();

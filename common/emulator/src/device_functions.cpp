// The CUDA functions kernel code calls that the emulator implements:
// barriers (also counting ones), warp votes, memory fences, address-space
// conversion and the atomics (each recorded as one shared or global access).
#include <atomic>
#include <algorithm>
#include <cstring>

#include "banklab/cuda_async_copy.hpp"
#include "banklab/cuda_host.hpp"
#include "runtime.hpp"

// ---- the CUDA functions kernel code calls ---------------------------------------
#define BANKLAB_PC reinterpret_cast<std::uintptr_t>(__builtin_return_address(0))

void __syncthreads() { banklab::emu::detail::block_barrier(BANKLAB_PC); }

// One unit of an asynchronous copy (banklab/cuda_async_copy.hpp): a global
// load and a shared store of `bytes`, the store priced as LDGSTS writes
// (no lanes merged), both at the line that issued the copy.
void banklab::async_copy::copy_unit_async(void* dst, const void* src, unsigned bytes) {
  using namespace banklab::emu::detail;
  const std::uintptr_t pc = BANKLAB_PC;
  on_access(src, bytes, false, pc);
  rt().async_copy = true;
  on_access(dst, bytes, true, pc);
  rt().async_copy = false;
  std::memcpy(dst, src, bytes);
}

namespace {
// __syncthreads() that also counts the threads with a non-zero predicate.
const banklab::emu::detail::Thread* counting_barrier(int predicate, std::uintptr_t pc) {
  using namespace banklab::emu::detail;
  Thread* self = rt().current;
  if (self == nullptr) return nullptr;
  self->barrier_predicate = predicate != 0;
  block_barrier(pc);
  return self;
}
}  // namespace

int __syncthreads_count(int predicate) {
  const auto* self = counting_barrier(predicate, BANKLAB_PC);
  return self != nullptr ? self->barrier_result : predicate != 0;
}
int __syncthreads_and(int predicate) {
  const auto* self = counting_barrier(predicate, BANKLAB_PC);
  return self != nullptr ? self->barrier_result == self->barrier_arrived : predicate != 0;
}
int __syncthreads_or(int predicate) {
  const auto* self = counting_barrier(predicate, BANKLAB_PC);
  return self != nullptr ? self->barrier_result != 0 : predicate != 0;
}

void __syncwarp(unsigned mask) { banklab::emu::detail::warp_collective(mask, 0, -1, BANKLAB_PC); }

unsigned __ballot_sync(unsigned mask, int predicate) {
  using namespace banklab::emu::detail;
  Thread* self = rt().current;
  if (self == nullptr) return predicate ? 1u : 0u;
  warp_collective(mask, predicate != 0, -1, BANKLAB_PC);
  return rt().warps[self->warp].ballots[self->lane] & mask;
}

int __any_sync(unsigned mask, int predicate) { return __ballot_sync(mask, predicate) != 0; }

int __all_sync(unsigned mask, int predicate) {
  using namespace banklab::emu::detail;
  Thread* self = rt().current;
  if (self == nullptr) return predicate != 0;
  const unsigned live = mask & rt().warps[self->warp].present & ~rt().warps[self->warp].exited;
  return (__ballot_sync(mask, predicate) & live) == live;
}

// The warp's lanes that have not exited, with those that called it here
// since the warp last converged and then exited: on a GPU they ran this call
// together with the caller (a lane that returned before it is not active).
unsigned __activemask() {
  using namespace banklab::emu::detail;
  Thread* self = rt().current;
  if (self == nullptr) return 1u;
  WarpState& warp = rt().warps[self->warp];
  const std::uintptr_t pc = BANKLAB_PC;
  if (warp.activemask_pc != pc || warp.activemask_sync != warp.sync_count) {
    warp.activemask_pc = pc;
    warp.activemask_sync = warp.sync_count;
    warp.activemask_lanes = 0;
  }
  warp.activemask_lanes |= 1u << self->lane;
  return (warp.present & ~warp.exited) | warp.activemask_lanes;
}

void __threadfence() {}
void __threadfence_block() {}

std::size_t __cvta_generic_to_shared(const void* pointer) {
  const auto address = reinterpret_cast<std::uintptr_t>(pointer);
  for (const auto& v : banklab::emu::detail::rt().vars) {
    if (address - v.address <= v.size) return v.offset + (address - v.address);
  }
  return 0;
}

// Atomics: read-modify-writes, each recorded as one access at the caller's
// line, priced as its kind runs on an H200 (AtomicKind in runtime.hpp). On
// shared memory they are plain (fibers never interleave inside one, and each
// OS thread has its own shared memory); on global memory, which the workers of
// a parallel launch share, each holds one of a set of locks chosen by address.
namespace {

class GlobalAtomicLock {
 public:
  explicit GlobalAtomicLock(const void* address) {
    const auto a = reinterpret_cast<std::uintptr_t>(address);
    const banklab::emu::detail::Runtime& r = banklab::emu::detail::rt();
    if (a - r.section_lo < r.section_span) return;  // shared memory
    static std::atomic_flag locks[256] = {};
    lock_ = &locks[(a >> 3) % 256];
    while (lock_->test_and_set(std::memory_order_acquire)) {
    }
  }
  GlobalAtomicLock(const GlobalAtomicLock&) = delete;
  GlobalAtomicLock& operator=(const GlobalAtomicLock&) = delete;
  ~GlobalAtomicLock() {
    if (lock_ != nullptr) lock_->clear(std::memory_order_release);
  }

 private:
  std::atomic_flag* lock_ = nullptr;
};

}  // namespace

#define BANKLAB_ATOMIC_KIND(Kind, Ret, Name, Params, Body)                              \
  Ret Name Params {                                                                     \
    banklab::emu::detail::rt().atomic_kind = banklab::emu::detail::AtomicKind::Kind;    \
    banklab::emu::detail::on_access(address, sizeof(*address), true, BANKLAB_PC, true); \
    const GlobalAtomicLock lock(address);                                               \
    const Ret old = *address;                                                           \
    Body;                                                                               \
    return old;                                                                         \
  }
#define BANKLAB_ATOMIC(Ret, Name, Params, Body) BANKLAB_ATOMIC_KIND(kNative, Ret, Name, Params, Body)
BANKLAB_ATOMIC(int, atomicAdd, (int* address, int value), *address = old + value)
BANKLAB_ATOMIC(unsigned, atomicAdd, (unsigned* address, unsigned value), *address = old + value)
BANKLAB_ATOMIC(unsigned long long, atomicAdd, (unsigned long long* address, unsigned long long value),
               *address = old + value)
BANKLAB_ATOMIC_KIND(kCasLoop, float, atomicAdd, (float* address, float value), *address = old + value)
BANKLAB_ATOMIC_KIND(kCasLoop, double, atomicAdd, (double* address, double value), *address = old + value)
BANKLAB_ATOMIC(int, atomicMax, (int* address, int value), *address = std::max(old, value))
BANKLAB_ATOMIC(unsigned, atomicMax, (unsigned* address, unsigned value), *address = std::max(old, value))
BANKLAB_ATOMIC(int, atomicMin, (int* address, int value), *address = std::min(old, value))
BANKLAB_ATOMIC(unsigned, atomicMin, (unsigned* address, unsigned value), *address = std::min(old, value))
BANKLAB_ATOMIC_KIND(kCas, int, atomicCAS, (int* address, int compare, int value), *address = old == compare ? value : old)
BANKLAB_ATOMIC_KIND(kCas, unsigned, atomicCAS, (unsigned* address, unsigned compare, unsigned value),
               *address = old == compare ? value : old)
BANKLAB_ATOMIC_KIND(kCas, unsigned long long, atomicCAS,
               (unsigned long long* address, unsigned long long compare, unsigned long long value),
               *address = old == compare ? value : old)
BANKLAB_ATOMIC(int, atomicExch, (int* address, int value), *address = value)
BANKLAB_ATOMIC(unsigned, atomicExch, (unsigned* address, unsigned value), *address = value)
BANKLAB_ATOMIC(float, atomicExch, (float* address, float value), *address = value)
BANKLAB_ATOMIC(unsigned long long, atomicExch, (unsigned long long* address, unsigned long long value),
               *address = value)
BANKLAB_ATOMIC(int, atomicSub, (int* address, int value), *address = old - value)
BANKLAB_ATOMIC(unsigned, atomicSub, (unsigned* address, unsigned value), *address = old - value)
BANKLAB_ATOMIC(long long, atomicMax, (long long* address, long long value), *address = std::max(old, value))
BANKLAB_ATOMIC(unsigned long long, atomicMax, (unsigned long long* address, unsigned long long value),
               *address = std::max(old, value))
BANKLAB_ATOMIC(long long, atomicMin, (long long* address, long long value), *address = std::min(old, value))
BANKLAB_ATOMIC(unsigned long long, atomicMin, (unsigned long long* address, unsigned long long value),
               *address = std::min(old, value))
BANKLAB_ATOMIC(int, atomicAnd, (int* address, int value), *address = old & value)
BANKLAB_ATOMIC(unsigned, atomicAnd, (unsigned* address, unsigned value), *address = old & value)
BANKLAB_ATOMIC(unsigned long long, atomicAnd, (unsigned long long* address, unsigned long long value),
               *address = old & value)
BANKLAB_ATOMIC(int, atomicOr, (int* address, int value), *address = old | value)
BANKLAB_ATOMIC(unsigned, atomicOr, (unsigned* address, unsigned value), *address = old | value)
BANKLAB_ATOMIC(unsigned long long, atomicOr, (unsigned long long* address, unsigned long long value),
               *address = old | value)
BANKLAB_ATOMIC(int, atomicXor, (int* address, int value), *address = old ^ value)
BANKLAB_ATOMIC(unsigned, atomicXor, (unsigned* address, unsigned value), *address = old ^ value)
BANKLAB_ATOMIC(unsigned long long, atomicXor, (unsigned long long* address, unsigned long long value),
               *address = old ^ value)
// CUDA's wrapping increment and decrement: ((old >= limit) ? 0 : old + 1),
// (((old == 0) || (old > limit)) ? limit : old - 1).
BANKLAB_ATOMIC(unsigned, atomicInc, (unsigned* address, unsigned limit), *address = old >= limit ? 0u : old + 1u)
BANKLAB_ATOMIC(unsigned, atomicDec, (unsigned* address, unsigned limit),
               *address = (old == 0u || old > limit) ? limit : old - 1u)

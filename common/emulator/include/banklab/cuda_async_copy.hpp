// Asynchronous copies from global to shared memory for the CPU emulator:
// the engine under <cuda_pipeline.h> (__pipeline_memcpy_async), <cuda/pipeline>,
// <cuda/barrier> and <cooperative_groups/memcpy_async.h>.
//
// A copy runs when it is issued: a GPU may finish it at any moment before the
// wait that covers it, and finishing it at once is one of those moments, so a
// program that waits before it reads gets CUDA's results. What the emulator
// records is what the copy does to shared memory: each thread's part is a
// global load and a shared store of one access per unit (4, 8 or 16 bytes,
// the unit an LDGSTS instruction moves), at the line that issued the copy,
// the store priced as an H100 prices LDGSTS: as a store of that width, except
// that lanes writing one word are not merged (tests/data/gpu/h100_async_copy/).
// A copy made by a whole group (cooperative_groups::memcpy_async,
// cuda::memcpy_async(group, ...)) is split as the library splits it on a
// GPU: unit k is copied by the thread of rank k % size, so that one warp
// instruction stores 32 consecutive units. The waits that cover a group's
// copy synchronise the group: the other threads' parts are written by then.
#pragma once

#include <cstddef>
#include <cstdint>

namespace banklab::emu::detail {
[[noreturn]] void unsupported(const char* what);
}  // namespace banklab::emu::detail

namespace banklab::async_copy {

// One unit of `bytes` (1, 2, 4, 8 or 16): a load of the source and a store
// into shared memory, each one access, the store priced as an asynchronous
// copy's (every lane counted: src/device_functions.cpp).
void copy_unit_async(void* dst, const void* src, unsigned bytes);
inline void copy_unit(void* dst, const void* src, std::size_t bytes) {
  copy_unit_async(dst, src, static_cast<unsigned>(bytes));
}

// The widest unit (16, 8, 4, 2 or 1 bytes, at most `known_alignment` where
// that is not 0) that divides both addresses and the size.
inline std::size_t unit_of(const void* dst, const void* src, std::size_t size, std::size_t known_alignment = 0) {
  const auto bits = reinterpret_cast<std::uintptr_t>(dst) | reinterpret_cast<std::uintptr_t>(src) | size;
  std::size_t unit = 16;
  while (unit > 1 && (bits & (unit - 1)) != 0) unit /= 2;
  if (known_alignment != 0 && known_alignment < unit) unit = known_alignment;
  return unit;
}

// The part of a copy of `size` bytes that the thread of rank `rank` in a
// group of `group_size` makes: units rank, rank + group_size, ...
inline void copy_share(void* dst, const void* src, std::size_t size, unsigned rank, unsigned group_size,
                       std::size_t known_alignment = 0) {
  const std::size_t unit = unit_of(dst, src, size, known_alignment);
  auto* d = static_cast<unsigned char*>(dst);
  const auto* s = static_cast<const unsigned char*>(src);
  for (std::size_t k = rank; k * unit < size; k += group_size) copy_unit(d + k * unit, s + k * unit, unit);
}

}  // namespace banklab::async_copy

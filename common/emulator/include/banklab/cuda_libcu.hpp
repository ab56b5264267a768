// The part of CUDA's C++ library (libcu++) that <cuda/pipeline>, <cuda/barrier>
// and <cooperative_groups/memcpy_async.h> share in the CPU emulator: thread
// scopes, aligned sizes, and the block-scope barrier (the block's
// __syncthreads(), which is what a barrier every thread of the block arrives
// at is). Copies: banklab/cuda_async_copy.hpp.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>

#include "banklab/cuda_async_copy.hpp"
#include "cooperative_groups.h"

namespace cuda {

enum thread_scope { thread_scope_system = 0, thread_scope_device = 1, thread_scope_block = 2, thread_scope_thread = 3 };

/// A size that promises an alignment of both pointers (a power of two).
template <std::size_t Alignment>
struct aligned_size_t {
  static constexpr std::size_t align = Alignment;
  std::size_t value;
  constexpr explicit aligned_size_t(std::size_t size) : value(size) {}
  constexpr operator std::size_t() const { return value; }
};

namespace banklab_detail {
template <class Size>
struct alignment_of {
  static constexpr std::size_t value = 0;  // found from the addresses
};
template <std::size_t N>
struct alignment_of<aligned_size_t<N>> {
  static constexpr std::size_t value = N;
};
inline unsigned block_threads() { return blockDim.x * blockDim.y * blockDim.z; }
}  // namespace banklab_detail

/// A barrier in shared memory. The emulator runs the block-scope barrier
/// every thread of the block arrives at (init with the block's size): its
/// arrive-and-wait and its wait are the block's barrier. Other counts stop
/// the launch with a finding naming the line.
template <thread_scope Scope, class CompletionFunction = void*>
class barrier {
 public:
  using arrival_token = std::uint64_t;
  barrier() = default;
  barrier(const barrier&) = delete;
  barrier& operator=(const barrier&) = delete;

  friend void init(barrier* b, std::ptrdiff_t expected, CompletionFunction = CompletionFunction()) {
    (void)b;
    if (Scope != thread_scope_block || expected != static_cast<std::ptrdiff_t>(banklab_detail::block_threads())) {
      banklab::emu::detail::unsupported(
          "a cuda::barrier that is not of block scope with every thread of the block arriving (init(&bar, "
          "blockDim.x * blockDim.y * blockDim.z)); the emulator runs only that kind");
    }
  }
  [[nodiscard]] arrival_token arrive(std::ptrdiff_t update = 1) {
    if (update != 1) banklab::emu::detail::unsupported("cuda::barrier::arrive with an update other than 1");
    return 0;
  }
  void wait(arrival_token&&) const { __syncthreads(); }
  void arrive_and_wait() { __syncthreads(); }
  void arrive_and_drop() {
    banklab::emu::detail::unsupported("cuda::barrier::arrive_and_drop (threads leaving the barrier)");
  }

 private:
  alignas(8) unsigned char state_[8];  // the GPU's 8 bytes, so that later shared arrays sit where nvcc puts them
};

}  // namespace cuda

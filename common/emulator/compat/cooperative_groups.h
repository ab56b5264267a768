// Cooperative groups for the CPU emulator: the thread block, tiles of a warp
// (static and dynamic size) with their sync, shuffles and votes, coalesced
// groups, and reduce (<cooperative_groups/reduce.h>). A grid-wide sync needs
// every block resident at once, which the emulator (one block at a time)
// cannot give: this_grid().sync() over several blocks stops the launch with
// a finding naming the line (over one block it is the block's barrier).
#pragma once

#include "banklab/cuda_host.hpp"

namespace cooperative_groups {

class thread_group {
 public:
  explicit thread_group(unsigned size, unsigned rank, unsigned mask, bool is_block)
      : size_(size), rank_(rank), mask_(mask), block_(is_block) {}
  void sync() const {
    if (block_) {
      __syncthreads();
    } else {
      __syncwarp(mask_);
    }
  }
  unsigned size() const { return size_; }
  unsigned num_threads() const { return size_; }
  unsigned thread_rank() const { return rank_; }

 protected:
  unsigned size_, rank_, mask_;
  bool block_;
};

class thread_block : public thread_group {
 public:
  thread_block()
      : thread_group(blockDim.x * blockDim.y * blockDim.z,
                     threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z), 0xffffffffu, true) {}
  static dim3 group_index() { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  static dim3 thread_index() { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
  static dim3 group_dim() { return blockDim; }
  static dim3 dim_threads() { return blockDim; }
};

inline thread_block this_thread_block() { return thread_block(); }

namespace detail {
inline unsigned linear_thread() { return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z); }
}  // namespace detail

// A tile of `Size` consecutive threads (Size a power of two, at most 32).
template <unsigned Size>
class thread_block_tile : public thread_group {
  static_assert(Size >= 1 && Size <= 32 && (Size & (Size - 1)) == 0, "tiles of 1, 2, 4, 8, 16 or 32 threads");

 public:
  thread_block_tile()
      : thread_group(Size, detail::linear_thread() % Size, tile_mask(), false) {}
  unsigned meta_group_rank() const { return detail::linear_thread() / Size; }
  unsigned meta_group_size() const { return (blockDim.x * blockDim.y * blockDim.z + Size - 1) / Size; }
  template <class T>
  T shfl(T value, int source) const {
    return __shfl_sync(mask_, value, source, Size);
  }
  template <class T>
  T shfl_down(T value, unsigned delta) const {
    return __shfl_down_sync(mask_, value, delta, Size);
  }
  template <class T>
  T shfl_up(T value, unsigned delta) const {
    return __shfl_up_sync(mask_, value, delta, Size);
  }
  template <class T>
  T shfl_xor(T value, int lane_mask) const {
    return __shfl_xor_sync(mask_, value, lane_mask, Size);
  }
  int any(int predicate) const { return (__ballot_sync(mask_, predicate) & mask_) != 0; }
  int all(int predicate) const { return (__ballot_sync(mask_, predicate) & mask_) == (mask_ & __activemask()); }
  unsigned ballot(int predicate) const {
    return (__ballot_sync(mask_, predicate) & mask_) >> (Size == 32 ? 0 : (detail::linear_thread() % 32) / Size * Size);
  }

 private:
  static unsigned tile_mask() {
    if (Size == 32) return 0xffffffffu;
    const unsigned first = (detail::linear_thread() % 32) / Size * Size;
    return ((1u << (Size % 32)) - 1u) << first;
  }
};

template <unsigned Size, class Parent>
thread_block_tile<Size> tiled_partition(const Parent&) {
  return thread_block_tile<Size>();
}

// A tile of a size known at run time (a power of two up to 32), of the block
// or of a tile of it (tiles are consecutive threads, so a tile of a tile is
// a tile of the block).
inline thread_group tiled_partition(const thread_group& parent, unsigned size) {
  if (size == 0 || size > 32 || (size & (size - 1)) != 0 || size > parent.size()) {
    banklab::emu::detail::unsupported(
        "tiled_partition(group, size) with a size that is not a power of two from 1 to 32 within the group");
  }
  const unsigned lane = detail::linear_thread() % 32;
  const unsigned first = lane / size * size;
  const unsigned mask = size == 32 ? 0xffffffffu : ((1u << size) - 1u) << first;
  return thread_group(size, detail::linear_thread() % size, mask, false);
}

// Memory a block lends its tiles of more than 32 threads (CUDA 12:
// `__shared__ block_tile_memory<N> memory; this_thread_block(memory)`). The
// emulator's tiles are of at most 32 threads and need none, so the block
// made from it is the ordinary one.
template <unsigned... Sizes>
struct block_tile_memory {
  unsigned char reserved[16];
};
template <unsigned... Sizes>
thread_block this_thread_block(block_tile_memory<Sizes...>&) {
  return thread_block();
}
namespace experimental {
using cooperative_groups::block_tile_memory;
using cooperative_groups::this_thread_block;
}  // namespace experimental

// The active threads of the warp.
class coalesced_group : public thread_group {
 public:
  coalesced_group()
      : thread_group(static_cast<unsigned>(__popc(__activemask())),
                     static_cast<unsigned>(__popc(__activemask() & ((1u << (detail::linear_thread() % 32)) - 1u))),
                     __activemask(), false) {}
  template <class T>
  T shfl(T value, int source_rank) const {
    // the lane of the source_rank-th active thread
    unsigned m = mask_;
    for (int i = 0; i < source_rank; ++i) m &= m - 1;
    return __shfl_sync(mask_, value, m == 0 ? 0 : __ffs(static_cast<int>(m)) - 1);
  }
  unsigned ballot(int predicate) const { return __ballot_sync(mask_, predicate); }
  int any(int predicate) const { return __ballot_sync(mask_, predicate) != 0; }
  int all(int predicate) const { return __ballot_sync(mask_, predicate) == mask_; }
};
inline coalesced_group coalesced_threads() { return coalesced_group(); }

template <class Group>
void sync(const Group& group) {
  group.sync();
}

class grid_group {
 public:
  /// One block: the block's barrier. More: the emulator runs blocks one after
  /// another, so no block can wait for the others; the launch stops here
  /// with a finding that says so.
  void sync() const {
    if (gridDim.x * gridDim.y * gridDim.z == 1) {
      __syncthreads();
      return;
    }
    banklab::emu::detail::unsupported(
        "a grid-wide sync (this_grid().sync()) over more than one block, which the emulator cannot run (it runs "
        "blocks one after another); split the kernel in two launches at this line");
  }
  bool is_valid() const { return true; }
  unsigned long long size() const {
    return static_cast<unsigned long long>(gridDim.x) * gridDim.y * gridDim.z * blockDim.x * blockDim.y * blockDim.z;
  }
  unsigned long long thread_rank() const {
    const unsigned long long block = blockIdx.x + gridDim.x * (blockIdx.y + static_cast<unsigned long long>(gridDim.y) * blockIdx.z);
    return block * blockDim.x * blockDim.y * blockDim.z + detail::linear_thread();
  }
};
inline grid_group this_grid() { return grid_group(); }

// <cooperative_groups/reduce.h>
template <class T>
struct plus {
  T operator()(T a, T b) const { return a + b; }
};
template <class T>
struct less {
  T operator()(T a, T b) const { return a < b ? a : b; }
};
template <class T>
struct greater {
  T operator()(T a, T b) const { return a < b ? b : a; }
};
template <class T>
struct bit_and {
  T operator()(T a, T b) const { return a & b; }
};
template <class T>
struct bit_or {
  T operator()(T a, T b) const { return a | b; }
};
template <class T>
struct bit_xor {
  T operator()(T a, T b) const { return a ^ b; }
};

// Every thread of the tile gets op over the tile's values (a butterfly of shuffles).
template <unsigned Size, class T, class Op>
T reduce(const thread_block_tile<Size>& tile, T value, Op op) {
  for (unsigned offset = Size / 2; offset > 0; offset /= 2) value = op(value, tile.shfl_xor(value, static_cast<int>(offset)));
  return value;
}

// Inclusive and exclusive scans over a tile (<cooperative_groups/scan.h>).
template <unsigned Size, class T, class Op = plus<T>>
T inclusive_scan(const thread_block_tile<Size>& tile, T value, Op op = Op()) {
  for (unsigned offset = 1; offset < Size; offset *= 2) {
    const T other = tile.shfl_up(value, offset);
    if (tile.thread_rank() >= offset) value = op(value, other);
  }
  return value;
}
template <unsigned Size, class T>
T exclusive_scan(const thread_block_tile<Size>& tile, T value) {
  const T inclusive = inclusive_scan(tile, value);
  const T before = tile.shfl_up(inclusive, 1);
  return tile.thread_rank() == 0 ? T{} : before;
}

}  // namespace cooperative_groups

// <cooperative_groups/memcpy_async.h> for the CPU emulator: a copy the whole
// group makes from global to shared memory, and the waits for it (the
// group's barrier: banklab/cuda_async_copy.hpp says how the copy is split
// and priced).
#pragma once

#include "banklab/cuda_libcu.hpp"

namespace cooperative_groups {

template <class Group, class Size>
void memcpy_async(const Group& group, void* dst, const void* src, Size size) {
  banklab::async_copy::copy_share(dst, src, static_cast<std::size_t>(size), group.thread_rank(), group.size(),
                                  cuda::banklab_detail::alignment_of<Size>::value);
}

/// The element-count form: `dst_count` elements of T, from `src_count` elements.
template <class Group, class T>
void memcpy_async(const Group& group, T* dst, std::size_t dst_count, const T* src, std::size_t src_count) {
  const std::size_t count = dst_count < src_count ? dst_count : src_count;
  banklab::async_copy::copy_share(dst, src, count * sizeof(T), group.thread_rank(), group.size(), alignof(T));
}

template <class Group>
void wait(const Group& group) {
  group.sync();
}
template <unsigned NumStages, class Group>
void wait_prior(const Group& group) {
  group.sync();
}

}  // namespace cooperative_groups

// <cuda_pipeline.h> for the CPU emulator: the pipeline primitives. A copy of
// 4, 8 or 16 bytes runs when issued, as one shared store of its size at the
// calling line (banklab/cuda_async_copy.hpp says why that is CUDA's result);
// commits and waits have nothing left to wait for.
#pragma once

#include "banklab/cuda_async_copy.hpp"

inline void __pipeline_memcpy_async(void* dst_shared, const void* src_global, std::size_t size_and_align,
                                    std::size_t zfill = 0) {
  if ((size_and_align != 4 && size_and_align != 8 && size_and_align != 16) || zfill > size_and_align ||
      reinterpret_cast<std::uintptr_t>(dst_shared) % size_and_align != 0 ||
      reinterpret_cast<std::uintptr_t>(src_global) % size_and_align != 0) {
    banklab::emu::detail::unsupported(
        "__pipeline_memcpy_async of a size other than 4, 8 or 16 bytes, or with an address not aligned to it "
        "(CUDA requires both)");
  }
  if (zfill == 0) {
    banklab::async_copy::copy_unit(dst_shared, src_global, size_and_align);
    return;
  }
  // The source's first size - zfill bytes, then zeros: one store of the whole unit.
  alignas(16) unsigned char unit[16] = {};
  for (std::size_t i = 0; i < size_and_align - zfill; ++i) unit[i] = static_cast<const unsigned char*>(src_global)[i];
  banklab::async_copy::copy_unit(dst_shared, unit, size_and_align);
}
inline void __pipeline_commit() {}
inline void __pipeline_wait_prior(std::size_t) {}

// The GPU half of bank_probe: one warp, one shared-memory instruction of a
// given width per launch, so that Nsight Compute counts that instruction alone.
#include <cstdio>
#include <cstdlib>

#include "bank_probe.hpp"

namespace {

#define BANKLAB_CUDA_CHECK(call)                                                               \
  do {                                                                                         \
    const cudaError_t status_ = (call);                                                        \
    if (status_ != cudaSuccess) {                                                              \
      std::fprintf(stderr, "bank_probe: %s failed: %s\n", #call, cudaGetErrorString(status_)); \
      std::exit(1);                                                                            \
    }                                                                                          \
  } while (0)

// One lane, one access of Width bytes at `offset` (the PTX pins the width: a
// plain C++ access could be split or merged by the compiler).
template <int Width, bool Store>
__device__ void access_once(unsigned address, unsigned lane, unsigned* result) {
  unsigned v0 = lane, v1 = lane + 7, v2 = lane + 13, v3 = lane + 29;
  if constexpr (Store) {
    if constexpr (Width == 1) asm volatile("st.volatile.shared.u8 [%0], %1;" ::"r"(address), "r"(v0) : "memory");
    if constexpr (Width == 2)
      asm volatile("st.volatile.shared.u16 [%0], %1;" ::"r"(address), "h"(static_cast<unsigned short>(v0)) : "memory");
    if constexpr (Width == 4) asm volatile("st.volatile.shared.u32 [%0], %1;" ::"r"(address), "r"(v0) : "memory");
    if constexpr (Width == 8)
      asm volatile("st.volatile.shared.v2.u32 [%0], {%1, %2};" ::"r"(address), "r"(v0), "r"(v1) : "memory");
    if constexpr (Width == 16)
      asm volatile("st.volatile.shared.v4.u32 [%0], {%1, %2, %3, %4};" ::"r"(address), "r"(v0), "r"(v1), "r"(v2),
                   "r"(v3)
                   : "memory");
  } else {
    if constexpr (Width == 1) asm volatile("ld.volatile.shared.u8 %0, [%1];" : "=r"(v0) : "r"(address) : "memory");
    if constexpr (Width == 2) {
      unsigned short h;
      asm volatile("ld.volatile.shared.u16 %0, [%1];" : "=h"(h) : "r"(address) : "memory");
      v0 = h;
    }
    if constexpr (Width == 4) asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(v0) : "r"(address) : "memory");
    if constexpr (Width == 8)
      asm volatile("ld.volatile.shared.v2.u32 {%0, %1}, [%2];" : "=r"(v0), "=r"(v1) : "r"(address) : "memory");
    if constexpr (Width == 16)
      asm volatile("ld.volatile.shared.v4.u32 {%0, %1, %2, %3}, [%4];"
                   : "=r"(v0), "=r"(v1), "=r"(v2), "=r"(v3)
                   : "r"(address)
                   : "memory");
  }
  result[lane] = v0 ^ v1 ^ v2 ^ v3;  // keeps loaded values alive
}

template <int Width, bool Store>
__global__ void probe_access(const long long* offsets, unsigned* result) {
  __shared__ __align__(128) unsigned char shared[kSharedBytes];
  const unsigned lane = threadIdx.x;
  const long long offset = offsets[lane];
  if (offset < 0) return;
  const auto base = static_cast<unsigned>(__cvta_generic_to_shared(shared));
  access_once<Width, Store>(base + static_cast<unsigned>(offset), lane, result);
}

template <int Width>
void launch(bool store, const long long* offsets, unsigned* result) {
  if (store) {
    probe_access<Width, true><<<1, 32>>>(offsets, result);
  } else {
    probe_access<Width, false><<<1, 32>>>(offsets, result);
  }
}

long long* g_offsets = nullptr;
unsigned* g_result = nullptr;

}  // namespace

void probe_one_access(int width_bytes, bool store, const long long* lane_offsets) {
  if (g_offsets == nullptr) {
    BANKLAB_CUDA_CHECK(cudaMalloc(&g_offsets, 32 * sizeof(long long)));
    BANKLAB_CUDA_CHECK(cudaMalloc(&g_result, 32 * sizeof(unsigned)));
  }
  BANKLAB_CUDA_CHECK(cudaMemcpy(g_offsets, lane_offsets, 32 * sizeof(long long), cudaMemcpyHostToDevice));
  switch (width_bytes) {
    case 1:
      launch<1>(store, g_offsets, g_result);
      break;
    case 2:
      launch<2>(store, g_offsets, g_result);
      break;
    case 4:
      launch<4>(store, g_offsets, g_result);
      break;
    case 8:
      launch<8>(store, g_offsets, g_result);
      break;
    default:
      launch<16>(store, g_offsets, g_result);
      break;
  }
  BANKLAB_CUDA_CHECK(cudaGetLastError());
  BANKLAB_CUDA_CHECK(cudaDeviceSynchronize());
}

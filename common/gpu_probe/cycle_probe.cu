// The GPU half of the cycle probe: a loop of one shared instruction, timed
// with clock64() across the block's warps (cycle_probe.hpp says why).
#include <algorithm>
#include <cstdio>
#include <vector>

#include "cycle_probe.hpp"

namespace banklab::gpu {

namespace {

constexpr int kWarps = 16;
constexpr int kUnroll = 32;
constexpr int kIterations = 64;  // kUnroll * kIterations instructions per warp
constexpr int kRepeats = 5;

template <int Width, bool Store>
__device__ __forceinline__ unsigned access_once(unsigned address, unsigned value) {
  unsigned v0 = value, v1 = value + 7, v2 = value + 13, v3 = value + 29;
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
    return 0;
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
    return v0 ^ v1 ^ v2 ^ v3;
  }
}

// Every warp of the block runs the same pattern; the elapsed time is from the
// first warp's start to the last warp's end, on one SM's clock.
template <int Width, bool Store>
__global__ void __launch_bounds__(kWarps * 32) cycle_loop(const long long* offsets, unsigned long long* elapsed, unsigned* sink) {
  __shared__ __align__(128) unsigned char shared[kCycleProbeSharedBytes];
  __shared__ unsigned long long first_start, last_stop;
  for (int i = threadIdx.x; i < kCycleProbeSharedBytes / 4; i += blockDim.x) {
    reinterpret_cast<unsigned*>(shared)[i] = static_cast<unsigned>(i);
  }
  if (threadIdx.x == 0) {
    first_start = ~0ull;
    last_stop = 0;
  }
  const unsigned lane = threadIdx.x % 32;
  const long long offset = offsets[lane];
  const unsigned address = static_cast<unsigned>(__cvta_generic_to_shared(shared)) + static_cast<unsigned>(offset);
  unsigned acc = 0;
  __syncthreads();
  const unsigned long long start = clock64();
  if (offset >= 0) {
    for (int i = 0; i < kIterations; ++i) {
#pragma unroll
      for (int k = 0; k < kUnroll; ++k) acc ^= access_once<Width, Store>(address, lane + k);
    }
  }
  __syncwarp();
  const unsigned long long stop = clock64();
  if (lane == 0) {
    atomicMin(&first_start, start);
    atomicMax(&last_stop, stop);
  }
  __syncthreads();
  if (threadIdx.x == 0) *elapsed = last_stop - first_start;
  if (acc == 0x9e3779b9u) sink[threadIdx.x] = acc;  // keeps the loads alive
}

template <int Width>
void launch(bool store, const long long* offsets, unsigned long long* elapsed, unsigned* sink) {
  if (store) {
    cycle_loop<Width, true><<<1, kWarps * 32>>>(offsets, elapsed, sink);
  } else {
    cycle_loop<Width, false><<<1, kWarps * 32>>>(offsets, elapsed, sink);
  }
}

// Median cycles per warp instruction of kRepeats launches (after one warm-up).
bool median_cycles(int width, bool store, const long long* host_offsets, double* cycles, std::string* error) {
  long long* offsets = nullptr;
  unsigned long long* elapsed = nullptr;
  unsigned* sink = nullptr;
  cudaError_t status = cudaMalloc(&offsets, 32 * sizeof(long long));
  if (status == cudaSuccess) status = cudaMalloc(&elapsed, sizeof(unsigned long long));
  if (status == cudaSuccess) status = cudaMalloc(&sink, kWarps * 32 * sizeof(unsigned));
  if (status == cudaSuccess)
    status = cudaMemcpy(offsets, host_offsets, 32 * sizeof(long long), cudaMemcpyHostToDevice);
  std::vector<double> samples;
  for (int r = 0; r <= kRepeats && status == cudaSuccess; ++r) {
    switch (width) {
      case 1: launch<1>(store, offsets, elapsed, sink); break;
      case 2: launch<2>(store, offsets, elapsed, sink); break;
      case 4: launch<4>(store, offsets, elapsed, sink); break;
      case 8: launch<8>(store, offsets, elapsed, sink); break;
      default: launch<16>(store, offsets, elapsed, sink); break;
    }
    status = cudaGetLastError();
    if (status == cudaSuccess) status = cudaDeviceSynchronize();
    unsigned long long value = 0;
    if (status == cudaSuccess) status = cudaMemcpy(&value, elapsed, sizeof value, cudaMemcpyDeviceToHost);
    if (r > 0) samples.push_back(static_cast<double>(value) / (double(kWarps) * kUnroll * kIterations));
  }
  cudaFree(offsets);
  cudaFree(elapsed);
  cudaFree(sink);
  if (status != cudaSuccess) {
    *error = std::string("CUDA error in the cycle probe: ") + cudaGetErrorString(status);
    return false;
  }
  std::sort(samples.begin(), samples.end());
  *cycles = samples[samples.size() / 2];
  return true;
}

}  // namespace

CycleMeasurement measure_cycles(int width_bytes, bool store, const long long lane_offsets[32]) {
  CycleMeasurement m;
  if (width_bytes != 1 && width_bytes != 2 && width_bytes != 4 && width_bytes != 8 && width_bytes != 16) {
    m.error = "cycle probe: width must be 1, 2, 4, 8 or 16 bytes, not " + std::to_string(width_bytes);
    return m;
  }
  for (int lane = 0; lane < 32; ++lane) {
    const long long offset = lane_offsets[lane];
    if (offset >= 0 && (offset % width_bytes != 0 || offset + width_bytes > kCycleProbeSharedBytes)) {
      m.error = "cycle probe: lane " + std::to_string(lane) + " offset " + std::to_string(offset) +
                " is misaligned or beyond the probe's " + std::to_string(kCycleProbeSharedBytes) + " shared bytes";
      return m;
    }
  }
  long long row[32], column[32];
  for (int lane = 0; lane < 32; ++lane) {
    row[lane] = 4LL * lane;
    column[lane] = 128LL * lane;
  }
  if (!median_cycles(4, false, row, &m.load_floor_cycles, &m.error)) return m;
  if (!median_cycles(4, false, column, &m.cycles_per_wavefront, &m.error)) return m;
  m.cycles_per_wavefront /= 32;
  if (!median_cycles(width_bytes, store, lane_offsets, &m.cycles, &m.error)) return m;
  m.ok = true;
  return m;
}

}  // namespace banklab::gpu

// Probe: how Nsight Compute counts the shared-memory side of asynchronous
// copies (global to shared) on sm_90, for the emulator's pricing of
// __pipeline_memcpy_async, cuda::memcpy_async and cooperative_groups::memcpy_async.
//
// One launch per pattern, in the order the table below lists them. Each
// launch is one block; every active lane copies W bytes from global memory to
// shared byte offset lane * stride (a per-thread copy), or the block copies a
// whole span together (a group copy). The kernel then waits for the copy,
// reads back one word per lane (a plain LDS, counted apart from the copy) and
// writes it out, so nothing is optimised away.
//
// Run: async_copy.sh (ncu over every launch; cuobjdump for the instructions).
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cuda_pipeline.h>

#include <cstdio>
#include <string>

namespace cg = cooperative_groups;

constexpr int kSharedBytes = 32 * 1024;

// __pipeline_memcpy_async of W bytes per lane, lanes < `lanes`.
template <int W>
__global__ void primitive_copy(const unsigned char* g, unsigned* out, int stride, int lanes) {
  __shared__ __align__(16) unsigned char s[kSharedBytes];
  const int l = threadIdx.x;
  if (l < lanes) __pipeline_memcpy_async(s + l * stride, g + l * W, W);
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  if (l < lanes) out[l] = *reinterpret_cast<const unsigned*>(s + l * stride);
}

// cuda::memcpy_async with a thread-scope pipeline, 16 bytes per lane.
__global__ void pipeline_copy16(const unsigned char* g, unsigned* out, int stride) {
  __shared__ __align__(16) unsigned char s[kSharedBytes];
  const int l = threadIdx.x;
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  pipe.producer_acquire();
  cuda::memcpy_async(s + l * stride, g + l * 16, cuda::aligned_size_t<16>(16), pipe);
  pipe.producer_commit();
  pipe.consumer_wait();
  pipe.consumer_release();
  __syncthreads();
  out[l] = *reinterpret_cast<const unsigned*>(s + l * stride);
}

// The whole block copies `bytes` contiguous bytes to shared offset 0.
__global__ void group_copy(const unsigned char* g, unsigned* out, int bytes) {
  __shared__ __align__(16) unsigned char s[kSharedBytes];
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, s, g, bytes);
  cg::wait(block);
  out[threadIdx.x] = reinterpret_cast<const unsigned*>(s)[threadIdx.x];
}

// The same with an aligned size (cuda::aligned_size_t<16>).
__global__ void group_copy_aligned(const unsigned char* g, unsigned* out, int bytes) {
  __shared__ __align__(16) unsigned char s[kSharedBytes];
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, s, g, cuda::aligned_size_t<16>(bytes));
  cg::wait(block);
  out[threadIdx.x] = reinterpret_cast<const unsigned*>(s)[threadIdx.x];
}

// cuda::memcpy_async of the whole block with a block-scope barrier.
__global__ void barrier_copy(const unsigned char* g, unsigned* out, int bytes) {
  __shared__ __align__(16) unsigned char s[kSharedBytes];
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  cg::thread_block block = cg::this_thread_block();
  if (block.thread_rank() == 0) init(&bar, block.size());
  block.sync();
  cuda::memcpy_async(block, s, g, cuda::aligned_size_t<16>(bytes), bar);
  bar.arrive_and_wait();
  out[threadIdx.x] = reinterpret_cast<const unsigned*>(s)[threadIdx.x];
}

// Timing: one warp issues `rounds` copies of W bytes per lane to shared
// offset lane * stride (each waited for before the next), or plain stores of
// the same pattern; clock64 cycles per round to out[0]. A conflicted pattern
// that takes no longer than a conflict-free one costs the banks nothing.
template <int W, bool kAsync>
__global__ void timed_copy(const unsigned char* g, long long* cycles, int stride, int rounds) {
  __shared__ __align__(16) unsigned char s[kSharedBytes];
  const int l = threadIdx.x;
  __syncwarp();
  const long long start = clock64();
  for (int r = 0; r < rounds; ++r) {
    if (kAsync) {
      __pipeline_memcpy_async(s + l * stride, g + (r % 64) * 512 + l * W, W);
      __pipeline_commit();
      __pipeline_wait_prior(0);
    } else if (W == 16) {
      *reinterpret_cast<int4*>(s + l * stride) = *reinterpret_cast<const int4*>(g + (r % 64) * 512 + l * W);
    } else {
      *reinterpret_cast<int*>(s + l * stride) = *reinterpret_cast<const int*>(g + (r % 64) * 512 + l * W);
    }
    __syncwarp();
  }
  const long long end = clock64();
  if (l == 0) cycles[0] = (end - start) / rounds;
  if (l == 0) cycles[1] = s[l * stride];
}

void time_patterns() {
  unsigned char* g = nullptr;
  long long* c = nullptr;
  cudaMalloc(&g, 1 << 20);
  cudaMalloc(&c, 16);
  cudaMemset(g, 1, 1 << 20);
  const int rounds = 4096;
  struct Case {
    const char* what;
    void (*kernel)(const unsigned char*, long long*, int, int);
    int stride;
  };
  const Case cases[] = {
      {"async 16 B, stride 16 (conflict-free)", timed_copy<16, true>, 16},
      {"async 16 B, stride 128 (8-way as a store)", timed_copy<16, true>, 128},
      {"async 16 B, stride 0 (one address)", timed_copy<16, true>, 0},
      {"async 4 B, stride 4 (conflict-free)", timed_copy<4, true>, 4},
      {"async 4 B, stride 128 (32-way)", timed_copy<4, true>, 128},
      {"store 16 B, stride 16", timed_copy<16, false>, 16},
      {"store 16 B, stride 128", timed_copy<16, false>, 128},
      {"store 4 B, stride 4", timed_copy<4, false>, 4},
      {"store 4 B, stride 128", timed_copy<4, false>, 128},
  };
  for (const Case& k : cases) {
    long long best = -1;
    for (int rep = 0; rep < 5; ++rep) {
      k.kernel<<<1, 32>>>(g, c, k.stride, rounds);
      long long got[2];
      cudaMemcpy(got, c, sizeof got, cudaMemcpyDeviceToHost);
      if (best < 0 || got[0] < best) best = got[0];
    }
    std::printf("timing: %-45s %lld cycles per round (fastest of 5, %d rounds)\n", k.what, best, rounds);
  }
}

int main(int argc, char** argv) {
  if (argc > 1 && std::string(argv[1]) == "time") {
    time_patterns();
    return 0;
  }
  unsigned char* g = nullptr;
  unsigned* out = nullptr;
  cudaMalloc(&g, 1 << 20);
  cudaMalloc(&out, 4096);
  cudaMemset(g, 1, 1 << 20);
  struct Primitive {
    int width, stride, lanes;
  };
  const Primitive primitives[] = {
      {4, 4, 32},   {4, 8, 32},   {4, 128, 32}, {4, 132, 32}, {4, 0, 32},  {4, 128, 8},
      {8, 8, 32},   {8, 16, 32},  {8, 128, 32}, {8, 136, 32}, {8, 0, 32},
      {16, 16, 32}, {16, 32, 32}, {16, 128, 32}, {16, 144, 32}, {16, 0, 32}, {16, 16, 8},
  };
  int launch = 0;
  for (const Primitive& p : primitives) {
    if (p.width == 4) primitive_copy<4><<<1, 32>>>(g, out, p.stride, p.lanes);
    if (p.width == 8) primitive_copy<8><<<1, 32>>>(g, out, p.stride, p.lanes);
    if (p.width == 16) primitive_copy<16><<<1, 32>>>(g, out, p.stride, p.lanes);
    std::printf("launch %d: __pipeline_memcpy_async %d bytes per lane, shared offset lane*%d, lanes 0-%d\n", launch++,
                p.width, p.stride, p.lanes - 1);
  }
  for (const int stride : {16, 32, 144}) {
    pipeline_copy16<<<1, 32>>>(g, out, stride);
    std::printf("launch %d: cuda::memcpy_async (thread pipeline) 16 bytes per lane, shared offset lane*%d\n",
                launch++, stride);
  }
  for (const int threads : {32, 128}) {
    for (const int bytes : {512, 2048, 4100}) {
      group_copy<<<1, threads>>>(g, out, bytes);
      std::printf("launch %d: cooperative_groups::memcpy_async block of %d, %d bytes\n", launch++, threads, bytes);
      group_copy_aligned<<<1, threads>>>(g, out, bytes & ~15);
      std::printf("launch %d: cooperative_groups::memcpy_async aligned_size_t<16>, block of %d, %d bytes\n", launch++,
                  threads, bytes & ~15);
      barrier_copy<<<1, threads>>>(g, out, bytes & ~15);
      std::printf("launch %d: cuda::memcpy_async with a block barrier, block of %d, %d bytes\n", launch++, threads,
                  bytes & ~15);
    }
  }
  const cudaError_t e = cudaDeviceSynchronize();
  std::printf("status: %s\n", cudaGetErrorString(e));
  return e == cudaSuccess ? 0 : 1;
}

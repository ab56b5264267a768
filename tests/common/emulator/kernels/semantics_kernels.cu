// Kernels whose results CUDA defines exactly: warp shuffles, votes,
// reductions and matches, atomics, block-wide counting barriers, the
// integer intrinsics and min/max; and the cases the emulator's checks must
// get right (a race in either order, an uninitialised read in the second
// block, the poison value, warp instructions assembled per warp). The tests
// in test_semantics.cpp compute the expected results on the host from CUDA's
// definitions.
#include <cuda_fp16.h>

__device__ unsigned value_of(unsigned block, unsigned thread) { return block * 1000u + thread * 7u + 1u; }

// out: 5 words per thread: shfl (width 16), shfl_up 3, shfl_down 5, shfl_xor 6, and the partial
// warp's full-mask tree sum (lane 0 only, else 0).
__global__ void shuffles(unsigned* out) {
  const unsigned t = threadIdx.x, lane = t % 32;
  const unsigned v = value_of(blockIdx.x, t);
  unsigned* o = out + (blockIdx.x * blockDim.x + t) * 5;
  o[0] = __shfl_sync(0xffffffffu, v, static_cast<int>((lane + 3) % 16), 16);
  o[1] = __shfl_up_sync(0xffffffffu, v, 3);
  o[2] = __shfl_down_sync(0xffffffffu, v, 5);
  o[3] = __shfl_xor_sync(0xffffffffu, v, 6);
  unsigned sum = v;
  for (int d = 16; d > 0; d /= 2) sum += __shfl_down_sync(0xffffffffu, sum, d);
  o[4] = lane == 0 ? sum : 0u;
}

// out: 4 words per thread: ballot of (t % 3 == 0), any of (t == 40), all of (t < 1000), all of (lane != 5).
__global__ void votes(unsigned* out) {
  const unsigned t = threadIdx.x, lane = t % 32;
  unsigned* o = out + (blockIdx.x * blockDim.x + t) * 4;
  o[0] = __ballot_sync(0xffffffffu, t % 3 == 0);
  o[1] = static_cast<unsigned>(__any_sync(0xffffffffu, t == 40));
  o[2] = static_cast<unsigned>(__all_sync(0xffffffffu, t < 1000));
  o[3] = static_cast<unsigned>(__all_sync(0xffffffffu, lane != 5));
}

// out: 7 words per thread: reduce add/min/max of (int) v - 500, reduce and/or/xor of v,
// match_any of (lane % 4).
__global__ void warp_reductions(unsigned* out) {
  const unsigned t = threadIdx.x;
  const unsigned v = value_of(blockIdx.x, t);
  unsigned* o = out + (blockIdx.x * blockDim.x + t) * 7;
  o[0] = static_cast<unsigned>(__reduce_add_sync(0xffffffffu, static_cast<int>(v) - 500));
  o[1] = static_cast<unsigned>(__reduce_min_sync(0xffffffffu, static_cast<int>(v) - 500));
  o[2] = static_cast<unsigned>(__reduce_max_sync(0xffffffffu, static_cast<int>(v) - 500));
  o[3] = __reduce_and_sync(0xffffffffu, v);
  o[4] = __reduce_or_sync(0xffffffffu, v);
  o[5] = __reduce_xor_sync(0xffffffffu, v);
  o[6] = __match_any_sync(0xffffffffu, (t % 32) % 4);
}

// out: 2 words per thread: the unsigned __reduce_min_sync and __reduce_max_sync of v with
// bit 31 set on odd lanes (an unsigned order: those are the largest).
__global__ void warp_reductions_unsigned(unsigned* out) {
  const unsigned t = threadIdx.x;
  const unsigned v = value_of(blockIdx.x, t) | (t % 2 == 1 ? 0x80000000u : 0u);
  unsigned* o = out + (blockIdx.x * blockDim.x + t) * 2;
  o[0] = __reduce_min_sync(0xffffffffu, v);
  o[1] = __reduce_max_sync(0xffffffffu, v);
}

// out: 5 words per thread: __syncthreads_count of (t % 5 == 0), _and of (t < 1000) and of
// (t != 7), _or of (t == 7) and of (t > 1000).
__global__ void counting_barriers(unsigned* out) {
  const unsigned t = threadIdx.x;
  unsigned* o = out + (blockIdx.x * blockDim.x + t) * 5;
  o[0] = static_cast<unsigned>(__syncthreads_count(t % 5 == 0));
  o[1] = static_cast<unsigned>(__syncthreads_and(t < 1000));
  o[2] = static_cast<unsigned>(__syncthreads_and(t != 7));
  o[3] = static_cast<unsigned>(__syncthreads_or(t == 7));
  o[4] = static_cast<unsigned>(__syncthreads_or(t > 1000));
}

// Shared and global atomics; results per block in out[block * 8 ...]:
// sum, max, min, CAS counter, exch final, sum of exch olds, and the global sum (block 0 writes).
__global__ void atomics(int* out, int* global_sum) {
  __shared__ int sum, most, least, counter, swapped, olds;
  const int t = static_cast<int>(threadIdx.x);
  const int v = static_cast<int>(value_of(blockIdx.x, threadIdx.x)) % 97 - 40;
  if (t == 0) {
    sum = 0;
    most = -1000000;
    least = 1000000;
    counter = 0;
    swapped = 0;
    olds = 0;
  }
  __syncthreads();
  atomicAdd(&sum, v);
  atomicMax(&most, v);
  atomicMin(&least, v);
  int seen = atomicCAS(&counter, 0, 0);
  for (;;) {
    const int before = atomicCAS(&counter, seen, seen + 1);
    if (before == seen) break;
    seen = before;
  }
  atomicAdd(&olds, atomicExch(&swapped, v));
  atomicAdd(global_sum, v);
  __syncthreads();
  if (t == 0) {
    int* o = out + blockIdx.x * 8;
    o[0] = sum;
    o[1] = most;
    o[2] = least;
    o[3] = counter;
    o[4] = swapped;
    o[5] = olds;
  }
}

// Reads its neighbour's element, then overwrites its own, with no barrier: a
// write-after-read race (the read comes first).
__global__ void write_after_read(int* out) {
  __shared__ int s[64];
  s[threadIdx.x] = static_cast<int>(threadIdx.x);
  __syncthreads();
  out[threadIdx.x] = s[(threadIdx.x + 1) % 64];  // WAR_READ
  s[threadIdx.x] = 0;                            // WAR_WRITE
}

// Block 0 fills the array; block 1 reads it without writing: in block 1 the
// read is uninitialised (shared memory does not survive a block).
__global__ void reads_what_another_block_wrote(int* out) {
  __shared__ int s[32];
  if (blockIdx.x == 0) s[threadIdx.x] = 1;
  __syncthreads();
  out[blockIdx.x * 32 + threadIdx.x] = s[threadIdx.x];  // SECOND_BLOCK_READ
}

// Copies shared memory nothing wrote: what the emulator fills it with.
__global__ void copies_unwritten(unsigned* out) {
  __shared__ unsigned s[32];
  out[threadIdx.x] = s[threadIdx.x];
}

// Lanes 0-15 of warp 0 and lanes 16-31 of warp 1 each store once: two warp
// instructions of 16 lanes, not one of 32.
__global__ void half_warps_store(int* out) {
  __shared__ int s[64];
  const unsigned lane = threadIdx.x % 32;
  if ((threadIdx.x < 32) == (lane < 16)) s[threadIdx.x] = 1;  // HALF_WARPS_STORE
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}

// The integer intrinsics and min/max on a few inputs; out: 20 words (thread 0).
__global__ void intrinsics(unsigned* out, unsigned a, unsigned b) {
  if (threadIdx.x != 0) return;
  out[0] = static_cast<unsigned>(__popc(a));
  out[1] = static_cast<unsigned>(__clz(static_cast<int>(b)));
  out[2] = static_cast<unsigned>(__ffs(static_cast<int>(b)));
  out[3] = __brev(a);
  out[4] = __byte_perm(a, b, 0x5140u);
  out[5] = __funnelshift_l(a, b, 8);
  out[6] = __funnelshift_r(a, b, 8);
  out[7] = static_cast<unsigned>(__mul24(-3, 5));
  out[8] = __umul24(0x1000001u, 3u);
  out[9] = __umulhi(a, b);
  out[10] = static_cast<unsigned>(__mulhi(-2, 0x40000000));
  out[11] = __usad(3u, 10u, 100u);
  out[12] = min(3, 7u);        // mixed: unsigned
  out[13] = max(-1, 1u);       // -1 as unsigned is the larger
  out[14] = static_cast<unsigned>(min(-4, 2));
  out[15] = static_cast<unsigned>(max(2.5f, 1.0f) * 10.0f);
  out[16] = __float_as_uint(1.0f);
  out[17] = static_cast<unsigned>(__float2int_rn(2.5f));  // to nearest even: 2
  out[18] = __uhadd(0xffffffffu, 1u);
  out[19] = static_cast<unsigned>(__popcll(0xffffffffffull));
}

// One warp, one shared atomic per lane at word word[lane]: the H200 probe's
// kernels (common/emulator/probe/shared_atomic_probe.cu), for its patterns.
__global__ void probe_atomic_add_int(const int* word, int* out) {
  __shared__ int s[32 * 33];
  for (int i = threadIdx.x; i < 32 * 33; i += 32) s[i] = 0;
  __syncwarp();
  atomicAdd(&s[word[threadIdx.x]], 1);  // PROBE_ATOMIC_INT
  __syncwarp();
  out[threadIdx.x] = s[threadIdx.x];
}
__global__ void probe_atomic_add_float(const int* word, int* out) {
  __shared__ float s[32 * 33];
  for (int i = threadIdx.x; i < 32 * 33; i += 32) s[i] = 0;
  __syncwarp();
  atomicAdd(&s[word[threadIdx.x]], 1.0f);  // PROBE_ATOMIC_FLOAT
  __syncwarp();
  out[threadIdx.x] = static_cast<int>(s[threadIdx.x]);
}
__global__ void probe_atomic_cas_int(const int* word, int* out) {
  __shared__ int s[32 * 33];
  for (int i = threadIdx.x; i < 32 * 33; i += 32) s[i] = 0;
  __syncwarp();
  atomicCAS(&s[word[threadIdx.x]], 0, 1);  // PROBE_ATOMIC_CAS
  __syncwarp();
  out[threadIdx.x] = s[threadIdx.x];
}

// Lanes 0-15 store in the first round, lanes 16-31 in the second, with a
// barrier between: two warp instructions of 16 lanes (a GPU never joins
// executions from both sides of a barrier into one instruction).
__global__ void store_in_two_rounds(int* out, int rounds) {
  __shared__ int s[64];
  for (int round = 0; round < rounds; ++round) {  // rounds = 2, unknown to the compiler
    if ((threadIdx.x < 16) == (round == 0)) s[threadIdx.x + 32 * round] = round;  // ROUND_STORE
    __syncthreads();
  }
  out[threadIdx.x] = threadIdx.x < 16 ? s[threadIdx.x] : s[threadIdx.x + 32];
}

// Bytes of one word written by different threads, then the word read whole,
// then bytes of it overwritten: the race and uninitialised-read checks work per
// byte inside a word (the emulator tracks whole words until a byte access
// splits one). 32 threads: thread t writes byte t of words 0-7; thread 0 then
// reads word 0 after the barrier (clean); thread 1 writes byte 1 of word 8 and
// thread 2 reads all of word 8 (bytes 0, 2, 3 unwritten); thread 3 writes byte 0
// of word 9 while thread 4 writes word 9 whole in the same interval (a race).
__global__ void bytes_of_words(unsigned* out) {
  __shared__ unsigned words[16];
  auto* bytes = reinterpret_cast<unsigned char*>(words);
  const unsigned t = threadIdx.x;
  bytes[t] = static_cast<unsigned char>(t + 1);  // BYTE_WRITE
  if (t == 1) bytes[33] = 7;
  __syncthreads();
  if (t == 0) out[0] = words[0];
  if (t == 2) out[1] = words[8];  // PARTLY_WRITTEN_READ
  if (t == 3) bytes[36] = 1;      // BYTE_OF_RACE
  if (t == 4) words[9] = 2;       // WORD_OF_RACE
}

// cuda_fp16.h on a few inputs whose results IEEE half rounding (to nearest,
// ties to even) fixes exactly; out: 16 halves' bits (thread 0).
__global__ void half_arithmetic(unsigned short* out) {
  if (threadIdx.x != 0) return;
  const half one = __float2half(1.0f);
  out[0] = __half_as_ushort(__hadd(one, one));                        // 2: a half sum, not int __hadd's average
  out[1] = __half_as_ushort(__float2half(1.0f + 0x1p-11f));           // a tie: 1 (even)
  out[2] = __half_as_ushort(__float2half(1.0f + 3 * 0x1p-11f));       // a tie: 1 + 2^-9 (even)
  const half a = __ushort_as_half(0x3c01), c = __ushort_as_half(0xbc02);  // 1 + 2^-10, -(1 + 2^-9)
  out[3] = __half_as_ushort(__hfma(a, a, c));                          // 2^-20, rounded once
  out[4] = __half_as_ushort(__hmul(a, a));                             // 1 + 2^-9: 2^-20 rounded off
  out[5] = __half_as_ushort(__hdiv(one, __float2half(3.0f)));          // 1/3
  out[6] = static_cast<unsigned short>(__half2int_rz(__float2half(-2.5f)));  // -2
  out[7] = static_cast<unsigned short>(__half2int_rn(__float2half(2.5f)));   // 2 (ties to even)
  out[8] = __half_as_ushort(__hneg(__float2half(0.0f)));               // -0
  out[9] = __half_as_ushort(__float2half(0x1p-25f));                   // a tie: 0 (even)
  out[10] = __half_as_ushort(__float2half(3 * 0x1p-25f));              // a tie: 2^-23 (even)
  out[11] = __half_as_ushort(__float2half(65519.0f));                  // 65504, the largest half
  out[12] = __half_as_ushort(__float2half(65520.0f));                  // a tie: infinity
  const half2 s = __hadd2(__floats2half2_rn(1.0f, 2.0f), __floats2half2_rn(3.0f, 4.0f));
  out[13] = __half_as_ushort(__low2half(s));                           // 4
  out[14] = __half_as_ushort(__high2half(s));                          // 6
  out[15] = static_cast<unsigned short>(__hlt(one, __float2half(2.0f)) + 2 * __hisnan(__hdiv(__float2half(0.0f), __float2half(0.0f))));
}

// Each thread writes its threadIdx and blockIdx (6 values) at its linear
// index in the grid, block after block.
__global__ void thread_coordinates(unsigned* out) {
  const unsigned block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  const unsigned thread = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  unsigned* o = out + (block * blockDim.x * blockDim.y * blockDim.z + thread) * 6;
  o[0] = threadIdx.x;
  o[1] = threadIdx.y;
  o[2] = threadIdx.z;
  o[3] = blockIdx.x;
  o[4] = blockIdx.y;
  o[5] = blockIdx.z;
}

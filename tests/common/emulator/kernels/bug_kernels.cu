// Kernels with the mistakes students make, and kernels that use the warp-level
// and wide-type features, for the emulator's tests. One mistake per kernel.
#include <cuda_runtime.h>

#include <ctime>

__global__ void barrier_inside_bounds_check(float* out, int n) {
  __shared__ float s[64];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    s[threadIdx.x] = static_cast<float>(i);
    __syncthreads();  // DIVERGENT_BARRIER
    out[i] = s[(threadIdx.x + 1) % blockDim.x];
  }
}

__global__ void missing_barrier(float* out) {
  __shared__ float s[64];
  s[threadIdx.x] = static_cast<float>(threadIdx.x);      // RACE_WRITE
  out[threadIdx.x] = s[(threadIdx.x + 1) % blockDim.x];  // RACE_READ
}

// Threads 0 and 32 (two warps) read one word, then thread 32 writes it with
// no barrier between: a race with thread 0's read, though thread 32 itself
// was the last to read it.
__global__ void write_after_two_reads(float* out) {
  __shared__ float word;
  if (threadIdx.x == 0) word = 1.0f;
  __syncthreads();
  float v = 0.0f;
  if (threadIdx.x == 0 || threadIdx.x == 32) v = word;  // TWO_READS
  if (threadIdx.x == 32) word = v + 1.0f;                // WRITE_AFTER_READS
  out[threadIdx.x] = v;
}

__global__ void reads_unwritten_shared(float* out) {
  __shared__ float s[64];
  if (threadIdx.x < 32) s[threadIdx.x] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];  // UNINIT_READ
}

__global__ void writes_past_the_end(float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i + n] = 1.0f;  // OOB_WRITE
}

__global__ void writes_far_past_the_end(float* out) {
  out[threadIdx.x + (1 << 22)] = 1.0f;  // FAR_OOB_WRITE
}

__global__ void spins_forever(volatile int* flag) {
  while (flag[0] == 0) {  // SPIN
  }
}

// Block `stuck` waits for a flag nobody sets; the other blocks end at once.
__global__ void one_block_spins(volatile int* flag, int stuck) {
  if (static_cast<int>(blockIdx.x) == stuck) {
    while (flag[0] == 0) {  // ONE_BLOCK_SPIN
    }
  }
}

// Thread 0 of each block waits `ms` milliseconds of wall-clock time without
// using the CPU (as a block waits on a machine busy with other work).
__global__ void block_waits(int ms) {
  if (threadIdx.x == 0) {
    timespec wait{ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&wait, nullptr);
  }
}

__global__ void dereferences_null(int* out) {
  int* volatile nothing = nullptr;
  out[threadIdx.x] = *nothing;  // NULL_READ
}

__global__ void warp_sync_deadlock(int* out) {
  if (threadIdx.x % 32 < 16) {
    __syncwarp();  // DEADLOCK_SYNCWARP
  } else {
    __syncthreads();
  }
  out[threadIdx.x] = 1;
}

__global__ void warp_reduce_and_ballot(int* sums, unsigned* ballots) {
  int value = static_cast<int>(threadIdx.x);
  for (int offset = 16; offset > 0; offset /= 2) value += __shfl_down_sync(0xffffffffu, value, offset);
  const unsigned odd = __ballot_sync(0xffffffffu, threadIdx.x % 2);
  if (threadIdx.x % 32 == 0) {
    sums[threadIdx.x / 32] = value;
    ballots[threadIdx.x / 32] = odd;
  }
  const int broadcast = __shfl_sync(0xffffffffu, static_cast<int>(threadIdx.x) * 10, 3);
  if (threadIdx.x == 5) sums[7] = broadcast;
}

__global__ void shared_histogram(const int* values, int n, int* bins) {
  __shared__ int local[8];
  if (threadIdx.x < 8) local[threadIdx.x] = 0;
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x) atomicAdd(&local[values[i] % 8], 1);
  __syncthreads();
  if (threadIdx.x < 8) atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}

__global__ void float4_copy(float4* out) {
  __shared__ float4 s[64];
  s[threadIdx.x] = make_float4(1.0f * threadIdx.x, 2.0f, 3.0f, 4.0f);  // FLOAT4_STORE
  __syncthreads();
  out[threadIdx.x] = s[(threadIdx.x * 2) % 32];  // FLOAT4_LOAD
}

__global__ void double_broadcast(double* out) {
  __shared__ double s[32];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = s[0];  // DOUBLE_BROADCAST
}

template <int N>
__global__ void templated_stride(int* out) {
  __shared__ int s[N * 32];
  s[threadIdx.x * N] = 1;  // TEMPLATE_STRIDE
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x * N];
}
template __global__ void templated_stride<2>(int* out);

__global__ void two_shared_arrays(int* out) {
  __shared__ int a[33];
  __shared__ int b[32];
  a[threadIdx.x] = 1;
  b[threadIdx.x] = 2;
  __syncthreads();
  out[threadIdx.x] = a[threadIdx.x] + b[threadIdx.x];
}

__global__ void indexes_past_shared(float* out) {
  __shared__ float a[32];
  a[threadIdx.x] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = a[threadIdx.x + 40];  // SHARED_OOB
}

// A float4 read of a row padded by one float: rows 1, 2, 3, 5, ... start 4,
// 8 or 12 bytes past a multiple of 16, which a GPU rejects.
__global__ void float4_in_padded_rows(float4* out) {
  // Declared 16-byte aligned (the array itself is fine): the padding makes
  // every row but the first start 4 bytes past a multiple of 16.
  __shared__ __align__(16) float tile[32][33];
  for (int c = 0; c < 33; ++c) tile[threadIdx.x][c] = static_cast<float>(c);
  __syncthreads();
  out[threadIdx.x] = *reinterpret_cast<const float4*>(&tile[threadIdx.x][0]);  // MISALIGNED_FLOAT4
}

// One line that loads one shared array (a column: 32-way) and stores another
// (a row: 1 wavefront).
__global__ void tile_to_tile(float* out) {
  __shared__ float a[32][32];
  __shared__ float b[32];
  for (int r = 0; r < 32; ++r) a[r][threadIdx.x] = static_cast<float>(r);
  __syncthreads();
  b[threadIdx.x] = a[threadIdx.x][0];  // LOAD_AND_STORE
  __syncthreads();
  out[threadIdx.x] = b[threadIdx.x];
}

// Two reads of unwritten shared memory on one line: two instructions, one finding.
__global__ void reads_two_unwritten(float* out) {
  __shared__ float s[64];
  out[threadIdx.x] = s[threadIdx.x] + s[threadIdx.x + 32];  // TWO_UNWRITTEN
}

// An endless loop on registers only: no memory access inside it to point at.
__global__ void spins_on_registers(int* out, unsigned seed) {
  out[threadIdx.x] = 0;  // the last memory access before the loop
  unsigned x = seed;
  while (x != 7u) {  // REGISTER_SPIN
    x = x * 2u + (x >> 31);
    asm volatile("");  // a side effect that keeps the loop, with no memory access
  }
  out[threadIdx.x] = static_cast<int>(x);
}

__global__ void long_shared_loop(float* out, int iterations) {
  __shared__ float s[32];
  if (threadIdx.x < 32) s[threadIdx.x] = 1.0f;
  __syncthreads();
  float sum = 0.0f;
  for (int i = 0; i < iterations; ++i) sum += s[(threadIdx.x + i) % 32];  // LONG_LOOP
  out[threadIdx.x] = sum;
}

__global__ void half_round_trip(float* out) {
  __shared__ half h[64];
  h[threadIdx.x] = __float2half(0.5f * threadIdx.x);  // HALF_STORE
  __syncthreads();
  out[threadIdx.x] = __half2float(h[63 - threadIdx.x]);
}

// Every thread adds 1 to one global counter `repeats` times: on several
// workers, OS threads add to the same word at once.
__global__ void global_counter(int* counter, int repeats) {
  for (int r = 0; r < repeats; ++r) atomicAdd(counter, 1);
}

// An integer division by a divisor the program passes as 0: the CPU traps
// (SIGFPE), where a GPU returns an unspecified value.
__global__ void divides_by_zero(int* out, int divisor) {
  out[threadIdx.x] = 100 / divisor;  // DIVIDE_BY_ZERO
}

// Kernel parameters passed by value, as CUDA passes them (CUDA C++
// Programming Guide, "__global__ function argument processing"): the host's
// launch stub copies an argument one or more times by value and memcpy's the
// bytes into the kernel's parameter memory; every thread sees those bytes, and
// no constructor or destructor of a parameter runs on the device. A lock
// whose destructor frees its memory on the host (as the book "CUDA by
// Example" writes its Lock) therefore stays usable by every block.
//   banklab run by_value_params.cu      the sum under the lock, and the copy counts
#include <cstdio>

cudaError_t g_last_free = cudaSuccess;  // what the last ~SpinLock's cudaFree said
struct SpinLock {
  int* word = nullptr;
  SpinLock() {
    cudaMalloc(&word, sizeof(int));
    cudaMemset(word, 0, sizeof(int));
  }
  ~SpinLock() { g_last_free = cudaFree(word); }  // host code: runs on the host only
  __device__ void acquire() {
    while (atomicCAS(word, 0, 1) != 0) {
    }
  }
  __device__ void release() {
    __threadfence();
    atomicExch(word, 0);
  }
};

// Counts what the host does with a by-value argument.
int g_copies = 0;
int g_destroyed = 0;
struct Counted {
  int value;
  explicit Counted(int v) : value(v) {}
  Counted(const Counted& other) : value(other.value) { ++g_copies; }
  ~Counted() { ++g_destroyed; }
};

constexpr int kBlocks = 64;
constexpr int kThreads = 128;

__global__ void sum_under_lock(SpinLock lock, Counted scale, const int* values, int* total) {
  __shared__ int partial[kThreads];
  partial[threadIdx.x] = values[blockIdx.x * kThreads + threadIdx.x] * scale.value;
  __syncthreads();
  for (int stride = kThreads / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    lock.acquire();
    *total += partial[0];  // a plain read-modify-write: the lock makes it safe
    lock.release();
  }
}

int main() {
  int host[kBlocks * kThreads];
  long long expected = 0;
  for (int i = 0; i < kBlocks * kThreads; ++i) {
    host[i] = i % 7;
    expected += 3 * (i % 7);
  }
  int *values = nullptr, *total = nullptr;
  cudaMalloc(&values, sizeof host);
  cudaMalloc(&total, sizeof(int));
  cudaMemcpy(values, host, sizeof host, cudaMemcpyHostToDevice);
  cudaMemset(total, 0, sizeof(int));
  {
    SpinLock lock;
    const Counted scale(3);
    sum_under_lock<<<kBlocks, kThreads>>>(lock, scale, values, total);
    const cudaError_t error = cudaDeviceSynchronize();
    int sum = 0;
    cudaMemcpy(&sum, total, sizeof(int), cudaMemcpyDeviceToHost);
    std::printf("sum under a by-value lock, %d blocks: %s (%d, expected %lld; %s)\n", kBlocks,
                sum == expected ? "OK" : "WRONG", sum, expected, cudaGetErrorName(error));
    // One or more host copies per launch, each destroyed on the host; none per thread.
    std::printf("host copies of the by-value argument: %d, destroyed: %d (%d threads ran)\n", g_copies,
                g_destroyed, kBlocks * kThreads);
  }
  // The launch's copies freed the word first; the lock's own cudaFree then
  // finds nothing to free, and says so.
  std::printf("the lock's own cudaFree, after its copies': %s\n", cudaGetErrorName(g_last_free));
  cudaFree(values);
  cudaFree(total);
  return 0;
}

// What a launch returns: cudaLaunchKernel and <<<>>> with a valid
// configuration and with one CUDA refuses (2048 threads in a block), and
// cudaGetLastError after each (the error once, then cleared), and a launch
// asking for more dynamic shared memory than a block can have (and later a valid one).
#include <cstdio>

__global__ void fill(int* out, int value) { out[threadIdx.x] = value; }
__global__ void staged(int* out) {
  extern __shared__ int stage[];
  stage[threadIdx.x] = 1;
  __syncthreads();
  out[threadIdx.x] = stage[threadIdx.x];
}

int main() {
  int* out = nullptr;
  cudaMalloc(&out, 64 * sizeof(int));
  int value = 7;
  void* args[] = {&out, &value};
  const cudaError_t good = cudaLaunchKernel((void*)fill, dim3(1), dim3(64), args);
  const cudaError_t after_good = cudaGetLastError();
  const cudaError_t bad = cudaLaunchKernel((void*)fill, dim3(1), dim3(2048), args);
  const cudaError_t after_bad = cudaGetLastError();
  const cudaError_t cleared = cudaGetLastError();
  fill<<<1, 2048>>>(out, 9);
  const cudaError_t chevrons = cudaGetLastError();
  staged<<<1, 64, 4 << 20>>>(out);
  const cudaError_t too_much_shared = cudaGetLastError();
  int host[64] = {};
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  staged<<<1, 64, 64 * sizeof(int)>>>(out);  // the refused kernel again, valid this time
  int wrong = 0;
  for (int v : host) wrong += v != 7;
  std::printf("valid launch: %s, then %s\n", cudaGetErrorName(good), cudaGetErrorName(after_good));
  std::printf("2048 threads: %s, then %s, then %s\n", cudaGetErrorName(bad), cudaGetErrorName(after_bad),
              cudaGetErrorName(cleared));
  std::printf("2048 threads with <<<>>>: %s\n", cudaGetErrorName(chevrons));
  std::printf("4 MiB of dynamic shared memory: %s\n", too_much_shared != cudaSuccess ? "refused" : "launched");
  const bool ok = good == cudaSuccess && after_good == cudaSuccess && bad == cudaErrorInvalidConfiguration &&
                  after_bad == cudaErrorInvalidConfiguration && cleared == cudaSuccess &&
                  chevrons == cudaErrorInvalidConfiguration && too_much_shared != cudaSuccess && wrong == 0;
  std::printf("launch errors: %s\n", ok ? "OK" : "WRONG");
  cudaFree(out);
  return ok ? 0 : 1;
}

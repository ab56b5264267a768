// What a launch returns: cudaLaunchKernel and <<<>>> with a valid
// configuration and with one CUDA refuses (2048 threads in a block), and
// cudaGetLastError after each (the error once, then cleared).
#include <cstdio>

__global__ void fill(int* out, int value) { out[threadIdx.x] = value; }

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
  int host[64] = {};
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int v : host) wrong += v != 7;
  std::printf("valid launch: %s, then %s\n", cudaGetErrorName(good), cudaGetErrorName(after_good));
  std::printf("2048 threads: %s, then %s, then %s\n", cudaGetErrorName(bad), cudaGetErrorName(after_bad),
              cudaGetErrorName(cleared));
  std::printf("2048 threads with <<<>>>: %s\n", cudaGetErrorName(chevrons));
  const bool ok = good == cudaSuccess && after_good == cudaSuccess && bad == cudaErrorInvalidConfiguration &&
                  after_bad == cudaErrorInvalidConfiguration && cleared == cudaSuccess &&
                  chevrons == cudaErrorInvalidConfiguration && wrong == 0;
  std::printf("launch errors: %s\n", ok ? "OK" : "WRONG");
  cudaFree(out);
  return ok ? 0 : 1;
}

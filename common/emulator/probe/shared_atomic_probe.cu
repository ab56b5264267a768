// How an H200 prices shared-memory atomics: one warp, one atomic per lane,
// the lanes' word indices given per pattern. Run under Nsight Compute by
// common/emulator/probe/measure_atomics.sh; the emulator's atomic pricing
// (README "Atomics") follows tests/data/gpu/h200_shared_atomics.csv.
#include <cstdio>
#include <cstring>

__global__ void atomic_add_int(const int* word, int* out) {
  __shared__ int s[32 * 33];
  for (int i = threadIdx.x; i < 32 * 33; i += 32) s[i] = 0;
  __syncwarp();
  atomicAdd(&s[word[threadIdx.x]], 1);
  __syncwarp();
  out[threadIdx.x] = s[threadIdx.x];
}
__global__ void atomic_add_float(const int* word, int* out) {
  __shared__ float s[32 * 33];
  for (int i = threadIdx.x; i < 32 * 33; i += 32) s[i] = 0;
  __syncwarp();
  atomicAdd(&s[word[threadIdx.x]], 1.0f);
  __syncwarp();
  out[threadIdx.x] = static_cast<int>(s[threadIdx.x]);
}
__global__ void atomic_cas_int(const int* word, int* out) {
  __shared__ int s[32 * 33];
  for (int i = threadIdx.x; i < 32 * 33; i += 32) s[i] = 0;
  __syncwarp();
  atomicCAS(&s[word[threadIdx.x]], 0, 1);
  __syncwarp();
  out[threadIdx.x] = s[threadIdx.x];
}

int main(int argc, char** argv) {
  // pattern name -> word index of lane l
  struct Pattern {
    const char* name;
    int (*word)(int lane);
  };
  const Pattern patterns[] = {
      {"same_word", [](int) { return 0; }},
      {"distinct_words_stride1", [](int l) { return l; }},
      {"stride2", [](int l) { return 2 * l; }},
      {"stride32", [](int l) { return 32 * l; }},
      {"pairs_same_word", [](int l) { return l / 2; }},
      {"half_same_half_distinct", [](int l) { return l < 16 ? 0 : l; }},
      {"four_words", [](int l) { return l % 4; }},
      {"stride33", [](int l) { return 33 * l; }},
  };
  int *word = nullptr, *out = nullptr;
  cudaMalloc(&word, 32 * sizeof(int));
  cudaMalloc(&out, 32 * sizeof(int));
  for (const Pattern& p : patterns) {
    if (argc > 1 && std::strcmp(argv[1], p.name) != 0) continue;
    int h[32];
    for (int l = 0; l < 32; ++l) h[l] = p.word(l);
    cudaMemcpy(word, h, sizeof h, cudaMemcpyHostToDevice);
    atomic_add_int<<<1, 32>>>(word, out);
    atomic_add_float<<<1, 32>>>(word, out);
    atomic_cas_int<<<1, 32>>>(word, out);
    std::printf("pattern %s\n", p.name);
  }
  const cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    std::printf("CUDA error: %s\n", cudaGetErrorString(e));
    return 1;
  }
  return 0;
}

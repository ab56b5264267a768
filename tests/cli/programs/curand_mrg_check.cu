// cuRAND's MRG32k3a (device API): laws any implementation must keep, the
// first output of the state every word 12345 worked by hand, and a table of values to compare a
// GPU's with the emulator's:
//   nvcc -O2 -arch=sm_90 -o curand_mrg_check curand_mrg_check.cu && ./curand_mrg_check
//   banklab run curand_mrg_check.cu
// A law's line ends OK or WRONG; the exit status is the number of WRONG lines.
// The table's lines start with "value": seed, subsequence, offset, then the
// outputs (integers in hex, floats and doubles as %a).
#include <curand_kernel.h>

#include <cstdio>

static int wrong = 0;

static void report(const char* what, bool ok) {
  std::printf("%s: %s\n", what, ok ? "OK" : "WRONG");
  if (!ok) ++wrong;
}

__global__ void laws(int* out, double* first) {
  const int law = threadIdx.x;
  int ok = 1;
  if (law == 0) {
    // curand_init with offset n is n outputs later.
    curandStateMRG32k3a_t a, b;
    curand_init(77, 3, 0, &a);
    for (int i = 0; i < 1000; ++i) curand(&a);
    curand_init(77, 3, 1000, &b);
    for (int i = 0; i < 8; ++i) ok &= curand(&a) == curand(&b);
  } else if (law == 1) {
    // skipahead(n) is n outputs, for an n past 2^32.
    curandStateMRG32k3a_t a, b;
    curand_init(5, 0, 0, &a);
    b = a;
    skipahead((1ull << 33) + 777ull, &a);
    skipahead(1ull << 33, &b);
    for (int i = 0; i < 777; ++i) curand(&b);
    for (int i = 0; i < 8; ++i) ok &= curand(&a) == curand(&b);
  } else if (law == 2) {
    // A subsequence is 2^76 outputs: 2^13 jumps of 2^63.
    curandStateMRG32k3a_t a, b;
    curand_init(9, 0, 0, &a);
    curand_init(9, 1, 0, &b);
    for (int i = 0; i < (1 << 13); ++i) skipahead(1ull << 63, &a);
    for (int i = 0; i < 8; ++i) ok &= curand(&a) == curand(&b);
  } else if (law == 3) {
    // A sequence is 2^127 outputs: two jumps of 2^50 subsequences.
    curandStateMRG32k3a_t a, b;
    curand_init(4, 0, 0, &a);
    b = a;
    skipahead_subsequence(1ull << 50, &a);
    skipahead_subsequence(1ull << 50, &a);
    skipahead_sequence(1, &b);
    for (int i = 0; i < 8; ++i) ok &= curand(&a) == curand(&b);
  } else if (law == 4) {
    // Uniforms lie in (0, 1]; normals come in pairs, the second kept.
    curandStateMRG32k3a_t a, b;
    curand_init(11, 0, 0, &a);
    for (int i = 0; i < 1000; ++i) {
      const float u = curand_uniform(&a);
      ok &= u > 0.0f && u <= 1.0f;
    }
    curand_init(11, 0, 0, &a);
    curand_init(11, 0, 0, &b);
    const float2 two = curand_normal2(&a);
    ok &= curand_normal(&b) == two.x && curand_normal(&b) == two.y;
  } else if (law == 5) {
    // Seed 0 leaves every state word 12345: the first step gives
    // (1403580 - 810728) 12345 mod m1 = 3023790853 and
    // (527612 - 1370589) 12345 mod m2 = 2478282264, their difference 545508589.
    curandStateMRG32k3a_t a;
    curand_init(0, 0, 0, &a);
    *first = curand_uniform_double(&a);
    ok = *first == 545508589.0 * 2.3283065498378288e-10;
  }
  out[law] = ok;
}

__global__ void values(unsigned long long seed, unsigned long long subsequence, unsigned long long offset,
                       unsigned int* words, float* floats, double* doubles) {
  curandStateMRG32k3a_t s;
  curand_init(seed, subsequence, offset, &s);
  for (int i = 0; i < 4; ++i) words[i] = curand(&s);
  floats[0] = curand_uniform(&s);
  floats[1] = curand_normal(&s);
  floats[2] = curand_normal(&s);
  doubles[0] = curand_uniform_double(&s);
  doubles[1] = curand_normal_double(&s);
}

int main() {
  int* out;
  double* first;
  cudaMallocManaged(&out, 6 * sizeof(int));
  cudaMallocManaged(&first, sizeof(double));
  laws<<<1, 6>>>(out, first);
  cudaDeviceSynchronize();
  const char* names[] = {"curand_init's offset n is n outputs later",
                         "skipahead(n) is n outputs past 2^32",
                         "a subsequence is 2^76 outputs",
                         "a sequence is 2^127 outputs",
                         "uniforms in (0, 1], normals in pairs",
                         "seed 0's first output is 545508589 (every state word 12345)"};
  for (int i = 0; i < 6; ++i) report(names[i], out[i] == 1);
  std::printf("first uniform of seed 0: %.12f\n", *first);
  unsigned int* words;
  float* floats;
  double* doubles;
  cudaMallocManaged(&words, 4 * sizeof(unsigned int));
  cudaMallocManaged(&floats, 3 * sizeof(float));
  cudaMallocManaged(&doubles, 2 * sizeof(double));
  const unsigned long long seeds[] = {0ull, 1234ull, (1ull << 40) + 7};
  const unsigned long long subsequences[] = {0ull, 1ull, 1000ull};
  const unsigned long long offsets[] = {0ull, 5ull};
  for (unsigned long long seed : seeds) {
    for (unsigned long long sub : subsequences) {
      for (unsigned long long offset : offsets) {
        values<<<1, 1>>>(seed, sub, offset, words, floats, doubles);
        cudaDeviceSynchronize();
        std::printf("value MRG32k3a %llu %llu %llu: %08x %08x %08x %08x %a %a %a %a %a\n", seed, sub, offset, words[0],
                    words[1], words[2], words[3], floats[0], floats[1], floats[2], doubles[0], doubles[1]);
      }
    }
  }
  std::printf("%d wrong\n", wrong);
  return wrong;
}

// cuRAND's device API: laws any implementation must keep (checked here, on a
// GPU and on the emulator alike), Philox4x32-10's published known answers,
// and a table of values to compare a GPU's with the emulator's:
//   nvcc -O2 -arch=sm_90 -o curand_check curand_check.cu && ./curand_check
//   banklab run curand_check.cu
// A law's line ends OK or WRONG; the exit status is the number of WRONG lines.
// The table's lines start with "value": generator, seed, subsequence,
// offset, then the outputs (integers in hex, floats and doubles as %a).
#include <curand_kernel.h>

#include <cstdio>

static int wrong = 0;

static void report(const char* what, bool ok) {
  std::printf("%s: %s\n", what, ok ? "OK" : "WRONG");
  if (!ok) ++wrong;
}

// ---- the laws, each thread one law; out[law] = 1 where it held ----------------

__global__ void laws(int* out) {
  const int law = threadIdx.x;
  int ok = 1;
  if (law == 0) {
    // XORWOW: curand_init with offset n is n outputs later.
    curandState a, b;
    curand_init(77, 3, 0, &a);
    for (int i = 0; i < 1000; ++i) curand(&a);
    curand_init(77, 3, 1000, &b);
    for (int i = 0; i < 8; ++i) ok &= curand(&a) == curand(&b);
  } else if (law == 1) {
    // XORWOW: skipahead(n) is n outputs, for an n past 2^32.
    curandState a, b;
    curand_init(5, 0, 0, &a);
    b = a;
    skipahead((1ull << 33) + 12345ull, &a);
    skipahead(1ull << 33, &b);
    for (int i = 0; i < 12345; ++i) curand(&b);
    for (int i = 0; i < 8; ++i) ok &= curand(&a) == curand(&b);
  } else if (law == 2) {
    // XORWOW: a subsequence is 2^67 outputs, 16 jumps of 2^63.
    curandState a, b;
    curand_init(9, 0, 0, &a);
    curand_init(9, 1, 0, &b);
    for (int i = 0; i < 16; ++i) skipahead(1ull << 63, &a);
    for (int i = 0; i < 8; ++i) ok &= curand(&a) == curand(&b);
  } else if (law == 3) {
    // Philox: offset n is n outputs later, across a block of four.
    curandStatePhilox4_32_10_t a, b;
    curand_init(77, 3, 0, &a);
    for (int i = 0; i < 7; ++i) curand(&a);
    curand_init(77, 3, 7, &b);
    for (int i = 0; i < 9; ++i) ok &= curand(&a) == curand(&b);
  } else if (law == 4) {
    // Philox: curand4 is the next four outputs, from any place in a block.
    curandStatePhilox4_32_10_t a, b;
    curand_init(1, 2, 0, &a);
    curand_init(1, 2, 0, &b);
    curand(&a);
    curand(&b);
    const uint4 four = curand4(&a);
    ok &= four.x == curand(&b) && four.y == curand(&b) && four.z == curand(&b) && four.w == curand(&b);
    ok &= curand(&a) == curand(&b);
  } else if (law == 5) {
    // Philox: skipahead_sequence(n) is curand_init's subsequence n.
    curandStatePhilox4_32_10_t a, b;
    curand_init(3, 0, 0, &a);
    skipahead_sequence(41, &a);
    curand_init(3, 41, 0, &b);
    for (int i = 0; i < 6; ++i) ok &= curand(&a) == curand(&b);
  } else if (law == 6) {
    // Uniforms lie in (0, 1]; normals come in pairs, the second kept.
    curandState a, b;
    curand_init(11, 0, 0, &a);
    for (int i = 0; i < 1000; ++i) {
      const float u = curand_uniform(&a);
      ok &= u > 0.0f && u <= 1.0f;
    }
    curand_init(11, 0, 0, &a);
    curand_init(11, 0, 0, &b);
    const float first = curand_normal(&a), second = curand_normal(&a);
    const float2 pair = curand_normal2(&b);
    ok &= first == pair.x && second == pair.y && curand(&a) == curand(&b);
  }
  out[law] = ok;
}

// ---- the table ------------------------------------------------------------

struct Row {
  unsigned int ints[6];
  float uniform[2], normal[2];
  double uniform_double, normal_double;
};

template <typename State>
__global__ void table(Row* rows, const unsigned long long* seeds, const unsigned long long* subsequences,
                      const unsigned long long* offsets, int count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  State s;
  curand_init(seeds[i], subsequences[i], offsets[i], &s);
  Row r;
  for (int k = 0; k < 6; ++k) r.ints[k] = curand(&s);
  for (int k = 0; k < 2; ++k) r.uniform[k] = curand_uniform(&s);
  for (int k = 0; k < 2; ++k) r.normal[k] = curand_normal(&s);
  r.uniform_double = curand_uniform_double(&s);
  r.normal_double = curand_normal_double(&s);
  rows[i] = r;
}

template <typename State>
void print_table(const char* name) {
  const unsigned long long seed_list[3] = {0ull, 1234ull, (1ull << 40) + 7ull};
  const unsigned long long sub_list[3] = {0ull, 1ull, 1000ull};
  const unsigned long long offset_list[2] = {0ull, 5ull};
  const int count = 3 * 3 * 2;
  unsigned long long seeds[count], subs[count], offsets[count];
  int n = 0;
  for (unsigned long long seed : seed_list)
    for (unsigned long long sub : sub_list)
      for (unsigned long long offset : offset_list) {
        seeds[n] = seed;
        subs[n] = sub;
        offsets[n] = offset;
        ++n;
      }
  unsigned long long *d_seeds, *d_subs, *d_offsets;
  Row* d_rows;
  cudaMalloc(&d_seeds, sizeof seeds);
  cudaMalloc(&d_subs, sizeof subs);
  cudaMalloc(&d_offsets, sizeof offsets);
  cudaMalloc(&d_rows, count * sizeof(Row));
  cudaMemcpy(d_seeds, seeds, sizeof seeds, cudaMemcpyHostToDevice);
  cudaMemcpy(d_subs, subs, sizeof subs, cudaMemcpyHostToDevice);
  cudaMemcpy(d_offsets, offsets, sizeof offsets, cudaMemcpyHostToDevice);
  table<State><<<1, count>>>(d_rows, d_seeds, d_subs, d_offsets, count);
  Row rows[count];
  cudaMemcpy(rows, d_rows, sizeof rows, cudaMemcpyDeviceToHost);
  for (int i = 0; i < count; ++i) {
    const Row& r = rows[i];
    std::printf("value %s %llu %llu %llu: %08x %08x %08x %08x %08x %08x | %a %a | %a %a | %a %a\n", name, seeds[i],
                subs[i], offsets[i], r.ints[0], r.ints[1], r.ints[2], r.ints[3], r.ints[4], r.ints[5], r.uniform[0],
                r.uniform[1], r.normal[0], r.normal[1], r.uniform_double, r.normal_double);
  }
}

// The first four outputs of curand_init(seed, subsequence, 0): Philox4x32-10
// of the key `seed` and the counter (0, 0, subsequence).
__global__ void philox_first(uint4* out, unsigned long long seed, unsigned long long subsequence) {
  curandStatePhilox4_32_10_t s;
  curand_init(seed, subsequence, 0, &s);
  *out = curand4(&s);
}

int main() {
  int* d_laws;
  cudaMalloc(&d_laws, 7 * sizeof(int));
  laws<<<1, 7>>>(d_laws);
  int ok[7];
  cudaMemcpy(ok, d_laws, sizeof ok, cudaMemcpyDeviceToHost);
  report("XORWOW: curand_init's offset n is n outputs later", ok[0] == 1);
  report("XORWOW: skipahead(2^33 + 12345) is that many outputs", ok[1] == 1);
  report("XORWOW: a subsequence is 2^67 outputs (16 skipaheads of 2^63)", ok[2] == 1);
  report("Philox: curand_init's offset n is n outputs later", ok[3] == 1);
  report("Philox: curand4 is the next four outputs from any place in a block", ok[4] == 1);
  report("Philox: skipahead_sequence(n) is subsequence n", ok[5] == 1);
  report("uniforms in (0, 1], normals in pairs (curand_normal twice = curand_normal2)", ok[6] == 1);

  // Random123's known answer for Philox4x32-10 of counter 0 and key 0: what
  // curand_init(0, 0, 0) starts from.
  uint4* d_four;
  cudaMalloc(&d_four, sizeof(uint4));
  uint4 four;
  philox_first<<<1, 1>>>(d_four, 0, 0);
  cudaMemcpy(&four, d_four, sizeof four, cudaMemcpyDeviceToHost);
  report("Philox4x32-10 known answer, counter 0 and key 0: 6627e8d5 e169c58d bc57ac4c 9b00dbd8",
         four.x == 0x6627e8d5u && four.y == 0xe169c58du && four.z == 0xbc57ac4cu && four.w == 0x9b00dbd8u);

  print_table<curandState>("XORWOW");
  print_table<curandStatePhilox4_32_10_t>("Philox4_32_10");
  std::printf("%d wrong\n", wrong);
  return wrong;
}

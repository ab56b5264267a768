// cuRAND's host API on a GPU, tested against layouts built from the device
// API on the same GPU: for each generator and ordering, which candidate
// layout puts at element i the value curandGenerate* put there. A candidate
// "threads T" says element i is the (i / T)-th output of subsequence i % T
// (curand_init(seed, i % T, i / T)); "sequential" says element i is output i
// of subsequence 0; "quads T" (Philox) says elements come four at a time,
// quad q = i / 4 being the (q / T)-th curand4 of subsequence q % T. Each
// line reads: configuration, candidate, elements equal out of those checked.
//   nvcc -O2 -arch=sm_90 -o curand_host_layout curand_host_layout.cu -lcurand && ./curand_host_layout
#include <cuda_runtime.h>
#include <curand.h>
#include <curand_kernel.h>

#include <cmath>
#include <cstdio>
#include <type_traits>
#include <vector>

#define CHECK(x)                                                    \
  do {                                                              \
    int rc_ = static_cast<int>(x);                                  \
    if (rc_ != 0) {                                                 \
      std::printf("error %d at line %d: %s\n", rc_, __LINE__, #x); \
      return 1;                                                     \
    }                                                               \
  } while (0)

enum Kind { kBits, kUniform, kNormal, kUniformDouble, kNormalDouble };
enum Layout { kThreads, kSequential, kQuads, kPairs };

// The value a candidate layout puts at element `i` (as raw bits in a double's
// slot: integers and floats are widened exactly).
template <class State>
__device__ double candidate(State* s, unsigned long long seed, Layout layout, unsigned long long threads,
                            unsigned long long i, Kind kind, unsigned long long offset) {
  i += offset;
  // Outputs a value of this kind uses: doubles of XORWOW and MRG take two.
  unsigned long long sub = 0, k = 0, pick = 0;
  if (layout == kSequential) {
    sub = 0;
    k = i;
  } else if (layout == kThreads) {
    sub = i % threads;
    k = i / threads;
  } else if (layout == kPairs) {  // pairs of elements from one thread
    sub = (i / 2) % threads;
    k = (i / 2) / threads * 2 + i % 2;
  } else {  // quads
    sub = (i / 4) % threads;
    k = (i / 4) / threads * 4 + i % 4;
  }
  // Philox's uniform double takes one output (tests/data/gpu/h100_curand/).
  constexpr bool philox = std::is_same<State, curandStatePhilox4_32_10_t>::value;
  const unsigned long long per =
      kind == kNormalDouble || (kind == kUniformDouble && !philox) ? 2 : 1;
  if (kind == kNormal || kind == kNormalDouble) {
    pick = k % 2;
    k -= pick;  // the pair's first output
  }
  curand_init(seed, sub, k * per, s);
  switch (kind) {
    case kBits: return static_cast<double>(curand(s));
    case kUniform: return static_cast<double>(curand_uniform(s));
    case kUniformDouble: return curand_uniform_double(s);
    case kNormal: {
      const float2 v = curand_normal2(s);
      return static_cast<double>(pick ? v.y : v.x);
    }
    default: {
      const double2 v = curand_normal2_double(s);
      return pick ? v.y : v.x;
    }
  }
}

template <class State>
__global__ void count_matches(const double* got, const unsigned long long* at, int count, unsigned long long seed,
                              Layout layout, unsigned long long threads, Kind kind, unsigned long long offset,
                              unsigned* exact, unsigned* near) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= count) return;
  State s;
  const double want = candidate(&s, seed, layout, threads, at[j], kind, offset);
  if (want == got[j]) atomicAdd(exact, 1u);
  if (std::fabs(want - got[j]) <= 1e-5 * std::fmax(1.0, std::fabs(want))) atomicAdd(near, 1u);
}

static std::vector<unsigned long long> sample(unsigned long long n) {
  std::vector<unsigned long long> out;
  for (unsigned long long i = 0; i < 600 && i < n; ++i) out.push_back(i);
  for (unsigned long long p = 1024; p < n; p *= 2) {
    for (long d = -5; d <= 5; ++d) out.push_back(p + d);
    out.push_back(p + p / 3);
  }
  unsigned long long x = 12345;
  for (int r = 0; r < 400; ++r) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    out.push_back((x >> 20) % n);
  }
  std::vector<unsigned long long> kept;
  for (unsigned long long i : out)
    if (i < n) kept.push_back(i);
  return kept;
}

struct Rng {
  curandRngType_t type;
  const char* name;
};
struct Order {
  curandOrdering_t order;
  const char* name;
};

template <class State>
static int test_layouts(const char* config, const std::vector<double>& got_all, unsigned long long seed, Kind kind,
                        unsigned long long offset, bool philox) {
  const std::vector<unsigned long long> at = sample(got_all.size());
  std::vector<double> got(at.size());
  for (size_t j = 0; j < at.size(); ++j) got[j] = got_all[at[j]];
  double* d_got;
  unsigned long long* d_at;
  unsigned* d_counts;
  CHECK(cudaMalloc(&d_got, got.size() * sizeof(double)));
  CHECK(cudaMalloc(&d_at, at.size() * sizeof(unsigned long long)));
  CHECK(cudaMalloc(&d_counts, 2 * sizeof(unsigned)));
  CHECK(cudaMemcpy(d_got, got.data(), got.size() * sizeof(double), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_at, at.data(), at.size() * sizeof(unsigned long long), cudaMemcpyHostToDevice));
  struct Candidate {
    Layout layout;
    unsigned long long threads;
  };
  std::vector<Candidate> candidates = {{kSequential, 1}};
  for (unsigned long long t = 1024; t <= (1ull << 20); t *= 2) {
    candidates.push_back({kThreads, t});
    candidates.push_back({kPairs, t});
    if (philox) candidates.push_back({kQuads, t});
  }
  for (unsigned long long t : {132ull * 64, 132ull * 128, 132ull * 256, 132ull * 512, 132ull * 1024, 132ull * 2048}) {
    candidates.push_back({kThreads, t});
    if (philox) candidates.push_back({kQuads, t});
  }
  static const char* const layout_names[] = {"threads", "sequential", "quads", "pairs"};
  bool any = false;
  for (const Candidate& c : candidates) {
    CHECK(cudaMemset(d_counts, 0, 2 * sizeof(unsigned)));
    const int count = static_cast<int>(at.size());
    count_matches<State><<<(count + 127) / 128, 128>>>(d_got, d_at, count, seed, c.layout, c.threads, kind, offset,
                                                       d_counts, d_counts + 1);
    CHECK(cudaGetLastError());
    unsigned counts[2];
    CHECK(cudaMemcpy(counts, d_counts, sizeof counts, cudaMemcpyDeviceToHost));
    if (counts[1] * 10 >= static_cast<unsigned>(count) || (c.layout == kSequential)) {
      std::printf("%s | %s %llu | exact %u near %u of %d\n", config, layout_names[c.layout], c.threads, counts[0],
                  counts[1], count);
      any = any || counts[1] == static_cast<unsigned>(count);
    }
  }
  if (!any) std::printf("%s | no candidate matches every element\n", config);
  cudaFree(d_got);
  cudaFree(d_at);
  cudaFree(d_counts);
  return 0;
}

int main() {
  const size_t n = size_t(1) << 20;
  unsigned* d_u;
  float* d_f;
  double* d_d;
  CHECK(cudaMalloc(&d_u, n * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_f, n * sizeof(float)));
  CHECK(cudaMalloc(&d_d, n * sizeof(double)));
  std::vector<unsigned> u(n);
  std::vector<float> f(n);
  std::vector<double> d(n), got(n);
  const Rng rngs[] = {{CURAND_RNG_PSEUDO_XORWOW, "xorwow"},
                      {CURAND_RNG_PSEUDO_MRG32K3A, "mrg32k3a"},
                      {CURAND_RNG_PSEUDO_PHILOX4_32_10, "philox"},
                      {CURAND_RNG_PSEUDO_DEFAULT, "default-rng"}};
  const Order orders[] = {{CURAND_ORDERING_PSEUDO_DEFAULT, "default"},
                          {CURAND_ORDERING_PSEUDO_LEGACY, "legacy"},
                          {CURAND_ORDERING_PSEUDO_BEST, "best"},
                          {CURAND_ORDERING_PSEUDO_DYNAMIC, "dynamic"}};
  static const char* const kind_names[] = {"bits", "uniform", "normal", "uniform-double", "normal-double"};
  char config[256];
  for (const Rng& r : rngs) {
    for (const Order& o : orders) {
      for (unsigned long long seed : {1234ull, 0ull}) {
        for (unsigned long long offset : {0ull, 777ull}) {
          for (int kind = kBits; kind <= kNormalDouble; ++kind) {
            if ((seed == 0 || offset != 0) && kind != kBits) continue;
            curandGenerator_t g;
            CHECK(curandCreateGenerator(&g, r.type));
            CHECK(curandSetPseudoRandomGeneratorSeed(g, seed));
            if (offset != 0) CHECK(curandSetGeneratorOffset(g, offset));
            const int rc = curandSetGeneratorOrdering(g, o.order);
            std::snprintf(config, sizeof config, "%s %s seed %llu offset %llu %s", r.name, o.name, seed, offset,
                          kind_names[kind]);
            if (rc != 0) {
              std::printf("%s | ordering refused: status %d\n", config, rc);
              curandDestroyGenerator(g);
              break;
            }
            int status = 0;
            if (kind == kBits) status = curandGenerate(g, d_u, n);
            if (kind == kUniform) status = curandGenerateUniform(g, d_f, n);
            if (kind == kNormal) status = curandGenerateNormal(g, d_f, n, 0.0f, 1.0f);
            if (kind == kUniformDouble) status = curandGenerateUniformDouble(g, d_d, n);
            if (kind == kNormalDouble) status = curandGenerateNormalDouble(g, d_d, n, 0.0, 1.0);
            if (status != 0) {
              std::printf("%s | generation refused: status %d\n", config, status);
              curandDestroyGenerator(g);
              continue;
            }
            CHECK(cudaDeviceSynchronize());
            if (kind == kBits) {
              CHECK(cudaMemcpy(u.data(), d_u, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
              for (size_t i = 0; i < n; ++i) got[i] = u[i];
            } else if (kind <= kNormal) {
              CHECK(cudaMemcpy(f.data(), d_f, n * sizeof(float), cudaMemcpyDeviceToHost));
              for (size_t i = 0; i < n; ++i) got[i] = f[i];
            } else {
              CHECK(cudaMemcpy(d.data(), d_d, n * sizeof(double), cudaMemcpyDeviceToHost));
              got = d;
            }
            std::printf("%s | first %a %a %a\n", config, got[0], got[1], got[2]);
            const Kind k = static_cast<Kind>(kind);
            int rc2 = 0;
            if (r.type == CURAND_RNG_PSEUDO_MRG32K3A) {
              rc2 = test_layouts<curandStateMRG32k3a_t>(config, got, seed, k, offset, false);
            } else if (r.type == CURAND_RNG_PSEUDO_PHILOX4_32_10) {
              rc2 = test_layouts<curandStatePhilox4_32_10_t>(config, got, seed, k, offset, true);
            } else {
              rc2 = test_layouts<curandStateXORWOW_t>(config, got, seed, k, offset, false);
            }
            if (rc2 != 0) return rc2;
            // A second call goes on from where the first ended: its first
            // elements against the same layouts, shifted by n.
            if (kind == kBits && offset == 0) {
              CHECK(curandGenerate(g, d_u, n));
              CHECK(cudaMemcpy(u.data(), d_u, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
              for (size_t i = 0; i < n; ++i) got[i] = u[i];
              std::snprintf(config, sizeof config, "%s %s seed %llu second-call bits (offset n)", r.name, o.name,
                            seed);
              if (r.type == CURAND_RNG_PSEUDO_MRG32K3A) {
                rc2 = test_layouts<curandStateMRG32k3a_t>(config, got, seed, k, n, false);
              } else if (r.type == CURAND_RNG_PSEUDO_PHILOX4_32_10) {
                rc2 = test_layouts<curandStatePhilox4_32_10_t>(config, got, seed, k, n, true);
              } else {
                rc2 = test_layouts<curandStateXORWOW_t>(config, got, seed, k, n, false);
              }
              if (rc2 != 0) return rc2;
            }
            CHECK(curandDestroyGenerator(g));
          }
        }
      }
    }
  }
  // Odd lengths: how each distribution treats them.
  for (const Rng& r : rngs) {
    curandGenerator_t g;
    CHECK(curandCreateGenerator(&g, r.type));
    std::printf("%s odd lengths: generate 1001 %d, uniform 1001 %d, normal 1001 %d, normal 1002 %d, "
                "normal-double 1001 %d\n",
                r.name, curandGenerate(g, d_u, 1001), curandGenerateUniform(g, d_f, 1001),
                curandGenerateNormal(g, d_f, 1001, 0.0f, 1.0f), curandGenerateNormal(g, d_f, 1002, 0.0f, 1.0f),
                curandGenerateNormalDouble(g, d_d, 1001, 0.0, 1.0));
    CHECK(curandDestroyGenerator(g));
  }
  int version = 0;
  curandGetVersion(&version);
  std::printf("curand version %d\n", version);
  std::printf("enums: XORWOW %d MRG32K3A %d MTGP32 %d MT19937 %d PHILOX %d DEFAULT %d QUASI_DEFAULT %d SOBOL32 %d\n",
              CURAND_RNG_PSEUDO_XORWOW, CURAND_RNG_PSEUDO_MRG32K3A, CURAND_RNG_PSEUDO_MTGP32,
              CURAND_RNG_PSEUDO_MT19937, CURAND_RNG_PSEUDO_PHILOX4_32_10, CURAND_RNG_PSEUDO_DEFAULT,
              CURAND_RNG_QUASI_DEFAULT, CURAND_RNG_QUASI_SOBOL32);
  std::printf("orderings: BEST %d DEFAULT %d SEEDED %d LEGACY %d DYNAMIC %d QUASI_DEFAULT %d\n",
              CURAND_ORDERING_PSEUDO_BEST, CURAND_ORDERING_PSEUDO_DEFAULT, CURAND_ORDERING_PSEUDO_SEEDED,
              CURAND_ORDERING_PSEUDO_LEGACY, CURAND_ORDERING_PSEUDO_DYNAMIC, CURAND_ORDERING_QUASI_DEFAULT);
  std::printf("statuses: SUCCESS %d VERSION_MISMATCH %d NOT_INITIALIZED %d ALLOCATION_FAILED %d TYPE_ERROR %d "
              "OUT_OF_RANGE %d LENGTH_NOT_MULTIPLE %d DOUBLE_PRECISION_REQUIRED %d LAUNCH_FAILURE %d "
              "PREEXISTING_FAILURE %d INITIALIZATION_FAILED %d ARCH_MISMATCH %d INTERNAL_ERROR %d\n",
              CURAND_STATUS_SUCCESS, CURAND_STATUS_VERSION_MISMATCH, CURAND_STATUS_NOT_INITIALIZED,
              CURAND_STATUS_ALLOCATION_FAILED, CURAND_STATUS_TYPE_ERROR, CURAND_STATUS_OUT_OF_RANGE,
              CURAND_STATUS_LENGTH_NOT_MULTIPLE, CURAND_STATUS_DOUBLE_PRECISION_REQUIRED,
              CURAND_STATUS_LAUNCH_FAILURE, CURAND_STATUS_PREEXISTING_FAILURE, CURAND_STATUS_INITIALIZATION_FAILED,
              CURAND_STATUS_ARCH_MISMATCH, CURAND_STATUS_INTERNAL_ERROR);
  return 0;
}

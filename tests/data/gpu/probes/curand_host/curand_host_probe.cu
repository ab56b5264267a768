// cuRAND's host API on a GPU: which device-API output each element of
// curandGenerate* is, for each generator and ordering. Prints, per
// configuration, the elements at a fixed set of indices (every index below
// 1024, then around each power of two up to 2^22), so the layout can be
// found offline against the device API (whose values the emulator already
// matches bit for bit, tests/data/gpu/h100_curand/).
//   nvcc -O2 -arch=sm_90 -o curand_host_probe curand_host_probe.cu -lcurand && ./curand_host_probe > probe.txt
#include <cuda_runtime.h>
#include <curand.h>

#include <cstdio>
#include <cstring>
#include <vector>

#define CHECK(x)                                                        \
  do {                                                                  \
    int rc_ = static_cast<int>(x);                                      \
    if (rc_ != 0) {                                                     \
      std::printf("error %d at line %d: %s\n", rc_, __LINE__, #x);     \
      return 1;                                                         \
    }                                                                   \
  } while (0)

static std::vector<size_t> indices(size_t n) {
  std::vector<size_t> out;
  for (size_t i = 0; i < 1024 && i < n; ++i) out.push_back(i);
  for (size_t p = 1024; p < n; p *= 2) {
    for (long d = -3; d <= 3; ++d) {
      const size_t i = p + d;
      if (i >= 1024 && i < n) out.push_back(i);
    }
    for (size_t k = 1; k < 4 && p * k + p / 2 < n; ++k) out.push_back(p * k + p / 2 + 1);
  }
  return out;
}

struct Rng { curandRngType_t type; const char* name; };
struct Order { curandOrdering_t order; const char* name; };

template <typename T>
static void print(const char* head, const T* values, const std::vector<size_t>& at) {
  std::printf("%s\n", head);
  for (size_t i : at) {
    if constexpr (sizeof(T) == 4 && (T)0.5 == 0) {
      std::printf("%zu %08x\n", i, static_cast<unsigned>(values[i]));
    } else if constexpr (sizeof(T) == 8 && (T)0.5 == 0) {
      std::printf("%zu %016llx\n", i, static_cast<unsigned long long>(values[i]));
    } else {
      std::printf("%zu %a\n", i, static_cast<double>(values[i]));
    }
  }
}

int main() {
  const size_t n = size_t(1) << 22;
  const std::vector<size_t> at = indices(n);
  const std::vector<size_t> few = indices(256);
  unsigned* d_u;
  float* d_f;
  double* d_d;
  CHECK(cudaMalloc(&d_u, n * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_f, n * sizeof(float)));
  CHECK(cudaMalloc(&d_d, n * sizeof(double)));
  std::vector<unsigned> u(n);
  std::vector<float> f(n);
  std::vector<double> d(n);
  const Rng rngs[] = {{CURAND_RNG_PSEUDO_XORWOW, "xorwow"},
                      {CURAND_RNG_PSEUDO_MRG32K3A, "mrg32k3a"},
                      {CURAND_RNG_PSEUDO_PHILOX4_32_10, "philox"}};
  const Order orders[] = {{CURAND_ORDERING_PSEUDO_DEFAULT, "default"},
                          {CURAND_ORDERING_PSEUDO_LEGACY, "legacy"},
                          {CURAND_ORDERING_PSEUDO_BEST, "best"},
                          {CURAND_ORDERING_PSEUDO_SEEDED, "seeded"},
                          {CURAND_ORDERING_PSEUDO_DYNAMIC, "dynamic"}};
  char head[256];
  for (const Rng& r : rngs) {
    for (const Order& o : orders) {
      for (unsigned long long seed : {1234ull, 0ull}) {
        curandGenerator_t g;
        CHECK(curandCreateGenerator(&g, r.type));
        CHECK(curandSetPseudoRandomGeneratorSeed(g, seed));
        const int rc = curandSetGeneratorOrdering(g, o.order);
        if (rc != 0) {
          std::printf("config %s %s %llu refused %d\n", r.name, o.name, seed, rc);
          curandDestroyGenerator(g);
          continue;
        }
        CHECK(curandGenerate(g, d_u, n));
        CHECK(cudaMemcpy(u.data(), d_u, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
        std::snprintf(head, sizeof head, "config %s %s %llu generate n=%zu", r.name, o.name, seed, n);
        print(head, u.data(), at);
        // The next call goes on from where the first ended.
        CHECK(curandGenerate(g, d_u, 1000));
        CHECK(cudaMemcpy(u.data(), d_u, 1000 * sizeof(unsigned), cudaMemcpyDeviceToHost));
        std::snprintf(head, sizeof head, "config %s %s %llu generate-again n=1000", r.name, o.name, seed);
        print(head, u.data(), few);
        CHECK(curandDestroyGenerator(g));
        if (seed != 1234ull) continue;
        // A short first call, then a second; an offset; the distributions,
        // each from a fresh generator of this configuration.
        const auto fresh = [&](curandGenerator_t* out) {
          int rc_ = curandCreateGenerator(out, r.type);
          if (rc_ == 0) rc_ = curandSetPseudoRandomGeneratorSeed(*out, seed);
          if (rc_ == 0) rc_ = curandSetGeneratorOrdering(*out, o.order);
          return rc_;
        };
        CHECK(fresh(&g));
        CHECK(curandGenerate(g, d_u, 1000));
        CHECK(curandGenerate(g, d_u, 1000));
        CHECK(cudaMemcpy(u.data(), d_u, 1000 * sizeof(unsigned), cudaMemcpyDeviceToHost));
        std::snprintf(head, sizeof head, "config %s %s %llu generate-1000-then n=1000", r.name, o.name, seed);
        print(head, u.data(), few);
        CHECK(curandDestroyGenerator(g));
        CHECK(fresh(&g));
        CHECK(curandSetGeneratorOffset(g, 777));
        CHECK(curandGenerate(g, d_u, 5000));
        CHECK(cudaMemcpy(u.data(), d_u, 5000 * sizeof(unsigned), cudaMemcpyDeviceToHost));
        std::snprintf(head, sizeof head, "config %s %s %llu offset-777 n=5000", r.name, o.name, seed);
        print(head, u.data(), indices(5000));
        CHECK(curandDestroyGenerator(g));
        const size_t m = 1 << 16;
        const std::vector<size_t> mat = indices(m);
        for (int kind = 0; kind < 4; ++kind) {
          static const char* const names[] = {"uniform", "normal", "uniform-double", "normal-double"};
          CHECK(fresh(&g));
          if (kind == 0) CHECK(curandGenerateUniform(g, d_f, m));
          if (kind == 1) CHECK(curandGenerateNormal(g, d_f, m, 0.0f, 1.0f));
          if (kind == 2) CHECK(curandGenerateUniformDouble(g, d_d, m));
          if (kind == 3) CHECK(curandGenerateNormalDouble(g, d_d, m, 0.0, 1.0));
          std::snprintf(head, sizeof head, "config %s %s %llu %s n=%zu", r.name, o.name, seed, names[kind], m);
          if (kind < 2) {
            CHECK(cudaMemcpy(f.data(), d_f, m * sizeof(float), cudaMemcpyDeviceToHost));
            print(head, f.data(), mat);
          } else {
            CHECK(cudaMemcpy(d.data(), d_d, m * sizeof(double), cudaMemcpyDeviceToHost));
            print(head, d.data(), mat);
          }
          CHECK(curandDestroyGenerator(g));
        }
      }
    }
  }
  // The host generator (curandCreateGeneratorHost): the same numbers?
  for (const Rng& r : rngs) {
    curandGenerator_t g;
    CHECK(curandCreateGeneratorHost(&g, r.type));
    CHECK(curandSetPseudoRandomGeneratorSeed(g, 1234));
    CHECK(curandGenerate(g, u.data(), n));
    std::snprintf(head, sizeof head, "config %s host-generator 1234 generate n=%zu", r.name, n);
    print(head, u.data(), at);
    CHECK(curandDestroyGenerator(g));
  }
  int version = 0;
  curandGetVersion(&version);
  std::printf("curand version %d\n", version);
  return 0;
}

// cuRAND's host API (compat/curand.h) for the CPU emulator. A generator
// fills memory with outputs of the device API (compat/curand_kernel.h, which
// matches an H100 bit for bit) of the generator's seed, at the subsequence
// and place a layout gives (layout_of below). XORWOW's and MRG32k3a's layout
// is the one cuRAND's documentation gives for XORWOW's legacy ordering
// (element i from subsequence i % 4096, its output i / 4096); Philox's is its
// one sequence in order. Neither is compared with a GPU's host API yet:
// tests/data/gpu/probes/curand_host/curand_host_layout.cu tests candidate
// layouts on a GPU and has not run. A call goes on where the last one ended
// (the generator's offset grows by the count), as cuRAND's does. Device
// memory is host memory here, so the values are written where the pointer
// points; on a stream being captured the work becomes a step of the graph.
#include "../compat/curand.h"

#include <cmath>
#include <functional>
#include <new>

// The device API's header is written as kernel code is (no -Wconversion).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wconversion"
#include "../compat/curand_kernel.h"
#pragma GCC diagnostic pop
#include "banklab/cuda_graph.hpp"
#include "host_api.hpp"

struct curandGenerator_st {
  curandRngType_t type = CURAND_RNG_PSEUDO_XORWOW;
  curandOrdering_t order = CURAND_ORDERING_PSEUDO_DEFAULT;
  unsigned long long seed = 0;
  unsigned long long offset = 0;  // elements made so far (and the offset asked for)
  cudaStream_t stream = nullptr;
};

namespace {

using banklab::emu::detail::host_only;

// Where element j (counted from the generator's offset 0) of a call comes
// from: quad/pair/single q = j / group, subsequence q % threads, and the
// (q / threads) * group + j % group -th value of that subsequence.
struct Layout {
  unsigned long long threads = 1;
  unsigned long long group = 1;
};

Layout layout_of(const curandGenerator_st& g) {
  switch (g.type) {
    case CURAND_RNG_PSEUDO_PHILOX4_32_10:
      return {1, 1};
    case CURAND_RNG_PSEUDO_MRG32K3A:
      return {4096, 1};
    default:
      return {4096, 1};
  }
}

bool pseudo(curandRngType_t type) {
  return type == CURAND_RNG_PSEUDO_DEFAULT || type == CURAND_RNG_PSEUDO_XORWOW || type == CURAND_RNG_PSEUDO_MRG32K3A ||
         type == CURAND_RNG_PSEUDO_PHILOX4_32_10;
}

bool known(curandRngType_t type) {
  return pseudo(type) || type == CURAND_RNG_PSEUDO_MTGP32 || type == CURAND_RNG_PSEUDO_MT19937 ||
         type == CURAND_RNG_QUASI_DEFAULT || type == CURAND_RNG_QUASI_SOBOL32 ||
         type == CURAND_RNG_QUASI_SCRAMBLED_SOBOL32 || type == CURAND_RNG_QUASI_SOBOL64 ||
         type == CURAND_RNG_QUASI_SCRAMBLED_SOBOL64 || type == CURAND_RNG_TEST;
}

// Fills out[0, n) with elements [offset, offset + n) of the layout. `make`
// gives a subsequence's values in order (value k from outputs k * outputs
// on); a subsequence starts at a value that is a multiple of `align` (a
// normal's pair), earlier values made but not kept.
template <typename State, typename T, typename Make>
void fill(const curandGenerator_st& g, T* out, std::size_t n, unsigned long long outputs, unsigned long long align,
          Make make) {
  const Layout l = layout_of(g);
  const unsigned long long begin = g.offset, end = g.offset + n;
  const unsigned long long threads = l.threads, group = l.group;
  for (unsigned long long sub = 0; sub < threads && sub * group < end; ++sub) {
    // Value k of this subsequence is element ((k / group) * threads + sub) * group + k % group.
    const auto element = [&](unsigned long long k) { return ((k / group) * threads + sub) * group + k % group; };
    unsigned long long k = begin / (threads * group) * group;
    while (element(k) < begin) ++k;
    if (element(k) >= end) continue;
    k -= k % align;
    State state;
    curand_init(g.seed, sub, k * outputs, &state);
    for (; element(k) < end; ++k) {
      const T value = make(&state, k);
      if (element(k) >= begin) out[element(k) - begin] = value;
    }
  }
}

// Runs `work(state type)` for the generator's type.
template <typename Work>
void with_state(const curandGenerator_st& g, Work work) {
  if (g.type == CURAND_RNG_PSEUDO_PHILOX4_32_10) {
    work(curandStatePhilox4_32_10_t{});
  } else if (g.type == CURAND_RNG_PSEUDO_MRG32K3A) {
    work(curandStateMRG32k3a_t{});
  } else {
    work(curandStateXORWOW_t{});
  }
}

curandStatus_t submit(curandGenerator_t g, std::size_t n, std::function<void()> work) {
  host_only("a cuRAND host API call");
  if (g == nullptr) return CURAND_STATUS_NOT_INITIALIZED;
  if (banklab::emu::detail::status() != cudaSuccess) return CURAND_STATUS_PREEXISTING_FAILURE;
  if (banklab::emu::detail::capturing(g->stream)) {
    banklab::emu::detail::capture(g->stream, std::move(work));
  } else {
    work();
  }
  g->offset += n;
  return CURAND_STATUS_SUCCESS;
}

}  // namespace

curandStatus_t curandCreateGenerator(curandGenerator_t* generator, curandRngType_t type) {
  host_only("curandCreateGenerator");
  if (generator == nullptr) return CURAND_STATUS_NOT_INITIALIZED;
  if (!known(type)) return CURAND_STATUS_TYPE_ERROR;
  if (!pseudo(type)) return CURAND_STATUS_TYPE_ERROR;  // MTGP32, MT19937, quasi-random: not provided
  auto* g = new (std::nothrow) curandGenerator_st;
  if (g == nullptr) return CURAND_STATUS_ALLOCATION_FAILED;
  g->type = type == CURAND_RNG_PSEUDO_DEFAULT ? CURAND_RNG_PSEUDO_XORWOW : type;
  *generator = g;
  return CURAND_STATUS_SUCCESS;
}

curandStatus_t curandCreateGeneratorHost(curandGenerator_t* generator, curandRngType_t type) {
  return curandCreateGenerator(generator, type);
}

curandStatus_t curandDestroyGenerator(curandGenerator_t generator) {
  host_only("curandDestroyGenerator");
  if (generator == nullptr) return CURAND_STATUS_NOT_INITIALIZED;
  delete generator;
  return CURAND_STATUS_SUCCESS;
}

curandStatus_t curandGetVersion(int* version) {
  if (version == nullptr) return CURAND_STATUS_OUT_OF_RANGE;
  *version = 10400;  // a version number of cuRAND's form (major * 1000 + minor * 100), not a GPU's library
  return CURAND_STATUS_SUCCESS;
}

curandStatus_t curandSetStream(curandGenerator_t generator, cudaStream_t stream) {
  host_only("curandSetStream");
  if (generator == nullptr) return CURAND_STATUS_NOT_INITIALIZED;
  generator->stream = stream;
  return CURAND_STATUS_SUCCESS;
}

curandStatus_t curandSetPseudoRandomGeneratorSeed(curandGenerator_t generator, unsigned long long seed) {
  host_only("curandSetPseudoRandomGeneratorSeed");
  if (generator == nullptr) return CURAND_STATUS_NOT_INITIALIZED;
  generator->seed = seed;
  generator->offset = 0;
  return CURAND_STATUS_SUCCESS;
}

curandStatus_t curandSetGeneratorOffset(curandGenerator_t generator, unsigned long long offset) {
  host_only("curandSetGeneratorOffset");
  if (generator == nullptr) return CURAND_STATUS_NOT_INITIALIZED;
  generator->offset = offset;
  return CURAND_STATUS_SUCCESS;
}

curandStatus_t curandSetGeneratorOrdering(curandGenerator_t generator, curandOrdering_t order) {
  host_only("curandSetGeneratorOrdering");
  if (generator == nullptr) return CURAND_STATUS_NOT_INITIALIZED;
  if (order != CURAND_ORDERING_PSEUDO_BEST && order != CURAND_ORDERING_PSEUDO_DEFAULT &&
      order != CURAND_ORDERING_PSEUDO_LEGACY && order != CURAND_ORDERING_PSEUDO_DYNAMIC &&
      order != CURAND_ORDERING_PSEUDO_SEEDED)
    return CURAND_STATUS_OUT_OF_RANGE;
  generator->order = order;
  return CURAND_STATUS_SUCCESS;
}

curandStatus_t curandGenerateSeeds(curandGenerator_t generator) {
  host_only("curandGenerateSeeds");
  return generator == nullptr ? CURAND_STATUS_NOT_INITIALIZED : CURAND_STATUS_SUCCESS;
}

namespace {

// One value per element: `value(state)` of the generator's state type, each
// from `outputs` outputs of the generator.
template <typename T, typename Value>
curandStatus_t generate(curandGenerator_t generator, T* output, size_t n, unsigned long long outputs, Value value) {
  if (generator != nullptr && output == nullptr && n > 0) return CURAND_STATUS_LAUNCH_FAILURE;
  const curandGenerator_st g = generator != nullptr ? *generator : curandGenerator_st{};
  return submit(generator, n, [g, output, n, outputs, value] {
    with_state(g, [&](auto blank) {
      using State = decltype(blank);
      fill<State>(g, output, n, outputs, 1, [&](State* s, unsigned long long) { return value(s); });
    });
  });
}

}  // namespace

curandStatus_t curandGenerate(curandGenerator_t generator, unsigned int* output, size_t num) {
  return generate(generator, output, num, 1, [](auto* s) { return curand(s); });
}

curandStatus_t curandGenerateUniform(curandGenerator_t generator, float* output, size_t num) {
  return generate(generator, output, num, 1, [](auto* s) { return curand_uniform(s); });
}

curandStatus_t curandGenerateUniformDouble(curandGenerator_t generator, double* output, size_t num) {
  // Philox's takes one output, the others two.
  const bool philox = generator != nullptr && generator->type == CURAND_RNG_PSEUDO_PHILOX4_32_10;
  return generate(generator, output, num, philox ? 1 : 2, [](auto* s) { return curand_uniform_double(s); });
}

namespace {

// Normals come in pairs from two (float) or four (double) outputs: value k
// of a subsequence is the first of pair k / 2 where k is even, else the
// second; `fill` starts a subsequence at an even value.
template <typename T>
curandStatus_t generate_normal(curandGenerator_t generator, T* output, size_t n, T mean, T stddev, bool log_normal) {
  if (generator != nullptr && output == nullptr && n > 0) return CURAND_STATUS_LAUNCH_FAILURE;
  if (n % 2 != 0) return CURAND_STATUS_LENGTH_NOT_MULTIPLE;
  if (stddev <= 0) return CURAND_STATUS_OUT_OF_RANGE;
  const curandGenerator_st g = generator != nullptr ? *generator : curandGenerator_st{};
  return submit(generator, n, [g, output, n, mean, stddev, log_normal] {
    with_state(g, [&](auto blank) {
      using State = decltype(blank);
      T second = 0;
      const unsigned long long outputs = sizeof(T) == 4 ? 1 : 2;
      fill<State>(g, output, n, outputs, 2, [&](State* s, unsigned long long k) {
        T value;
        if (k % 2 == 0) {
          if constexpr (sizeof(T) == 4) {
            const float2 pair = curand_normal2(s);
            value = pair.x;
            second = pair.y;
          } else {
            const double2 pair = curand_normal2_double(s);
            value = pair.x;
            second = pair.y;
          }
        } else {
          value = second;
        }
        value = mean + stddev * value;
        if (log_normal) value = sizeof(T) == 4 ? expf(static_cast<float>(value)) : std::exp(value);
        return value;
      });
    });
  });
}

}  // namespace

curandStatus_t curandGenerateNormal(curandGenerator_t generator, float* output, size_t n, float mean, float stddev) {
  return generate_normal(generator, output, n, mean, stddev, false);
}
curandStatus_t curandGenerateNormalDouble(curandGenerator_t generator, double* output, size_t n, double mean,
                                          double stddev) {
  return generate_normal(generator, output, n, mean, stddev, false);
}
curandStatus_t curandGenerateLogNormal(curandGenerator_t generator, float* output, size_t n, float mean, float stddev) {
  return generate_normal(generator, output, n, mean, stddev, true);
}
curandStatus_t curandGenerateLogNormalDouble(curandGenerator_t generator, double* output, size_t n, double mean,
                                             double stddev) {
  return generate_normal(generator, output, n, mean, stddev, true);
}

// cuRAND's host API for the CPU emulator (`banklab run`; -lcurand is
// accepted and needs nothing more): generators of XORWOW, MRG32k3a and
// Philox4_32_10 that fill device (or host) memory with numbers of the
// device API of <curand_kernel.h> (which matches an H100 bit for bit), each
// element one output of the seed's subsequences (src/curand_host.cpp says
// which). The uniform, normal and log-normal distributions, offsets and
// calls that go on where the last one ended are cuRAND's; which element gets
// which output has not been compared with a GPU's host API yet, so the
// values are a valid stream of the generator, not necessarily cuRAND's at
// the same index. Not provided: MTGP32, MT19937, the quasi-random generators,
// the Poisson distribution; asking for them returns CURAND_STATUS_TYPE_ERROR.
#pragma once

#include <cstddef>

#include "banklab/cuda_host_code.hpp"

enum curandStatus {
  CURAND_STATUS_SUCCESS = 0,
  CURAND_STATUS_VERSION_MISMATCH = 100,
  CURAND_STATUS_NOT_INITIALIZED = 101,
  CURAND_STATUS_ALLOCATION_FAILED = 102,
  CURAND_STATUS_TYPE_ERROR = 103,
  CURAND_STATUS_OUT_OF_RANGE = 104,
  CURAND_STATUS_LENGTH_NOT_MULTIPLE = 105,
  CURAND_STATUS_DOUBLE_PRECISION_REQUIRED = 106,
  CURAND_STATUS_LAUNCH_FAILURE = 201,
  CURAND_STATUS_PREEXISTING_FAILURE = 202,
  CURAND_STATUS_INITIALIZATION_FAILED = 203,
  CURAND_STATUS_ARCH_MISMATCH = 204,
  CURAND_STATUS_INTERNAL_ERROR = 999
};
typedef enum curandStatus curandStatus_t;

enum curandRngType {
  CURAND_RNG_TEST = 0,
  CURAND_RNG_PSEUDO_DEFAULT = 100,
  CURAND_RNG_PSEUDO_XORWOW = 101,
  CURAND_RNG_PSEUDO_MRG32K3A = 121,
  CURAND_RNG_PSEUDO_MTGP32 = 141,
  CURAND_RNG_PSEUDO_MT19937 = 142,
  CURAND_RNG_PSEUDO_PHILOX4_32_10 = 161,
  CURAND_RNG_QUASI_DEFAULT = 200,
  CURAND_RNG_QUASI_SOBOL32 = 201,
  CURAND_RNG_QUASI_SCRAMBLED_SOBOL32 = 202,
  CURAND_RNG_QUASI_SOBOL64 = 203,
  CURAND_RNG_QUASI_SCRAMBLED_SOBOL64 = 204
};
typedef enum curandRngType curandRngType_t;

enum curandOrdering {
  CURAND_ORDERING_PSEUDO_BEST = 100,
  CURAND_ORDERING_PSEUDO_DEFAULT = 101,
  CURAND_ORDERING_PSEUDO_SEEDED = 102,
  CURAND_ORDERING_PSEUDO_LEGACY = 103,
  CURAND_ORDERING_PSEUDO_DYNAMIC = 104,
  CURAND_ORDERING_QUASI_DEFAULT = 201
};
typedef enum curandOrdering curandOrdering_t;

struct curandGenerator_st;
typedef struct curandGenerator_st* curandGenerator_t;

curandStatus_t curandCreateGenerator(curandGenerator_t* generator, curandRngType_t type);
curandStatus_t curandCreateGeneratorHost(curandGenerator_t* generator, curandRngType_t type);
curandStatus_t curandDestroyGenerator(curandGenerator_t generator);
curandStatus_t curandGetVersion(int* version);
curandStatus_t curandSetStream(curandGenerator_t generator, cudaStream_t stream);
curandStatus_t curandSetPseudoRandomGeneratorSeed(curandGenerator_t generator, unsigned long long seed);
curandStatus_t curandSetGeneratorOffset(curandGenerator_t generator, unsigned long long offset);
curandStatus_t curandSetGeneratorOrdering(curandGenerator_t generator, curandOrdering_t order);
curandStatus_t curandGenerateSeeds(curandGenerator_t generator);
curandStatus_t curandGenerate(curandGenerator_t generator, unsigned int* output, size_t num);
curandStatus_t curandGenerateUniform(curandGenerator_t generator, float* output, size_t num);
curandStatus_t curandGenerateUniformDouble(curandGenerator_t generator, double* output, size_t num);
curandStatus_t curandGenerateNormal(curandGenerator_t generator, float* output, size_t n, float mean, float stddev);
curandStatus_t curandGenerateNormalDouble(curandGenerator_t generator, double* output, size_t n, double mean,
                                          double stddev);
curandStatus_t curandGenerateLogNormal(curandGenerator_t generator, float* output, size_t n, float mean, float stddev);
curandStatus_t curandGenerateLogNormalDouble(curandGenerator_t generator, double* output, size_t n, double mean,
                                             double stddev);

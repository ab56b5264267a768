// What the programs of `grader --export-program` share: seeded inputs,
// device buffers, error checks and a checksum, in plain CUDA runtime calls
// (nvcc builds them for ncu and compute-sanitizer; banklab run runs them).
#pragma once

#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#define PROGRAM_CHECK(call)                                                                    \
  do {                                                                                         \
    const cudaError_t program_error_ = (call);                                                 \
    if (program_error_ != cudaSuccess) {                                                       \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                       \
                   cudaGetErrorString(program_error_));                                        \
      std::exit(1);                                                                            \
    }                                                                                          \
  } while (0)

namespace program {

/// Whole numbers in [-500, 500] as floats: sums of them are exact.
inline std::vector<float> random_floats(std::size_t count, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> value(-500, 500);
  std::vector<float> out(count);
  for (float& v : out) v = static_cast<float>(value(rng));
  return out;
}

template <class T>
T* to_device(const std::vector<T>& host) {
  T* device = nullptr;
  PROGRAM_CHECK(cudaMalloc(&device, host.size() * sizeof(T)));
  PROGRAM_CHECK(cudaMemcpy(device, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  return device;
}

template <class T>
T* device_buffer(std::size_t count) {
  T* device = nullptr;
  PROGRAM_CHECK(cudaMalloc(&device, count * sizeof(T)));
  PROGRAM_CHECK(cudaMemset(device, 0, count * sizeof(T)));
  return device;
}

/// Waits for the launch and copies `count` elements back.
template <class T>
std::vector<T> finish(const char* kernel, const T* device, std::size_t count) {
  PROGRAM_CHECK(cudaGetLastError());
  PROGRAM_CHECK(cudaDeviceSynchronize());
  std::vector<T> host(count);
  PROGRAM_CHECK(cudaMemcpy(host.data(), device, count * sizeof(T), cudaMemcpyDeviceToHost));
  std::printf("%s: ran\n", kernel);
  return host;
}

/// Prints how many of `got` differ from `expected` (0: the kernel is right here).
template <class T>
void compare(const char* kernel, const std::vector<T>& got, const std::vector<T>& expected) {
  std::size_t wrong = 0, first = got.size();
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (!(static_cast<double>(got[i]) == static_cast<double>(expected[i]))) {
      if (wrong++ == 0) first = i;
    }
  }
  if (wrong == 0) {
    std::printf("%s: all %zu elements right\n", kernel, got.size());
  } else {
    std::printf("%s: %zu of %zu elements wrong (first at index %zu: %g, expected %g)\n", kernel, wrong, got.size(),
                first, static_cast<double>(got[first]), static_cast<double>(expected[first]));
  }
}

/// Host transpose: out[c][r] = in[r][c] for a width x height input.
template <class T>
std::vector<T> transposed(const std::vector<T>& in, int width, int height) {
  std::vector<T> out(in.size());
  for (int r = 0; r < height; ++r) {
    for (int c = 0; c < width; ++c) out[static_cast<std::size_t>(c) * height + r] = in[static_cast<std::size_t>(r) * width + c];
  }
  return out;
}

/// The grader's transpose launch: 32x32 tiles of 32x8 threads, partial tiles at the edges.
inline dim3 transpose_grid(int width, int height, int tile = 32) {
  return dim3((width + tile - 1) / tile, (height + tile - 1) / tile);
}

}  // namespace program

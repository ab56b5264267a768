// What the GPU runners share (nvcc only): CUDA errors reported as the JSON
// answer the grader reads, correctness runs of a transpose kernel with
// poisoned outputs, and interleaved median timings.
#pragma once

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "json_writer.hpp"
#include "transpose_harness.hpp"

namespace harness {

/// Prints {"backend": "gpu", "error": "what: CUDA's message"} and exits 3.
[[noreturn]] inline void gpu_error_exit(const char* what, cudaError_t error) {
  Json j;
  j.open('{').key("backend").value(std::string("gpu"));
  j.key("error").value(std::string(what) + ": " + cudaGetErrorString(error));
  j.close('}');
  harness::emit_answer(j.str());
  std::exit(3);
}

#define HARNESS_CUDA_CHECK(call)                                             \
  do {                                                                       \
    const cudaError_t harness_error_ = (call);                               \
    if (harness_error_ != cudaSuccess) harness::gpu_error_exit(#call, harness_error_); \
  } while (0)

using TransposeKernel = void (*)(float*, const float*, int, int);

/// The launch every transpose stage uses: one block of `block` threads per
/// tile x tile elements, partial tiles at the right and bottom edges.
template <class T>
void launch_transpose(void (*kernel)(T*, const T*, int, int), T* out, const T* in, int width, int height,
                      int tile = 32, dim3 block = dim3(32, 8)) {
  const dim3 grid((width + tile - 1) / tile, (height + tile - 1) / tile);
  kernel<<<grid, block>>>(out, in, width, height);
}

/// Runs `kernel` on each shape (seeded input, NaN-poisoned output) and prints
/// {"backend": "gpu", "seed": N, "runs": [{width, height, element_bytes,
/// output (base64 of the raw output)} | {width, height, error}]}; the grader
/// compares. Bits is an unsigned integer
/// of the element's size; float inputs are make_input's, others
/// make_input_bits'. A kernel fault poisons the CUDA context, so the runs stop
/// at the first error.
template <class Bits, class T>
int run_transpose(void (*kernel)(T*, const T*, int, int), const std::vector<Shape>& shapes, std::uint64_t seed,
                  int tile = 32, dim3 block = dim3(32, 8)) {
  static_assert(sizeof(Bits) == sizeof(T), "Bits must be an integer of the element's size");
  Json j;
  j.open('{').key("backend").value(std::string("gpu")).key("seed").value(static_cast<long long>(seed));
  j.key("runs").open('[');
  for (const Shape s : shapes) {
    const std::vector<Bits> in = transpose_input<Bits>(s, seed);
    const std::size_t bytes = in.size() * sizeof(Bits);
    T *d_in = nullptr, *d_out = nullptr;
    HARNESS_CUDA_CHECK(cudaMalloc(&d_in, bytes));
    HARNESS_CUDA_CHECK(cudaMalloc(&d_out, bytes));
    HARNESS_CUDA_CHECK(cudaMemcpy(d_in, in.data(), bytes, cudaMemcpyHostToDevice));
    HARNESS_CUDA_CHECK(cudaMemset(d_out, kPoisonByte, bytes));
    launch_transpose(kernel, d_out, d_in, s.width, s.height, tile, block);
    cudaError_t error = cudaGetLastError();
    if (error == cudaSuccess) error = cudaDeviceSynchronize();
    std::vector<Bits> out(in.size());
    if (error == cudaSuccess) error = cudaMemcpy(out.data(), d_out, bytes, cudaMemcpyDeviceToHost);
    j.open('{');
    if (error != cudaSuccess) {
      j.key("width").value(static_cast<long long>(s.width)).key("height").value(static_cast<long long>(s.height));
      j.key("error").value(std::string(cudaGetErrorString(error)));
      j.close('}').close(']').close('}');
      harness::emit_answer(j.str());
      return 0;
    }
    // The output as it is, for the grader to compare (transpose_data.hpp).
    j.key("width").value(static_cast<long long>(s.width)).key("height").value(static_cast<long long>(s.height));
    j.key("element_bytes").value(static_cast<long long>(sizeof(Bits)));
    j.key("output").value(output_blob(out.data(), bytes));
    j.close('}');
    cudaFree(d_in);
    cudaFree(d_out);
  }
  j.close(']').close('}');
  harness::emit_answer(j.str());
  return 0;
}

/// Median milliseconds of `repeats` timed calls of each launch, the launches
/// interleaved (so that clock changes hit all alike), after 3 warm-up calls
/// of each. Exits through gpu_error_exit on a CUDA error.
inline std::vector<double> median_times(const std::vector<std::function<void()>>& launches, int repeats) {
  std::vector<std::vector<float>> times(launches.size());
  cudaEvent_t start, stop;
  HARNESS_CUDA_CHECK(cudaEventCreate(&start));
  HARNESS_CUDA_CHECK(cudaEventCreate(&stop));
  for (const auto& launch : launches) {
    for (int w = 0; w < 3; ++w) launch();
  }
  HARNESS_CUDA_CHECK(cudaGetLastError());
  HARNESS_CUDA_CHECK(cudaDeviceSynchronize());
  for (int r = 0; r < repeats; ++r) {
    for (std::size_t k = 0; k < launches.size(); ++k) {
      HARNESS_CUDA_CHECK(cudaEventRecord(start));
      launches[k]();
      HARNESS_CUDA_CHECK(cudaEventRecord(stop));
      HARNESS_CUDA_CHECK(cudaEventSynchronize(stop));
      HARNESS_CUDA_CHECK(cudaGetLastError());
      float ms = 0;
      HARNESS_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
      times[k].push_back(ms);
    }
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  std::vector<double> medians;
  for (auto& t : times) {
    std::sort(t.begin(), t.end());
    medians.push_back(t[t.size() / 2]);
  }
  return medians;
}

}  // namespace harness

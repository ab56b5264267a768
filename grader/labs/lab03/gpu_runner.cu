// Stage-3 runner on a GPU. Prints one JSON object per command:
//   runner probe                           can a GPU be used? (and why not)
//   runner run --shapes 32x32,... --seed N correctness, poisoned outputs
//   runner time --size N --repeats R       median ms: student, conflicted, solution
//   runner ncu-target --size N             one launch of the student's kernel (for ncu)
// The student's kernel comes from the implementation's file; the conflicted
// reference and the solution come from solutions/ (renamed at compile time).
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "transpose_harness.hpp"

__global__ void transpose_padded(float* out, const float* in, int width, int height);
__global__ void solution_transpose_padded(float* out, const float* in, int width, int height);
__global__ void solution_transpose_conflicted(float* out, const float* in, int width, int height);

namespace {

using Kernel = void (*)(float*, const float*, int, int);

void print_error_and_exit(const char* what, cudaError_t error) {
  harness::Json j;
  j.open('{')
      .key("backend")
      .value(std::string("gpu"))
      .key("error")
      .value(std::string(what) + ": " + cudaGetErrorString(error));
  j.close('}');
  std::printf("%s\n", j.str().c_str());
  std::exit(3);
}

#define RUNNER_CHECK(call)                                          \
  do {                                                              \
    const cudaError_t error_ = (call);                              \
    if (error_ != cudaSuccess) print_error_and_exit(#call, error_); \
  } while (0)

void launch(Kernel kernel, float* out, const float* in, int width, int height) {
  const dim3 grid((width + 31) / 32, (height + 31) / 32);
  kernel<<<grid, dim3(32, 8)>>>(out, in, width, height);
}

int probe() {
  int count = 0;
  const cudaError_t error = cudaGetDeviceCount(&count);
  harness::Json j;
  j.open('{').key("backend").value(std::string("gpu"));
  j.key("devices").value(static_cast<long long>(error == cudaSuccess ? count : 0));
  if (error != cudaSuccess) j.key("error").value(std::string(cudaGetErrorString(error)));
  if (error == cudaSuccess && count > 0) {
    cudaDeviceProp prop{};
    cudaGetDeviceProperties(&prop, 0);
    j.key("name").value(std::string(prop.name));
    j.key("compute_capability").value(std::to_string(prop.major) + "." + std::to_string(prop.minor));
  }
  j.close('}');
  std::printf("%s\n", j.str().c_str());
  return 0;
}

int run(const std::vector<harness::Shape>& shapes, std::uint64_t seed) {
  harness::Json j;
  j.open('{').key("backend").value(std::string("gpu")).key("seed").value(static_cast<long long>(seed));
  j.key("runs").open('[');
  for (const harness::Shape s : shapes) {
    const std::vector<float> in = harness::make_input(s, seed);
    const std::size_t bytes = in.size() * sizeof(float);
    float *d_in = nullptr, *d_out = nullptr;
    RUNNER_CHECK(cudaMalloc(&d_in, bytes));
    RUNNER_CHECK(cudaMalloc(&d_out, bytes));
    RUNNER_CHECK(cudaMemcpy(d_in, in.data(), bytes, cudaMemcpyHostToDevice));
    RUNNER_CHECK(cudaMemset(d_out, harness::kPoisonByte, bytes));
    launch(transpose_padded, d_out, d_in, s.width, s.height);
    cudaError_t error = cudaGetLastError();
    if (error == cudaSuccess) error = cudaDeviceSynchronize();
    std::vector<float> out(in.size());
    if (error == cudaSuccess) error = cudaMemcpy(out.data(), d_out, bytes, cudaMemcpyDeviceToHost);
    j.open('{');
    if (error != cudaSuccess) {
      // A kernel fault poisons the context: report it and stop here.
      j.key("width").value(static_cast<long long>(s.width)).key("height").value(static_cast<long long>(s.height));
      j.key("error").value(std::string(cudaGetErrorString(error)));
      j.close('}').close(']').close('}');
      std::printf("%s\n", j.str().c_str());
      return 0;
    }
    harness::write_comparison(j, s, harness::compare(s, in, out.data()));
    j.close('}');
    cudaFree(d_in);
    cudaFree(d_out);
  }
  j.close(']').close('}');
  std::printf("%s\n", j.str().c_str());
  return 0;
}

// Median of `repeats` timed launches of each kernel, interleaved, after warm-up.
int time_kernels(int size, int repeats) {
  const std::size_t bytes = static_cast<std::size_t>(size) * size * sizeof(float);
  float *d_in = nullptr, *d_out = nullptr;
  RUNNER_CHECK(cudaMalloc(&d_in, bytes));
  RUNNER_CHECK(cudaMalloc(&d_out, bytes));
  RUNNER_CHECK(cudaMemset(d_in, 0, bytes));
  const Kernel kernels[3] = {transpose_padded, solution_transpose_conflicted, solution_transpose_padded};
  const char* names[3] = {"student", "conflicted", "solution"};
  std::vector<float> times[3];
  cudaEvent_t start, stop;
  RUNNER_CHECK(cudaEventCreate(&start));
  RUNNER_CHECK(cudaEventCreate(&stop));
  for (int k = 0; k < 3; ++k) {
    for (int w = 0; w < 3; ++w) launch(kernels[k], d_out, d_in, size, size);
  }
  RUNNER_CHECK(cudaGetLastError());
  RUNNER_CHECK(cudaDeviceSynchronize());
  for (int r = 0; r < repeats; ++r) {
    for (int k = 0; k < 3; ++k) {
      RUNNER_CHECK(cudaEventRecord(start));
      launch(kernels[k], d_out, d_in, size, size);
      RUNNER_CHECK(cudaEventRecord(stop));
      RUNNER_CHECK(cudaEventSynchronize(stop));
      RUNNER_CHECK(cudaGetLastError());
      float ms = 0;
      RUNNER_CHECK(cudaEventElapsedTime(&ms, start, stop));
      times[k].push_back(ms);
    }
  }
  harness::Json j;
  j.open('{').key("backend").value(std::string("gpu")).key("size").value(static_cast<long long>(size));
  j.key("repeats").value(static_cast<long long>(repeats));
  for (int k = 0; k < 3; ++k) {
    std::sort(times[k].begin(), times[k].end());
    j.key(names[k]).value(static_cast<double>(times[k][times[k].size() / 2]));
  }
  j.close('}');
  std::printf("%s\n", j.str().c_str());
  return 0;
}

int ncu_target(int size) {
  const std::size_t bytes = static_cast<std::size_t>(size) * size * sizeof(float);
  float *d_in = nullptr, *d_out = nullptr;
  RUNNER_CHECK(cudaMalloc(&d_in, bytes));
  RUNNER_CHECK(cudaMalloc(&d_out, bytes));
  RUNNER_CHECK(cudaMemset(d_in, 0, bytes));
  launch(transpose_padded, d_out, d_in, size, size);
  RUNNER_CHECK(cudaGetLastError());
  RUNNER_CHECK(cudaDeviceSynchronize());
  std::printf("{\"backend\":\"gpu\",\"launched\":%d}\n", size);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string command = argc > 1 ? argv[1] : "";
  std::string shapes = "32x32";
  std::uint64_t seed = 1;
  int size = 8192, repeats = 20;
  for (int i = 2; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--shapes")
      shapes = argv[i + 1];
    else if (flag == "--seed")
      seed = std::strtoull(argv[i + 1], nullptr, 10);
    else if (flag == "--size")
      size = std::atoi(argv[i + 1]);
    else if (flag == "--repeats")
      repeats = std::max(1, std::atoi(argv[i + 1]));
  }
  if (command == "probe") return probe();
  if (command == "run") return run(harness::parse_shapes(shapes), seed);
  if (command == "time") return time_kernels(size, repeats);
  if (command == "ncu-target") return ncu_target(size);
  std::fprintf(
      stderr,
      "usage: runner probe | run --shapes WxH,... --seed N | time --size N --repeats R | ncu-target --size N\n");
  return 2;
}

// Stage-3 runner on a GPU. Prints one JSON object per command:
//   runner run --shapes 32x32,... --seed N correctness, poisoned outputs
//   runner time --size N --repeats R       median ms: student, conflicted, solution
//   runner ncu-target --size N             one launch of the student's kernel (for ncu)
//   runner answers                         the student's two predictions (null: none)
// The student's kernel comes from the implementation's file; the conflicted
// reference and the solution come from solutions/ (renamed at compile time).
#include <string>
#include <vector>

#include "gpu_runner.cuh"

__global__ void transpose_padded(float* out, const float* in, int width, int height);
__global__ void solution_transpose_padded(float* out, const float* in, int width, int height);
__global__ void solution_transpose_conflicted(float* out, const float* in, int width, int height);
// Weak: files written before the lab asked for predictions still link.
extern int predicted_wavefronts[] __attribute__((weak));

namespace {

int time_kernels(int size, int repeats) {
  const std::size_t bytes = static_cast<std::size_t>(size) * size * sizeof(float);
  float *d_in = nullptr, *d_out = nullptr;
  HARNESS_CUDA_CHECK(cudaMalloc(&d_in, bytes));
  HARNESS_CUDA_CHECK(cudaMalloc(&d_out, bytes));
  HARNESS_CUDA_CHECK(cudaMemset(d_in, 0, bytes));
  const harness::TransposeKernel kernels[3] = {transpose_padded, solution_transpose_conflicted,
                                               solution_transpose_padded};
  std::vector<std::function<void()>> launches;
  for (const auto kernel : kernels) launches.push_back([=] { harness::launch_transpose(kernel, d_out, d_in, size, size); });
  const std::vector<double> ms = harness::median_times(launches, repeats);
  harness::Json j;
  j.open('{').key("backend").value(std::string("gpu")).key("size").value(static_cast<long long>(size));
  j.key("repeats").value(static_cast<long long>(repeats));
  j.key("student").value(ms[0]).key("conflicted").value(ms[1]).key("solution").value(ms[2]);
  j.close('}');
  harness::emit_answer(j.str());
  return 0;
}

int ncu_target(int size) {
  const std::size_t bytes = static_cast<std::size_t>(size) * size * sizeof(float);
  float *d_in = nullptr, *d_out = nullptr;
  HARNESS_CUDA_CHECK(cudaMalloc(&d_in, bytes));
  HARNESS_CUDA_CHECK(cudaMalloc(&d_out, bytes));
  HARNESS_CUDA_CHECK(cudaMemset(d_in, 0, bytes));
  harness::launch_transpose(transpose_padded, d_out, d_in, size, size);
  HARNESS_CUDA_CHECK(cudaGetLastError());
  HARNESS_CUDA_CHECK(cudaDeviceSynchronize());
  harness::emit_answer("{\"backend\":\"gpu\",\"launched\":" + std::to_string(size) + "}");
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
  if (command == "run") return harness::run_transpose<std::uint32_t>(transpose_padded, harness::parse_shapes(shapes), seed);
  if (command == "time") return time_kernels(size, repeats);
  if (command == "ncu-target") return ncu_target(size);
  if (command == "answers") {
    const int* given = predicted_wavefronts;
    harness::emit_answer(given == nullptr ? std::string("{\"backend\":\"gpu\",\"predictions\":null}")
                                          : "{\"backend\":\"gpu\",\"predictions\":[" + std::to_string(given[0]) +
                                                "," + std::to_string(given[1]) + "]}");
    return 0;
  }
  std::fprintf(stderr,
               "usage: runner run --shapes WxH,... --seed N | time --size N --repeats R | ncu-target --size N | "
               "answers\n");
  return 2;
}

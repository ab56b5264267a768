// Stage-5 runner on a GPU. Prints one JSON object per command:
//   runner run --task poly|quads --shapes N,... --seed S     correctness, outputs poisoned first
//   runner run --task double|half --shapes WxH,... --seed S
//   runner time --task T --repeats R     median ms: student, conflicted reference, solution
//                                        (sum_quads: 16 read passes)
//   runner cycles                        the prediction patterns measured with the cycle probe
//   runner ncu-target --task T --size N  one launch of the student's kernel (for ncu)
//   runner answers                       the student's predictions
// The conflicted references and the solution come from solutions/05 (renamed
// at compile time).
#include <cuda_fp16.h>

#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "cycle_probe.hpp"
#include "gpu_runner.cuh"
#include "student_api.hpp"

__global__ void solution_poly_eval_per_lane(float* out, const float* x, const float* coefficients, int n);
__global__ void solution_poly_eval(float* out, const float* x, const float* coefficients, int n);
__global__ void solution_transpose_double_conflicted(double* out, const double* in, int width, int height);
__global__ void solution_transpose_double(double* out, const double* in, int width, int height);
__global__ void solution_transpose_half_conflicted(half* out, const half* in, int width, int height);
__global__ void solution_transpose_half(half* out, const half* in, int width, int height);
__global__ void solution_sum_quads_scalar(float* out, const float* in, int n_quads, int passes);
__global__ void solution_sum_quads(float* out, const float* in, int n_quads, int passes);

namespace {

using PolyKernel = void (*)(float*, const float*, const float*, int);
using QuadKernel = void (*)(float*, const float*, int, int);

// Sizes of the timed runs: about 64-256 MiB of traffic each.
constexpr int kPolyTimingN = 1 << 24;
constexpr int kQuadTimingN = 1 << 24;
constexpr int kDoubleTimingSize = 4096;
constexpr int kHalfTimingSize = 8192;
// sum_quads reads each quad this many times in the timed runs, so that its
// time depends on its shared loads rather than on global memory.
constexpr int kQuadTimingPasses = 16;

void launch_poly(PolyKernel k, float* out, const float* x, const float* c, int n) {
  k<<<(n + lab05::kPolyThreads - 1) / lab05::kPolyThreads, lab05::kPolyThreads>>>(out, x, c, n);
}
void launch_quads(QuadKernel k, float* out, const float* in, int n, int passes) {
  k<<<(n + lab05::kQuadThreads - 1) / lab05::kQuadThreads, lab05::kQuadThreads>>>(out, in, n, passes);
}

int run_1d(const std::string& task, const std::string& shapes, std::uint64_t seed) {
  const bool poly = task == "poly";
  harness::Json j;
  j.open('{').key("backend").value(std::string("gpu")).key("runs").open('[');
  std::stringstream list(shapes);
  std::string item;
  while (std::getline(list, item, ',')) {
    int n = 0, passes = 0;
    if (!lab05::task_run(poly, item.c_str(), &n, &passes)) {
      std::fprintf(stderr, "runner: bad %s run '%s' (expected N%s)\n", task.c_str(), item.c_str(),
                   poly ? "" : " or N:PASSES");
      return 2;
    }
    const std::vector<float> c = lab05::poly_coefficients(seed);
    const std::vector<float> in = lab05::task_input(poly, n, seed);
    const std::size_t out_floats = poly ? in.size() : in.size() / 4;
    float *d_in = nullptr, *d_out = nullptr, *d_c = nullptr;
    HARNESS_CUDA_CHECK(cudaMalloc(&d_in, in.size() * sizeof(float)));
    HARNESS_CUDA_CHECK(cudaMalloc(&d_out, out_floats * sizeof(float)));
    HARNESS_CUDA_CHECK(cudaMalloc(&d_c, c.size() * sizeof(float)));
    HARNESS_CUDA_CHECK(cudaMemcpy(d_in, in.data(), in.size() * sizeof(float), cudaMemcpyHostToDevice));
    HARNESS_CUDA_CHECK(cudaMemcpy(d_c, c.data(), c.size() * sizeof(float), cudaMemcpyHostToDevice));
    HARNESS_CUDA_CHECK(cudaMemset(d_out, harness::kPoisonByte, out_floats * sizeof(float)));
    if (poly) launch_poly(poly_eval, d_out, d_in, d_c, n);
    else launch_quads(sum_quads, d_out, d_in, n, passes);
    cudaError_t error = cudaGetLastError();
    if (error == cudaSuccess) error = cudaDeviceSynchronize();
    std::vector<float> got(out_floats);
    if (error == cudaSuccess)
      error = cudaMemcpy(got.data(), d_out, got.size() * sizeof(float), cudaMemcpyDeviceToHost);
    const std::string label =
        poly || passes == lab05::kQuadPasses ? std::to_string(n) : std::to_string(n) + ":" + std::to_string(passes);
    j.open('{').key("shape").value(label);
    if (error != cudaSuccess) {
      j.key("error").value(std::string(cudaGetErrorString(error)));
      j.close('}').close(']').close('}');
      harness::emit_answer(j.str());
      return 0;
    }
    // The output as it is: the grader compares it with its own reference (task_data.hpp).
    j.key("output").value(harness::output_blob(got.data(), out_floats * sizeof(float)));
    j.close('}');
    cudaFree(d_in);
    cudaFree(d_out);
    cudaFree(d_c);
  }
  j.close(']').close('}');
  harness::emit_answer(j.str());
  return 0;
}

int time_task(const std::string& task, int repeats) {
  std::vector<std::function<void()>> launches;
  void *a = nullptr, *b = nullptr, *c = nullptr;
  std::size_t in_bytes = 0, out_bytes = 0;
  if (task == "poly") in_bytes = out_bytes = kPolyTimingN * sizeof(float);
  if (task == "quads") out_bytes = kQuadTimingN * sizeof(float), in_bytes = 4 * out_bytes;
  if (task == "double") in_bytes = out_bytes = std::size_t{kDoubleTimingSize} * kDoubleTimingSize * sizeof(double);
  if (task == "half") in_bytes = out_bytes = std::size_t{kHalfTimingSize} * kHalfTimingSize * sizeof(half);
  HARNESS_CUDA_CHECK(cudaMalloc(&a, out_bytes));
  HARNESS_CUDA_CHECK(cudaMalloc(&b, in_bytes));
  HARNESS_CUDA_CHECK(cudaMalloc(&c, 64));
  HARNESS_CUDA_CHECK(cudaMemset(b, 0, in_bytes));
  HARNESS_CUDA_CHECK(cudaMemset(c, 0, 64));
  auto* fo = static_cast<float*>(a);
  auto* fi = static_cast<const float*>(b);
  auto* fc = static_cast<const float*>(c);
  if (task == "poly") {
    for (PolyKernel k : {PolyKernel(poly_eval), PolyKernel(solution_poly_eval_per_lane), PolyKernel(solution_poly_eval)})
      launches.push_back([=] { launch_poly(k, fo, fi, fc, kPolyTimingN); });
  } else if (task == "quads") {
    for (QuadKernel k : {QuadKernel(sum_quads), QuadKernel(solution_sum_quads_scalar), QuadKernel(solution_sum_quads)})
      launches.push_back([=] { launch_quads(k, fo, fi, kQuadTimingN, kQuadTimingPasses); });
  } else if (task == "double") {
    using K = void (*)(double*, const double*, int, int);
    for (K k : {K(transpose_double), K(solution_transpose_double_conflicted), K(solution_transpose_double)}) {
      launches.push_back([=] {
        harness::launch_transpose(k, static_cast<double*>(a), static_cast<const double*>(b), kDoubleTimingSize,
                                  kDoubleTimingSize);
      });
    }
  } else {
    using K = void (*)(half*, const half*, int, int);
    for (K k : {K(transpose_half), K(solution_transpose_half_conflicted), K(solution_transpose_half)}) {
      launches.push_back([=] {
        harness::launch_transpose(k, static_cast<half*>(a), static_cast<const half*>(b), kHalfTimingSize,
                                  kHalfTimingSize, lab05::kHalfTile, dim3(lab05::kHalfTile, lab05::kHalfRows));
      });
    }
  }
  const std::vector<double> ms = harness::median_times(launches, repeats);
  harness::Json j;
  j.open('{').key("backend").value(std::string("gpu")).key("task").value(task);
  j.key("student").value(ms[0]).key("conflicted").value(ms[1]).key("solution").value(ms[2]).close('}');
  harness::emit_answer(j.str());
  return 0;
}

int cycles() {
  harness::Json j;
  j.open('{').key("backend").value(std::string("gpu")).key("patterns").open('[');
  for (int p = 0; p < lab05::kPredictions; ++p) {
    long long offsets[32];
    for (int lane = 0; lane < 32; ++lane) offsets[lane] = lab05::pattern_offset(p, lane);
    const auto m = banklab::gpu::measure_cycles(lab05::kPatterns[p].width_bytes, lab05::kPatterns[p].store, offsets);
    j.open('{').key("id").value(std::string(lab05::kPatterns[p].id));
    if (!m.ok) {
      j.key("error").value(m.error);
    } else {
      j.key("cycles").value(m.cycles).key("cycles_per_wavefront").value(m.cycles_per_wavefront);
      j.key("load_floor_cycles").value(m.load_floor_cycles);
    }
    j.close('}');
  }
  j.close(']').close('}');
  harness::emit_answer(j.str());
  return 0;
}

int ncu_target(const std::string& task, int size) {
  void *a = nullptr, *b = nullptr, *c = nullptr;
  const std::size_t n = static_cast<std::size_t>(size);
  const std::size_t bytes = task == "poly" ? 4 * n : task == "quads" ? 16 * n : task == "double" ? 8 * n * n : 2 * n * n;
  HARNESS_CUDA_CHECK(cudaMalloc(&a, bytes));
  HARNESS_CUDA_CHECK(cudaMalloc(&b, bytes));
  HARNESS_CUDA_CHECK(cudaMalloc(&c, 64));
  HARNESS_CUDA_CHECK(cudaMemset(b, 0, bytes));
  HARNESS_CUDA_CHECK(cudaMemset(c, 0, 64));
  if (task == "poly") launch_poly(poly_eval, static_cast<float*>(a), static_cast<float*>(b), static_cast<float*>(c), size);
  if (task == "quads") launch_quads(sum_quads, static_cast<float*>(a), static_cast<float*>(b), size, lab05::kQuadPasses);
  if (task == "double")
    harness::launch_transpose(transpose_double, static_cast<double*>(a), static_cast<const double*>(b), size, size);
  if (task == "half") {
    harness::launch_transpose(transpose_half, static_cast<half*>(a), static_cast<const half*>(b), size, size,
                              lab05::kHalfTile, dim3(lab05::kHalfTile, lab05::kHalfRows));
  }
  HARNESS_CUDA_CHECK(cudaGetLastError());
  HARNESS_CUDA_CHECK(cudaDeviceSynchronize());
  harness::emit_answer("{\"backend\":\"gpu\",\"launched\":\"" + task + "\"}");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string command = argc > 1 ? argv[1] : "";
  std::string task, shapes = "1";
  std::uint64_t seed = 1;
  int size = 256, repeats = 20;
  for (int i = 2; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--task") task = argv[i + 1];
    if (flag == "--shapes") shapes = argv[i + 1];
    if (flag == "--seed") seed = std::strtoull(argv[i + 1], nullptr, 10);
    if (flag == "--size") size = std::max(1, std::atoi(argv[i + 1]));
    if (flag == "--repeats") repeats = std::max(1, std::atoi(argv[i + 1]));
  }
  const bool known = task == "poly" || task == "quads" || task == "double" || task == "half";
  if (command == "run" && (task == "poly" || task == "quads")) return run_1d(task, shapes, seed);
  if (command == "run" && task == "double")
    return harness::run_transpose<std::uint64_t>(transpose_double, harness::parse_shapes(shapes), seed);
  if (command == "run" && task == "half") {
    return harness::run_transpose<std::uint16_t>(transpose_half, harness::parse_shapes(shapes), seed, lab05::kHalfTile,
                                                 dim3(lab05::kHalfTile, lab05::kHalfRows));
  }
  if (command == "time" && known) return time_task(task, repeats);
  if (command == "cycles") return cycles();
  if (command == "ncu-target" && known) return ncu_target(task, size);
  if (command == "answers") {
    std::string answer = "{\"backend\":\"gpu\",\"predictions\":[";
    for (int i = 0; i < lab05::kPredictions; ++i) answer += (i ? "," : "") + std::to_string(predicted_wavefronts[i]);
    harness::emit_answer(answer + "]}");
    return 0;
  }
  std::fprintf(stderr,
               "usage: runner run|time|ncu-target --task poly|quads|double|half [--shapes S --seed N | --repeats R | "
               "--size N] | cycles | answers\n");
  return 2;
}

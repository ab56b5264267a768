// Stage-2 runner on a GPU. Prints one JSON object per command:
//   runner degree                 conflict_degree beside the cycle probe's measurement of the same strides
//   runner run --task T --shapes S --seed N   raw outputs on the GPU (poisoned first), for the grader to compare
//   runner time --task T --repeats R          median ms: the student's kernel and the conflicted reference
//   runner answers                the student's predictions
// The conflicted references come from solutions/ (renamed at compile time).
#include <algorithm>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "cycle_probe.hpp"
#include "json_writer.hpp"
#include "student_api.hpp"
#include "transpose_harness.hpp"

__global__ void solution_row_sums_unpadded(float* sums, const float* in, int rows);
__global__ void solution_neighbour_distances_aos(float* out, const Particle* in, int n);
__global__ void solution_transpose16_unpadded(float* out, const float* in, int width, int height);

namespace {

// (stride, active lanes) pairs measured on the GPU: strides 1 to 32, a
// broadcast, odd strides and partial warps.
constexpr int kDegreeCases[][2] = {{1, 32}, {2, 32},  {4, 32}, {8, 32},  {16, 32}, {32, 32}, {0, 32},
                                   {3, 32}, {33, 32}, {6, 20}, {32, 8},  {64, 12}, {2, 16}, {48, 32}};

std::string error_json(const std::string& what, cudaError_t error) {
  harness::Json j;
  j.open('{').key("backend").value(std::string("gpu")).key("error").value(what + ": " + cudaGetErrorString(error));
  j.close('}');
  return j.str();
}

int degree() {
  harness::Json j;
  j.open('{').key("backend").value(std::string("gpu")).key("cases").open('[');
  for (const auto& c : kDegreeCases) {
    long long offsets[32];
    for (int lane = 0; lane < 32; ++lane) offsets[lane] = lane < c[1] ? 4LL * c[0] * lane : -1;
    const auto m = banklab::gpu::measure_cycles(4, false, offsets);
    j.open('{').key("stride").value(static_cast<long long>(c[0])).key("lanes").value(static_cast<long long>(c[1]));
    j.key("yours").value(static_cast<long long>(conflict_degree(c[0], c[1])));
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

// One launch of a task's kernel (the student's, or the conflicted reference).
void launch(const std::string& task, bool reference, float* out, const float* in, int a, int b) {
  if (task == "transpose16") {
    const dim3 grid((a + 15) / 16, (b + 15) / 16), block(16, 16);
    if (reference) solution_transpose16_unpadded<<<grid, block>>>(out, in, a, b);
    else transpose16<<<grid, block>>>(out, in, a, b);
  } else if (task == "rows") {
    const int blocks = (a + lab02::kRowsPerBlock - 1) / lab02::kRowsPerBlock;
    if (reference) solution_row_sums_unpadded<<<blocks, lab02::kRowsPerBlock>>>(out, in, a);
    else row_sums<<<blocks, lab02::kRowsPerBlock>>>(out, in, a);
  } else {
    const int blocks = (a + lab02::kParticlesPerBlock - 1) / lab02::kParticlesPerBlock;
    const auto* particles = reinterpret_cast<const Particle*>(in);
    if (reference) solution_neighbour_distances_aos<<<blocks, lab02::kParticlesPerBlock>>>(out, particles, a);
    else neighbour_distances<<<blocks, lab02::kParticlesPerBlock>>>(out, particles, a);
  }
}

int run(const std::string& task, const std::string& shapes, std::uint64_t seed) {
  harness::Json j;
  j.open('{').key("backend").value(std::string("gpu")).key("runs").open('[');
  std::stringstream list(shapes);
  std::string shape;
  while (std::getline(list, shape, ',')) {
    std::vector<float> in;
    std::size_t out_floats = 0;
    int a = 0, b = 0;
    harness::Shape s{};
    if (task == "transpose16") {
      s = harness::parse_shapes(shape)[0];
      in = harness::make_input(s, seed);
      a = s.width;
      b = s.height;
      out_floats = in.size();
    } else {
      a = std::atoi(shape.c_str());
      in = lab02::task_input(task, a, seed);
      out_floats = lab02::output_floats(task, a);
    }
    float *d_in = nullptr, *d_out = nullptr;
    const std::size_t out_bytes = std::max<std::size_t>(1, out_floats) * sizeof(float);
    cudaError_t error = cudaMalloc(&d_in, in.size() * sizeof(float));
    if (error == cudaSuccess) error = cudaMalloc(&d_out, out_bytes);
    if (error == cudaSuccess) error = cudaMemcpy(d_in, in.data(), in.size() * sizeof(float), cudaMemcpyHostToDevice);
    if (error == cudaSuccess) error = cudaMemset(d_out, harness::kPoisonByte, out_bytes);
    if (error == cudaSuccess) {
      launch(task, false, d_out, d_in, a, b);
      error = cudaGetLastError();
    }
    if (error == cudaSuccess) error = cudaDeviceSynchronize();
    std::vector<float> got(out_floats);
    if (error == cudaSuccess)
      error = cudaMemcpy(got.data(), d_out, got.size() * sizeof(float), cudaMemcpyDeviceToHost);
    j.open('{').key("shape").value(shape);
    if (error != cudaSuccess) {
      j.key("error").value(std::string(cudaGetErrorString(error))).close('}').close(']').close('}');
      harness::emit_answer(j.str());
      return 0;  // a kernel fault poisons the context: stop here
    }
    // The output as it is: the grader compares it with its own reference (task_data.hpp, or the transpose).
    if (task == "transpose16") {
      j.key("width").value(static_cast<long long>(s.width)).key("height").value(static_cast<long long>(s.height));
      j.key("element_bytes").value(4LL);
    }
    j.key("output").value(harness::output_blob(got.data(), got.size() * sizeof(float)));
    j.close('}');
    cudaFree(d_in);
    cudaFree(d_out);
  }
  j.close(']').close('}');
  harness::emit_answer(j.str());
  return 0;
}

// Median of `repeats` interleaved timed launches of both kernels, after warm-up.
int time_task(const std::string& task, int repeats) {
  const int a = task == "transpose16" ? 8192 : task == "rows" ? (1 << 20) : (1 << 24);
  const int b = task == "transpose16" ? 8192 : 0;
  const std::size_t in_floats = task == "transpose16" ? std::size_t(a) * b
                                : task == "rows"      ? std::size_t(a) * lab02::kColumns
                                                      : std::size_t(a) * 4;
  const std::size_t out_floats = task == "transpose16" ? in_floats : std::size_t(a);
  float *d_in = nullptr, *d_out = nullptr;
  cudaError_t error = cudaMalloc(&d_in, in_floats * sizeof(float));
  if (error == cudaSuccess) error = cudaMalloc(&d_out, out_floats * sizeof(float));
  if (error == cudaSuccess) error = cudaMemset(d_in, 0, in_floats * sizeof(float));
  cudaEvent_t start, stop;
  if (error == cudaSuccess) error = cudaEventCreate(&start);
  if (error == cudaSuccess) error = cudaEventCreate(&stop);
  for (int w = 0; w < 3 && error == cudaSuccess; ++w) {
    launch(task, false, d_out, d_in, a, b);
    launch(task, true, d_out, d_in, a, b);
    error = cudaDeviceSynchronize();
  }
  std::vector<float> times[2];
  for (int r = 0; r < repeats && error == cudaSuccess; ++r) {
    for (int k = 0; k < 2 && error == cudaSuccess; ++k) {
      cudaEventRecord(start);
      launch(task, k == 1, d_out, d_in, a, b);
      cudaEventRecord(stop);
      error = cudaEventSynchronize(stop);
      if (error == cudaSuccess) error = cudaGetLastError();
      float ms = 0;
      if (error == cudaSuccess) error = cudaEventElapsedTime(&ms, start, stop);
      times[k].push_back(ms);
    }
  }
  if (error != cudaSuccess) {
    harness::emit_answer(error_json("timing " + task, error));
    return 3;
  }
  harness::Json j;
  j.open('{').key("backend").value(std::string("gpu")).key("task").value(task);
  j.key("repeats").value(static_cast<long long>(repeats));
  for (int k = 0; k < 2; ++k) {
    std::sort(times[k].begin(), times[k].end());
    j.key(k == 0 ? "student" : "conflicted").value(static_cast<double>(times[k][times[k].size() / 2]));
  }
  j.close('}');
  harness::emit_answer(j.str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string command = argc > 1 ? argv[1] : "";
  std::string task, shapes;
  std::uint64_t seed = 1;
  int repeats = 20;
  for (int i = 2; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--task") task = argv[i + 1];
    if (flag == "--shapes") shapes = argv[i + 1];
    if (flag == "--seed") seed = std::strtoull(argv[i + 1], nullptr, 10);
    if (flag == "--repeats") repeats = std::max(1, std::atoi(argv[i + 1]));
  }
  const bool known_task = task == "rows" || task == "particles" || task == "transpose16";
  if (command == "degree") return degree();
  if (command == "run" && known_task) return run(task, shapes, seed);
  if (command == "time" && known_task) return time_task(task, repeats);
  if (command == "answers") {
    harness::Json j;
    j.open('{').key("backend").value(std::string("gpu")).key("predictions").open('[');
    for (int i = 0; i < lab02::kPredictions; ++i) j.value(static_cast<long long>(predicted_wavefronts[i]));
    j.close(']').close('}');
    harness::emit_answer(j.str());
    return 0;
  }
  std::fprintf(stderr, "usage: runner degree | run --task T --shapes S --seed N | time --task T | answers\n");
  return 2;
}

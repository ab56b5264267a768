// Stage-6 runner on a GPU. Prints one JSON object per command:
//   runner run --task T --shapes S,... --seed N        correctness, outputs poisoned first
//   runner time --task T --repeats R                   median ms: student, conflicted (the shipped kernel)
//   runner ncu-target --task T --shapes S --seed N     one launch of the student's kernel on the run's input (for ncu)
//   runner answers                                     the diagnosis
// T is reduce, scan, gemm, histogram or stencil; a run is task_data.hpp's
// "N", "MxNxK" or "WxH". The conflicted kernels are the shipped ones,
// labs/06-capstone/original.cu, compiled here in namespace `original`.
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "gpu_runner.cuh"
#include "student_api.hpp"

namespace original {
#include "original.cu"
}

namespace {

// The timed runs: large enough that each launch takes about a millisecond or
// more on an H100 (histogram: the largest run whose every value is random).
lab06::Run timing_run(lab06::Task task) {
  lab06::Run run;
  run.task = task;
  switch (task) {
    case lab06::Task::kReduce: run.dims[0] = 1 << 24; break;
    case lab06::Task::kScan: run.dims[0] = 1 << 24; break;
    case lab06::Task::kGemm: run.dims[0] = run.dims[1] = run.dims[2] = 1024; break;
    case lab06::Task::kHistogram: run.dims[0] = 1 << 24; break;
    case lab06::Task::kStencil: run.dims[0] = run.dims[1] = 4096; break;
  }
  return run;
}

template <class T>
T* to_device(const std::vector<T>& host) {
  T* device = nullptr;
  HARNESS_CUDA_CHECK(cudaMalloc(&device, host.size() * sizeof(T)));
  HARNESS_CUDA_CHECK(cudaMemcpy(device, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  return device;
}

int blocks(int count, int per_block) { return (count + per_block - 1) / per_block; }

/// A run's device buffers: its seeded inputs and its poisoned output.
struct Buffers {
  std::vector<void*> inputs;
  void* out = nullptr;
  std::size_t out_bytes = 0;

  Buffers(const lab06::Run& run, std::uint64_t seed) {
    const int* d = run.dims;
    switch (run.task) {
      case lab06::Task::kReduce:
        inputs = {to_device(lab06::reduce_input(d[0], seed))};
        out_bytes = blocks(d[0], lab06::kReduceThreads) * sizeof(int);
        break;
      case lab06::Task::kScan:
        inputs = {to_device(lab06::scan_input(d[0], seed))};
        out_bytes = std::size_t{4} * d[0];
        break;
      case lab06::Task::kGemm:
        inputs = {to_device(lab06::gemm_a(d[0], d[2], seed)), to_device(lab06::gemm_b(d[2], d[1], seed))};
        out_bytes = std::size_t{4} * d[0] * d[1];
        break;
      case lab06::Task::kHistogram:
        inputs = {to_device(lab06::histogram_input(d[0], seed))};
        out_bytes = std::size_t{4} * blocks(d[0], lab06::kHistChunk) * lab06::kHistBins;
        break;
      case lab06::Task::kStencil:
        inputs = {to_device(lab06::stencil_input(d[0], d[1], seed))};
        out_bytes = std::size_t{4} * d[0] * d[1];
        break;
    }
    HARNESS_CUDA_CHECK(cudaMalloc(&out, out_bytes));
    HARNESS_CUDA_CHECK(cudaMemset(out, harness::kPoisonByte, out_bytes));
  }
  ~Buffers() {
    for (void* p : inputs) cudaFree(p);
    cudaFree(out);
  }
  Buffers(const Buffers&) = delete;
  Buffers& operator=(const Buffers&) = delete;
};

/// Launches the student's kernel (or the shipped one) on the run's buffers.
void launch(const lab06::Run& run, const Buffers& b, bool shipped) {
  const int* d = run.dims;
  auto* in_i = static_cast<const int*>(b.inputs[0]);
  switch (run.task) {
    case lab06::Task::kReduce: {
      auto k = shipped ? original::reduce_sum : reduce_sum;
      k<<<blocks(d[0], lab06::kReduceThreads), lab06::kReduceThreads>>>(static_cast<int*>(b.out), in_i, d[0]);
      break;
    }
    case lab06::Task::kScan: {
      auto k = shipped ? original::scan_segments : scan_segments;
      k<<<blocks(d[0], lab06::kScanSegment), lab06::kScanThreads>>>(static_cast<int*>(b.out), in_i, d[0]);
      break;
    }
    case lab06::Task::kGemm: {
      auto k = shipped ? original::gemm_tiled : gemm_tiled;
      const dim3 grid(blocks(d[1], lab06::kGemmTile), blocks(d[0], lab06::kGemmTile));
      k<<<grid, dim3(lab06::kGemmTile, lab06::kGemmRows)>>>(static_cast<float*>(b.out),
                                                            static_cast<const float*>(b.inputs[0]),
                                                            static_cast<const float*>(b.inputs[1]), d[0], d[1], d[2]);
      break;
    }
    case lab06::Task::kHistogram: {
      auto k = shipped ? original::histogram32 : histogram32;
      k<<<blocks(d[0], lab06::kHistChunk), lab06::kHistThreads>>>(static_cast<unsigned*>(b.out),
                                                                  static_cast<const unsigned*>(b.inputs[0]), d[0]);
      break;
    }
    case lab06::Task::kStencil: {
      auto k = shipped ? original::stencil_cross : stencil_cross;
      const dim3 grid(blocks(d[0], lab06::kStencilX), blocks(d[1], lab06::kStencilY));
      k<<<grid, dim3(lab06::kStencilX, lab06::kStencilY)>>>(static_cast<int*>(b.out), in_i, d[0], d[1]);
      break;
    }
  }
}

bool parse(lab06::Task task, const std::string& item, lab06::Run* run) {
  if (lab06::parse_run(task, item.c_str(), run)) return true;
  std::fprintf(stderr, "runner: bad run '%s' (expected N, MxNxK for gemm or WxH for stencil)\n", item.c_str());
  return false;
}

int run_all(lab06::Task task, const std::string& shapes, std::uint64_t seed) {
  harness::Json j;
  j.open('{').key("backend").value(std::string("gpu")).key("runs").open('[');
  std::stringstream list(shapes);
  std::string item;
  while (std::getline(list, item, ',')) {
    lab06::Run run;
    if (!parse(task, item, &run)) return 2;
    const Buffers b(run, seed);
    launch(run, b, false);
    cudaError_t error = cudaGetLastError();
    if (error == cudaSuccess) error = cudaDeviceSynchronize();
    std::vector<unsigned char> got(b.out_bytes);
    if (error == cudaSuccess) error = cudaMemcpy(got.data(), b.out, got.size(), cudaMemcpyDeviceToHost);
    j.open('{').key("shape").value(lab06::label(run));
    if (error != cudaSuccess) {  // a fault poisons the context: the runs stop here
      j.key("error").value(std::string(cudaGetErrorString(error))).close('}').close(']').close('}');
      harness::emit_answer(j.str());
      return 0;
    }
    // The output as it is: the grader compares it with its own reference (task_data.hpp).
    j.key("output").value(harness::output_blob(got.data(), got.size())).close('}');
  }
  j.close(']').close('}');
  harness::emit_answer(j.str());
  return 0;
}

int time_task(lab06::Task task, int repeats) {
  const lab06::Run run = timing_run(task);
  const Buffers b(run, 1);
  const std::vector<double> ms =
      harness::median_times({[&] { launch(run, b, false); }, [&] { launch(run, b, true); }}, repeats);
  harness::Json j;
  j.open('{').key("backend").value(std::string("gpu")).key("run").value(lab06::label(run));
  j.key("student").value(ms[0]).key("conflicted").value(ms[1]).close('}');
  harness::emit_answer(j.str());
  return 0;
}

int ncu_target(lab06::Task task, const std::string& shape, std::uint64_t seed) {
  lab06::Run run;
  if (!parse(task, shape, &run)) return 2;
  const Buffers b(run, seed);
  launch(run, b, false);
  HARNESS_CUDA_CHECK(cudaGetLastError());
  HARNESS_CUDA_CHECK(cudaDeviceSynchronize());
  harness::emit_answer("{\"backend\":\"gpu\",\"launched\":\"" + lab06::label(run) + "\"}");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string command = argc > 1 ? argv[1] : "";
  std::string task_id, shapes = "1";
  std::uint64_t seed = 1;
  int repeats = 20;
  for (int i = 2; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--task") task_id = argv[i + 1];
    if (flag == "--shapes") shapes = argv[i + 1];
    if (flag == "--seed") seed = std::strtoull(argv[i + 1], nullptr, 10);
    if (flag == "--repeats") repeats = std::max(1, std::atoi(argv[i + 1]));
  }
  lab06::Task task{};
  const bool known = lab06::task_of(task_id, &task);
  if (command == "run" && known) return run_all(task, shapes, seed);
  if (command == "time" && known) return time_task(task, repeats);
  if (command == "ncu-target" && known) return ncu_target(task, shapes, seed);
  if (command == "answers") {
    std::string answer = "{\"backend\":\"gpu\",\"diagnosis\":[";
    for (int r = 0; r < lab06::kDiagnosisRows; ++r) {
      answer += std::string(r ? "," : "") + "[" + std::to_string(diagnosis[r][0]) + "," +
                std::to_string(diagnosis[r][1]) + "," + std::to_string(diagnosis[r][2]) + "]";
    }
    harness::emit_answer(answer + "]}");
    return 0;
  }
  std::fprintf(stderr,
               "usage: runner run|ncu-target --task reduce|scan|gemm|histogram|stencil --shapes S --seed N | time "
               "--task T --repeats R | answers\n");
  return 2;
}

// A stand-in for the GPU runner of stage 3, 4, 5 or 6 (test_fake_gpu.cpp), so
// that the GPU backend's checks are graded on a machine without a GPU: it
// answers the runner's commands as the real one does
// (grader/labs/lab0N/gpu_runner.cu), computing the right outputs on the host
// and reporting the median times (and, stage 5, the cycle-probe measurements)
// the test chose. It launches no kernel.
//
// The test puts, above this file, the lines
//   #define FAKE_GPU_STAGE 3 (or 4, or 5)
//   #define FAKE_TRANSPOSE_MS {student, conflicted, solution}  (stage 4: {student, conflicted, padded, solution})
//   #define FAKE_CHUNKS_MS {student, conflicted, solution}     (stage 4 only)
//   #define FAKE_POLY_MS, FAKE_QUADS_MS, FAKE_DOUBLE_MS, FAKE_HALF_MS {student, conflicted, solution}  (stage 5)
//   #define FAKE_CYCLES {cycles of P1, ..., P10}  (stage 5: one wavefront is 1 cycle, a load at least 1.388)
//   #define FAKE_STAGE6_MS {{student, conflicted} of reduce, scan, gemm, histogram, stencil}  (stage 6)
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "gpu_runner.cuh"
#if FAKE_GPU_STAGE == 4 || FAKE_GPU_STAGE == 5 || FAKE_GPU_STAGE == 6
#include "task_data.hpp"
#endif
#if FAKE_GPU_STAGE == 5
#include "predictions.hpp"
constexpr int kFakePredictions = lab05::kPredictions;
#else
constexpr int kFakePredictions = 2;
#endif

// Weak: files without predictions still link (as in the real runner).
extern int predicted_wavefronts[] __attribute__((weak));
#if FAKE_GPU_STAGE == 6
extern int diagnosis[20][3] __attribute__((weak));
#endif

namespace {

// The transpose a correct kernel writes, bit for bit: out (height x width).
template <typename Bits = std::uint32_t>
int run_transpose(const std::string& shapes, std::uint64_t seed) {
  harness::Json j;
  j.open('{').key("backend").value(std::string("gpu")).key("seed").value(static_cast<long long>(seed));
  j.key("runs").open('[');
  for (const harness::Shape s : harness::parse_shapes(shapes)) {
    const std::vector<Bits> in = harness::transpose_input<Bits>(s, seed);
    std::vector<Bits> out(in.size());
    for (int y = 0; y < s.height; ++y)
      for (int x = 0; x < s.width; ++x) out[static_cast<std::size_t>(x) * s.height + y] = in[static_cast<std::size_t>(y) * s.width + x];
    j.open('{').key("width").value(static_cast<long long>(s.width)).key("height").value(static_cast<long long>(s.height));
    j.key("element_bytes").value(static_cast<long long>(sizeof(Bits)));
    j.key("output").value(harness::output_blob(out.data(), out.size() * sizeof(Bits)));
    j.close('}');
  }
  j.close(']').close('}');
  harness::emit_answer(j.str());
  return 0;
}

void print_times(const char* task, const std::vector<const char*>& names, const std::vector<double>& ms) {
  harness::Json j;
  j.open('{').key("backend").value(std::string("gpu")).key("task").value(std::string(task));
  for (std::size_t k = 0; k < ms.size(); ++k) j.key(names[k]).value(ms[k]);
  j.close('}');
  harness::emit_answer(j.str());
}

#if FAKE_GPU_STAGE == 4
int run_chunks(const std::string& shapes, int passes, std::uint64_t seed) {
  harness::Json j;
  j.open('{').key("backend").value(std::string("gpu")).key("runs").open('[');
  std::stringstream list(shapes);
  std::string item;
  while (std::getline(list, item, ',')) {
    const int tiles = std::max(1, std::atoi(item.c_str()));
    const std::vector<float> out = lab04::expected_chunks(lab04::make_chunk_input(tiles, seed), tiles, passes);
    j.open('{').key("tiles").value(static_cast<long long>(tiles)).key("passes").value(static_cast<long long>(passes));
    j.key("output").value(harness::output_blob(out.data(), out.size() * sizeof(float)));
    j.close('}');
  }
  j.close(']').close('}');
  harness::emit_answer(j.str());
  return 0;
}
#endif

#if FAKE_GPU_STAGE == 5
// poly_eval's and sum_quads' right outputs, labelled as the real runner labels them.
int run_1d(const std::string& task, const std::string& shapes, std::uint64_t seed) {
  const bool poly = task == "poly";
  harness::Json j;
  j.open('{').key("backend").value(std::string("gpu")).key("runs").open('[');
  std::stringstream list(shapes);
  std::string item;
  while (std::getline(list, item, ',')) {
    int n = 0, passes = 0;
    if (!lab05::task_run(poly, item.c_str(), &n, &passes)) return 2;
    const std::vector<float> out = lab05::expected_output(poly, n, passes, seed);
    const std::string label =
        poly || passes == lab05::kQuadPasses ? std::to_string(n) : std::to_string(n) + ":" + std::to_string(passes);
    j.open('{').key("shape").value(label);
    j.key("output").value(harness::output_blob(out.data(), out.size() * sizeof(float)));
    j.close('}');
  }
  j.close(']').close('}');
  harness::emit_answer(j.str());
  return 0;
}

// The cycle probe's answer: the cycles the test chose, one wavefront 1 cycle,
// no load under 1.388 cycles (the H200's figures, tests/data/gpu/h200_cycle_probe.txt).
int cycles() {
  const std::vector<double> cycles = FAKE_CYCLES;
  harness::Json j;
  j.open('{').key("backend").value(std::string("gpu")).key("patterns").open('[');
  for (int p = 0; p < lab05::kPredictions; ++p) {
    j.open('{').key("id").value(std::string(lab05::kPatterns[p].id));
    j.key("cycles").value(cycles[static_cast<std::size_t>(p)]).key("cycles_per_wavefront").value(1.0);
    j.key("load_floor_cycles").value(1.388).close('}');
  }
  j.close(']').close('}');
  harness::emit_answer(j.str());
  return 0;
}
#endif

#if FAKE_GPU_STAGE == 6
// Each run's right output, labelled as the real runner labels it.
int run_stage6(lab06::Task task, const std::string& shapes, std::uint64_t seed) {
  harness::Json j;
  j.open('{').key("backend").value(std::string("gpu")).key("runs").open('[');
  std::stringstream list(shapes);
  std::string item;
  while (std::getline(list, item, ',')) {
    lab06::Run run;
    if (!lab06::parse_run(task, item.c_str(), &run)) return 2;
    const std::vector<unsigned char> out = lab06::expected_bytes(run, seed);
    j.open('{').key("shape").value(lab06::label(run));
    j.key("output").value(harness::output_blob(out.data(), out.size())).close('}');
  }
  j.close(']').close('}');
  harness::emit_answer(j.str());
  return 0;
}
#endif

}  // namespace

int main(int argc, char** argv) {
  const std::string command = argc > 1 ? argv[1] : "";
  std::string shapes = "32x32", task = "transpose";
  std::uint64_t seed = 1;
  int passes = 1;
  for (int i = 2; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--task") task = argv[i + 1];
    if (flag == "--shapes") shapes = argv[i + 1];
    if (flag == "--seed") seed = std::strtoull(argv[i + 1], nullptr, 10);
    if (flag == "--passes") passes = std::max(1, std::atoi(argv[i + 1]));
  }
#if FAKE_GPU_STAGE == 6
  lab06::Task stage6_task{};
  if (!lab06::task_of(task, &stage6_task) && command != "answers") return 2;
  if (command == "run") return run_stage6(stage6_task, shapes, seed);
  if (command == "time") {
    const double ms[5][2] = FAKE_STAGE6_MS;
    print_times(task.c_str(), {"student", "conflicted"},
                {ms[static_cast<int>(stage6_task)][0], ms[static_cast<int>(stage6_task)][1]});
    return 0;
  }
  if (command == "answers") {
    std::string answer = "{\"backend\":\"gpu\",\"diagnosis\":[";
    for (int r = 0; r < 20; ++r) {
      answer += std::string(r ? "," : "") + "[" + std::to_string(diagnosis[r][0]) + "," + std::to_string(diagnosis[r][1]) +
                "," + std::to_string(diagnosis[r][2]) + "]";
    }
    harness::emit_answer(answer + "]}");
    return 0;
  }
#elif FAKE_GPU_STAGE == 5
  if (command == "run" && (task == "poly" || task == "quads")) return run_1d(task, shapes, seed);
  if (command == "run" && task == "double") return run_transpose<std::uint64_t>(shapes, seed);
  if (command == "run" && task == "half") return run_transpose<std::uint16_t>(shapes, seed);
  if (command == "time") {
    const std::vector<const char*> names = {"student", "conflicted", "solution"};
    if (task == "poly") print_times("poly", names, FAKE_POLY_MS);
    if (task == "quads") print_times("quads", names, FAKE_QUADS_MS);
    if (task == "double") print_times("double", names, FAKE_DOUBLE_MS);
    if (task == "half") print_times("half", names, FAKE_HALF_MS);
    return 0;
  }
  if (command == "cycles") return cycles();
#else
#if FAKE_GPU_STAGE == 4
  if (command == "run" && task == "chunks") return run_chunks(shapes, passes, seed);
  if (command == "time" && task == "chunks") {
    print_times("chunks", {"student", "conflicted", "solution"}, FAKE_CHUNKS_MS);
    return 0;
  }
  const std::vector<const char*> names = {"student", "conflicted", "padded", "solution"};
#else
  const std::vector<const char*> names = {"student", "conflicted", "solution"};
#endif
  if (command == "run") return run_transpose(shapes, seed);
  if (command == "time") {
    print_times("transpose", names, FAKE_TRANSPOSE_MS);
    return 0;
  }
#endif
  if (command == "answers") {
    const int* given = predicted_wavefronts;
    std::string answer = "{\"backend\":\"gpu\",\"predictions\":";
    if (given == nullptr) answer += "null";
    for (int i = 0; given != nullptr && i < kFakePredictions; ++i) answer += (i ? "," : "[") + std::to_string(given[i]);
    harness::emit_answer(answer + (given == nullptr ? "}" : "]}"));
    return 0;
  }
  // ncu-target and anything else: this stand-in has no kernel to launch.
  std::fprintf(stderr, "a stand-in GPU runner: no %s here\n", command.c_str());
  return 2;
}

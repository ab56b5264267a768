// A stand-in for the GPU runner of stage 3 or 4 (test_fake_gpu.cpp), so that
// the GPU backend's checks are graded on a machine without a GPU: it answers
// the runner's commands as the real one does (grader/labs/lab03/gpu_runner.cu,
// grader/labs/lab04/gpu_runner.cu), computing the right outputs on the host
// and reporting the median times the test chose. It launches no kernel.
//
// The test puts, above this file, the lines
//   #define FAKE_GPU_STAGE 3 (or 4)
//   #define FAKE_TRANSPOSE_MS {student, conflicted, solution}  (stage 4: {student, conflicted, padded, solution})
//   #define FAKE_CHUNKS_MS {student, conflicted, solution}     (stage 4 only)
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "gpu_runner.cuh"
#if FAKE_GPU_STAGE == 4
#include "task_data.hpp"
#endif

// Weak: files without predictions still link (as in the real runner).
extern int predicted_wavefronts[] __attribute__((weak));

namespace {

// The transpose a correct kernel writes, bit for bit: out (height x width).
int run_transpose(const std::string& shapes, std::uint64_t seed) {
  harness::Json j;
  j.open('{').key("backend").value(std::string("gpu")).key("seed").value(static_cast<long long>(seed));
  j.key("runs").open('[');
  for (const harness::Shape s : harness::parse_shapes(shapes)) {
    const std::vector<std::uint32_t> in = harness::transpose_input<std::uint32_t>(s, seed);
    std::vector<std::uint32_t> out(in.size());
    for (int y = 0; y < s.height; ++y)
      for (int x = 0; x < s.width; ++x) out[static_cast<std::size_t>(x) * s.height + y] = in[static_cast<std::size_t>(y) * s.width + x];
    j.open('{').key("width").value(static_cast<long long>(s.width)).key("height").value(static_cast<long long>(s.height));
    j.key("element_bytes").value(static_cast<long long>(sizeof(std::uint32_t)));
    j.key("output").value(harness::output_blob(out.data(), out.size() * sizeof(std::uint32_t)));
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
  if (command == "answers") {
    const int* given = predicted_wavefronts;
    harness::emit_answer(given == nullptr ? std::string("{\"backend\":\"gpu\",\"predictions\":null}")
                                          : "{\"backend\":\"gpu\",\"predictions\":[" + std::to_string(given[0]) +
                                                "," + std::to_string(given[1]) + "]}");
    return 0;
  }
  // ncu-target and anything else: this stand-in has no kernel to launch.
  std::fprintf(stderr, "a stand-in GPU runner: no %s here\n", command.c_str());
  return 2;
}

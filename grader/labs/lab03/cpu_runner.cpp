// Stage-3 runner on the CPU emulator: runs the implementation's
// transpose_padded on the given shapes with seeded random input and poisoned
// output, and prints one JSON object: per shape, the comparison with the CPU
// reference and the emulator's report (findings, shared-memory lines).
//   runner run --shapes 32x32,31x33 --seed 7 [--block-rows R] [--time-limit SECONDS]
//     (R: the student's variant's rows per block, launched as block (32, R); default 8)
//   runner answers          the student's two predictions (null: the file has none)
#include <iostream>
#include <string>

#include "transpose_cpu.hpp"

// The implementation under test (the student's file, built for the emulator).
void transpose_padded(float* out, const float* in, int width, int height);
// Weak: files written before the lab asked for predictions still link.
extern int predicted_wavefronts[] __attribute__((weak));

int main(int argc, char** argv) {
  std::string command = argc > 1 ? argv[1] : "";
  std::string shapes_text;
  std::uint64_t seed = 1;
  double time_limit = 20;
  int block_rows = 8;
  for (int i = 2; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--shapes")
      shapes_text = argv[i + 1];
    else if (flag == "--seed")
      seed = std::strtoull(argv[i + 1], nullptr, 10);
    else if (flag == "--time-limit")
      time_limit = std::atof(argv[i + 1]);
    else if (flag == "--block-time-limit")
      harness::block_time_limit() = std::atof(argv[i + 1]);
    else if (flag == "--block-rows")
      block_rows = std::atoi(argv[i + 1]);
    else if (flag == "--sass")
      harness::read_nvcc_code(argv[i + 1]);
  }
  if (command == "answers") {
    nlohmann::json predictions = nullptr;
    const int* given = predicted_wavefronts;
    if (given != nullptr) predictions = {given[0], given[1]};
    harness::emit_answer(nlohmann::json{{"backend", "cpu"}, {"predictions", predictions}}.dump());
    return 0;
  }
  if (command != "run" || shapes_text.empty() || block_rows < 1 || 32 % block_rows != 0) {
    std::cerr << "usage: runner run --shapes WxH[,WxH...] --seed N [--block-rows R (divides 32)] [--time-limit SECONDS] [--sass NVDISASM_FILE] "
                 "| answers\n";
    return 2;
  }
  const nlohmann::json runs = harness::run_transpose_on_emulator<std::uint32_t>(
      transpose_padded, shapes_text, seed, time_limit, 32, dim3(32, static_cast<unsigned>(block_rows)));
  harness::emit_answer(nlohmann::json{{"backend", "cpu"}, {"seed", seed}, {"runs", runs}}.dump());
  return 0;
}

// Stage-5 runner on the CPU emulator. Prints one JSON object per command:
//   runner run --task poly|quads --shapes 1,200 --seed N [--time-limit S]   (shapes: element counts)
//   runner run --task double|half --shapes 32x32,31x33 --seed N [--time-limit S]
//          per shape the comparison with the CPU reference (outputs poisoned
//          first) and the emulator's report
//   runner answers        the student's predictions
#include <chrono>
#include <iostream>
#include <sstream>
#include <string>

#include "transpose_cpu.hpp"  // first: the emulator's CUDA types (half)
#include "student_api.hpp"

namespace {

int parse_count(const std::string& text) {
  char* end = nullptr;
  const long value = std::strtol(text.c_str(), &end, 10);
  if (end == text.c_str() || *end != '\0' || value < 1 || value > (1 << 24)) {
    std::cerr << "runner: bad count '" << text << "' (expected a whole number from 1 to 16777216)\n";
    std::exit(2);
  }
  return static_cast<int>(value);
}

// A 1-D task: the kernel's output against the reference, bit for bit.
nlohmann::json run_1d(const std::string& task, int n, std::uint64_t seed, double time_limit) {
  const bool poly = task == "poly";
  const std::vector<float> coefficients = lab05::poly_coefficients(seed);
  const std::vector<float> in = poly ? lab05::poly_points(n, seed) : lab05::quad_input(n, seed);
  const std::vector<float> expected = poly ? lab05::expected_poly(coefficients, in) : lab05::expected_quads(in, lab05::kQuadPasses);
  auto* d_in = static_cast<float*>(banklab::emu::device_malloc(in.size() * sizeof(float)));
  auto* d_out = static_cast<float*>(banklab::emu::device_malloc(expected.size() * sizeof(float)));
  auto* d_coef = static_cast<float*>(banklab::emu::device_malloc(coefficients.size() * sizeof(float)));
  std::memcpy(d_in, in.data(), in.size() * sizeof(float));
  std::memcpy(d_coef, coefficients.data(), coefficients.size() * sizeof(float));
  std::memset(d_out, harness::kPoisonByte, expected.size() * sizeof(float));
  banklab::emu::LaunchOptions options;
  options.time_limit_seconds = time_limit;
  const int threads = poly ? lab05::kPolyThreads : lab05::kQuadThreads;
  const dim3 grid((n + threads - 1) / threads);
  const auto report =
      poly ? banklab::emu::launch(options, grid, dim3(threads), poly_eval, d_out, static_cast<const float*>(d_in),
                                  static_cast<const float*>(d_coef), n)
           : banklab::emu::launch(options, grid, dim3(threads), sum_quads, d_out, static_cast<const float*>(d_in), n,
                                  lab05::kQuadPasses);
  nlohmann::json run = harness::float_comparison_json(expected, d_out);
  banklab::emu::device_free(d_in);
  banklab::emu::device_free(d_out);
  banklab::emu::device_free(d_coef);
  run["shape"] = std::to_string(n);
  run["report"] = banklab::emu::to_json(report);
  return run;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string command = argc > 1 ? argv[1] : "";
  std::string task, shapes;
  std::uint64_t seed = 1;
  double time_limit = 20;
  for (int i = 2; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--task") task = argv[i + 1];
    if (flag == "--shapes") shapes = argv[i + 1];
    if (flag == "--seed") seed = std::strtoull(argv[i + 1], nullptr, 10);
    if (flag == "--time-limit") time_limit = std::atof(argv[i + 1]);
  }
  nlohmann::json out = {{"backend", "cpu"}, {"seed", seed}};
  if (command == "run" && task == "double" && !shapes.empty()) {
    out["runs"] = harness::run_transpose_on_emulator<std::uint64_t>(transpose_double, shapes, seed, time_limit);
  } else if (command == "run" && task == "half" && !shapes.empty()) {
    out["runs"] = harness::run_transpose_on_emulator<std::uint16_t>(transpose_half, shapes, seed, time_limit,
                                                                    lab05::kHalfTile,
                                                                    dim3(lab05::kHalfTile, lab05::kHalfRows));
  } else if (command == "run" && (task == "poly" || task == "quads") && !shapes.empty()) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(time_limit);
    out["runs"] = nlohmann::json::array();
    std::stringstream list(shapes);
    std::string item;
    while (std::getline(list, item, ',')) {
      const double left = std::chrono::duration<double>(deadline - std::chrono::steady_clock::now()).count();
      out["runs"].push_back(run_1d(task, parse_count(item), seed, std::max(0.1, left)));
      if (!out["runs"].back()["report"]["completed"].get<bool>()) break;
    }
  } else if (command == "answers") {
    out["predictions"] = nlohmann::json::array();
    for (int i = 0; i < lab05::kPredictions; ++i) out["predictions"].push_back(predicted_wavefronts[i]);
  } else {
    std::cerr << "usage: runner run --task poly|quads --shapes N,... --seed S | run --task double|half --shapes "
                 "WxH,... --seed S | answers\n";
    return 2;
  }
  harness::emit_answer(out.dump());
  return 0;
}

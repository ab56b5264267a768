// Stage-5 runner on the CPU emulator. Prints one JSON object per command:
//   runner run --task poly|quads --shapes 1,200 --seed N [--time-limit S]   (shapes: element counts;
//          a quads item N:P asks for P read passes instead of 2)
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
nlohmann::json run_1d(const std::string& task, const std::string& item, std::uint64_t seed, double time_limit) {
  const bool poly = task == "poly";
  lab05::QuadRun quad;
  if (!poly && !lab05::parse_quad_run(item.c_str(), &quad)) {
    std::cerr << "runner: bad quads run '" << item << "' (expected N or N:PASSES)\n";
    std::exit(2);
  }
  const int n = poly ? parse_count(item) : quad.quads;
  const std::vector<float> coefficients = lab05::poly_coefficients(seed);
  const std::vector<float> in = poly ? lab05::poly_points(n, seed) : lab05::quad_input(n, seed);
  const std::vector<float> expected = poly ? lab05::expected_poly(coefficients, in) : lab05::expected_quads(in, quad.passes);
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
                                  quad.passes);
  nlohmann::json run = harness::float_comparison_json(expected, d_out);
  banklab::emu::device_free(d_in);
  banklab::emu::device_free(d_out);
  banklab::emu::device_free(d_coef);
  run["shape"] = poly || quad.passes == lab05::kQuadPasses ? std::to_string(n)
                                                            : std::to_string(n) + ":" + std::to_string(quad.passes);
  run["report"] = banklab::emu::to_json(report);
  return run;
}

}  // namespace

int main(int argc, char** argv) {
  const harness::RunnerArgs args = harness::RunnerArgs::parse(argc, argv);
  const std::string& task = args.task;
  nlohmann::json out = {{"backend", "cpu"}, {"seed", args.seed}};
  if (args.command == "run" && task == "double" && !args.shapes.empty()) {
    out["runs"] = harness::run_transpose_on_emulator<std::uint64_t>(transpose_double, args.shapes, args.seed,
                                                                    args.time_limit);
  } else if (args.command == "run" && task == "half" && !args.shapes.empty()) {
    out["runs"] = harness::run_transpose_on_emulator<std::uint16_t>(transpose_half, args.shapes, args.seed,
                                                                    args.time_limit, lab05::kHalfTile,
                                                                    dim3(lab05::kHalfTile, lab05::kHalfRows));
  } else if (args.command == "run" && (task == "poly" || task == "quads") && !args.shapes.empty()) {
    out["runs"] = harness::run_each(args.shapes, args.time_limit, [&](const std::string& item, double left) {
      return run_1d(task, item, args.seed, left);
    });
  } else if (args.command == "answers") {
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

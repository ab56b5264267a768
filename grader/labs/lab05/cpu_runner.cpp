// Stage-5 runner on the CPU emulator. Prints one JSON object per command:
//   runner run --task poly|quads --shapes 1,200 --seed N [--time-limit S]   (shapes: element counts;
//          a quads item N:P asks for P read passes instead of 2)
//   runner run --task double|half --shapes 32x32,31x33 --seed N [--time-limit S]
//          per shape the raw output (poisoned first) and the emulator's
//          report; the grader compares and prices
//   runner answers        the student's predictions
#include <chrono>
#include <iostream>
#include <sstream>
#include <string>

#include "transpose_cpu.hpp"  // first: the emulator's CUDA types (half)
#include "student_api.hpp"

namespace {

// A 1-D task: the kernel's raw output, for the grader to compare bit for bit.
nlohmann::json run_1d(const std::string& task, const std::string& item, std::uint64_t seed, double time_limit) {
  const bool poly = task == "poly";
  int n = 0, passes = 0;
  if (!lab05::task_run(poly, item.c_str(), &n, &passes)) {
    std::cerr << "runner: bad " << task << " run '" << item << "' (expected N" << (poly ? "" : " or N:PASSES")
              << ", N from 1 to 16777216)\n";
    std::exit(2);
  }
  const std::vector<float> coefficients = lab05::poly_coefficients(seed);
  const std::vector<float> in = lab05::task_input(poly, n, seed);
  const std::size_t out_floats = poly ? in.size() : in.size() / 4;
  auto* d_in = static_cast<float*>(banklab::emu::device_malloc(in.size() * sizeof(float)));
  auto* d_out = static_cast<float*>(banklab::emu::device_malloc(out_floats * sizeof(float)));
  auto* d_coef = static_cast<float*>(banklab::emu::device_malloc(coefficients.size() * sizeof(float)));
  std::memcpy(d_in, in.data(), in.size() * sizeof(float));
  std::memcpy(d_coef, coefficients.data(), coefficients.size() * sizeof(float));
  std::memset(d_out, harness::kPoisonByte, out_floats * sizeof(float));
  banklab::emu::LaunchOptions options = harness::launch_options(time_limit);
  const int threads = poly ? lab05::kPolyThreads : lab05::kQuadThreads;
  const dim3 grid((n + threads - 1) / threads);
  const auto report =
      poly ? banklab::emu::launch(options, grid, dim3(threads), poly_eval, d_out, static_cast<const float*>(d_in),
                                  static_cast<const float*>(d_coef), n)
           : banklab::emu::launch(options, grid, dim3(threads), sum_quads, d_out, static_cast<const float*>(d_in), n,
                                  passes);
  // The output as it is: the grader compares it with its own reference (task_data.hpp).
  nlohmann::json run = {{"output", harness::output_blob(d_out, out_floats * sizeof(float))}};
  banklab::emu::device_free(d_in);
  banklab::emu::device_free(d_out);
  banklab::emu::device_free(d_coef);
  run["shape"] = poly || passes == lab05::kQuadPasses ? std::to_string(n)
                                                       : std::to_string(n) + ":" + std::to_string(passes);
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

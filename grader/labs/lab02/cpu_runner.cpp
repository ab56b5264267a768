// Stage-2 runner on the CPU emulator. Prints one JSON object per command:
//   runner degree                       conflict_degree's values on every stride and lane count
//   runner run --task T --shapes S --seed N [--time-limit SECONDS]
//          T: rows (shapes: row counts), particles (particle counts) or
//          transpose16 (WxH); per shape the raw output (poisoned first)
//          and the emulator's report; the grader compares and prices
//   runner answers                      the student's predictions
#include <chrono>
#include <cstring>
#include <iostream>
#include <sstream>
#include <string>

#include "banklab/emulator.hpp"
#include "banklab/emulator_json.hpp"
#include "student_api.hpp"
#include "transpose_cpu.hpp"

namespace {

// conflict_degree on every stride and lane count, as raw int32 values
// (stride-major: stride 0 lanes 1..32, stride 1 ...): the grader compares
// them with the bank model.
nlohmann::json degree_values() {
  std::vector<std::int32_t> values;
  values.reserve(static_cast<std::size_t>(lab02::kMaxStride + 1) * banklab::kWarpSize);
  for (int stride = 0; stride <= lab02::kMaxStride; ++stride) {
    for (int n = 1; n <= banklab::kWarpSize; ++n) values.push_back(conflict_degree(stride, n));
  }
  return {{"max_stride", lab02::kMaxStride}, {"output", harness::output_blob(values.data(), values.size() * 4)}};
}

int parse_count(const std::string& text, int minimum) {
  char* end = nullptr;
  const long value = std::strtol(text.c_str(), &end, 10);
  if (end == text.c_str() || *end != '\0' || value < minimum || value > (1 << 24)) {
    std::cerr << "runner: bad count '" << text << "' (expected a whole number >= " << minimum << ")\n";
    std::exit(2);
  }
  return static_cast<int>(value);
}

nlohmann::json run_one(const std::string& task, const std::string& shape, std::uint64_t seed, double time_limit,
                       bool* timed_out) {
  banklab::emu::LaunchOptions options = harness::launch_options(time_limit);
  nlohmann::json run;
  banklab::emu::LaunchReport report;
  if (task == "transpose16") {
    const harness::Shape s = harness::parse_shapes(shape)[0];
    const std::vector<float> in = harness::make_input(s, seed);
    const std::size_t bytes = in.size() * sizeof(float);
    auto* d_in = static_cast<float*>(banklab::emu::device_malloc(bytes));
    auto* d_out = static_cast<float*>(banklab::emu::device_malloc(bytes));
    std::memcpy(d_in, in.data(), bytes);
    std::memset(d_out, harness::kPoisonByte, bytes);
    const dim3 grid((s.width + 15) / 16, (s.height + 15) / 16);
    report = banklab::emu::launch(options, grid, dim3(16, 16), transpose16, d_out, static_cast<const float*>(d_in),
                                  s.width, s.height);
    // The output as it is: the grader compares it with the transpose of its own input.
    run = {{"width", s.width}, {"height", s.height}, {"element_bytes", 4}, {"output", harness::output_blob(d_out, bytes)}};
    banklab::emu::device_free(d_in);
    banklab::emu::device_free(d_out);
  } else {
    const bool rows_task = task == "rows";
    const int count = parse_count(shape, rows_task ? 1 : 2);
    const std::size_t in_floats = lab02::input_floats(task, count);
    const std::vector<float> in = lab02::task_input(task, count, seed);
    const std::size_t out_floats = lab02::output_floats(task, count);
    auto* d_in = static_cast<float*>(banklab::emu::device_malloc(in_floats * sizeof(float)));
    auto* d_out = static_cast<float*>(banklab::emu::device_malloc(std::max<std::size_t>(1, out_floats) * 4));
    std::memcpy(d_in, in.data(), in_floats * sizeof(float));
    std::memset(d_out, harness::kPoisonByte, out_floats * sizeof(float));
    const int per_block = rows_task ? lab02::kRowsPerBlock : lab02::kParticlesPerBlock;
    const dim3 grid((count + per_block - 1) / per_block);
    if (rows_task) {
      report = banklab::emu::launch(options, grid, dim3(per_block), row_sums, d_out, static_cast<const float*>(d_in),
                                    count);
    } else {
      report = banklab::emu::launch(options, grid, dim3(per_block), neighbour_distances, d_out,
                                    reinterpret_cast<const Particle*>(d_in), count);
    }
    // The output as it is: the grader compares it with its own reference (task_data.hpp).
    run = {{"output", harness::output_blob(d_out, out_floats * sizeof(float))}};
    banklab::emu::device_free(d_in);
    banklab::emu::device_free(d_out);
  }
  run["shape"] = shape;
  run["report"] = banklab::emu::to_json(report);
  *timed_out = report.has(banklab::emu::FindingKind::kTimeLimit);
  return run;
}

}  // namespace

int main(int argc, char** argv) {
  const harness::RunnerArgs args = harness::RunnerArgs::parse(argc, argv);
  const std::string& task = args.task;
  nlohmann::json out = {{"backend", "cpu"}};
  if (args.command == "degree") {
    out["conflict_degree"] = degree_values();
  } else if (args.command == "run" && (task == "rows" || task == "particles" || task == "transpose16") &&
             !args.shapes.empty()) {
    out["runs"] = harness::run_each(args.shapes, args.time_limit, [&](const std::string& shape, double left) {
      bool timed_out = false;
      return run_one(task, shape, args.seed, left, &timed_out);
    });
  } else if (args.command == "answers") {
    out["predictions"] = nlohmann::json::array();
    for (int i = 0; i < lab02::kPredictions; ++i) out["predictions"].push_back(predicted_wavefronts[i]);
  } else {
    std::cerr << "usage: runner degree | run --task rows|particles|transpose16 --shapes S --seed N | answers\n";
    return 2;
  }
  harness::emit_answer(out.dump());
  return 0;
}

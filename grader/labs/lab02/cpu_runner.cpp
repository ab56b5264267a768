// Stage-2 runner on the CPU emulator. Prints one JSON object per command:
//   runner degree                       conflict_degree against the bank model, every stride and lane count
//   runner run --task T --shapes S --seed N [--time-limit SECONDS]
//          T: rows (shapes: row counts), particles (particle counts) or
//          transpose16 (WxH); per shape the comparison with the CPU
//          reference (outputs poisoned first) and the emulator's report
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

nlohmann::json check_degree() {
  long long mismatches = 0, checked = 0;
  nlohmann::json first = nlohmann::json::array();
  for (int stride = 0; stride <= lab02::kMaxStride; ++stride) {
    for (int n = 1; n <= banklab::kWarpSize; ++n) {
      const banklab::LaneMask lanes = n == 32 ? 0xffffffffu : (banklab::LaneMask{1} << n) - 1;
      const int expected =
          banklab::count_wavefronts(banklab::strided_access(4, banklab::MemOp::kLoad, stride, 0, lanes)).wavefronts;
      const int yours = conflict_degree(stride, n);
      ++checked;
      if (yours != expected) {
        if (first.size() < 5) first.push_back({{"stride", stride}, {"lanes", n}, {"yours", yours}, {"expected", expected}});
        ++mismatches;
      }
    }
  }
  return {{"checked", checked}, {"mismatches", mismatches}, {"first", first}};
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
  banklab::emu::LaunchOptions options;
  options.time_limit_seconds = time_limit;
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
    const harness::Comparison c = harness::compare(s, in, d_out);
    nlohmann::json first = nlohmann::json::array();
    for (const harness::Mismatch& m : c.first) {
      first.push_back({{"index", std::to_string(m.x) + "][" + std::to_string(m.y)},
                       {"expected", m.expected},
                       {"got", std::isfinite(m.got) ? nlohmann::json(m.got) : nlohmann::json()}});
    }
    run = {{"mismatches", c.mismatches}, {"first_mismatches", first}, {"elements", in.size()}};
    banklab::emu::device_free(d_in);
    banklab::emu::device_free(d_out);
  } else {
    const bool rows_task = task == "rows";
    const int count = parse_count(shape, rows_task ? 1 : 2);
    const std::size_t in_floats = static_cast<std::size_t>(count) * (rows_task ? lab02::kColumns : 4);
    const std::vector<float> in = lab02::make_values(in_floats, seed, static_cast<std::uint64_t>(count));
    const std::vector<float> expected =
        rows_task ? lab02::expected_row_sums(in, count) : lab02::expected_distances(in, count);
    auto* d_in = static_cast<float*>(banklab::emu::device_malloc(in_floats * sizeof(float)));
    auto* d_out = static_cast<float*>(banklab::emu::device_malloc(std::max<std::size_t>(1, expected.size()) * 4));
    std::memcpy(d_in, in.data(), in_floats * sizeof(float));
    std::memset(d_out, harness::kPoisonByte, expected.size() * sizeof(float));
    const int per_block = rows_task ? lab02::kRowsPerBlock : lab02::kParticlesPerBlock;
    const dim3 grid((count + per_block - 1) / per_block);
    if (rows_task) {
      report = banklab::emu::launch(options, grid, dim3(per_block), row_sums, d_out, static_cast<const float*>(d_in),
                                    count);
    } else {
      report = banklab::emu::launch(options, grid, dim3(per_block), neighbour_distances, d_out,
                                    reinterpret_cast<const Particle*>(d_in), count);
    }
    run = harness::float_comparison_json(expected, d_out);
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
    out["conflict_degree"] = check_degree();
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

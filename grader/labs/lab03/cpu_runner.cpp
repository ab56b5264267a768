// Stage-3 runner on the CPU emulator: runs the implementation's
// transpose_padded on the given shapes with seeded random input and poisoned
// output, and prints one JSON object: per shape, the comparison with the CPU
// reference and the emulator's report (findings, shared-memory lines).
//   runner run --shapes 32x32,31x33 --seed 7 [--time-limit SECONDS]
#include <algorithm>
#include <chrono>
#include <cstring>
#include <iostream>
#include <string>

#include "banklab/emulator.hpp"
#include "banklab/emulator_json.hpp"
#include "transpose_harness.hpp"

// The implementation under test (the student's file, built for the emulator).
void transpose_padded(float* out, const float* in, int width, int height);

int main(int argc, char** argv) {
  std::string command = argc > 1 ? argv[1] : "";
  std::string shapes_text;
  std::uint64_t seed = 1;
  double time_limit = 20;
  for (int i = 2; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--shapes")
      shapes_text = argv[i + 1];
    else if (flag == "--seed")
      seed = std::strtoull(argv[i + 1], nullptr, 10);
    else if (flag == "--time-limit")
      time_limit = std::atof(argv[i + 1]);
  }
  if (command != "run" || shapes_text.empty()) {
    std::cerr << "usage: runner run --shapes WxH[,WxH...] --seed N [--time-limit SECONDS]\n";
    return 2;
  }
  nlohmann::json runs = nlohmann::json::array();
  // The time limit is for all shapes together; after a launch that ran out of
  // time (an infinite loop), the remaining shapes are not run.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(time_limit);
  for (const harness::Shape s : harness::parse_shapes(shapes_text)) {
    const double left = std::chrono::duration<double>(deadline - std::chrono::steady_clock::now()).count();
    const std::vector<float> in = harness::make_input(s, seed);
    const std::size_t bytes = in.size() * sizeof(float);
    auto* d_in = static_cast<float*>(banklab::emu::device_malloc(bytes));
    auto* d_out = static_cast<float*>(banklab::emu::device_malloc(bytes));
    std::memcpy(d_in, in.data(), bytes);
    std::memset(d_out, harness::kPoisonByte, bytes);
    banklab::emu::LaunchOptions options;
    options.time_limit_seconds = std::max(0.1, left);
    const dim3 grid((s.width + 31) / 32, (s.height + 31) / 32);
    const auto report = banklab::emu::launch(options, grid, dim3(32, 8), transpose_padded, d_out,
                                             static_cast<const float*>(d_in), s.width, s.height);
    const harness::Comparison c = harness::compare(s, in, d_out);
    nlohmann::json first = nlohmann::json::array();
    for (const harness::Mismatch& m : c.first) {
      first.push_back({{"row", m.x},
                       {"col", m.y},
                       {"expected", m.expected},
                       {"got", std::isfinite(m.got) ? nlohmann::json(m.got) : nlohmann::json()}});
    }
    runs.push_back({{"width", s.width},
                    {"height", s.height},
                    {"mismatches", c.mismatches},
                    {"first_mismatches", first},
                    {"report", banklab::emu::to_json(report)}});
    banklab::emu::device_free(d_in);
    banklab::emu::device_free(d_out);
    if (report.has(banklab::emu::FindingKind::kTimeLimit)) break;
  }
  std::cout << nlohmann::json{{"backend", "cpu"}, {"seed", seed}, {"runs", runs}}.dump() << '\n';
  return 0;
}

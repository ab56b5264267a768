// What the emulator runners of the transpose stages (3, 4) share: a
// transpose kernel run on a list of shapes with seeded input and poisoned
// output, each run with its comparison and the emulator's report.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <string>

#include "banklab/emulator.hpp"
#include "banklab/emulator_json.hpp"
#include "transpose_harness.hpp"

namespace harness {

using TransposeFunction = void (*)(float*, const float*, int, int);

/// Runs `kernel` (block 32x8, one block per 32x32 tile) on every shape of
/// "32x32,31x33": [{width, height, mismatches, first_mismatches, report}].
/// The time limit is for all shapes together; after a launch that ran out of
/// time (an infinite loop), the remaining shapes are not run.
inline nlohmann::json run_transpose_on_emulator(TransposeFunction kernel, const std::string& shapes_text,
                                                std::uint64_t seed, double time_limit) {
  nlohmann::json runs = nlohmann::json::array();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(time_limit);
  for (const Shape s : parse_shapes(shapes_text)) {
    const double left = std::chrono::duration<double>(deadline - std::chrono::steady_clock::now()).count();
    const std::vector<float> in = make_input(s, seed);
    const std::size_t bytes = in.size() * sizeof(float);
    auto* d_in = static_cast<float*>(banklab::emu::device_malloc(bytes));
    auto* d_out = static_cast<float*>(banklab::emu::device_malloc(bytes));
    std::memcpy(d_in, in.data(), bytes);
    std::memset(d_out, kPoisonByte, bytes);
    banklab::emu::LaunchOptions options;
    options.time_limit_seconds = std::max(0.1, left);
    const dim3 grid((s.width + 31) / 32, (s.height + 31) / 32);
    const auto report =
        banklab::emu::launch(options, grid, dim3(32, 8), kernel, d_out, static_cast<const float*>(d_in), s.width, s.height);
    const Comparison c = compare(s, in, d_out);
    nlohmann::json first = nlohmann::json::array();
    for (const Mismatch& m : c.first) {
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
  return runs;
}

}  // namespace harness

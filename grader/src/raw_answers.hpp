// What a runner's answer is to the grader: raw data. Prices its emulator
// reports with the bank model (the runner states no price) and compares its
// raw outputs with the grader's own reference (the runner states no
// verdict). checks.hpp says how a rubric uses it.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "banklab/bank_model.hpp"

namespace banklab::grader {

/// One source line of an emulator report as the grader prices it: the bank
/// model applied to each of the runner's recorded patterns (see atop).
struct PricedLine {
  std::string file;
  int line = 0;
  std::uint64_t loads = 0, stores = 0;  ///< lanes
  std::uint64_t warp_instructions = 0, wavefronts = 0, ideal_wavefronts = 0;
  std::uint64_t store_wavefronts = 0, store_instructions = 0;
  int worst_wavefronts = 0;  ///< of one warp instruction: the first pattern with the most
  WarpAccess worst_access;   ///< that pattern's first instance (its offsets unshifted)
  std::string worst_context;
  /// Each priced pattern's first instance: its warp ("block (0,0,0) warp
  /// 3"), each lane's byte offset (-1: inactive) and how many warp
  /// instructions had the pattern; the traffic checks read them to see
  /// whether data moved between threads (traffic_checks.hpp).
  struct Instance {
    bool store = false;
    std::string context;
    std::vector<std::int64_t> offsets;
    std::uint64_t count = 0;
  };
  std::vector<Instance> instances;
  /// Warp instructions the grader could not price: past the emulator's cap
  /// of distinct patterns per line, or a malformed pattern.
  std::uint64_t unpriced_loads = 0, unpriced_stores = 0;
  std::string unpriced_why;  ///< "" when none
  /// Lanes that took turns (the report's "joined_patterns"): the warp
  /// instructions joined as the lanes would have run them together, priced
  /// here; their wavefronts and ideal, and the one most over its ideal.
  std::uint64_t turns_wavefronts = 0, turns_ideal = 0;
  WarpAccess turns_access;
  std::string turns_context;
};

/// Prices one raw line of an emulator report ({"file", "line", "patterns",
/// "unrecorded_loads", "unrecorded_stores"}); any other field is ignored.
PricedLine price_line(const nlohmann::json& raw);
/// The line in the report schema rubrics read: "loads", "stores",
/// "warp_instructions", "wavefronts", "ideal_wavefronts", "store_wavefronts",
/// "store_instructions", "worst_wavefronts", "worst_access", "worst_context",
/// "instances" ([{op, first, offsets, count}]), "unpriced_loads",
/// "unpriced_stores", "unpriced_why".
nlohmann::json to_json(const PricedLine& line);
/// Replaces every "lines" array anywhere in a runner's answer by the
/// grader's pricing of its patterns (GradeContext::call does this to every
/// answer, so a runner cannot state a price).
void price_reports(nlohmann::json& answer);
/// A runner's answer text parsed (throws nlohmann::json::parse_error), with
/// its reports priced (price_reports). Long base64 "output" strings are taken
/// out before the JSON parser sees them and put back after, as parsing them
/// character by character would cost more than the run.
nlohmann::json parse_runner_answer(const std::string& text);
/// The bytes of a run's "output" (base64); false with `why` when there is
/// none or it is not base64.
bool output_bytes(const nlohmann::json& run, std::vector<unsigned char>* bytes, std::string* why);

/// The grader's comparison of a transpose run's raw output ({width, height,
/// element_bytes, output}) with the transpose of the input `seed` makes
/// (transpose_data.hpp, the runner's own code): {"mismatches",
/// "first_mismatches": [{row, col, expected, got (null: NaN)}]}, or
/// {"error": why} when the output is missing, malformed or the wrong size.
/// Whatever else the run says ("mismatches": 0) is not read.
nlohmann::json judge_transpose_run(const nlohmann::json& run, std::uint64_t seed);

/// The same for a run of any output: `expected` is the grader's reference
/// (raw bytes of elements of `element_bytes`): {"mismatches",
/// "first_mismatches": [{index, expected, got (null: NaN)}]} or {"error"}.
/// With `integers`, the elements are 4-byte two's-complement integers, shown
/// as such; `got` is null for an element still holding the runner's poison
/// (never written).
nlohmann::json judge_output(const nlohmann::json& run, const std::vector<unsigned char>& expected, int element_bytes,
                            bool integers = false);

}  // namespace banklab::grader

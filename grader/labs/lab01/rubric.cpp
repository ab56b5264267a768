// Stage 1, bank mapping: the rubric. word_of and bank_of on every byte offset
// a block can use (0 to 232,447) and on random offsets up to 2^31 - 1; ten address puzzles run on the CPU emulator (each load's
// wavefronts and the puzzle's constraints) and, on a GPU, timed by the cycle
// probe; ten predictions priced by the bank model.
#include <algorithm>
#include <array>
#include <cstring>
#include <map>
#include <set>
#include <sstream>

#include "checks.hpp"
#include "puzzles.hpp"
#include "rubric.hpp"

namespace banklab::grader {

namespace {

using Offsets = std::array<int, kWarpSize>;

// word_of / bank_of: the runner's values on lab01::function_offsets(seed),
// compared here with the bank rule (the bank model's own constants).
Outcome check_function(GradeContext& ctx, const char* name) {
  const std::vector<std::string> args = {"functions", "--seed", seed_text(ctx.seed())};
  const RunnerAnswer& a = ctx.backend() == Backend::kGpu ? ctx.gpu(args) : ctx.cpu(args);
  if (!a.ok) return not_answered(a);
  const bool bank = std::string(name) == "bank_of";
  const std::vector<int> offsets = lab01::function_offsets(ctx.seed());
  std::vector<unsigned char> bytes;
  std::string why;
  if (!output_bytes(nlohmann::json{{"output", a.data.value(name, nlohmann::json())}}, &bytes, &why) ||
      bytes.size() != offsets.size() * sizeof(std::int32_t)) {
    return Outcome::fail("could not check: the runner did not return " + std::to_string(offsets.size()) +
                         " values of " + name + (why.empty() ? "" : " (" + why + ")"));
  }
  long long wrong = 0;
  std::ostringstream first;
  for (std::size_t i = 0; i < offsets.size(); ++i) {
    std::int32_t yours;
    std::memcpy(&yours, &bytes[i * sizeof yours], sizeof yours);
    const int word = offsets[i] / kHopper.bank_width_bytes;
    const int expected = bank ? word % kHopper.banks : word;
    if (yours == expected) continue;
    if (++wrong <= 5) first << "\n  " << name << "(" << offsets[i] << ") = " << yours << ", expected " << expected;
  }
  const std::string range = "every byte offset from 0 to " + std::to_string(lab01::kOffsetsChecked - 1) +
                            ", a block's whole shared memory, and " + std::to_string(lab01::kRandomOffsets) +
                            " random ones up to 2^31 - 1";
  if (wrong == 0) return Outcome::pass("right on " + range);
  std::ostringstream out;
  out << wrong << " of " << offsets.size() << " byte offsets wrong (" << range << "); yours vs expected:" << first.str();
  out << "\nbyte -> word: 4 bytes per word; word -> bank: 32 banks, one word each, round after round";
  return Outcome::fail(out.str());
}

std::string offsets_text(const Offsets& offsets) {
  std::ostringstream out;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    out << (lane ? " " : "");
    if (offsets[lane] < 0) {
      out << '-';
    } else {
      out << offsets[lane];
    }
  }
  return out.str();
}

WarpAccess access_of(const Offsets& offsets, int width) {
  std::array<std::int64_t, kWarpSize> wide{};
  for (int lane = 0; lane < kWarpSize; ++lane) wide[lane] = offsets[lane] < 0 ? kInactive : offsets[lane];
  return WarpAccess::make(width, MemOp::kLoad, wide);
}

// What the puzzle's constraints say of these offsets ("" when they hold).
std::string constraint_problem(int puzzle, const Offsets& offsets) {
  const lab01::PuzzleSpec& spec = lab01::kPuzzles[puzzle];
  LaneMask active = 0;
  std::set<int> words, banks, distinct_offsets;
  std::map<int, int> lanes_per_word;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (offsets[lane] < 0) continue;
    active |= LaneMask{1} << lane;
    words.insert(offsets[lane] / 4);
    banks.insert(offsets[lane] / 4 % 32);
    distinct_offsets.insert(offsets[lane]);
    ++lanes_per_word[offsets[lane] / 4];
  }
  const LaneMask wanted = spec.target == 8 && std::string(spec.name) == "partial warp" ? 0xffu : 0xffffffffu;
  if (active != wanted) {
    return "active lanes: yours " + format_lanes(active) + ", expected " + format_lanes(wanted) +
           " (return -1 for an inactive lane, an offset for an active one)";
  }
  const std::string name = spec.name;
  const auto count = [](const auto& set) { return std::to_string(set.size()); };
  if (name == "conflict free" && words.size() != 32)
    return "32 different words wanted; yours touch " + count(words);
  if ((name == "broadcast" || name == "one bank four words" || name == "partial warp") && banks.size() != 1)
    return "every active lane must be in one bank; yours are in " + count(banks) + " banks";
  if (name == "multicast") {
    if (words.size() < 2 || words.size() > 16)
      return "between 2 and 16 different words wanted; yours touch " + count(words);
    for (const auto& [word, lanes] : lanes_per_word) {
      if (lanes < 2) return "word " + std::to_string(word) + " is read by one lane only; every word needs 2 or more";
    }
  }
  if (name == "one bank four words" && words.size() != 4)
    return "exactly 4 different words wanted; yours touch " + count(words);
  if (name == "partial warp" && words.size() != 8) return "8 different words wanted; yours touch " + count(words);
  if ((name == "bytes" || name == "halves") && distinct_offsets.size() != 32)
    return "32 different " + std::string(name == "bytes" ? "bytes" : "2-byte elements") + " wanted; yours are " +
           count(distinct_offsets);
  if ((name == "bytes" || name == "halves") && words.size() >= 32)
    return "fewer than 32 different words wanted (let lanes share words); yours touch " + count(words);
  return "";
}

Offsets offsets_from(const nlohmann::json& entry) {
  Offsets offsets{};
  for (int lane = 0; lane < kWarpSize; ++lane) offsets[lane] = entry["offsets"][lane].get<int>();
  return offsets;
}

Outcome check_puzzle(GradeContext& ctx, int puzzle) {
  const RunnerAnswer& a = ctx.cpu({"puzzles"});
  if (!a.ok) return not_answered(a);
  const lab01::PuzzleSpec& spec = lab01::kPuzzles[puzzle];
  const auto& entry = a.data["puzzles"][puzzle];
  const Offsets offsets = offsets_from(entry);
  const std::string yours = "your offsets (lane 0 to 31, - inactive): " + offsets_text(offsets);
  // The offsets are judged here (the runner's "invalid" is not read).
  int bad_lane = 0;
  const std::string problem = lab01::offsets_problem(offsets.data(), spec.width_bytes, &bad_lane);
  if (!problem.empty()) {
    return Outcome::fail("lane " + std::to_string(bad_lane) + ": offset " + std::to_string(offsets[bad_lane]) + " " +
                         problem + "\n" + yours);
  }
  if (std::all_of(offsets.begin(), offsets.end(), [](int o) { return o < 0; })) {
    return Outcome::fail("not done yet: every lane returns -1 (no lane is active); see the puzzle's TODO(student)");
  }
  if (!entry.contains("report")) return Outcome::fail("could not check: the runner returned no report of the load");
  const auto& report = entry["report"];
  // Valid offsets make a load with no findings; any finding (a misaligned
  // lane the emulator left out of the costs, say) means the harness's load
  // was not the one the puzzle asks for, so its count is not believed.
  if (!report["completed"].get<bool>() || !report["findings"].empty()) {
    std::string why;
    for (const auto& f : report["findings"]) why += "\n" + describe_finding(f);
    return Outcome::fail(std::string(report["completed"].get<bool>() ? "the harness kernel's load went wrong"
                                                                     : "the harness kernel did not finish") +
                         why);
  }
  const std::string constraint = constraint_problem(puzzle, offsets);
  const WarpAccess access = access_of(offsets, spec.width_bytes);
  const std::string why = "  " + banksim_command(access) + "\n" + explain_access(access, "    ");
  if (!constraint.empty()) return Outcome::fail(constraint + "\n" + yours + "\n" + why);
  long long wavefronts = 0, instructions = 0;
  for (const auto& line : report["lines"]) {
    if (line["loads"].get<long long>() == 0) continue;
    wavefronts += line["wavefronts"].get<long long>();
    instructions += line["warp_instructions"].get<long long>();
    // The load the kernel made is the one the offsets above describe: the
    // function gives each lane the same offset in the kernel as on the host.
    for (const auto& instance : line["instances"]) {
      if (instance["op"] != "ld") continue;
      const auto made = instance["offsets"].get<std::vector<std::int64_t>>();
      for (int lane = 0; lane < kWarpSize && lane < static_cast<int>(made.size()); ++lane) {
        if (made[static_cast<std::size_t>(lane)] == offsets[static_cast<std::size_t>(lane)]) continue;
        return Outcome::fail("your function gives other offsets in the kernel than on the host: lane " +
                             std::to_string(lane) + " returned " + std::to_string(offsets[static_cast<std::size_t>(lane)]) +
                             " on the host, and its load in the harness kernel read byte " +
                             std::to_string(made[static_cast<std::size_t>(lane)]) +
                             " (-1: no load); a puzzle function gives the same offset for a lane wherever and "
                             "however often it runs (no state kept between calls)\n" + yours);
      }
    }
  }
  std::ostringstream out;
  out << "the emulator's load: " << count_text(instructions, "warp instruction") << ", "
      << count_text(wavefronts, "wavefront") << "\n" << yours;
  if (instructions != 1 || wavefronts != spec.target) {
    return Outcome::fail("yours: " + count_text(wavefronts, "wavefront") + ", expected: " +
                         std::to_string(spec.target) + "\n" + out.str() + "\n" + why);
  }
  return Outcome::pass(out.str());
}

Outcome check_puzzles_on_gpu(GradeContext& ctx) {
  const RunnerAnswer& a = ctx.gpu({"puzzles"});
  if (!a.ok) return not_answered(a);
  std::string details;
  bool all = true;
  for (int p = 0; p < lab01::kPuzzleCount; ++p) {
    const auto& m = a.data["puzzles"][p];
    const lab01::PuzzleSpec& spec = lab01::kPuzzles[p];
    std::string line = std::string(spec.name) + ": ";
    if (m.contains("invalid") || m.contains("error")) {
      all = false;
      line += "not measured: " + (m.contains("invalid") ? m["invalid"] : m["error"]).get<std::string>();
    } else {
      std::string description;
      const bool ok = cycles_agree(m, spec.target, false, &description);
      all = all && ok;
      line += (ok ? "" : "DIFFERS: ") + description;
    }
    details += (details.empty() ? "" : "\n") + line;
  }
  return all ? Outcome::pass(details) : Outcome::fail(details + "\nexpected: every puzzle at its target wavefronts");
}

// The predictions of the lab file, in its order and words.
std::vector<Prediction> predictions() {
  auto make = [](std::string id, std::string question, auto offset, int width = 4) {
    std::array<std::int64_t, kWarpSize> offsets{};
    for (int lane = 0; lane < kWarpSize; ++lane) offsets[lane] = offset(lane);
    return Prediction{std::move(id), std::move(question), WarpAccess::make(width, MemOp::kLoad, offsets)};
  };
  return {
      make("P1", "float s[]; lane l reads s[l].", [](int l) { return 4 * l; }),
      make("P2", "float tile[32][32]; lane l reads tile[l][0] (words 0, 32, 64, 96, ...).",
           [](int l) { return 4 * 32 * l; }),
      make("P3", "float tile[32][33]; lane l reads tile[l][0] (words 0, 33, 66, 99, ...).",
           [](int l) { return 4 * 33 * l; }),
      make("P4", "float tile[32][32]; lane l reads tile[l][5] (words 5, 37, 69, 101, ...).",
           [](int l) { return 4 * (32 * l + 5); }),
      make("P5", "float s[]; every lane reads s[0].", [](int) { return 0; }),
      make("P6", "float s[]; lane l reads s[l / 2].", [](int l) { return 4 * (l / 2); }),
      make("P7", "float s[]; lane l reads s[2 * l].", [](int l) { return 8 * l; }),
      make("P8", "float s[]; lane l reads s[16 * l].", [](int l) { return 64 * l; }),
      make("P9", "char c[]; lane l reads c[l] (1-byte loads).", [](int l) { return l; }, 1),
      make("P10", "4-byte loads; lanes 0-15 read byte offset 52, lanes 16-31 byte offset 180.",
           [](int l) { return l < 16 ? 52 : 180; }),
  };
}

Outcome check_prediction_at(GradeContext& ctx, std::size_t index) {
  const RunnerAnswer& a = ctx.backend() == Backend::kGpu ? ctx.gpu({"answers"}) : ctx.cpu({"answers"});
  if (!a.ok) return not_answered(a);
  const auto all = predictions();
  return check_prediction(all[index], a.data["predictions"][index]);
}

Rubric lab01_rubric() {
  Rubric r;
  r.lab = 1;
  r.title = "bank mapping";
  r.parts = {"the mapping", "address puzzles", "predictions", "on the GPU"};
  auto add = [&](std::string name, std::string part, double points, bool gpu_only,
                 std::function<Outcome(GradeContext&)> run) {
    r.checks.push_back({std::move(name), std::move(part), points, {}, gpu_only, std::move(run)});
  };
  add("word_of on every byte offset", "the mapping", 10, false,
      [](GradeContext& c) { return check_function(c, "word_of"); });
  add("bank_of on every byte offset", "the mapping", 10, false,
      [](GradeContext& c) { return check_function(c, "bank_of"); });
  for (int p = 0; p < lab01::kPuzzleCount; ++p) {
    const lab01::PuzzleSpec& spec = lab01::kPuzzles[p];
    add("puzzle " + std::to_string(p + 1) + ", " + spec.name + ": " + std::to_string(spec.target) + " wavefront" +
            (spec.target == 1 ? "" : "s"),
        "address puzzles", 4, false, [p](GradeContext& c) { return check_puzzle(c, p); });
  }
  const auto all = predictions();
  for (std::size_t i = 0; i < all.size(); ++i) {
    std::string question = all[i].question;
    if (!question.empty() && question.back() == '.') question.pop_back();
    add("prediction " + all[i].id + ": " + question, "predictions", 3, false,
        [i](GradeContext& c) { return check_prediction_at(c, i); });
  }
  add("puzzle loads take their wavefronts in cycles on the GPU", "on the GPU", 10, true, check_puzzles_on_gpu);
  return r;
}

}  // namespace

BANKLAB_REGISTER_RUBRIC(1, lab01_rubric);

}  // namespace banklab::grader

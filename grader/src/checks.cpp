// Check helpers shared by every stage's rubric (checks.hpp).
#include "checks.hpp"

#include <algorithm>
#include <cctype>
#include <array>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>

#include "../labs/common/raw_data.hpp"
#include "../labs/common/transpose_data.hpp"
#include "banklab/emulator_json.hpp"
#include "access_cause.hpp"
#include "process.hpp"

namespace banklab::grader {

std::string seed_text(std::uint64_t seed) { return std::to_string(seed); }

std::string source_line(const std::string& file, int line) {
  std::ifstream in(file);
  std::string text;
  for (int i = 1; std::getline(in, text); ++i) {
    if (i == line) {
      const auto first = text.find_first_not_of(" \t");
      return first == std::string::npos ? "" : text.substr(first);
    }
  }
  return "";
}

std::string file_name(const std::string& path) { return std::filesystem::path(path).filename().string(); }

std::string number(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

std::string indent(const std::string& text, const std::string& prefix) {
  std::istringstream in(text);
  std::string line, out;
  while (std::getline(in, line)) out += prefix + line + "\n";
  return out;
}

std::string describe_finding(const nlohmann::json& f) {
  std::ostringstream out;
  out << f["kind"].get<std::string>() << " at " << file_name(f["file"].get<std::string>()) << ":" << f["line"];
  if (f["other_line"].get<int>() != 0) {
    out << " (and " << file_name(f["other_file"].get<std::string>()) << ":" << f["other_line"] << ")";
  }
  out << ": " << f["message"].get<std::string>();
  if (f["count"].get<long long>() > 1) out << " [" << f["count"] << " times]";
  for (const auto& d : f["details"]) out << "\n  " << d.get<std::string>();
  return out.str();
}

Outcome check_findings(const std::vector<LabelledReport>& reports, const std::vector<std::string>& kinds,
                       const std::string& hint, const std::string& looked_at) {
  // The same finding on several runs is shown once, with the runs it was on.
  std::vector<std::pair<std::string, std::string>> found;  // (finding text, runs)
  std::string stopped;  // runs that ended early: checked up to where they stopped
  for (const LabelledReport& run : reports) {
    const auto& report = run.report;
    if (!report["completed"].get<bool>()) stopped += (stopped.empty() ? "" : ", ") + run.label;
    for (const auto& f : report["findings"]) {
      if (std::find(kinds.begin(), kinds.end(), f["kind"].get<std::string>()) == kinds.end()) continue;
      nlohmann::json without_count = f;
      without_count["count"] = 1;
      const std::string text = describe_finding(without_count);
      auto same = std::find_if(found.begin(), found.end(), [&](const auto& p) { return p.first == text; });
      if (same == found.end()) {
        found.emplace_back(text, run.label);
      } else {
        same->second += ", " + run.label;
      }
    }
  }
  if (!found.empty()) {
    std::string text;
    for (const auto& [finding, runs] : found) text += (text.empty() ? "" : "\n") + ("on " + runs + ": " + finding);
    return Outcome::fail(text + "\n" + hint);
  }
  // A run that stopped (a crash, a time limit) is graded by the correctness
  // checks and by the finding that stopped it; the other findings checks
  // vouch for what ran before the stop and do not fail for it again.
  if (!stopped.empty()) {
    return Outcome::pass("none on " + looked_at + " (CPU emulator), up to where the kernel stopped on " + stopped +
                         " (the stop itself is graded by the correctness checks)");
  }
  return Outcome::pass("none on " + looked_at + " (CPU emulator)");
}

std::string banksim_command(const WarpAccess& access) {
  std::ostringstream out;
  out << "banksim --width " << access.width_bytes;
  if (access.op == MemOp::kStore) out << " --op st";
  // A stride over all lanes (or over a contiguous run from lane 0) reads
  // better than 32 offsets.
  int first = -1, last = -1;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (!access.active(lane)) continue;
    if (first < 0) first = lane;
    last = lane;
  }
  bool strided = first == 0 && last >= 1;
  std::int64_t step = strided ? access.offsets[1] - access.offsets[0] : 0;
  for (int lane = 0; strided && lane < kWarpSize; ++lane) {
    const bool should_be_active = lane <= last;
    if (access.active(lane) != should_be_active) strided = false;
    if (strided && should_be_active && access.offsets[lane] != access.offsets[0] + lane * step) strided = false;
  }
  if (strided && step % access.width_bytes == 0 && access.offsets[0] + step * last >= 0 && step >= 0) {
    out << " --stride " << step / access.width_bytes;
    if (access.offsets[0] != 0) out << " --base " << access.offsets[0];
    if (last != kWarpSize - 1) out << " --lanes 0-" << last;
    return out.str();
  }
  out << " --offsets \"";
  for (int lane = 0; lane < kWarpSize; ++lane) {
    out << (lane ? " " : "");
    if (access.active(lane)) {
      out << access.offsets[lane];
    } else {
      out << '-';
    }
  }
  out << '"';
  return out.str();
}

std::string explain_access(const WarpAccess& access, const std::string& prefix) {
  const AccessCost cost = price(access);
  return indent(format_explanation(cost) + format_bank_map(cost), prefix);
}

std::string count_text(long long n, const std::string& singular) {
  return std::to_string(n) + " " + singular + (n == 1 ? "" : "s");
}

std::vector<LabelledReport> reports_of(const nlohmann::json& answer) {
  std::vector<LabelledReport> reports;
  if (!answer.contains("runs")) return reports;
  for (const auto& run : answer["runs"]) {
    if (!run.contains("report")) continue;
    std::string label;
    if (run.contains("shape") && run["shape"].is_string()) {
      label = run["shape"].get<std::string>();
    } else if (run.contains("width") && run.contains("height")) {
      label = std::to_string(run["width"].get<long long>()) + "x" + std::to_string(run["height"].get<long long>());
    } else if (run.contains("tiles")) {
      label = std::to_string(run["tiles"].get<long long>());
    }
    reports.push_back({label, run["report"]});
  }
  return reports;
}

namespace {

struct LineTotal {
  std::string file;
  int line = 0;
  long long warp_instructions = 0, wavefronts = 0, ideal = 0;
  int worst = 0;
  std::uint64_t unpriced = 0;
  std::string unpriced_why;
  nlohmann::json worst_access;
  std::string worst_context;
  std::string worst_run;
  // The line's lanes taking turns (PricedLine::turns_*), joined.
  long long turns_wavefronts = 0, turns_ideal = 0, turns_worst_excess = 0;
  nlohmann::json turns_access;
  std::string turns_context, turns_run;
};

}  // namespace

Outcome check_line_costs(const std::vector<LabelledReport>& reports, LineKind kind, bool verbose,
                         const std::string& none_found, const std::string& hint, bool explain_cause) {
  std::vector<LineTotal> lines;  // in order of first appearance
  std::string runs;
  std::uint64_t untraced = 0;
  std::string untraced_runs;
  for (const LabelledReport& run : reports) {
    runs += (runs.empty() ? "" : ", ") + run.label;
    // Accesses past what the emulator keeps waiting to be priced in one
    // block are not priced (no line has them): the costs cannot pass.
    if (const std::uint64_t n = run.report.value("untraced_accesses", std::uint64_t{0}); n > 0) {
      untraced += n;
      untraced_runs += (untraced_runs.empty() ? "" : ", ") + run.label;
    }
    // A large grid is priced on a sample of its blocks: say so beside its label.
    const long long blocks = run.report.value("blocks_run", 0LL), traced = run.report.value("blocks_traced", 0LL);
    if (traced > 0 && traced < blocks) {
      runs += " (costs traced on " + std::to_string(traced) + " of " + std::to_string(blocks) +
              " blocks, chosen from the seed)";
    }
    for (const auto& l : run.report["lines"]) {
      const std::uint64_t unpriced_loads = l.value("unpriced_loads", std::uint64_t{0});
      const std::uint64_t unpriced_stores = l.value("unpriced_stores", std::uint64_t{0});
      const bool loads = l["loads"].get<long long>() > 0 || unpriced_loads > 0;
      const bool stores = l["stores"].get<long long>() > 0 || unpriced_stores > 0;
      if ((kind == LineKind::kLoads && !loads) || (kind == LineKind::kStores && !stores)) continue;
      const std::string file = l["file"].get<std::string>();
      const int number_of_line = l["line"].get<int>();
      auto it = std::find_if(lines.begin(), lines.end(),
                             [&](const LineTotal& t) { return t.file == file && t.line == number_of_line; });
      if (it == lines.end()) {
        LineTotal fresh;
        fresh.file = file;
        fresh.line = number_of_line;
        lines.push_back(fresh);
        it = lines.end() - 1;
      }
      it->warp_instructions += l["warp_instructions"].get<long long>();
      it->wavefronts += l["wavefronts"].get<long long>();
      it->ideal += l["ideal_wavefronts"].get<long long>();
      const std::uint64_t unpriced = kind == LineKind::kLoads    ? unpriced_loads
                                     : kind == LineKind::kStores ? unpriced_stores
                                                                 : unpriced_loads + unpriced_stores;
      if (unpriced > 0) {
        it->unpriced += unpriced;
        it->unpriced_why = l.value("unpriced_why", std::string());
      }
      if (const long long turns = l.value("turns_wavefronts", 0LL); turns > 0) {
        it->turns_wavefronts += turns;
        it->turns_ideal += l.value("turns_ideal", 0LL);
        const WarpAccess access = emu::access_from_json(l["turns_access"]);
        const AccessCost cost = price(access);
        if (cost.wavefronts - cost.ideal_wavefronts > it->turns_worst_excess) {
          it->turns_worst_excess = cost.wavefronts - cost.ideal_wavefronts;
          it->turns_access = l["turns_access"];
          it->turns_context = l.value("turns_context", std::string());
          it->turns_run = run.label;
        }
      }
      if (l["warp_instructions"].get<long long>() == 0) continue;  // nothing priced: no worst instance
      // The worst instance is the one with the most wavefronts beyond its ideal.
      const WarpAccess access = emu::access_from_json(l["worst_access"]);
      const AccessCost cost = price(access);
      const int excess = cost.wavefronts - cost.ideal_wavefronts;
      const bool first = it->worst_access.is_null();
      if (first || excess > price(emu::access_from_json(it->worst_access)).bank_conflicts) {
        it->worst = cost.wavefronts;
        it->worst_access = l["worst_access"];
        it->worst_context = l["worst_context"].get<std::string>();
        it->worst_run = run.label;
      }
    }
  }
  if (lines.empty()) return Outcome::fail(none_found);
  std::string report;
  bool all_ideal = true;
  for (const LineTotal& t : lines) {
    std::ostringstream out;
    out << file_name(t.file) << ":" << t.line << ": " << source_line(t.file, t.line) << "\n  " << t.warp_instructions
        << (t.warp_instructions == 1 ? " warp instruction, " : " warp instructions, ")
        << count_text(t.wavefronts, "wavefront") << " (ideal " << t.ideal << ") over " << runs;
    if (t.unpriced > 0) {
      all_ideal = false;
      out << "\n  could not price " << t.unpriced << " more warp instructions: " << t.unpriced_why
          << "; what cannot be priced does not pass";
    }
    if (t.turns_wavefronts > t.turns_ideal) {
      all_ideal = false;
      const WarpAccess access = emu::access_from_json(t.turns_access);
      const AccessCost cost = price(access);
      out << "\n  its lanes take turns: a warp ran this line in several warp instructions, a group of lanes after "
             "another, with a warp function (__syncwarp, a shuffle) or a barrier between them; each is conflict-free, but run "
             "together, as one instruction, they cost "
          << count_text(t.turns_wavefronts, "wavefront") << " (ideal " << t.turns_ideal
          << "), and taking turns costs a GPU the same time as the conflict. The worst, joined (" << t.turns_run
          << ", " << t.turns_context << "):\n"
          << explain_access(access, "    ") << "  reproduce it: " << banksim_command(access) << "\n";
      if (explain_cause) out << "  why: " << conflict_cause(cost) << "\n";
      out << "  let the whole warp run the access at once, and remove its conflict instead";
    }
    if (t.wavefronts > t.ideal) {
      all_ideal = false;
      const WarpAccess access = emu::access_from_json(t.worst_access);
      const AccessCost cost = price(access);
      out << "\n  yours: " << count_text(cost.wavefronts, "wavefront") << ", expected: " << cost.ideal_wavefronts
          << ". The worst warp instruction (" << t.worst_run << ", " << t.worst_context << "):\n";
      out << explain_access(access, "    ");
      out << "  reproduce it: " << banksim_command(access) << "\n";
      if (explain_cause) out << "  why: " << conflict_cause(cost) << "\n";
      out << "  " << hint;
    }
    report += (report.empty() ? "" : "\n") + out.str();
  }
  if (untraced > 0) {
    all_ideal = false;
    report += (report.empty() ? "" : "\n") + std::string("could not price ") + std::to_string(untraced) +
              " shared accesses on " + untraced_runs +
              ": a block had more than 1048576 shared warp instructions waiting to be priced (its warps' lanes did "
              "not meet at a barrier or a warp function in between), past what the emulator traces, so the "
              "lines above do not hold them; what cannot be priced does not pass (does a loop make far more "
              "shared accesses than the task needs?)";
  }
  if (!all_ideal) return Outcome::fail(report);
  return verbose ? Outcome::pass(report) : Outcome::pass();
}

Outcome check_shared_bytes(std::size_t bytes, std::size_t limit, const std::string& limit_text,
                           const std::string& hint) {
  const std::string text =
      "yours: " + std::to_string(bytes) + " bytes of __shared__ memory, at most: " + std::to_string(limit) + " (" +
      limit_text + ")";
  if (bytes > limit) return Outcome::fail(text + "\n" + hint);
  return Outcome::pass(text);
}

Outcome check_prediction(const Prediction& p, const nlohmann::json& answer) {
  const AccessCost cost = price(p.access);
  const long long yours = answer.is_number_integer() ? answer.get<long long>() : 0;
  if (yours == cost.wavefronts) return Outcome::pass(count_text(cost.wavefronts, "wavefront") + ": right");
  // An unanswered question does not give the answer away: predict first.
  if (yours <= 0) {
    return Outcome::fail("not answered yet (" + std::to_string(yours) +
                         "): write your prediction in predicted_wavefronts, then check it with banksim");
  }
  std::ostringstream out;
  out << "yours: " << yours << ", expected: " << count_text(cost.wavefronts, "wavefront") << "\n";
  out << "why: " << banksim_command(p.access) << "\n" << explain_access(p.access, "  ");
  return Outcome::fail(out.str());
}

bool cycles_agree(const nlohmann::json& measured, int passes, bool store, std::string* description) {
  const double cycles = measured["cycles"].get<double>();
  const double per_wavefront = measured["cycles_per_wavefront"].get<double>();
  const double floor = measured["load_floor_cycles"].get<double>();
  double expected = passes * per_wavefront;
  if (!store && expected < floor) expected = floor;
  const bool ok = std::abs(cycles - expected) <= 0.05 * expected + 0.05;
  std::ostringstream out;
  out.precision(3);
  out << std::fixed << cycles << " cycles per warp instruction = " << cycles / per_wavefront
      << " wavefronts' worth (one wavefront: " << per_wavefront << " cycles";
  if (!store) out << "; a load never takes less than " << floor;
  out << "); the model's " << passes << (passes == 1 ? " pipeline pass predicts " : " pipeline passes predict ")
      << expected << " cycles";
  *description = out.str();
  return ok;
}

}  // namespace banklab::grader

namespace banklab::grader {

std::string random_shapes(std::uint64_t seed) {
  std::mt19937_64 rng(seed * 0x9e3779b97f4a7c15ull + 3);
  std::uniform_int_distribution<int> side(16, 160);
  std::ostringstream out;
  out << (2 * side(rng) + 1) << 'x' << (2 * side(rng) + 1);
  // Even, and not a multiple of 32: partial tiles that odd sizes never make.
  auto even = [&] {
    int v = 2 * side(rng);
    return v % 32 == 0 ? v + 2 : v;
  };
  out << ',' << even() << 'x' << even();
  return out.str();
}

namespace {

// "31x33: 12 of 1023 elements wrong; yours vs expected: out[0][31] NaN (never written) vs 1.5"
// `stopped`: the emulator stopped the kernel (a finding, the time limit), so
// the elements it had not written yet count as wrong.
std::string describe_transpose_run(const nlohmann::json& run, bool stopped) {
  std::ostringstream out;
  const long long total = run["width"].get<long long>() * run["height"].get<long long>();
  out << run["width"] << "x" << run["height"] << ": ";
  if (run.contains("error")) {
    out << "CUDA error: " << run["error"].get<std::string>();
    return out.str();
  }
  if (run.contains("problem")) {
    out << "could not check: " << run["problem"].get<std::string>();
    return out.str();
  }
  if (stopped) out << "the kernel did not finish; ";
  out << run["mismatches"] << " of " << total << " elements wrong";
  if (stopped && run["mismatches"].get<long long>() == 0) out << " (so far)";
  bool first = true;
  for (const auto& m : run["first_mismatches"]) {
    out << (first ? "; yours vs expected: " : ", ") << "out[" << m["row"] << "][" << m["col"] << "] ";
    out << (m["got"].is_null() ? std::string("NaN (never written)") : number(m["got"].get<double>()));
    out << " vs " << number(m["expected"].get<double>());
    first = false;
  }
  return out.str();
}

}  // namespace

std::string runs_mismatch(const nlohmann::json& answer, const std::string& shapes) {
  std::vector<std::string> asked;
  std::istringstream list(shapes);
  std::string item;
  while (std::getline(list, item, ',')) asked.push_back(item);
  if (!answer.contains("runs") || !answer["runs"].is_array()) return "the runner's answer has no runs";
  const auto& runs = answer["runs"];
  std::size_t i = 0;
  for (; i < runs.size(); ++i) {
    const auto& run = runs[i];
    std::string label;
    if (run.contains("shape") && run["shape"].is_string()) {
      label = run["shape"].get<std::string>();
    } else if (run.contains("width") && run.contains("height")) {
      label = std::to_string(run["width"].get<long long>()) + "x" + std::to_string(run["height"].get<long long>());
    } else if (run.contains("tiles")) {
      label = std::to_string(run["tiles"].get<long long>());
    }
    if (i >= asked.size() || label != asked[i]) {
      return "the runner's answer does not match the request: run " + std::to_string(i + 1) + " is '" + label +
             "', the grader asked for " + shapes;
    }
  }
  if (i < asked.size()) {
    const bool stopped_early =
        i > 0 && (runs[i - 1].contains("error") ||
                  (runs[i - 1].contains("report") && !runs[i - 1]["report"]["completed"].get<bool>()));
    if (!stopped_early) {
      return "the runner's answer does not match the request: " + std::to_string(i) + " runs for " +
             std::to_string(asked.size()) + " shapes (" + shapes + ")";
    }
  }
  return "";
}

Outcome check_transpose_answer(const RunnerAnswer& a, const std::string& shapes) {
  if (!a.ok) return not_answered(a);
  if (const std::string wrong = runs_mismatch(a.data, shapes); !wrong.empty()) return Outcome::fail(wrong);
  if (!a.data.contains("seed") || !a.data["seed"].is_number_unsigned()) {
    return Outcome::fail("the runner's answer carries no seed: the grader cannot make the input to compare with");
  }
  const std::uint64_t seed = a.data["seed"].get<std::uint64_t>();
  std::string problems;
  for (const auto& run : a.data["runs"]) {
    const bool stopped = run.contains("report") && !run["report"]["completed"].get<bool>();
    nlohmann::json judged = {{"width", run["width"]}, {"height", run["height"]}};
    if (run.contains("error")) {
      judged["error"] = run["error"];
    } else {
      const nlohmann::json verdict = judge_transpose_run(run, seed);
      if (verdict.contains("error")) {
        judged["problem"] = verdict["error"];
      } else {
        judged.update(verdict);
      }
    }
    if (judged.contains("error") || judged.contains("problem") || judged["mismatches"].get<long long>() != 0 || stopped) {
      problems += (problems.empty() ? "" : "\n") + describe_transpose_run(judged, stopped);
      if (stopped) {
        for (const auto& f : run["report"]["findings"]) problems += "\n" + describe_finding(f);
      }
    }
  }
  if (!problems.empty()) return Outcome::fail(problems + "\nexpected: out[x][y] == in[y][x] for every element");
  return Outcome::pass("correct on " + shapes);
}

Outcome check_ratio(const std::string& measured, const std::string& what, double ratio, double limit, bool at_least) {
  std::ostringstream out;
  out.precision(3);
  out << std::fixed << measured << "\n" << what << " = " << ratio << ", expected at " << (at_least ? "least " : "most ")
      << limit;
  return (at_least ? ratio >= limit : ratio <= limit) ? Outcome::pass(out.str()) : Outcome::fail(out.str());
}

PredictedWavefronts predicted_wavefronts(const nlohmann::json& report) {
  PredictedWavefronts p;
  std::map<std::pair<std::string, int>, long long> written;  // (file, line) -> the source view's wavefronts
  for (const auto& l : report["lines"]) {
    // A line may hold both a load and a store: split its wavefronts by instruction.
    const long long stores = l["store_wavefronts"].get<long long>();
    p.written_loads += l["wavefronts"].get<long long>() - stores;
    p.written_stores += stores;
    written[{file_name(l["file"].get<std::string>()), l["line"].get<int>()}] +=
        l["wavefronts"].get<long long>();
  }
  p.loads = p.written_loads;
  p.stores = p.written_stores;
  if (!report.contains("as_compiled") || !report["as_compiled"].is_object()) return p;
  const nlohmann::json& compiled = report["as_compiled"];
  p.as_compiled = true;
  p.loads = compiled["total"]["load_wavefronts"].get<long long>();
  // Nsight Compute's op_st counts stores; a shared atomic is op_atom.
  p.stores = compiled["total"]["store_wavefronts"].get<long long>();
  p.atomics = compiled["total"]["atomic_wavefronts"].get<long long>();
  for (const auto& l : compiled["lines"]) {
    const std::string file = file_name(l["file"].get<std::string>());
    const int line = l["line"].get<int>();
    const long long as_compiled = l["load_wavefronts"].get<long long>() + l["store_wavefronts"].get<long long>() +
                                  l["atomic_wavefronts"].get<long long>();
    const auto found = written.find({file, line});
    const long long as_written = found == written.end() ? 0 : found->second;
    if (as_compiled == as_written) continue;
    const nlohmann::json& how = l["source_view_instructions"];
    std::vector<std::string> why;
    if (how["merged"].get<long long>() > 0) {
      const int widest = l["nvcc_widest_bytes"].get<int>();
      why.push_back(std::to_string(how["merged"].get<long long>()) + " warp instructions merged into " +
                    (widest > 0 ? std::to_string(widest) + "-byte accesses" : "a wider access of another line"));
    }
    if (how["removed"].get<long long>() > 0) {
      why.push_back(std::to_string(how["removed"].get<long long>()) +
                    " not made (nvcc reuses a value it already holds in a register)");
    }
    if (how["hoisted"].get<long long>() > 0) {
      why.push_back(std::to_string(how["hoisted"].get<long long>()) + " made once outside a loop");
    }
    if (how["split"].get<long long>() > 0) {
      why.push_back(std::to_string(how["split"].get<long long>()) + " split into narrower accesses");
    }
    if (how.value("reread", 0LL) > 0) {
      why.push_back(std::to_string(how["reread"].get<long long>()) +
                    " loads added (nvcc reads again what the line stores to, as in `a[i] += x`)");
    }
    std::string reason;
    for (const std::string& w : why) reason += (reason.empty() ? "" : ", ") + w;
    p.changed += "\n  " + file + ":" + std::to_string(line) + ": " + std::to_string(as_written) +
                 " wavefronts as written, " + std::to_string(as_compiled) + " as nvcc compiled it" +
                 (reason.empty() ? "" : " (" + reason + ")");
  }
  return p;
}

}  // namespace banklab::grader

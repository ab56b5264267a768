// Checks for one-kernel stage tasks (task_checks.hpp).
#include "task_checks.hpp"

#include <sstream>

namespace banklab::grader {

std::vector<std::string> task_args(const GradeContext& ctx, const KernelTask& task, const std::string& shapes) {
  return {"run", "--task", task.id, "--shapes", shapes, "--seed", seed_text(ctx.seed())};
}

const RunnerAnswer& run_task(GradeContext& ctx, const KernelTask& task, const std::string& shapes, bool on_backend) {
  const std::vector<std::string> args = task_args(ctx, task, shapes);
  return on_backend && ctx.backend() == Backend::kGpu ? ctx.gpu(args) : ctx.cpu(args);
}

std::string run_label(const nlohmann::json& run) {
  if (run.contains("shape")) return run["shape"].get<std::string>();
  return std::to_string(run["width"].get<int>()) + "x" + std::to_string(run["height"].get<int>());
}

namespace {

std::string mismatch_place(const nlohmann::json& m) {
  if (m.contains("row")) return "[" + m["row"].dump() + "][" + m["col"].dump() + "]";
  return "[" + (m["index"].is_string() ? m["index"].get<std::string>() : m["index"].dump()) + "]";
}

// Output elements of a run as the grader counts them: its reference's, or
// width x height for a transpose (never a count the runner states).
long long run_outputs(const KernelTask& task, const nlohmann::json& run, std::uint64_t seed) {
  if (!task.reference) return run["width"].get<long long>() * run["height"].get<long long>();
  int element_bytes = 4;
  return static_cast<long long>(task.reference(run, seed, &element_bytes).size()) / element_bytes;
}

// The grader's verdict on a run: its raw output against the task's
// reference (or the transpose of the input), {"mismatches",
// "first_mismatches"} or {"error"}.
nlohmann::json judge_run(const KernelTask& task, const nlohmann::json& run, std::uint64_t seed) {
  if (!task.reference) return judge_transpose_run(run, seed);
  int element_bytes = 4;
  const std::vector<unsigned char> expected = task.reference(run, seed, &element_bytes);
  return judge_output(run, expected, element_bytes, task.integer_output);
}

std::vector<LabelledReport> behaviour_reports(const RunnerAnswer& a) {
  std::vector<LabelledReport> reports;
  for (const auto& run : a.data["runs"]) reports.push_back({run_label(run), run["report"]});
  return reports;
}

// Every shape the task is graded on: the fixed ones, then the seed's.
std::string all_shapes(GradeContext& ctx, const KernelTask& task) {
  return task.shapes + "," + task.random_shapes(ctx.seed());
}

// The correctness run on the emulator (the same call on the CPU backend).
const RunnerAnswer& behaviour(GradeContext& ctx, const KernelTask& task) {
  return run_task(ctx, task, all_shapes(ctx, task), false);
}

std::string shortfall(const KernelTask& task, const RunnerAnswer& a, std::uint64_t seed, TrafficKind kind) {
  if (!task.traffic) return "";
  std::vector<TrafficNeed> needs;
  for (const auto& run : a.data["runs"]) {
    if (run.contains("error")) continue;
    TrafficNeed need = task.traffic(run_label(run), run_outputs(task, run, seed));
    need.report = run["report"];
    needs.push_back(need);
  }
  return traffic_shortfall(needs, kind, task.kernel, task.element, task.element_bytes, task.traffic_rule);
}

}  // namespace

Outcome check_task_correct(GradeContext& ctx, const KernelTask& task) {
  const std::string shapes = all_shapes(ctx, task);
  const RunnerAnswer& a = run_task(ctx, task, shapes, true);
  if (!a.ok) return not_answered(a);
  if (const std::string wrong = runs_mismatch(a.data, shapes); !wrong.empty()) return Outcome::fail(wrong);
  std::string problems;
  for (const auto& given : a.data["runs"]) {
    const bool stopped = given.contains("report") && !given["report"]["completed"].get<bool>();
    const std::string shape = run_label(given);
    if (given.contains("error")) {
      problems += (problems.empty() ? "" : "\n") + shape + ": CUDA error: " + given["error"].get<std::string>();
      continue;
    }
    // The verdict is the grader's: the run's raw output against its own
    // reference. Nothing else the run says is read ("mismatches": 0).
    const std::uint64_t seed = ctx.seed();
    const nlohmann::json run = judge_run(task, given, seed);
    if (run.contains("error")) {
      problems += (problems.empty() ? "" : "\n") + shape + ": could not check: " + run["error"].get<std::string>();
      continue;
    }
    if (run["mismatches"].get<long long>() == 0 && !stopped) continue;
    std::ostringstream out;
    out << shape << ": ";
    if (stopped) out << "the kernel did not finish; ";
    out << run["mismatches"] << " of " << run_outputs(task, given, seed) << " outputs wrong";
    if (stopped && run["mismatches"].get<long long>() == 0) out << " (so far)";
    bool first = true;
    for (const auto& m : run["first_mismatches"]) {
      out << (first ? "; yours vs expected: " : ", ") << mismatch_place(m) << " "
          << (m["got"].is_null() ? std::string(task.integer_output ? "never written" : "NaN (never written)")
                                 : number(m["got"].get<double>()))
          << " vs "
          << number(m["expected"].get<double>());
      first = false;
    }
    if (stopped) {
      for (const auto& f : given["report"]["findings"]) out << "\n" << describe_finding(f);
    }
    problems += (problems.empty() ? "" : "\n") + out.str();
  }
  if (!problems.empty()) return Outcome::fail(problems);
  return Outcome::pass("correct on " + shapes);
}

Outcome check_task_findings(GradeContext& ctx, const KernelTask& task) {
  const RunnerAnswer& a = behaviour(ctx, task);
  if (!a.ok) return not_answered(a);
  return check_findings(behaviour_reports(a),
                        {"out-of-bounds global access", "out-of-bounds shared access", "misaligned shared access",
                         "barrier divergence", "deadlock", "shared-memory race", "uninitialised shared read"},
                        "bounds checks on every global access, __syncthreads() reached by every thread, between "
                        "staging and reading",
                        all_shapes(ctx, task));
}

Outcome check_task_cost(GradeContext& ctx, const KernelTask& task, LineKind kind) {
  const RunnerAnswer& a = behaviour(ctx, task);
  if (!a.ok) return not_answered(a);
  for (const auto& run : a.data["runs"]) {
    if (!run["report"]["completed"].get<bool>()) {
      return Outcome::fail("could not check: the kernel did not finish on " + run_label(run));
    }
  }
  const std::string what = kind == LineKind::kLoads ? "load" : kind == LineKind::kStores ? "store" : "access";
  const Outcome cost = check_line_costs(
      behaviour_reports(a), kind, ctx.verbose(),
      "no shared-memory " + what + " found: " + task.kernel + " must stage its data in shared memory", task.hint,
      task.hint_from_access);
  // A cheap line proves nothing when the data went around shared memory.
  if (kind == LineKind::kAll) {
    const std::string stores = shortfall(task, a, ctx.seed(), TrafficKind::kStores);
    return with_traffic(cost, stores.empty() ? shortfall(task, a, ctx.seed(), TrafficKind::kLoads) : stores);
  }
  return with_traffic(cost, shortfall(task, a, ctx.seed(), kind == LineKind::kStores ? TrafficKind::kStores : TrafficKind::kLoads));
}

Outcome check_task_memory(GradeContext& ctx, const KernelTask& task) {
  const RunnerAnswer& a = behaviour(ctx, task);
  if (!a.ok) return not_answered(a);
  return with_traffic(check_shared_bytes(a.data["runs"][0]["report"]["shared_bytes"].get<std::size_t>(),
                                         task.max_bytes, task.bound_text, task.memory_hint),
                      shortfall(task, a, ctx.seed(), TrafficKind::kThrough));
}

Outcome check_task_speedup(GradeContext& ctx, const KernelTask& task) {
  const RunnerAnswer& a = ctx.gpu({"time", "--task", task.id, "--repeats", "20"});
  if (!a.ok) return not_answered(a);
  const double student = a.data["student"].get<double>(), conflicted = a.data["conflicted"].get<double>();
  std::ostringstream out;
  out.precision(3);
  out << std::fixed << "median of 20 runs: yours " << student << " ms, " << task.conflicted_name << " " << conflicted
      << " ms";
  if (a.data.contains("solution")) out << ", reference solution " << a.data["solution"].get<double>() << " ms";
  return check_ratio(out.str(), "speed-up", conflicted / student, task.min_speedup, true);
}

}  // namespace banklab::grader

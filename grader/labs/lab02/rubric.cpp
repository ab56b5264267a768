// Stage 2, stride and gcd: the rubric. conflict_degree against the bank
// model on every stride and lane count; three kernels whose shared-memory
// walks have a stride (a column walk, an array of structures, a 16x16 block)
// for correctness, findings, per-line cost against the ideal and shared
// memory; ten predictions; on a GPU, the cycle probe and timing ratios.
#include <random>
#include <sstream>

#include "checks.hpp"
#include "rubric.hpp"

namespace banklab::grader {

namespace {

struct Task {
  const char* id;           ///< the runners' --task
  const char* kernel;       ///< the student's kernel
  std::string shapes;       ///< correctness shapes (plus random ones)
  std::string behaviour;    ///< the run the shared-memory checks read
  std::size_t max_bytes;    ///< shared-memory bound
  const char* bound_text;   ///< what that bound is
  const char* hint;         ///< for a conflicted line
  double min_speedup;       ///< GPU: conflicted reference time / yours, at least
};

const Task kTasks[] = {
    {"rows", "row_sums", "1,127,128,256,300", "300", 128 * 65 * 4, "128 rows of 65 floats",
     "lanes walk down a column: at row pitch p they are p words apart, so gcd(p, 32) lanes share each bank", 1.5},
    {"particles", "neighbour_distances", "2,129,130,256,300", "300", 129 * 5 * 4, "129 particles of 5 floats",
     "a field of a 4-float structure is 4 words from the same field of the next one: stride 4 is 4-way", 1.3},
    {"transpose16", "transpose16", "16x16,1x1,15x17,17x15,48x32,34x18", "33x31,48x32", 16 * 18 * 4,
     "a 16x18 float tile",
     "a warp is two rows of 16 threads (lanes 0-15 and 16-31): work out the banks of both halves together", 1.02},
};

std::string random_shapes(const Task& task, std::uint64_t seed) {
  std::mt19937_64 rng(seed * 0x9e3779b97f4a7c15ull + 11);
  std::uniform_int_distribution<int> count(2, 700);
  std::uniform_int_distribution<int> side(8, 100);
  std::ostringstream out;
  if (std::string(task.id) == "transpose16") {
    out << 2 * side(rng) + 1 << 'x' << 2 * side(rng) + 1 << ',' << 2 * side(rng) + 2 << 'x' << 2 * side(rng);
  } else {
    // an odd count and an even one that is not a multiple of the block
    int even = 2 * count(rng);
    if (even % 128 == 0) even += 2;
    out << 2 * count(rng) + 1 << ',' << even;
  }
  return out.str();
}

const RunnerAnswer& run_task(GradeContext& ctx, const Task& task, const std::string& shapes, bool on_backend) {
  const std::vector<std::string> args = {"run", "--task", task.id, "--shapes", shapes, "--seed", seed_text(ctx.seed())};
  return on_backend && ctx.backend() == Backend::kGpu ? ctx.gpu(args) : ctx.cpu(args);
}

Outcome check_correct(GradeContext& ctx, const Task& task) {
  const std::string shapes = task.shapes + "," + random_shapes(task, ctx.seed());
  const RunnerAnswer& a = run_task(ctx, task, shapes, true);
  if (!a.ok) return not_answered(a);
  std::string problems;
  for (const auto& run : a.data["runs"]) {
    const bool stopped = run.contains("report") && !run["report"]["completed"].get<bool>();
    const std::string shape = run["shape"].get<std::string>();
    if (run.contains("error")) {
      problems += (problems.empty() ? "" : "\n") + shape + ": CUDA error: " + run["error"].get<std::string>();
      continue;
    }
    if (run["mismatches"].get<long long>() == 0 && !stopped) continue;
    std::ostringstream out;
    out << shape << ": " << run["mismatches"] << " of " << run["elements"] << " outputs wrong";
    bool first = true;
    for (const auto& m : run["first_mismatches"]) {
      out << (first ? "; yours vs expected: " : ", ") << "[" << (m["index"].is_string() ? m["index"].get<std::string>()
                                                                                          : m["index"].dump())
          << "] " << (m["got"].is_null() ? std::string("NaN (never written)") : number(m["got"].get<double>()))
          << " vs " << number(m["expected"].get<double>());
      first = false;
    }
    if (stopped) {
      for (const auto& f : run["report"]["findings"]) out << "\n" << describe_finding(f);
    }
    problems += (problems.empty() ? "" : "\n") + out.str();
  }
  if (!problems.empty()) return Outcome::fail(problems);
  return Outcome::pass("correct on " + shapes);
}

std::vector<LabelledReport> behaviour_reports(const RunnerAnswer& a) {
  std::vector<LabelledReport> reports;
  for (const auto& run : a.data["runs"]) reports.push_back({run["shape"].get<std::string>(), run["report"]});
  return reports;
}

Outcome check_task_findings(GradeContext& ctx, const Task& task) {
  const RunnerAnswer& a = run_task(ctx, task, task.behaviour, false);
  if (!a.ok) return not_answered(a);
  return check_findings(behaviour_reports(a),
                        {"out-of-bounds global access", "out-of-bounds shared access", "barrier divergence",
                         "deadlock", "shared-memory race", "uninitialised shared read"},
                        "bounds checks on every global access, __syncthreads() reached by every thread, between "
                        "staging and reading",
                        task.behaviour);
}

Outcome check_task_cost(GradeContext& ctx, const Task& task) {
  const RunnerAnswer& a = run_task(ctx, task, task.behaviour, false);
  if (!a.ok) return not_answered(a);
  for (const auto& run : a.data["runs"]) {
    if (!run["report"]["completed"].get<bool>()) {
      return Outcome::fail("could not check: the kernel did not finish on " + run["shape"].get<std::string>());
    }
  }
  return check_line_costs(behaviour_reports(a), LineKind::kAll, ctx.verbose(),
                          std::string("no shared-memory access found: ") + task.kernel +
                              " must stage its data in shared memory",
                          task.hint);
}

Outcome check_task_memory(GradeContext& ctx, const Task& task) {
  const RunnerAnswer& a = run_task(ctx, task, task.behaviour, false);
  if (!a.ok) return not_answered(a);
  return check_shared_bytes(a.data["runs"][0]["report"]["shared_bytes"].get<std::size_t>(), task.max_bytes,
                            task.bound_text, "pad by less: an odd pitch is enough for a stride walk");
}

Outcome check_degree(GradeContext& ctx) {
  const RunnerAnswer& a = ctx.cpu({"degree"});
  if (!a.ok) return not_answered(a);
  const auto& d = a.data["conflict_degree"];
  const long long wrong = d["mismatches"].get<long long>();
  if (wrong == 0) {
    return Outcome::pass("right on all " + d["checked"].dump() + " strides 0-1024 x active lanes 1-32");
  }
  std::ostringstream out;
  out << wrong << " of " << d["checked"] << " cases wrong; yours vs expected:";
  for (const auto& m : d["first"]) {
    out << "\n  conflict_degree(" << m["stride"] << ", " << m["lanes"] << ") = " << m["yours"] << ", expected "
        << m["expected"] << "   (banksim --width 4 --stride " << m["stride"] << " --lanes 0-"
        << m["lanes"].get<int>() - 1 << ")";
  }
  out << "\ng = gcd(stride, 32): lanes l and l + 32/g share a bank; stride 0 is one word for every lane";
  return Outcome::fail(out.str());
}

Outcome check_degree_on_gpu(GradeContext& ctx) {
  const RunnerAnswer& a = ctx.gpu({"degree"});
  if (!a.ok) return not_answered(a);
  std::string details;
  bool all = true;
  for (const auto& c : a.data["cases"]) {
    std::ostringstream line;
    line << "stride " << c["stride"] << ", lanes 0-" << c["lanes"].get<int>() - 1 << ": conflict_degree says "
         << c["yours"] << "; ";
    if (c.contains("error")) {
      all = false;
      line << "not measured: " << c["error"].get<std::string>();
    } else {
      std::string description;
      const bool ok = cycles_agree(c, c["yours"].get<int>(), false, &description);
      all = all && ok;
      line << (ok ? "" : "DIFFERS: ") << description;
    }
    details += (details.empty() ? "" : "\n") + line.str();
  }
  return all ? Outcome::pass(details) : Outcome::fail(details + "\nexpected: conflict_degree equal to the GPU's cycles");
}

Outcome check_speedup(GradeContext& ctx, const Task& task) {
  const RunnerAnswer& a = ctx.gpu({"time", "--task", task.id, "--repeats", "20"});
  if (!a.ok) return not_answered(a);
  const double student = a.data["student"].get<double>(), conflicted = a.data["conflicted"].get<double>();
  std::ostringstream out;
  out.precision(3);
  out << std::fixed << "median of 20 runs: yours " << student << " ms, conflicted reference " << conflicted
      << " ms; speed-up " << conflicted / student << "x, expected at least " << task.min_speedup << "x";
  return conflicted / student >= task.min_speedup ? Outcome::pass(out.str()) : Outcome::fail(out.str());
}

std::vector<Prediction> predictions() {
  auto strided = [](std::string id, std::string question, std::int64_t stride, std::int64_t base_word,
                    LaneMask lanes = 0xffffffffu) {
    return Prediction{std::move(id), std::move(question),
                      strided_access(4, MemOp::kLoad, stride, 4 * base_word, lanes)};
  };
  return {
      strided("P1", "lane l reads word l (stride 1).", 1, 0),
      strided("P2", "lane l reads word 2 l (stride 2).", 2, 0),
      strided("P3", "lane l reads word 8 l (stride 8).", 8, 0),
      strided("P4", "lane l reads word 31 l (stride 31).", 31, 0),
      strided("P5", "lane l reads word 48 l (stride 48).", 48, 0),
      strided("P6", "every lane reads word 7 (stride 0).", 0, 7),
      strided("P7", "lane l reads word 5 + 3 l (stride 3, base 5).", 3, 5),
      strided("P8", "only lanes 0-7 are active; lane l reads word 32 l.", 32, 0, 0xffu),
      strided("P9", "only the even lanes are active; lane l reads word 2 l.", 2, 0, 0x55555555u),
      strided("P10", "only lanes 0-15 are active; lane l reads word 16 l.", 16, 0, 0xffffu),
  };
}

Rubric lab02_rubric() {
  Rubric r;
  r.lab = 2;
  r.title = "stride and gcd";
  r.parts = {"the formula", "correctness", "shared-memory behaviour", "predictions", "on the GPU"};
  auto add = [&](std::string name, std::string part, double points, std::vector<std::string> needs, bool gpu_only,
                 std::function<Outcome(GradeContext&)> run) {
    r.checks.push_back({std::move(name), std::move(part), points, std::move(needs), gpu_only, std::move(run)});
  };
  add("conflict_degree on every stride 0-1024 and 1-32 active lanes", "the formula", 10, {}, false, check_degree);
  for (const Task& task : kTasks) {
    const std::string kernel = task.kernel;
    const std::string correct = kernel + " is correct on " + task.shapes + " and random sizes";
    add(correct, "correctness", 8, {}, false, [&task](GradeContext& c) { return check_correct(c, task); });
    add(kernel + ": no race, barrier divergence, uninitialised read or out-of-bounds access",
        "shared-memory behaviour", 2, {}, false, [&task](GradeContext& c) { return check_task_findings(c, task); });
    add(kernel + ": every shared access at its ideal wavefronts", "shared-memory behaviour", 8, {correct}, false,
        [&task](GradeContext& c) { return check_task_cost(c, task); });
    add(kernel + ": shared memory no more than " + task.bound_text, "shared-memory behaviour", 2, {correct}, false,
        [&task](GradeContext& c) { return check_task_memory(c, task); });
  }
  const auto all = predictions();
  for (std::size_t i = 0; i < all.size(); ++i) {
    std::string question = all[i].question;
    if (!question.empty() && question.back() == '.') question.pop_back();
    add("prediction " + all[i].id + ": " + question, "predictions", 2, {}, false, [i](GradeContext& c) {
      const RunnerAnswer& a = c.backend() == Backend::kGpu ? c.gpu({"answers"}) : c.cpu({"answers"});
      if (!a.ok) return not_answered(a);
      return check_prediction(predictions()[i], a.data["predictions"][i]);
    });
  }
  add("conflict_degree equals the GPU's cycles per instruction", "on the GPU", 4, {}, true, check_degree_on_gpu);
  for (const Task& task : kTasks) {
    add(std::string(task.kernel) + " is faster than its conflicted reference on the GPU", "on the GPU", 2,
        {std::string(task.kernel) + " is correct on " + task.shapes + " and random sizes"}, true,
        [&task](GradeContext& c) { return check_speedup(c, task); });
  }
  return r;
}

}  // namespace

BANKLAB_REGISTER_RUBRIC(2, lab02_rubric);

}  // namespace banklab::grader

// Stage 5, broadcast and wide types: the rubric. Four kernels (a broadcast
// table, a double tile, a half tile, float4 loads), each checked for
// correctness, findings, shared-memory cost against the ideal (which is 2
// wavefronts for a warp of 8-byte accesses and 4 for 16-byte ones, not 1)
// and size; ten predictions over 8- and 16-byte patterns; on a GPU, speed-ups
// over the conflicted versions, the cycle probe on the prediction patterns,
// and Nsight Compute against the emulator.
#include <cstring>
#include <random>
#include <sstream>

#include "checks.hpp"
#include "predictions.hpp"
#include "rubric.hpp"
#include "task_checks.hpp"
#include "task_data.hpp"

namespace banklab::grader {

namespace {

std::string random_counts(std::uint64_t seed, int block) {
  std::mt19937_64 rng(seed * 0x9e3779b97f4a7c15ull + 5);
  std::uniform_int_distribution<int> count(2, 900);
  int even = 2 * count(rng);
  if (even % block == 0) even += 2;
  return std::to_string(2 * count(rng) + 1) + "," + std::to_string(even);
}

std::string random_sides(std::uint64_t seed, int tile) {
  std::mt19937_64 rng(seed * 0x9e3779b97f4a7c15ull + 7);
  std::uniform_int_distribution<int> side(tile / 2, 3 * tile);
  return std::to_string(2 * side(rng) + 1) + "x" + std::to_string(2 * side(rng) + 1);
}

// sum_quads' random runs: the counts of random_counts, each with 3 to 6 read
// passes (the fixed runs take 2), so that shared loads are seen to grow with
// `passes`: "301:4,1000:3".
std::string random_quad_runs(std::uint64_t seed) {
  std::mt19937_64 rng(seed * 0x9e3779b97f4a7c15ull + 9);
  std::uniform_int_distribution<int> passes(3, 6);
  const std::string counts = random_counts(seed, 128);
  const auto comma = counts.find(',');
  return counts.substr(0, comma) + ":" + std::to_string(passes(rng)) + "," + counts.substr(comma + 1) + ":" +
         std::to_string(passes(rng));
}

// The tasks in the lab file's order.
enum TaskIndex { kPoly, kDouble, kHalf, kQuads };

std::vector<KernelTask> plain_tasks() {
  return {
      {"poly", "poly_eval", "1,127,128,1000", 8 * 4, "one copy of the 8 coefficients",
       "lanes that read the same word are served together: give every lane the same coefficient address",
       "one table for the whole block is enough: every lane reads the same coefficients", 1.5,
       [](std::uint64_t seed) { return random_counts(seed, 128); }},
      {"double", "transpose_double", "32x32,1x1,31x33,33x31,96x40", 32 * 33 * 8,
       "a 32x33 double tile",
       "8-byte accesses are served a half-warp (16 lanes) at a time: the 16 lanes must cover 32 different banks "
       "(two words each)",
       "price smaller paddings first (banksim --width 8 --stride N for rows of N doubles) and keep the smallest "
       "that costs the ideal; --hint says more", 1.2,
       [](std::uint64_t seed) { return random_sides(seed, 32); }},
      {"half", "transpose_half", "64x64,1x1,63x65,65x63,130x70", 64 * 66 * 2,
       "a 64x66 half tile",
       "two halves share a 32-bit word: a row pitch of 65 halves is 32.5 words, so pairs of rows meet on one bank; "
       "make the pitch an odd number of words",
       "price smaller paddings first (banksim --width 2 --stride N for rows of N halves) and keep the smallest "
       "that costs the ideal; --hint says more", 1.5,
       [](std::uint64_t seed) { return random_sides(seed, 64); }},
      {"quads", "sum_quads", "1,127,128,1000", 128 * 16, "128 float4s",
       "four floats of a thread are 4 words from the next thread's: as four 4-byte loads that is 4-way, as one "
       "16-byte load a quarter-warp covers all 32 banks",
       "stage 128 quads, no more", 1.5, random_quad_runs},
  };
}


// The launch shapes of task_data.hpp (shared with the runners).
constexpr long long kPolyThreads = lab05::kPolyThreads, kTerms = lab05::kTerms, kQuadPasses = lab05::kQuadPasses;

// The grader's reference output of a poly or quads run: the input the
// runner made from the seed, evaluated here (task_data.hpp).
std::vector<unsigned char> reference_1d(bool poly, const nlohmann::json& run, std::uint64_t seed, int* element_bytes) {
  *element_bytes = 4;
  int n = 0, passes = 0;
  if (!run.contains("shape") || !run["shape"].is_string() ||
      !lab05::task_run(poly, run["shape"].get_ref<const std::string&>().c_str(), &n, &passes)) {
    return {};
  }
  const std::vector<float> expected = lab05::expected_output(poly, n, passes, seed);
  std::vector<unsigned char> bytes(expected.size() * sizeof(float));
  if (!bytes.empty()) std::memcpy(bytes.data(), expected.data(), bytes.size());
  return bytes;
}

// The least shared traffic of each task, per run: what the task says goes
// through shared memory (element counts from the run's outputs).
const std::vector<KernelTask>& tasks() {
  static const std::vector<KernelTask> all = [] {
    std::vector<KernelTask> t = plain_tasks();
    t[kPoly].reference = [](const nlohmann::json& run, std::uint64_t seed, int* element_bytes) {
      return reference_1d(true, run, seed, element_bytes);
    };
    t[kQuads].reference = [](const nlohmann::json& run, std::uint64_t seed, int* element_bytes) {
      return reference_1d(false, run, seed, element_bytes);
    };
    t[kPoly].traffic = [](const std::string& label, long long outputs) {
      const long long blocks = (outputs + kPolyThreads - 1) / kPolyThreads;
      return TrafficNeed{label, {}, outputs, blocks * kTerms * 4, outputs * kTerms * 4, 1};
    };
    t[kPoly].traffic_rule = "every lane reads its 8 coefficients from the block's shared table (a broadcast)";
    t[kDouble].traffic = [](const std::string& label, long long outputs) {
      return TrafficNeed{label, {}, outputs, 8 * outputs, 8 * outputs, 1, true};
    };
    t[kDouble].element = "double";
    t[kDouble].element_bytes = 8;
    t[kHalf].traffic = [](const std::string& label, long long outputs) {
      return TrafficNeed{label, {}, outputs, 2 * outputs, 2 * outputs, 1, true};
    };
    t[kHalf].element = "half";
    t[kHalf].element_bytes = 2;
    t[kDouble].traffic_rule = t[kHalf].traffic_rule =
        "every element goes through the tile (one shared store and one shared load each)";
    t[kQuads].traffic = [](const std::string& label, long long outputs) {
      const auto colon = label.find(':');
      const int passes = colon == std::string::npos ? static_cast<int>(kQuadPasses) : std::stoi(label.substr(colon + 1));
      return TrafficNeed{label, {}, outputs, 16 * outputs, 16 * outputs * passes, passes};
    };
    t[kQuads].traffic_rule = "every quad is staged in shared memory once and read from there again in every pass";
    return t;
  }();
  return all;
}

std::vector<Prediction> predictions() {
  std::vector<Prediction> out;
  for (int p = 0; p < lab05::kPredictions; ++p) {
    std::array<std::int64_t, 32> offsets{};
    for (int lane = 0; lane < 32; ++lane) {
      const long long o = lab05::pattern_offset(p, lane);
      offsets[lane] = o < 0 ? kInactive : o;
    }
    const auto& pattern = lab05::kPatterns[p];
    out.push_back({pattern.id, pattern.question,
                   WarpAccess::make(pattern.width_bytes, pattern.store ? MemOp::kStore : MemOp::kLoad, offsets)});
  }
  return out;
}

// The cycle probe on the ten patterns: a load takes the bank model's
// pipeline passes in cycles (its wavefronts, or its lane groups where those
// are more: P9's empty half-warp still takes a pass); stores are reported
// (16-byte stores take 1.5-9% more cycles than their passes on the H200,
// tests/data/gpu/h200_cycle_probe.txt).
Outcome check_cycles(GradeContext& ctx) {
  const RunnerAnswer& a = ctx.gpu({"cycles"});
  if (!a.ok) return not_answered(a);
  const auto all = predictions();
  std::string details;
  bool loads_agree = true;
  for (std::size_t p = 0; p < all.size(); ++p) {
    const auto& m = a.data["patterns"][p];
    const bool store = all[p].access.op == MemOp::kStore;
    const AccessCost cost = price(all[p].access);
    std::string line = all[p].id + " (" + std::to_string(all[p].access.width_bytes) + "-byte " +
                       (store ? "store" : "load") + ", " + std::to_string(cost.wavefronts) + " wavefront" +
                       (cost.wavefronts == 1 ? "" : "s") + ", " + std::to_string(cost.pipeline_passes) + " pass" +
                       (cost.pipeline_passes == 1 ? "" : "es") + "): ";
    if (m.contains("error")) {
      loads_agree = false;
      line += "not measured: " + m["error"].get<std::string>();
    } else {
      std::string description;
      const bool ok = cycles_agree(m, cost.pipeline_passes, store, &description);
      if (!ok && !store) loads_agree = false;
      line += (ok ? "" : store ? "store differs (reported, not graded): " : "DIFFERS: ") + description;
    }
    details += (details.empty() ? "" : "\n") + line;
  }
  return loads_agree ? Outcome::pass(details)
                     : Outcome::fail(details + "\nexpected: every load pattern's cycles equal to its pipeline passes");
}

Outcome check_ncu(GradeContext& ctx) {
  struct Target {
    int task;
    std::string shape, size;
  };
  const Target targets[] = {{kPoly, "4096", "4096"}, {kDouble, "256x256", "256"}, {kHalf, "256x256", "256"},
                            {kQuads, "4096", "4096"}};
  std::string details;
  bool all_pass = true;
  for (const Target& t : targets) {
    const KernelTask& task = tasks()[t.task];
    const Outcome o = check_ncu_wavefronts(ctx, task.kernel, {"ncu-target", "--task", task.id, "--size", t.size},
                                           task_args(ctx, task, t.shape), task.kernel + " " + t.shape);
    if (o.status == Status::kSkip) return o;
    all_pass = all_pass && o.status == Status::kPass;
    details += (details.empty() ? "" : "\n") + o.reason;
  }
  return all_pass ? Outcome::pass(details) : Outcome::fail(details);
}

}  // namespace

Rubric lab05_rubric() {
  Rubric r;
  r.lab = 5;
  r.title = "broadcast and wide types";
  r.parts = {"broadcast", "double tile", "half tile", "vector loads", "predictions", "on the GPU"};
  auto add = [&](std::string name, std::string part, double points, std::vector<std::string> needs, bool gpu_only,
                 std::function<Outcome(GradeContext&)> run) {
    r.checks.push_back({std::move(name), std::move(part), points, std::move(needs), gpu_only, std::move(run)});
  };
  struct Points {
    const char* part;
    double correct, findings, cost, memory;
  };
  const Points points[] = {{"broadcast", 5, 3, 7, 5}, {"double tile", 5, 2, 7, 3}, {"half tile", 5, 2, 7, 3},
                           {"vector loads", 5, 2, 6, 3}};
  for (int t = 0; t < 4; ++t) {
    const KernelTask& task = tasks()[t];
    const Points& p = points[t];
    const std::string correct = task.kernel + " is correct on " + task.shapes + " and random sizes";
    add(correct, p.part, p.correct, {}, false, [&task](GradeContext& c) { return check_task_correct(c, task); });
    add(task.kernel + ": no race, barrier divergence, uninitialised, misaligned or out-of-bounds access", p.part,
        p.findings, {}, false, [&task](GradeContext& c) { return check_task_findings(c, task); });
    if (t == kDouble || t == kHalf) {
      add(task.kernel + ": tile write at its ideal wavefronts", p.part, 3, {correct}, false,
          [&task](GradeContext& c) { return check_task_cost(c, task, LineKind::kStores); });
      add(task.kernel + ": tile read at its ideal wavefronts", p.part, p.cost - 3, {correct}, false,
          [&task](GradeContext& c) { return check_task_cost(c, task, LineKind::kLoads); });
    } else {
      add(task.kernel + ": every shared access at its ideal wavefronts", p.part, p.cost, {correct}, false,
          [&task](GradeContext& c) { return check_task_cost(c, task, LineKind::kAll); });
    }
    add(task.kernel + ": shared memory no more than " + task.bound_text, p.part, p.memory, {correct}, false,
        [&task](GradeContext& c) { return check_task_memory(c, task); });
  }
  const auto all = predictions();
  for (std::size_t i = 0; i < all.size(); ++i) {
    add("prediction " + all[i].id + ": " + all[i].question, "predictions", 2, {}, false, [i](GradeContext& c) {
      const RunnerAnswer& a = c.backend() == Backend::kGpu ? c.gpu({"answers"}) : c.cpu({"answers"});
      if (!a.ok) return not_answered(a);
      return check_prediction(predictions()[i], a.data["predictions"][i]);
    });
  }
  const double gpu_points[] = {2, 2, 2, 1};
  for (int t = 0; t < 4; ++t) {
    const KernelTask& task = tasks()[t];
    std::ostringstream name;
    name << task.kernel << " at least " << task.min_speedup << "x faster than its conflicted version";
    add(name.str(), "on the GPU", gpu_points[t], {task.kernel + " is correct on " + task.shapes + " and random sizes"},
        true, [&task](GradeContext& c) { return check_task_speedup(c, task); });
  }
  add("the cycle probe measures each prediction pattern's pipeline passes (loads)", "on the GPU", 2, {}, true,
      check_cycles);
  const std::vector<std::string> all_correct = [] {
    std::vector<std::string> names;
    for (const auto& t : tasks()) names.push_back(t.kernel + " is correct on " + t.shapes + " and random sizes");
    return names;
  }();
  add("Nsight Compute shared wavefronts match the emulator (all four kernels)", "on the GPU", 1, all_correct, true,
      check_ncu);
  return r;
}

BANKLAB_REGISTER_RUBRIC(5, lab05_rubric);

}  // namespace banklab::grader

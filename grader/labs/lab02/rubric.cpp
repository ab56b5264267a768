// Stage 2, stride and gcd: the rubric. conflict_degree against the bank
// model on every stride and lane count; three kernels whose shared-memory
// walks have a stride (a column walk, an array of structures, a 16x16 block)
// for correctness, findings, per-line cost against the ideal and shared
// memory; ten predictions; on a GPU, the cycle probe and timing ratios. With
// --variant-from, four of the predictions ask about the student's own
// strides (lab02_variants).
#include <algorithm>
#include <cstring>
#include <map>
#include <random>
#include <sstream>

#include "checks.hpp"
#include "rubric.hpp"
#include "task_checks.hpp"
#include "task_data.hpp"
#include "variant.hpp"

namespace banklab::grader {

namespace {

std::string random_shapes(const std::string& id, std::uint64_t seed) {
  std::mt19937_64 rng(seed * 0x9e3779b97f4a7c15ull + 11);
  std::uniform_int_distribution<int> count(2, 700);
  std::uniform_int_distribution<int> side(8, 100);
  std::ostringstream out;
  if (id == "transpose16") {
    out << 2 * side(rng) + 1 << 'x' << 2 * side(rng) + 1 << ',' << 2 * side(rng) + 2 << 'x' << 2 * side(rng);
  } else {
    // an odd count and an even one that is not a multiple of the block
    int even = 2 * count(rng);
    if (even % 128 == 0) even += 2;
    out << 2 * count(rng) + 1 << ',' << even;
  }
  return out.str();
}

// The grader's reference output of a rows or particles run: the same input
// the runner made from the seed, summed here (task_data.hpp).
std::vector<unsigned char> reference_output(const std::string& id, const nlohmann::json& run, std::uint64_t seed) {
  const std::vector<float> expected = lab02::expected_output(id, std::stoi(run["shape"].get<std::string>()), seed);
  std::vector<unsigned char> bytes(expected.size() * sizeof(float));
  if (!bytes.empty()) std::memcpy(bytes.data(), expected.data(), bytes.size());
  return bytes;
}

KernelTask task(const char* id, const char* kernel, const char* shapes, std::size_t max_bytes, const char* bound_text,
                const char* hint, double min_speedup) {
  KernelTask t{.id = id,
               .kernel = kernel,
               .shapes = shapes,
               .max_bytes = max_bytes,
               .bound_text = bound_text,
               .hint = hint,
               .memory_hint = "pad by less: an odd pitch is enough for a stride walk",
               .min_speedup = min_speedup,
               .random_shapes = [id = std::string(id)](std::uint64_t seed) { return random_shapes(id, seed); }};
  t.hint_from_access = true;  // the "why:" line follows the instruction priced, not this kernel's skeleton
  // transpose16 is judged as a transpose (judge_transpose_run); the others against task_data.hpp.
  if (std::string(id) != "transpose16") {
    t.reference = [id = std::string(id)](const nlohmann::json& run, std::uint64_t seed, int* element_bytes) {
      *element_bytes = 4;
      return reference_output(id, run, seed);
    };
  }
  return t;
}

long long blocks_of(long long count, long long per_block) { return (count + per_block - 1) / per_block; }

// The least shared traffic of each task, per run: what the task says goes
// through shared memory.
KernelTask with_traffic_rows(KernelTask t) {
  t.traffic = [](const std::string& label, long long outputs) {
    const long long bytes = std::stoll(label) * 64 * 4;  // every float of every row, stored once and read once
    return TrafficNeed{label, {}, outputs, bytes, bytes, 1};
  };
  t.traffic_rule = "each row goes through shared memory: its 64 floats staged once and read back once";
  return t;
}
KernelTask with_traffic_particles(KernelTask t) {
  t.traffic = [](const std::string& label, long long outputs) {
    // Each output reads at least its neighbour (16 bytes) from the staged
    // block; every particle but one per block was staged for a neighbour.
    const long long blocks = blocks_of(std::stoll(label), 128);
    return TrafficNeed{label, {}, outputs, std::max(0LL, outputs - blocks) * 16, outputs * 16, 1};
  };
  t.traffic_rule = "the block's particles go through shared memory: each output reads its neighbour from there";
  return t;
}
KernelTask with_traffic_transpose(KernelTask t) {
  t.traffic = [](const std::string& label, long long outputs) {
    TrafficNeed need{label, {}, outputs, 4 * outputs, 4 * outputs, 1};
    need.exchange = true;  // a thread reads what other threads stored: the transpose happens in the tile
    return need;
  };
  t.traffic_rule = "every element goes through the tile (one shared store and one shared load each, read by "
                   "another thread than the one that stored it)";
  return t;
}

const std::vector<KernelTask>& tasks() {
  static const std::vector<KernelTask> all = {
      with_traffic_rows(task("rows", "row_sums", "1,127,128,256,300", 128 * 65 * 4, "128 rows of 65 floats",
           "lanes walk down a column: at row pitch p they are p words apart, so gcd(p, 32) lanes share each bank", 1.5)),
      with_traffic_particles(task("particles", "neighbour_distances", "2,129,130,256,300", 129 * 5 * 4, "129 particles of 5 floats",
           "a field of a structure of F floats is F words from the same field of the next one; the staging stores count too", 1.3)),
      with_traffic_transpose(task("transpose16", "transpose16", "16x16,1x1,15x17,17x15,48x32,34x18", 16 * 18 * 4,
           "a 16x18 float tile",
           "a warp is two rows of 16 threads (lanes 0-15 and 16-31): work out the banks of both halves together",
           1.02)),
  };
  return all;
}

// conflict_degree's values from the runner (raw int32s, stride-major),
// compared here with the bank model on every stride and lane count.
Outcome check_degree(GradeContext& ctx) {
  const RunnerAnswer& a = ctx.cpu({"degree"});
  if (!a.ok) return not_answered(a);
  constexpr int kMaxStride = lab02::kMaxStride;
  const std::size_t cases = static_cast<std::size_t>(kMaxStride + 1) * kWarpSize;
  std::vector<unsigned char> bytes;
  std::string why;
  if (!a.data.contains("conflict_degree") ||
      !output_bytes(a.data["conflict_degree"], &bytes, &why) || bytes.size() != cases * sizeof(std::int32_t)) {
    return Outcome::fail("could not check: the runner did not return " + std::to_string(cases) +
                         " values of conflict_degree" + (why.empty() ? "" : " (" + why + ")"));
  }
  long long wrong = 0;
  std::ostringstream first;
  for (int stride = 0; stride <= kMaxStride; ++stride) {
    for (int n = 1; n <= kWarpSize; ++n) {
      const std::size_t i = static_cast<std::size_t>(stride) * kWarpSize + static_cast<std::size_t>(n - 1);
      std::int32_t yours;
      std::memcpy(&yours, &bytes[i * sizeof yours], sizeof yours);
      const LaneMask lanes = n == kWarpSize ? 0xffffffffu : (LaneMask{1} << n) - 1;
      const int expected = count_wavefronts(strided_access(4, MemOp::kLoad, stride, 0, lanes)).wavefronts;
      if (yours == expected) continue;
      if (++wrong > 5) continue;
      first << "\n  conflict_degree(" << stride << ", " << n << ") = " << yours << ", expected " << expected
            << "   (banksim --width 4 --stride " << stride << " --lanes 0-" << n - 1 << ")";
    }
  }
  if (wrong == 0) return Outcome::pass("right on all " + std::to_string(cases) + " strides 0-1024 x active lanes 1-32");
  std::ostringstream out;
  out << wrong << " of " << cases << " cases wrong; yours vs expected:" << first.str();
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

// The stage's variant space: the strides of four predictions (values[0]
// is the stage as it is). Their wavefronts: P3 8, 4, 16, 4; P4 1, 2, 4, 1;
// P5 16, 8, 4, 32; P10 (16 lanes) 8, 4, 16, 2.
VariantSpace lab02_variants() {
  VariantSpace space;
  space.axes = {
      {"p3_stride", "BANKLAB_P3_STRIDE", {8, 4, 16, 12}, "prediction P3: lane l reads word R l"},
      {"p4_stride", "BANKLAB_P4_STRIDE", {31, 30, 28, 33}, "prediction P4: lane l reads word R l"},
      {"p5_stride", "BANKLAB_P5_STRIDE", {48, 40, 20, 96}, "prediction P5: lane l reads word R l"},
      {"p10_stride", "BANKLAB_P10_STRIDE", {16, 8, 32, 4},
       "prediction P10: only lanes 0-15 are active; lane l reads word R l"},
  };
  return space;
}

// The strides one rubric asks about (the stage's own without a variant).
struct Params {
  bool variant = false;
  int p3 = 8, p4 = 31, p5 = 48, p10 = 16;
};

Params params_of(const Variant& variant) {
  const VariantSpace space = lab02_variants();
  return {variant.active(), variant_value(space, variant, "p3_stride"), variant_value(space, variant, "p4_stride"),
          variant_value(space, variant, "p5_stride"), variant_value(space, variant, "p10_stride")};
}

std::vector<Prediction> predictions(const Params& p = {}) {
  auto strided = [](std::string id, std::string question, std::int64_t stride, std::int64_t base_word,
                    LaneMask lanes = 0xffffffffu) {
    return Prediction{std::move(id), std::move(question),
                      strided_access(4, MemOp::kLoad, stride, 4 * base_word, lanes)};
  };
  auto word = [](int stride) {
    const std::string s = std::to_string(stride);
    return "lane l reads word " + s + " l (stride " + s + ").";
  };
  const std::string p10 = std::to_string(p.p10);
  return {
      strided("P1", "lane l reads word l (stride 1).", 1, 0),
      strided("P2", "lane l reads word 2 l (stride 2).", 2, 0),
      strided("P3", word(p.p3), p.p3, 0),
      strided("P4", word(p.p4), p.p4, 0),
      strided("P5", word(p.p5), p.p5, 0),
      strided("P6", "every lane reads word 7 (stride 0).", 0, 7),
      strided("P7", "lane l reads word 5 + 3 l (stride 3, base 5).", 3, 5),
      strided("P8", "only lanes 0-7 are active; lane l reads word 32 l.", 32, 0, 0xffu),
      strided("P9", "only the even lanes are active; lane l reads word 2 l.", 2, 0, 0x55555555u),
      strided("P10", "only lanes 0-15 are active; lane l reads word " + p10 + " l.", p.p10, 0, 0xffffu),
  };
}

// A prediction's check name. Under a variant the four that vary name their
// stride by its macro, so that a gradebook has one column for each.
std::string prediction_name(const Params& p, const Prediction& q) {
  std::string question = q.question;
  if (!question.empty() && question.back() == '.') question.pop_back();
  if (p.variant) {
    const std::map<std::string, std::string> macro = {{"P3", "BANKLAB_P3_STRIDE"},
                                                      {"P4", "BANKLAB_P4_STRIDE"},
                                                      {"P5", "BANKLAB_P5_STRIDE"},
                                                      {"P10", "BANKLAB_P10_STRIDE"}};
    const auto found = macro.find(q.id);
    if (found != macro.end()) {
      question = (q.id == "P10" ? "only lanes 0-15 are active; lane l reads word R l (R = " : "lane l reads word R l (R = ") +
                 found->second + ")";
    }
  }
  return "prediction " + q.id + ": " + question;
}

Rubric lab02_rubric_of(const Variant& variant) {
  const Params p = params_of(variant);
  Rubric r;
  r.lab = 2;
  r.title = "stride and gcd";
  r.parts = {"the formula", "correctness", "shared-memory behaviour", "predictions", "on the GPU"};
  auto add = [&](std::string name, std::string part, double points, std::vector<std::string> needs, bool gpu_only,
                 std::function<Outcome(GradeContext&)> run) {
    r.checks.push_back({std::move(name), std::move(part), points, std::move(needs), gpu_only, std::move(run)});
  };
  add("conflict_degree on every stride 0-1024 and 1-32 active lanes", "the formula", 10, {}, false, check_degree);
  for (const KernelTask& task : tasks()) {
    const std::string kernel = task.kernel;
    const std::string correct = kernel + " is correct on " + task.shapes + " and random sizes";
    add(correct, "correctness", 8, {}, false, [&task](GradeContext& c) { return check_task_correct(c, task); });
    add(kernel + ": no race, barrier divergence, uninitialised read or out-of-bounds access",
        "shared-memory behaviour", 2, {}, false, [&task](GradeContext& c) { return check_task_findings(c, task); });
    add(kernel + ": every shared access at its ideal wavefronts", "shared-memory behaviour", 8, {correct}, false,
        [&task](GradeContext& c) { return check_task_cost(c, task, LineKind::kAll); });
    add(kernel + ": shared memory no more than " + task.bound_text, "shared-memory behaviour", 2, {correct}, false,
        [&task](GradeContext& c) { return check_task_memory(c, task); });
  }
  const auto all = predictions(p);
  for (std::size_t i = 0; i < all.size(); ++i) {
    add(prediction_name(p, all[i]), "predictions", 2, {}, false, [p, i](GradeContext& c) {
      const RunnerAnswer& a = c.backend() == Backend::kGpu ? c.gpu({"answers"}) : c.cpu({"answers"});
      if (!a.ok) return not_answered(a);
      const Prediction q = predictions(p)[i];
      Outcome outcome = check_prediction(q, a.data["predictions"][i]);
      if (p.variant && prediction_name(p, q) != prediction_name(Params{}, q)) {
        outcome.reason = "your variant: " + q.question + " " + outcome.reason;
      }
      return outcome;
    });
  }
  add("conflict_degree equals the GPU's cycles per instruction", "on the GPU", 4, {}, true, check_degree_on_gpu);
  for (const KernelTask& task : tasks()) {
    add(task.kernel + " is faster than its conflicted reference on the GPU", "on the GPU", 2,
        {task.kernel + " is correct on " + task.shapes + " and random sizes"}, true,
        [&task](GradeContext& c) { return check_task_speedup(c, task); });
  }
  return r;
}

Rubric lab02_rubric() { return lab02_rubric_of(Variant{}); }

}  // namespace

BANKLAB_REGISTER_RUBRIC(2, lab02_rubric);
BANKLAB_REGISTER_VARIANT_RUBRIC(2, lab02_variants, lab02_rubric_of);

}  // namespace banklab::grader

// Stage 3, padded transpose: the rubric. Correctness on odd, large and random
// shapes with poisoned outputs (the grader compares the runner's raw output);
// emulator findings and the cost of the tile's shared accesses on those same
// runs (priced by the grader); shared-memory size; two predictions; and, on
// a GPU, speed and Nsight Compute. With --variant-from, a student's variant
// changes the block's rows and the two predicted tiles (lab03_variants).
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "banklab/bank_model.hpp"
#include "banklab/emulator_json.hpp"
#include "checks.hpp"
#include "process.hpp"
#include "rubric.hpp"
#include "variant.hpp"

namespace banklab::grader {

namespace {

constexpr int kTile = 32;
constexpr std::size_t kPaddedTileBytes = kTile * (kTile + 1) * sizeof(float);
constexpr int kTimingSize = 8192;
constexpr int kNcuSize = 256;
// The correctness runs. The findings, cost and memory checks read these same
// runs on the emulator (every one of them, the large and random shapes too),
// so a kernel cannot behave well on a separate, recognisable pricing run.
const std::string kSquare = "32x32";
const std::string kPartial = "1x1,31x33,33x31";
const std::string kLarge = "1024x2048,2048x1024";

std::vector<std::string> correctness_shapes(std::uint64_t seed) {
  return {kSquare, kPartial, kLarge, random_shapes(seed)};
}

// The stage's variant space: values[0] of each axis is the stage as it is.
// block_rows changes the launch (block (32, R): a kernel written for 8 rows
// leaves rows out or runs past its tile), p1_row and p2_row the two tiles
// whose column reads the student predicts (row lengths with 32, 16, 8 and 4
// lanes per bank, and with 1 or 2).
VariantSpace lab03_variants() {
  VariantSpace space;
  space.axes = {
      {"block_rows", "BANKLAB_BLOCK_ROWS", {8, 4, 16},
       "rows of threads per block: transpose_padded is launched with block (32, R), each thread moving 32 / R "
       "elements of its column"},
      {"p1_row", "BANKLAB_P1_ROW", {32, 48, 40, 36},
       "prediction P1 is the column read of float tile[32][R]"},
      {"p2_row", "BANKLAB_P2_ROW", {33, 34, 31, 38},
       "prediction P2 is the column read of float tile[32][R]"},
  };
  return space;
}

// The parameters one rubric grades with (the stage's own without a variant).
struct Params {
  bool variant = false;  // the runners are told the block's rows only in a variant
  int block_rows = 8;
  int p1_row = 32;
  int p2_row = 33;
};

Params params_of(const Variant& variant) {
  const VariantSpace space = lab03_variants();
  return {variant.active(), variant_value(space, variant, "block_rows"), variant_value(space, variant, "p1_row"),
          variant_value(space, variant, "p2_row")};
}

std::vector<std::string> run_args(GradeContext& ctx, const Params& p, const std::string& shapes) {
  std::vector<std::string> args = {"run", "--shapes", shapes, "--seed", seed_text(ctx.seed())};
  if (p.variant) args.insert(args.end(), {"--block-rows", std::to_string(p.block_rows)});
  return args;
}

// Correctness on a list of shapes, on the backend in use.
Outcome check_shapes(GradeContext& ctx, const Params& p, const std::string& shapes) {
  const std::vector<std::string> args = run_args(ctx, p, shapes);
  return check_transpose_answer(ctx.backend() == Backend::kGpu ? ctx.gpu(args) : ctx.cpu(args), shapes);
}

// Every correctness run on the emulator, with its report; `failed` is the
// first answer that did not come (then the reports are not all there), and
// `missing` the shapes it was for.
struct EmulatorRuns {
  std::vector<LabelledReport> reports;
  std::string shapes;  // all of them, "32x32, 1x1, ..."
  const RunnerAnswer* failed = nullptr;
  std::string missing;
};

EmulatorRuns emulator_runs(GradeContext& ctx, const Params& p) {
  EmulatorRuns runs;
  for (const std::string& shapes : correctness_shapes(ctx.seed())) {
    const RunnerAnswer& a = ctx.cpu(run_args(ctx, p, shapes));
    if (!a.ok) {
      if (runs.failed == nullptr) runs.failed = &a;
      runs.missing += (runs.missing.empty() ? "" : ",") + shapes;
      continue;
    }
    for (LabelledReport& r : reports_of(a.data)) {
      runs.shapes += (runs.shapes.empty() ? "" : ", ") + r.label;
      runs.reports.push_back(std::move(r));
    }
  }
  return runs;
}

// A run with no answer at all (the runner ran out of time, crashed outside
// the kernel) is graded by its correctness check; the findings checks vouch
// for the runs that answered, as for a run that stopped, and say so. The
// cost checks do not: what was not priced does not pass.
Outcome check_behaviour_findings(GradeContext& ctx, const Params& p, const std::vector<std::string>& kinds,
                                 const std::string& hint) {
  const EmulatorRuns runs = emulator_runs(ctx, p);
  if (runs.reports.empty() && runs.failed != nullptr) return not_answered(*runs.failed);
  Outcome outcome = check_findings(runs.reports, kinds, hint, runs.shapes);
  if (outcome.status == Status::kPass && !runs.missing.empty()) {
    outcome.reason += "; no answer for " + runs.missing + " (graded by the correctness checks)";
  }
  return outcome;
}

Outcome check_tile_cost(GradeContext& ctx, const Params& p, bool stores) {
  const EmulatorRuns runs = emulator_runs(ctx, p);
  if (runs.failed != nullptr) return not_answered(*runs.failed);
  return check_line_costs(
      runs.reports, stores ? LineKind::kStores : LineKind::kLoads, ctx.verbose(),
      std::string("no shared-memory ") + (stores ? "store" : "load") +
          " found: the kernel must stage the tile in shared memory (__shared__ float tile[...])",
      "look at the index: lanes of a warp that hit one bank with different words are served one after another");
}

Outcome check_shared_size(GradeContext& ctx, const Params& p) {
  const EmulatorRuns runs = emulator_runs(ctx, p);
  if (runs.failed != nullptr) return not_answered(*runs.failed);
  std::size_t bytes = 0;
  for (const LabelledReport& r : runs.reports) {
    bytes = std::max(bytes, r.report["shared_bytes"].get<std::size_t>() + r.report["dynamic_shared_bytes"].get<std::size_t>());
  }
  return check_shared_bytes(bytes, kPaddedTileBytes, "a 32x33 float tile",
                            "more shared memory per block can mean fewer blocks per SM");
}

// The GPU's limits, from the H200 (tests/data/gpu/h200_merged/batch, 8192x8192,
// median of 20): conflict-free correct files ran 1.39x to 2.2x faster than the
// conflicted tile and at 1.0x to 1.57x the reference's time (the slower ones
// only because nvcc does not unroll a row loop that starts at threadIdx.y or
// ends at a bound known at run time); conflicted tiles ran at 1.0x and 2.2x.
// The limits lie between, so that no conflict-free kernel loses points for
// how nvcc scheduled it.
constexpr double kMinSpeedup = 1.2;
constexpr double kMaxOfSolution = 1.8;

Outcome check_speedup(GradeContext& ctx, bool against_solution) {
  const RunnerAnswer& a = ctx.gpu({"time", "--size", std::to_string(kTimingSize), "--repeats", "20"});
  if (!a.ok) return not_answered(a);
  const double student = a.data["student"].get<double>();
  const double conflicted = a.data["conflicted"].get<double>();
  const double solution = a.data["solution"].get<double>();
  std::ostringstream out;
  out.precision(3);
  out << std::fixed << "median of 20 runs, " << kTimingSize << "x" << kTimingSize << " floats: yours " << student
      << " ms, conflicted tile " << conflicted << " ms, reference solution " << solution << " ms";
  if (against_solution) return check_ratio(out.str(), "yours / solution", student / solution, kMaxOfSolution, false);
  return check_ratio(out.str(), "speed-up over the conflicted tile", conflicted / student, kMinSpeedup, true);
}

// The two predictions: the column read of tile[32][32] and of tile[32][33],
// or of the variant's tiles. A variant's check names the tile by its macro
// (every variant the same name, so that a gradebook has one column for it);
// its message names the tile with the student's numbers.
std::vector<Prediction> predictions(const Params& p) {
  auto tile = [](int row) { return "float tile[32][" + std::to_string(row) + "]"; };
  return {{"P1", "the column read of " + tile(p.p1_row), strided_access(4, MemOp::kLoad, p.p1_row)},
          {"P2", "the column read of " + tile(p.p2_row), strided_access(4, MemOp::kLoad, p.p2_row)}};
}

std::string prediction_check_name(const Params& p, std::size_t i) {
  const Prediction q = predictions(p)[i];
  if (!p.variant) return "prediction " + q.id + ": " + q.question;
  return "prediction " + q.id + ": the column read of float tile[32][" + (i == 0 ? "BANKLAB_P1_ROW" : "BANKLAB_P2_ROW") +
         "]";
}

Outcome check_predicted(GradeContext& ctx, const Params& p, std::size_t i) {
  const RunnerAnswer& a = ctx.backend() == Backend::kGpu ? ctx.gpu({"answers"}) : ctx.cpu({"answers"});
  if (!a.ok) return not_answered(a);
  if (a.data["predictions"].is_null()) {
    // A fail, not a skip: deleting the predictions must not be a way around them.
    return Outcome::fail(
        "this file has no predicted_wavefronts: add `int predicted_wavefronts[2] = {0, 0};` as at the end of the "
        "current labs/03-padded-transpose/transpose.cu, then write your predictions there");
  }
  const Prediction q = predictions(p)[i];
  Outcome outcome = check_prediction(q, a.data["predictions"][i]);
  if (p.variant) outcome.reason = "your variant: " + q.question + "; " + outcome.reason;
  return outcome;
}

// Nsight Compute's instrumented shared wavefront counters against the emulator.
Outcome check_ncu(GradeContext& ctx) {
  const std::string shape = std::to_string(kNcuSize) + "x" + std::to_string(kNcuSize);
  return check_ncu_wavefronts(ctx, "transpose_padded", {"ncu-target", "--size", std::to_string(kNcuSize)},
                              run_args(ctx, Params{}, shape), shape);
}

}  // namespace

// The rubric of one variant (the stage's own for an inactive one).
Rubric lab03_rubric_of(const Variant& variant) {
  const Params p = params_of(variant);
  Rubric r;
  r.lab = 3;
  r.title = "padded transpose";
  r.parts = {"correctness", "shared-memory behaviour", "predictions", "performance"};
  const std::string square = "transpose of a 32x32 matrix";
  auto add = [&](std::string name, std::string part, double points, std::vector<std::string> needs, bool gpu_only,
                 std::function<Outcome(GradeContext&)> run) {
    r.checks.push_back({std::move(name), std::move(part), points, std::move(needs), gpu_only, std::move(run)});
  };
  add(square, "correctness", 5, {}, false, [p](GradeContext& c) { return check_shapes(c, p, kSquare); });
  add("transpose of partial tiles: 1x1, 31x33, 33x31", "correctness", 10, {}, false,
      [p](GradeContext& c) { return check_shapes(c, p, kPartial); });
  add("transpose of 1024x2048 and 2048x1024", "correctness", 10, {}, false,
      [p](GradeContext& c) { return check_shapes(c, p, kLarge); });
  add("transpose of two random shapes, odd and even", "correctness", 10, {}, false,
      [p](GradeContext& c) { return check_shapes(c, p, random_shapes(c.seed())); });
  add("no out-of-bounds memory access", "correctness", 5, {}, false, [p](GradeContext& c) {
    return check_behaviour_findings(c, p, {"out-of-bounds global access", "out-of-bounds shared access"},
                          "check the bounds test of every global read and write (x < width, y + j < height)");
  });
  add("no barrier divergence", "shared-memory behaviour", 5, {}, false, [p](GradeContext& c) {
    return check_behaviour_findings(c, p, {"barrier divergence", "deadlock"},
                          "__syncthreads() must be reached by every thread of the block: keep it outside any if, and do not return before it");
  });
  add("no shared-memory race", "shared-memory behaviour", 5, {}, false, [p](GradeContext& c) {
    return check_behaviour_findings(c, p, {"shared-memory race"},
                          "between writing the tile and reading it back, every thread must pass a __syncthreads()");
  });
  add("no uninitialised shared read", "shared-memory behaviour", 5, {}, false, [p](GradeContext& c) {
    return check_behaviour_findings(c, p, {"uninitialised shared read"},
                          "the read must only touch tile elements the write filled (and after the barrier)");
  });
  add("tile write costs 1 wavefront per warp instruction", "shared-memory behaviour", 10, {square}, false,
      [p](GradeContext& c) { return check_tile_cost(c, p, true); });
  add("tile read costs 1 wavefront per warp instruction", "shared-memory behaviour", 10, {square}, false,
      [p](GradeContext& c) { return check_tile_cost(c, p, false); });
  add("shared memory no more than a 32x33 float tile", "shared-memory behaviour", 5, {square}, false,
      [p](GradeContext& c) { return check_shared_size(c, p); });
  for (std::size_t i = 0; i < predictions(p).size(); ++i) {
    add(prediction_check_name(p, i), "predictions", 5, {}, false,
        [p, i](GradeContext& c) { return check_predicted(c, p, i); });
  }
  const std::string faster = "at least 1.2x faster than the conflicted tile";
  add(faster, "performance", 10, {square}, true, [](GradeContext& c) { return check_speedup(c, false); });
  add("at most 1.8x the reference solution's time", "performance", 5, {square}, true,
      [](GradeContext& c) { return check_speedup(c, true); });
  add("Nsight Compute shared wavefronts match the emulator", "performance", 5, {square}, true, check_ncu);
  return r;
}

Rubric lab03_rubric() { return lab03_rubric_of(Variant{}); }

BANKLAB_REGISTER_RUBRIC(3, lab03_rubric);
BANKLAB_REGISTER_VARIANT_RUBRIC(3, lab03_variants, lab03_rubric_of);

}  // namespace banklab::grader

// Stage 4, XOR swizzle: the rubric. Task A: the swizzle map's three rules on
// every (row, col) of the 32x32 tile, the swizzled transpose's correctness,
// findings, per-line costs and shared-memory size. Task B: the same for the
// 16-byte chunk swizzle. On a GPU: speed against the conflicted tile and
// stage 3's padded solution, and Nsight Compute against the emulator.
#include <cstring>
#include <random>
#include <set>
#include <sstream>

#include "checks.hpp"
#include "raw_answers.hpp"
#include "rubric.hpp"
#include "task_data.hpp"
#include "traffic_checks.hpp"

namespace banklab::grader {

namespace {

constexpr int kTile = 32;
constexpr int kChunks = 8;
constexpr std::size_t kTileBytes = kTile * kTile * sizeof(float);
constexpr int kTimingSize = 8192;
constexpr int kTimingTiles = 65536;  // 256 MiB of float4 chunks in and out
constexpr int kTimingPasses = 8;
constexpr int kNcuSize = 256;
constexpr int kNcuTiles = 64;
// Every run of a task is graded for correctness and priced: the findings,
// cost and memory checks read the correctness runs (on the emulator, with
// the same command lines), so no run can be told apart as "the pricing run"
// by its arguments, its grid or a fixed small shape, and every block of
// every run is traced. Task A's runs: one per correctness check.
const char* const kSquareShapes = "32x32";
const char* const kPartialShapes = "1x1,31x33,33x31";
const char* const kLargeShapes = "1024x2048,2048x1024";
// Task B's runs: one tile read once, three tiles read in three passes, and
// a tile count and pass count drawn from the seed (never equal).
const std::string kChunkShapes = "1";
const std::string kChunkPassShapes = "3";
constexpr int kChunkPasses = 3;

// ---- the maps -----------------------------------------------------------------

const RunnerAnswer& maps(GradeContext& ctx) { return ctx.cpu({"maps"}); }

std::string sequence(const std::vector<int>& values) {
  std::string out;
  for (std::size_t i = 0; i < values.size(); ++i) out += (i ? "," : "") + std::to_string(values[i]);
  return out;
}

// The map's values for one row (fixed = row) or one logical column (fixed = column).
std::vector<int> line_of(const nlohmann::json& map, int fixed, bool row, int rows, int cols) {
  std::vector<int> values;
  if (row) {
    for (int c = 0; c < cols; ++c) values.push_back(map[fixed][c].get<int>());
  } else {
    for (int r = 0; r < rows; ++r) values.push_back(map[r][fixed].get<int>());
  }
  return values;
}

// Rule 1: every value in [0, cols).
Outcome check_range(GradeContext& ctx, const char* key, const char* name, int rows, int cols) {
  const RunnerAnswer& a = maps(ctx);
  if (!a.ok) return not_answered(a);
  const auto& map = a.data[key];
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      const int v = map[r][c].get<int>();
      if (v < 0 || v >= cols) {
        std::ostringstream out;
        out << name << "(" << r << ", " << c << ") = " << v << ": outside 0.." << cols - 1
            << ", so the element leaves its row (into the next row, or past the tile)\n"
            << "row " << r << " maps to " << sequence(line_of(map, r, true, rows, cols)) << "\n"
            << "expected: values in 0.." << cols - 1 << "; an XOR of two numbers below " << cols
            << " stays below it, a sum does not";
        return Outcome::fail(out.str());
      }
    }
  }
  return Outcome::pass("all " + std::to_string(rows * cols) + " values in 0.." + std::to_string(cols - 1));
}

// Rule 2 (row) or 3 (column, in groups of `group` rows read together): one-to-one.
Outcome check_one_to_one(GradeContext& ctx, const char* key, const char* name, int rows, int cols, bool row,
                         int group) {
  const RunnerAnswer& a = maps(ctx);
  if (!a.ok) return not_answered(a);
  const auto& map = a.data[key];
  const int lines = row ? rows : cols;
  for (int fixed = 0; fixed < lines; ++fixed) {
    const std::vector<int> values = line_of(map, fixed, row, rows, cols);
    for (std::size_t start = 0; start < values.size(); start += group) {
      for (std::size_t i = start; i < start + group && i < values.size(); ++i) {
        for (std::size_t j = start; j < i; ++j) {
          if (values[i] != values[j]) continue;
          std::ostringstream out;
          if (row) {
            out << "row " << fixed << ": columns " << j << " and " << i << " both go to " << values[i] << " (" << name
                << "(" << fixed << ", " << j << ") = " << name << "(" << fixed << ", " << i << ")), so one overwrites "
                << "the other\nrow " << fixed << " maps to " << sequence(values)
                << "\nexpected: each row a permutation of 0.." << cols - 1;
          } else {
            out << (group == rows ? "logical column " : "logical chunk ") << fixed << ": rows " << j << " and " << i
                << " both land in physical " << (group == rows ? "column " : "chunk ") << values[i]
                << ", the same bank" << (group == rows ? "" : "s") << ", so reading them together conflicts\n"
                << (group == rows ? "column " : "chunk ") << fixed << " of rows " << start << "-"
                << start + group - 1 << " maps to "
                << sequence(std::vector<int>(values.begin() + start, values.begin() + start + group))
                << "\nexpected: the " << group << " rows read by one " << (group == rows ? "warp" : "quarter-warp")
                << " in " << group << " different places";
          }
          return Outcome::fail(out.str());
        }
      }
    }
  }
  return Outcome::pass(row ? "every row is a permutation of 0.." + std::to_string(cols - 1)
                           : "every " + std::string(group == rows ? "column" : "chunk") + " spreads over " +
                                 std::to_string(group) + " places in each group of " + std::to_string(group) + " rows");
}

// ---- task A: the swizzled transpose -------------------------------------------

Outcome check_transpose(GradeContext& ctx, const std::string& shapes) {
  const std::vector<std::string> args = {"run", "--task", "transpose", "--shapes", shapes, "--seed",
                                         seed_text(ctx.seed())};
  return check_transpose_answer(ctx.backend() == Backend::kGpu ? ctx.gpu(args) : ctx.cpu(args), shapes);
}

std::vector<std::string> transpose_shape_lists(std::uint64_t seed) {
  return {kSquareShapes, kPartialShapes, kLargeShapes, random_shapes(seed)};
}

// Every correctness run of task A on the emulator, labelled "31x33". Sets
// *failed to a runner answer that did not come.
std::vector<LabelledReport> transpose_reports(GradeContext& ctx, const RunnerAnswer** failed) {
  std::vector<LabelledReport> reports;
  for (const std::string& shapes : transpose_shape_lists(ctx.seed())) {
    const RunnerAnswer& a =
        ctx.cpu({"run", "--task", "transpose", "--shapes", shapes, "--seed", seed_text(ctx.seed())});
    if (!a.ok) {
      *failed = &a;
      return {};
    }
    for (const auto& run : a.data["runs"]) {
      reports.push_back(
          {std::to_string(run["width"].get<int>()) + "x" + std::to_string(run["height"].get<int>()), run["report"]});
    }
  }
  return reports;
}

std::string transpose_looked_at(std::uint64_t seed) {
  std::string all;
  for (const std::string& shapes : transpose_shape_lists(seed)) all += (all.empty() ? "" : ",") + shapes;
  return all;
}

// Task A moves every element through the tile: one 4-byte store and one
// 4-byte load per element of the matrix.
std::vector<TrafficNeed> transpose_needs(const std::vector<LabelledReport>& reports) {
  std::vector<TrafficNeed> needs;
  for (const LabelledReport& r : reports) {
    const auto x = r.label.find('x');
    const long long elements = std::stoll(r.label.substr(0, x)) * std::stoll(r.label.substr(x + 1));
    needs.push_back({r.label, r.report, elements, 4 * elements, 4 * elements, 1, true});
  }
  return needs;
}

std::string transpose_shortfall(const std::vector<LabelledReport>& reports, TrafficKind kind) {
  return traffic_shortfall(transpose_needs(reports), kind, "transpose_swizzled", "float", 4,
                           "every element goes through the tile (one shared store and one shared load each); "
                           "a copy from global to global beside a token tile access is not a tiled transpose");
}

// ---- task B: the chunk swizzle ------------------------------------------------

std::vector<std::string> chunk_args(GradeContext& ctx, const std::string& shapes, int passes) {
  return {"run", "--task", "chunks", "--shapes", shapes, "--passes", std::to_string(passes), "--seed",
          seed_text(ctx.seed())};
}

// The grader's verdict on a chunk run: its raw output against task B's
// reference for the input the seed makes ("" when every float is right).
std::string judge_chunk_run(const nlohmann::json& run, int tiles, int passes, std::uint64_t seed) {
  std::ostringstream out;
  out << tiles << " tile(s) x " << passes << " pass(es): ";
  if (run.contains("error")) {
    out << "CUDA error: " << run["error"].get<std::string>();
    return out.str();
  }
  const std::vector<float> expected = lab04::expected_chunks(lab04::make_chunk_input(tiles, seed), tiles, passes);
  std::vector<unsigned char> bytes(expected.size() * sizeof(float));
  std::memcpy(bytes.data(), expected.data(), bytes.size());
  const nlohmann::json verdict = judge_output(run, bytes, 4);
  if (verdict.contains("error")) {
    out << "could not check: " << verdict["error"].get<std::string>();
    return out.str();
  }
  if (verdict["mismatches"].get<long long>() == 0) return "";
  out << verdict["mismatches"] << " of " << expected.size() << " floats wrong";
  const char* components = "xyzw";
  for (const auto& m : verdict["first_mismatches"]) {
    const lab04::ChunkElement e = lab04::chunk_element(m["index"].get<std::size_t>());
    out << "\n  out[" << m["index"] << "] (tile " << e.tile << ", chunk " << e.chunk << " of row " << e.row << ", ."
        << components[e.component] << "): yours "
        << (m["got"].is_null() ? std::string("NaN (never written)") : number(m["got"].get<double>())) << ", expected "
        << number(m["expected"].get<double>());
  }
  return out.str();
}

// Task B's runs: (tiles, passes). The last one is drawn from the seed: 5 to
// 40 tiles, 2 to 4 passes.
std::vector<std::pair<std::string, int>> chunk_runs(std::uint64_t seed) {
  std::mt19937_64 rng(seed * 0x9e3779b97f4a7c15ull + 13);
  const int tiles = std::uniform_int_distribution<int>(5, 40)(rng);
  const int passes = std::uniform_int_distribution<int>(2, 4)(rng);
  return {{kChunkShapes, 1}, {kChunkPassShapes, kChunkPasses}, {std::to_string(tiles), passes}};
}

Outcome check_chunks_correct(GradeContext& ctx) {
  std::string problems;
  for (const auto& [shapes, passes] : chunk_runs(ctx.seed())) {
    const auto args = chunk_args(ctx, shapes, passes);
    const RunnerAnswer& a = ctx.backend() == Backend::kGpu ? ctx.gpu(args) : ctx.cpu(args);
    if (!a.ok) return not_answered(a);
    if (const std::string wrong = runs_mismatch(a.data, shapes); !wrong.empty()) return Outcome::fail(wrong);
    for (const auto& run : a.data["runs"]) {
      const bool stopped = run.contains("report") && !run["report"]["completed"].get<bool>();
      std::string wrong_run = judge_chunk_run(run, std::stoi(shapes), passes, ctx.seed());
      if (wrong_run.empty() && !stopped) continue;
      if (wrong_run.empty()) wrong_run = shapes + " tile(s) x " + std::to_string(passes) + " pass(es): did not finish";
      problems += (problems.empty() ? "" : "\n") + wrong_run;
      if (stopped) {
        for (const auto& f : run["report"]["findings"]) problems += "\n" + describe_finding(f);
      }
    }
  }
  if (!problems.empty()) {
    return Outcome::fail(problems +
                         "\nexpected: out[t*256 + k*32 + r] = chunk k of row r of tile t, added once per pass; "
                         "a chunk stored at swizzle_chunk(row, chunk) must be read from the same place");
  }
  const auto runs = chunk_runs(ctx.seed());
  return Outcome::pass("correct on 1 tile (1 pass), " + kChunkPassShapes + " tiles (" + std::to_string(kChunkPasses) +
                       " passes) and " + runs[2].first + " tiles (" + std::to_string(runs[2].second) + " passes)");
}

std::vector<LabelledReport> chunk_reports(GradeContext& ctx, const RunnerAnswer** failed) {
  std::vector<LabelledReport> reports;
  for (const auto& [shapes, passes] : chunk_runs(ctx.seed())) {
    const RunnerAnswer& a = ctx.cpu(chunk_args(ctx, shapes, passes));
    if (!a.ok) {
      *failed = &a;
      return {};
    }
    for (const auto& run : a.data["runs"]) {
      // The request's tiles and passes (the answer was checked against it).
      const int tiles = std::stoi(shapes), runs = passes;
      reports.push_back({std::to_string(tiles) + (tiles == 1 ? " tile x " : " tiles x ") + std::to_string(runs) +
                             (runs == 1 ? " pass" : " passes"),
                         run["report"]});
    }
  }
  return reports;
}

// Task B: every tile stored once (4096 bytes) and read once per pass.
std::vector<TrafficNeed> chunk_needs(const std::vector<LabelledReport>& reports) {
  std::vector<TrafficNeed> needs;
  for (const LabelledReport& r : reports) {
    const long long tiles = std::stoll(r.label);
    const int passes = std::stoi(r.label.substr(r.label.find(" x ") + 3));
    const long long bytes = tiles * static_cast<long long>(kTileBytes);
    needs.push_back({r.label, r.report, tiles * kTile * kTile, bytes, bytes * passes, passes});
  }
  return needs;
}

std::string chunk_shortfall(const std::vector<LabelledReport>& reports, TrafficKind kind) {
  return traffic_shortfall(chunk_needs(reports), kind, "chunk_transpose_swizzled", "float", 4,
                           kind == TrafficKind::kLoads
                               ? "every pass reads its chunk from shared memory again (one 16-byte load per "
                                 "thread per pass), not a value kept from the first pass"
                               : "every chunk goes through the tile: one shared store and one shared load each");
}

// ---- both tasks: findings, costs, memory ----------------------------------------

const std::vector<std::string> kFindingKinds = {"out-of-bounds global access", "out-of-bounds shared access",
                                                "misaligned shared access",     "barrier divergence",
                                                "deadlock",                     "shared-memory race",
                                                "uninitialised shared read"};

// Task A's or task B's correctness runs on the emulator.
std::vector<LabelledReport> task_reports(GradeContext& ctx, bool chunks, const RunnerAnswer** failed) {
  return chunks ? chunk_reports(ctx, failed) : transpose_reports(ctx, failed);
}

std::string chunks_looked_at(std::uint64_t seed) {
  const auto runs = chunk_runs(seed);
  return "1 tile, " + kChunkPassShapes + " tiles and " + runs[2].first + " tiles";
}

Outcome check_task_findings(GradeContext& ctx, bool chunks) {
  const RunnerAnswer* failed = nullptr;
  const auto reports = task_reports(ctx, chunks, &failed);
  if (failed != nullptr) return not_answered(*failed);
  if (chunks) {
    return check_findings(reports, kFindingKinds,
                          "float4 chunks need 16-byte aligned rows (keep float4 tile[32][8]); every index must stay "
                          "in the tile; the barrier must come between the write and the read",
                          chunks_looked_at(ctx.seed()));
  }
  return check_findings(reports, kFindingKinds,
                        "a swizzled index must stay in 0..31 (an XOR of numbers below 32 does); the bounds test "
                        "guards every global access; the barrier stays outside the if",
                        transpose_looked_at(ctx.seed()));
}

Outcome check_task_cost(GradeContext& ctx, bool chunks, LineKind kind) {
  const std::string what = kind == LineKind::kStores ? "store" : "load";
  const RunnerAnswer* failed = nullptr;
  const auto reports = task_reports(ctx, chunks, &failed);
  if (failed != nullptr) return not_answered(*failed);
  const TrafficKind traffic = kind == LineKind::kStores ? TrafficKind::kStores : TrafficKind::kLoads;
  if (chunks) {
    return with_traffic(
        check_line_costs(reports, kind, ctx.verbose(), "no shared-memory " + what + " found in the chunk kernel",
                         "16-byte accesses are served a quarter-warp (8 lanes) at a time: the 8 lanes must "
                         "cover 8 different chunks of 128 bytes, i.e. all 32 banks once"),
        chunk_shortfall(reports, traffic));
  }
  return with_traffic(check_line_costs(reports, kind, ctx.verbose(),
                                       "no shared-memory " + what + " found: stage the tile in shared memory",
                                       "a warp reading a logical column must find it in 32 different physical "
                                       "columns: the same swizzle on the write and the read"),
                      transpose_shortfall(reports, traffic));
}

Outcome check_task_memory(GradeContext& ctx, bool chunks) {
  const RunnerAnswer* failed = nullptr;
  const auto reports = task_reports(ctx, chunks, &failed);
  if (failed != nullptr) return not_answered(*failed);
  const std::size_t bytes = reports.front().report["shared_bytes"].get<std::size_t>();
  const std::string shortfall = chunks ? chunk_shortfall(reports, TrafficKind::kThrough)
                                       : transpose_shortfall(reports, TrafficKind::kThrough);
  return with_traffic(check_shared_bytes(bytes, kTileBytes, chunks ? "one float4 tile[32][8]" : "one float tile[32][32]",
                                         "a swizzle moves elements around inside the tile: no padding, no second tile"),
                      shortfall);
}

// ---- on a GPU ---------------------------------------------------------------------

Outcome check_transpose_speed(GradeContext& ctx, bool against_padded) {
  const RunnerAnswer& a = ctx.gpu({"time", "--task", "transpose", "--size", std::to_string(kTimingSize), "--repeats",
                                   "20"});
  if (!a.ok) return not_answered(a);
  const double student = a.data["student"].get<double>(), conflicted = a.data["conflicted"].get<double>();
  const double padded = a.data["padded"].get<double>(), solution = a.data["solution"].get<double>();
  std::ostringstream out;
  out.precision(3);
  out << std::fixed << "median of 20 runs, " << kTimingSize << "x" << kTimingSize << " floats: yours " << student
      << " ms, conflicted tile " << conflicted << " ms, padded tile (stage 3) " << padded
      << " ms, reference swizzle " << solution << " ms";
  if (against_padded) return check_ratio(out.str(), "yours / padded", student / padded, 1.10, false);
  return check_ratio(out.str(), "speed-up over the conflicted tile", conflicted / student, 1.5, true);
}

Outcome check_chunk_speed(GradeContext& ctx) {
  const RunnerAnswer& a = ctx.gpu({"time", "--task", "chunks", "--tiles", std::to_string(kTimingTiles), "--passes",
                                   std::to_string(kTimingPasses), "--repeats", "20"});
  if (!a.ok) return not_answered(a);
  const double student = a.data["student"].get<double>(), conflicted = a.data["conflicted"].get<double>();
  std::ostringstream out;
  out.precision(3);
  out << std::fixed << "median of 20 runs, " << kTimingTiles << " tiles, " << kTimingPasses
      << " read passes: yours " << student << " ms, unswizzled " << conflicted << " ms, reference "
      << a.data["solution"].get<double>() << " ms";
  return check_ratio(out.str(), "speed-up over the unswizzled chunks", conflicted / student, 2.0, true);
}

Outcome check_ncu(GradeContext& ctx) {
  const std::string shape = std::to_string(kNcuSize) + "x" + std::to_string(kNcuSize);
  const Outcome a = check_ncu_wavefronts(ctx, "transpose_swizzled",
                                         {"ncu-target", "--task", "transpose", "--size", std::to_string(kNcuSize)},
                                         {"run", "--task", "transpose", "--shapes", shape, "--seed", seed_text(ctx.seed())},
                                         "transpose_swizzled " + shape);
  if (a.status == Status::kSkip) return a;
  const Outcome b = check_ncu_wavefronts(
      ctx, "chunk_transpose_swizzled",
      {"ncu-target", "--task", "chunks", "--tiles", std::to_string(kNcuTiles), "--passes", "2"},
      chunk_args(ctx, std::to_string(kNcuTiles), 2),
      "chunk_transpose_swizzled " + std::to_string(kNcuTiles) + " tiles, 2 passes");
  if (b.status == Status::kSkip) return b;
  const std::string both = a.reason + "\n" + b.reason;
  return a.status == Status::kPass && b.status == Status::kPass ? Outcome::pass(both) : Outcome::fail(both);
}

}  // namespace

Rubric lab04_rubric() {
  Rubric r;
  r.lab = 4;
  r.title = "XOR swizzle";
  r.parts = {"the swizzle map", "swizzled transpose", "chunk swizzle", "on the GPU"};
  auto add = [&](std::string name, std::string part, double points, std::vector<std::string> needs, bool gpu_only,
                 std::function<Outcome(GradeContext&)> run) {
    r.checks.push_back({std::move(name), std::move(part), points, std::move(needs), gpu_only, std::move(run)});
  };
  // Task A's map.
  add("swizzle keeps every element in its row (values 0-31)", "the swizzle map", 5, {}, false,
      [](GradeContext& c) { return check_range(c, "swizzle", "swizzle", kTile, kTile); });
  add("swizzle is one-to-one within each row", "the swizzle map", 5, {}, false,
      [](GradeContext& c) { return check_one_to_one(c, "swizzle", "swizzle", kTile, kTile, true, kTile); });
  add("swizzle spreads each logical column over 32 banks", "the swizzle map", 5, {}, false,
      [](GradeContext& c) { return check_one_to_one(c, "swizzle", "swizzle", kTile, kTile, false, kTile); });
  // Task A's kernel.
  const std::string square = "transpose_swizzled: transpose of a 32x32 matrix";
  add(square, "swizzled transpose", 5, {}, false, [](GradeContext& c) { return check_transpose(c, kSquareShapes); });
  add("transpose_swizzled: partial tiles 1x1, 31x33, 33x31", "swizzled transpose", 5, {}, false,
      [](GradeContext& c) { return check_transpose(c, kPartialShapes); });
  add("transpose_swizzled: 1024x2048 and 2048x1024", "swizzled transpose", 5, {}, false,
      [](GradeContext& c) { return check_transpose(c, kLargeShapes); });
  add("transpose_swizzled: two random shapes, odd and even", "swizzled transpose", 5, {}, false,
      [](GradeContext& c) { return check_transpose(c, random_shapes(c.seed())); });
  add("transpose_swizzled: no out-of-bounds, misaligned, racy or uninitialised access, no barrier divergence",
      "swizzled transpose", 5, {}, false, [](GradeContext& c) { return check_task_findings(c, false); });
  add("transpose_swizzled: tile write costs 1 wavefront per warp instruction", "swizzled transpose", 5, {square},
      false, [](GradeContext& c) { return check_task_cost(c, false, LineKind::kStores); });
  add("transpose_swizzled: tile read costs 1 wavefront per warp instruction", "swizzled transpose", 5, {square},
      false, [](GradeContext& c) { return check_task_cost(c, false, LineKind::kLoads); });
  add("transpose_swizzled: shared memory no more than a 32x32 float tile (4096 bytes)", "swizzled transpose", 5,
      {square}, false, [](GradeContext& c) { return check_task_memory(c, false); });
  // Task B.
  add("swizzle_chunk keeps chunks in their row (0-7) and is one-to-one within each row", "chunk swizzle", 5, {},
      false, [](GradeContext& c) {
        const Outcome range = check_range(c, "swizzle_chunk", "swizzle_chunk", kTile, kChunks);
        if (range.status != Status::kPass) return range;
        return check_one_to_one(c, "swizzle_chunk", "swizzle_chunk", kTile, kChunks, true, kChunks);
      });
  add("swizzle_chunk spreads each chunk over 8 places in every 8 rows a quarter-warp reads", "chunk swizzle", 5, {},
      false, [](GradeContext& c) { return check_one_to_one(c, "swizzle_chunk", "swizzle_chunk", kTile, kChunks, false, kChunks); });
  const std::string chunks_correct = "chunk_transpose_swizzled: correct, 1 and 3 read passes";
  add(chunks_correct, "chunk swizzle", 5, {}, false, check_chunks_correct);
  add("chunk_transpose_swizzled: no misaligned, out-of-bounds, racy or uninitialised access", "chunk swizzle", 5, {},
      false, [](GradeContext& c) { return check_task_findings(c, true); });
  add("chunk_transpose_swizzled: float4 tile write costs the ideal 4 wavefronts", "chunk swizzle", 5,
      {chunks_correct}, false, [](GradeContext& c) { return check_task_cost(c, true, LineKind::kStores); });
  add("chunk_transpose_swizzled: float4 column-chunk read costs the ideal 4 wavefronts", "chunk swizzle", 5,
      {chunks_correct}, false, [](GradeContext& c) { return check_task_cost(c, true, LineKind::kLoads); });
  add("chunk_transpose_swizzled: shared memory no more than 4096 bytes", "chunk swizzle", 5, {chunks_correct}, false,
      [](GradeContext& c) { return check_task_memory(c, true); });
  // On a GPU.
  add("transpose_swizzled at least 1.5x faster than the conflicted tile", "on the GPU", 3, {square}, true,
      [](GradeContext& c) { return check_transpose_speed(c, false); });
  add("transpose_swizzled within 10% of the padded tile (stage 3)", "on the GPU", 2, {square}, true,
      [](GradeContext& c) { return check_transpose_speed(c, true); });
  add("chunk_transpose_swizzled at least 2x faster than the unswizzled chunks", "on the GPU", 3, {chunks_correct},
      true, check_chunk_speed);
  add("Nsight Compute shared wavefronts match the emulator (both kernels)", "on the GPU", 2, {square, chunks_correct},
      true, check_ncu);
  return r;
}

BANKLAB_REGISTER_RUBRIC(4, lab04_rubric);

}  // namespace banklab::grader

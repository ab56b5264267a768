// Stage 6, the capstone: the rubric. Five real kernels (a tree reduction, a
// work-efficient scan, a tiled GEMM, a histogram with per-warp counters, a
// cross stencil with a halo), each checked for correctness on fixed, odd,
// large and random sizes, findings, every shared line at its ideal, and
// size; the diagnosis of the shipped kernels (each conflicted line of
// original.cu with its worst degree and its cause), against the grader's
// own pricing of original.cu; on a GPU, each kernel's time against the
// shipped one, and Nsight Compute against the emulator.
#include <algorithm>
#include <fstream>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <sstream>

#include "checks.hpp"
#include "rubric.hpp"
#include "task_checks.hpp"
#include "task_data.hpp"

namespace banklab::grader {

namespace {

// ---- the five tasks -----------------------------------------------------------

enum TaskIndex { kReduce, kScan, kGemm, kHistogram, kStencil, kTasks };

std::mt19937_64 rng_for(std::uint64_t seed, int salt) { return std::mt19937_64(seed * 0x9e3779b97f4a7c15ull + salt); }

// Two sizes of a 1-D task: an odd one and one that is not a multiple of the block's share.
std::string random_counts(std::uint64_t seed, int salt, int low, int high, int multiple) {
  auto rng = rng_for(seed, salt);
  std::uniform_int_distribution<int> count(low, high);
  int odd = count(rng) | 1, other = count(rng);
  if (other % multiple == 0) ++other;
  return std::to_string(odd) + "," + std::to_string(other);
}

std::string random_dims(std::uint64_t seed, int salt, int dims, int low, int high) {
  auto rng = rng_for(seed, salt);
  std::uniform_int_distribution<int> side(low, high);
  std::string out;
  for (int d = 0; d < dims; ++d) out += (d ? "x" : "") + std::to_string(side(rng));
  return out;
}

lab06::Run parse(TaskIndex task, const std::string& label) {
  lab06::Run run;
  lab06::parse_run(static_cast<lab06::Task>(task), label.c_str(), &run);
  return run;
}

// The grader's reference output of a run: the input the runner made from the
// seed, computed here (task_data.hpp).
std::vector<unsigned char> reference(TaskIndex task, const nlohmann::json& run, std::uint64_t seed, int* element_bytes) {
  *element_bytes = 4;
  lab06::Run parsed;
  if (!run.contains("shape") || !run["shape"].is_string() ||
      !lab06::parse_run(static_cast<lab06::Task>(task), run["shape"].get_ref<const std::string&>().c_str(), &parsed)) {
    return {};
  }
  return lab06::expected_bytes(parsed, seed);
}

// What each task moves through shared memory at least, per run (bytes;
// `outputs` counts 4-byte elements): a kernel that does the work in
// registers, shuffles or global memory beside a token shared access falls
// short. A volume, not a data flow: shared traffic made only to be counted
// (a dummy store per value) is not told apart from real traffic here.
TrafficNeed traffic(TaskIndex task, const std::string& label, long long outputs) {
  const lab06::Run run = parse(task, label);
  const long long d0 = run.dims[0], d1 = run.dims[1], d2 = run.dims[2];
  switch (task) {
    // A tree in shared memory stores each input and each of its sums (255
    // of them for 256 inputs), and reads each value at least once.
    case kReduce: return TrafficNeed{label, {}, outputs, 4 * (2 * d0 - d0 / 256), 4 * d0, 1, true};
    // The sweeps load and store the same words (`+=`), so a load pattern
    // equals a store pattern without the data staying with one thread: no
    // exchange test for the scan.
    case kScan: return TrafficNeed{label, {}, outputs, 4 * d0, 4 * d0, 1, false};
    case kGemm: return TrafficNeed{label, {}, outputs, 4 * (d0 * d2 + d2 * d1), 4 * d0 * d1 * d2, 1, true};
    // A shared atomicAdd is a store in the report; the block's counters are
    // read at least once.
    case kHistogram: return TrafficNeed{label, {}, outputs, 4 * d0, 4 * outputs, 1, false};
    case kStencil: return TrafficNeed{label, {}, outputs, 4 * d0 * d1, 4 * 4 * d0 * d1, 1, true};
    default: return TrafficNeed{};
  }
}

const std::vector<KernelTask>& tasks() {
  static const std::vector<KernelTask> all = [] {
    std::vector<KernelTask> t = {
        {"reduce", "reduce_sum", "1,255,256,1000,70000", (256 + 8) * 4, "264 ints (256 and 8 of padding)",
         "at each step the active lanes must read consecutive words: let the first `stride` threads add "
         "partial[tid + stride] into partial[tid]",
         "the tree needs one int per thread, and padding of one word per 32 at most", 0.95,
         [](std::uint64_t seed) { return random_counts(seed, 1, 300, 90000, 256); }},
        {"scan", "scan_segments", "1,511,512,1000,9000", (512 + 32) * 4, "544 ints (512 and 32 of padding)",
         "the sweeps' lanes are 2^k elements apart: spread them over the banks (a padding word every 32 elements, "
         "or a swizzle) and keep the loads and stores of consecutive elements consecutive",
         "one int per element and a word of padding per 16 at most", 1.5,
         [](std::uint64_t seed) { return random_counts(seed, 2, 300, 20000, 512); }},
        {"gemm", "gemm_tiled", "32x32x32,1x1x1,33x31x45,100x70x90", 2 * 32 * 33 * 4, "two 32x33 float tiles",
         "a lane's index into a tile row must change between lanes: a column of a 32-float row is one bank",
         "two 32x32 tiles and a column of padding each are enough", 1.2,
         [](std::uint64_t seed) { return random_dims(seed, 3, 3, 20, 130); }},
        {"histogram", "histogram32", "1,1023,1024,5000,32768", 32 * 9 * 4, "288 counters (32 bins x 9)",
         "lanes that count into different bins must reach different banks: a warp's 32 counters as 32 "
         "consecutive words, or rows of an odd number of counters",
         "8 sub-histograms of 32 counters, with padding of one per bin at most", 0.95,
         [](std::uint64_t seed) { return random_counts(seed, 4, 1100, 32000, 1024); }},
        {"stencil", "stencil_cross", "32x8,1x1,31x9,100x37,256x64", 36 * 13 * 4, "36 x 13 ints",
         "a warp is one row of outputs: keep the tile row-major (tile[y][x]) so that the lanes read along a row",
         "the block's 32x8 outputs and a halo of 2 on each side: 36 x 12 ints", 1.05,
         [](std::uint64_t seed) { return random_dims(seed, 5, 2, 9, 150); }},
    };
    for (int i = 0; i < kTasks; ++i) {
      const auto task = static_cast<TaskIndex>(i);
      t[i].reference = [task](const nlohmann::json& run, std::uint64_t seed, int* element_bytes) {
        return reference(task, run, seed, element_bytes);
      };
      t[i].traffic = [task](const std::string& label, long long outputs) { return traffic(task, label, outputs); };
      t[i].element = i == kGemm ? "float" : i == kHistogram ? "counter" : "int";
      t[i].integer_output = i != kGemm;
      t[i].conflicted_name = "the shipped kernel (original.cu)";
      t[i].hint_from_access = true;
    }
    t[kReduce].traffic_rule = "every input goes through the tree in shared memory (stored once, read at least once)";
    t[kScan].traffic_rule = "every element goes through the scan in shared memory (stored once, read at least once)";
    t[kGemm].traffic_rule =
        "every element of A and B is staged in a tile, and each product reads its A value from shared memory";
    t[kHistogram].traffic_rule = "every value is counted in the block's shared counters";
    t[kStencil].traffic_rule =
        "every point is staged in the tile, and each output reads at least 4 of its 9 points from there";
    return t;
  }();
  return all;
}

std::string correct_name(const KernelTask& task) { return task.kernel + " is correct on " + task.shapes + " and random sizes"; }

// ---- the diagnosis --------------------------------------------------------------

constexpr int kStride = 1, kColumn = 2, kWide = 3, kData = 4;  // capstone.cu's causes

std::string cause_name(int cause) {
  switch (cause) {
    case kStride: return "STRIDE";
    case kColumn: return "COLUMN";
    case kWide: return "WIDE";
    case kData: return "DATA";
    default: return std::to_string(cause) + " (not one of STRIDE, COLUMN, WIDE, DATA)";
  }
}

// Which causes explain a conflicted line of original.cu, by its text: the
// first fragment the line holds. The key's lines come from the pricing, so
// a line that is conflicted and matches none fails the check that needs it.
struct CauseRule {
  const char* fragment;
  std::vector<int> causes;
};
const std::vector<CauseRule>& cause_rules() {
  static const std::vector<CauseRule> rules = {
      {"partial[index]", {kStride}},                   // reduce_sum: index = 2 * stride * tid
      {"temp[", {kStride}},                            // scan_segments: 2 * tid, offset * (2 * tid + 1) - 1
      {"a_tile[threadIdx.x]", {kColumn}},              // gemm_tiled: a column of 32-float rows
      {"hist[data[i] % HIST_BINS][warp]", {kColumn, kData}},  // histogram32: rows of 8 counters, bins from the data
      {"hist[threadIdx.x]", {kColumn}},                // the merge: a column of 8-counter rows
      {"tile[", {kColumn}},                            // stencil_cross: tile[x][y], rows of 12 ints
  };
  return rules;
}

struct KeyLine {
  int line = 0;
  int worst = 0;
  std::vector<int> causes;
  std::string text;
};

// What the grader's own runs of original.cu show, per task: its conflicted
// lines (wavefronts above the ideal, the worst warp instruction's
// wavefronts) and every line with a shared access.
struct Key {
  std::string error;  // "" when priced
  std::vector<KeyLine> conflicted[kTasks];
  std::set<int> shared_lines[kTasks];
};

std::string original_path(const Config& config) { return config.source_dir + "/labs/06-capstone/original.cu"; }

std::vector<std::string> read_lines(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

Key price_original(const GradeContext& ctx) {
  Key key;
  const std::string path = original_path(ctx.config());
  const std::vector<std::string> text = read_lines(path);
  if (text.empty()) {
    key.error = "cannot read " + path + " (the shipped kernels the diagnosis is about)";
    return key;
  }
  // The shipped kernels as the lab file of a runner of their own: the
  // submission takes no part in these runs. Fixed sizes and seed, so that
  // the key is the same for every submission and equals what the programs show.
  GradeContext original(ctx.config(), ctx.lab(), path, Backend::kCpu, 1, ctx.time_limit(), false);
  try {
    original.build();
  } catch (const BuildError& error) {
    key.error = "the grader could not build original.cu for the emulator: " + std::string(error.what());
    return key;
  }
  for (int t = 0; t < kTasks; ++t) {
    const KernelTask& task = tasks()[t];
    const RunnerAnswer& a = original.cpu(task_args(original, task, task.shapes));
    if (!a.ok) {
      key.error = "the grader could not price original.cu's " + task.kernel + ": " + a.error;
      return key;
    }
    std::map<int, KeyLine> lines;
    for (const auto& run : a.data["runs"]) {
      for (const auto& l : run["report"]["lines"]) {
        if (!l.contains("file") || l["file"].get<std::string>().find("original.cu") == std::string::npos) continue;
        const int line = l["line"].get<int>();
        key.shared_lines[t].insert(line);
        if (l["wavefronts"].get<long long>() <= l["ideal_wavefronts"].get<long long>()) continue;
        KeyLine& k = lines[line];
        k.line = line;
        k.worst = std::max(k.worst, l["worst_wavefronts"].get<int>());
      }
    }
    for (auto& [line, k] : lines) {
      k.text = line >= 1 && line <= static_cast<int>(text.size()) ? text[line - 1] : "";
      for (const CauseRule& rule : cause_rules()) {
        if (k.text.find(rule.fragment) != std::string::npos) {
          k.causes = rule.causes;
          break;
        }
      }
      key.conflicted[t].push_back(k);
    }
  }
  return key;
}

// The key, priced once per kit (the same for every submission of a batch).
const Key& diagnosis_key(const GradeContext& ctx) {
  static std::mutex mutex;
  static std::map<std::string, Key> keys;
  const std::lock_guard<std::mutex> lock(mutex);
  const std::string at = ctx.config().source_dir + "|" + ctx.config().build_dir;
  auto found = keys.find(at);
  if (found == keys.end() || !found->second.error.empty()) found = keys.insert_or_assign(at, price_original(ctx)).first;
  return found->second;
}

struct Row {
  int line = 0, worst = 0, cause = 0;
};

// The diagnosis as the file states it (rows with line 0 are unused).
bool diagnosis_rows(GradeContext& ctx, std::vector<Row>* rows, Outcome* failed) {
  const RunnerAnswer& a = ctx.backend() == Backend::kGpu ? ctx.gpu({"answers"}) : ctx.cpu({"answers"});
  if (!a.ok) {
    *failed = not_answered(a);
    return false;
  }
  for (const auto& r : a.data["diagnosis"]) {
    if (r[0].get<int>() != 0) rows->push_back({r[0].get<int>(), r[1].get<int>(), r[2].get<int>()});
  }
  return true;
}

std::string plural(std::size_t n, const std::string& one, const std::string& many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

// Every conflicted line of the task's shipped kernel in one row, with the
// line's worst degree and a cause that explains it; no row for one of its
// lines that costs its ideal. The message names what is wrong, never the answer.
Outcome check_diagnosis(GradeContext& ctx, int t) {
  const Key& key = diagnosis_key(ctx);
  if (!key.error.empty()) return Outcome::fail("could not check: " + key.error);
  std::vector<Row> rows;
  Outcome failed;
  if (!diagnosis_rows(ctx, &rows, &failed)) return failed;
  const KernelTask& task = tasks()[t];
  std::vector<std::string> problems;
  std::size_t missing = 0;
  for (const KeyLine& k : key.conflicted[t]) {
    std::vector<Row> named;
    for (const Row& r : rows) {
      if (r.line == k.line) named.push_back(r);
    }
    if (named.empty()) {
      ++missing;
      continue;
    }
    if (named.size() > 1) {
      problems.push_back("line " + std::to_string(k.line) + " has " + std::to_string(named.size()) +
                         " rows: give each line one row");
      continue;
    }
    const Row& r = named.front();
    if (k.causes.empty()) {
      problems.push_back("line " + std::to_string(k.line) + ": the grader has no cause for this line of original.cu (`" +
                         k.text + "`); tell the instructor");
      continue;
    }
    if (r.worst != k.worst) {
      problems.push_back("line " + std::to_string(k.line) + ": worst " + std::to_string(r.worst) +
                         " is not the line's worst (the \"worst\" column of banklab run: the wavefronts of its worst "
                         "warp instruction)");
    }
    if (std::find(k.causes.begin(), k.causes.end(), r.cause) == k.causes.end()) {
      problems.push_back("line " + std::to_string(k.line) + ": the cause " + cause_name(r.cause) +
                         " does not explain its worst warp instruction (work out the lanes' words and banks of that "
                         "instruction, as in stages 2-5)");
    }
  }
  for (const Row& r : rows) {
    const bool conflicted = std::any_of(key.conflicted[t].begin(), key.conflicted[t].end(),
                                        [&](const KeyLine& k) { return k.line == r.line; });
    if (!conflicted && key.shared_lines[t].count(r.line)) {
      problems.push_back("line " + std::to_string(r.line) + " costs its ideal in " + task.kernel +
                         " (banklab run's excess is 0 there): it has no conflict to diagnose");
    }
  }
  if (missing > 0) {
    problems.insert(problems.begin(), plural(missing, "conflicted line", "conflicted lines") + " of " + task.kernel +
                                          " in original.cu " + (missing == 1 ? "has" : "have") +
                                          " no row: run its program under banklab run and give every line whose "
                                          "excess is above 0 a row");
  }
  if (problems.empty()) {
    return Outcome::pass(task.kernel + ": " + plural(key.conflicted[t].size(), "conflicted line", "conflicted lines") +
                         ", each with its worst degree and cause");
  }
  std::string out;
  for (const std::string& p : problems) out += (out.empty() ? "" : "\n") + p;
  return Outcome::fail(out);
}

// Every row names a conflicted line of original.cu, and its cause is one of the list.
Outcome check_diagnosis_rows(GradeContext& ctx) {
  const Key& key = diagnosis_key(ctx);
  if (!key.error.empty()) return Outcome::fail("could not check: " + key.error);
  std::vector<Row> rows;
  Outcome failed;
  if (!diagnosis_rows(ctx, &rows, &failed)) return failed;
  std::vector<std::string> problems;
  for (const Row& r : rows) {
    bool conflicted = false, shared = false;
    for (int t = 0; t < kTasks; ++t) {
      shared = shared || key.shared_lines[t].count(r.line) > 0;
      for (const KeyLine& k : key.conflicted[t]) conflicted = conflicted || k.line == r.line;
    }
    if (r.cause < kStride || r.cause > kData) {
      problems.push_back("the row for line " + std::to_string(r.line) + " has the cause " + std::to_string(r.cause) +
                         ": use one of STRIDE, COLUMN, WIDE, DATA");
    }
    if (!shared) {
      problems.push_back("line " + std::to_string(r.line) + " of original.cu has no shared-memory access: name the "
                         "lines as banklab run prints them for original.cu (not capstone.cu)");
    } else if (!conflicted) {
      problems.push_back("line " + std::to_string(r.line) + " of original.cu costs its ideal: it has no conflict");
    }
  }
  if (rows.empty()) return Outcome::fail("the diagnosis has no rows yet: fill in `diagnosis` at the end of capstone.cu");
  if (problems.empty()) return Outcome::pass(plural(rows.size(), "row", "rows") + ", each naming a conflicted line");
  std::string out;
  for (const std::string& p : problems) out += (out.empty() ? "" : "\n") + p;
  return Outcome::fail(out);
}

// ---- on the GPU -----------------------------------------------------------------

// Nsight Compute against the emulator on one run of each kernel (its input
// from the seed, as the emulator's).
Outcome check_ncu(GradeContext& ctx) {
  const char* shapes[kTasks] = {"70000", "9000", "100x70x90", "32768", "256x64"};
  std::string details;
  bool all_pass = true;
  for (int t = 0; t < kTasks; ++t) {
    const KernelTask& task = tasks()[t];
    const Outcome o = check_ncu_wavefronts(
        ctx, task.kernel, {"ncu-target", "--task", task.id, "--shapes", shapes[t], "--seed", seed_text(ctx.seed())},
        task_args(ctx, task, shapes[t]), task.kernel + " " + shapes[t]);
    if (o.status == Status::kSkip) return o;
    all_pass = all_pass && o.status == Status::kPass;
    details += (details.empty() ? "" : "\n") + o.reason;
  }
  return all_pass ? Outcome::pass(details) : Outcome::fail(details);
}

}  // namespace

Rubric lab06_rubric() {
  Rubric r;
  r.lab = 6;
  r.title = "the capstone";
  r.parts = {"reduction", "scan", "GEMM", "histogram", "stencil", "diagnosis", "on the GPU"};
  auto add = [&](std::string name, std::string part, double points, std::vector<std::string> needs, bool gpu_only,
                 std::function<Outcome(GradeContext&)> run) {
    r.checks.push_back({std::move(name), std::move(part), points, std::move(needs), gpu_only, std::move(run)});
  };
  for (int t = 0; t < kTasks; ++t) {
    const KernelTask& task = tasks()[t];
    const std::string& part = r.parts[t];
    const std::string correct = correct_name(task);
    add(correct, part, 4, {}, false, [&task](GradeContext& c) { return check_task_correct(c, task); });
    add(task.kernel + ": no race, barrier divergence, uninitialised, misaligned or out-of-bounds access", part, 2, {},
        false, [&task](GradeContext& c) { return check_task_findings(c, task); });
    add(task.kernel + ": every shared access at its ideal wavefronts", part, 6, {correct}, false,
        [&task](GradeContext& c) { return check_task_cost(c, task, LineKind::kAll); });
    add(task.kernel + ": shared memory no more than " + task.bound_text, part, 2, {correct}, false,
        [&task](GradeContext& c) { return check_task_memory(c, task); });
  }
  for (int t = 0; t < kTasks; ++t) {
    add("diagnosis of " + tasks()[t].kernel + ": every conflicted line with its worst degree and cause", "diagnosis", 3,
        {}, false, [t](GradeContext& c) { return check_diagnosis(c, t); });
  }
  add("diagnosis: every row names a conflicted line of original.cu and a cause of the list", "diagnosis", 5, {}, false,
      check_diagnosis_rows);
  const double gpu_points[kTasks] = {1, 2, 2, 2, 2};
  std::vector<std::string> all_correct;
  for (int t = 0; t < kTasks; ++t) {
    const KernelTask& task = tasks()[t];
    all_correct.push_back(correct_name(task));
    std::ostringstream name;
    if (task.min_speedup < 1) {
      name << task.kernel << " no more than " << static_cast<int>((1 - task.min_speedup) * 100 + 0.5)
           << "% slower than the shipped kernel";
    } else {
      name << task.kernel << " at least " << task.min_speedup << "x faster than the shipped kernel";
    }
    add(name.str(), "on the GPU", gpu_points[t], {correct_name(task)}, true,
        [&task](GradeContext& c) { return check_task_speedup(c, task); });
  }
  add("Nsight Compute shared wavefronts match the emulator (all five kernels)", "on the GPU", 3, all_correct, true,
      check_ncu);
  return r;
}

BANKLAB_REGISTER_RUBRIC(6, lab06_rubric);

}  // namespace banklab::grader

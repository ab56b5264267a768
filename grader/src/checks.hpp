// Check helpers every stage's rubric uses: describing emulator findings,
// per-line shared-memory costs against the ideal, shared-memory size,
// predictions priced by the bank model, GPU cycle and time ratios. A stage's
// rubric (grader/labs/labNN/rubric.cpp) says what to check; these say how,
// and word the reasons the same way for every stage.
//
// How a rubric reads a runner: raw data in, verdicts made here. Submission
// code runs in the runner's process, so nothing a runner says is taken as
// "correct" or "conflict-free":
//
// 1. Costs. An emulator launch report (banklab::emu::to_json) lists, per
//    source line, the distinct warp access patterns it recorded ("patterns":
//    width, op, atomic kind, 32 lane offsets with -1 for an inactive lane,
//    shifted down by a multiple of 128 bytes, how many times it ran, where it
//    first ran), never their price. GradeContext::call parses every runner
//    answer with parse_runner_answer() (raw_answers.hpp), which calls
//    price_reports(): every "lines" array anywhere in
//    the answer is replaced by the grader's own pricing (bank model) of those
//    patterns, with the fields rubrics already read (loads, stores,
//    warp_instructions, wavefronts, ideal_wavefronts, store_wavefronts,
//    store_instructions, worst_wavefronts, worst_access, worst_context) plus
//    "unpriced" (warp instructions whose pattern was past the emulator's cap
//    of distinct patterns per line). Numbers the runner wrote there are
//    dropped. A rubric needs no code of its own for this; check_line_costs
//    fails a line with unpriced instructions ("could not price").
// 2. Every run priced. The cost and findings checks read the same answers as
//    the correctness checks (the large and random shapes too): call
//    ctx.cpu(args) with the very arguments the correctness check used (answers
//    are memoized, so this costs nothing) and pass all their reports to
//    check_line_costs / check_findings (reports_of() collects a "runs"
//    answer's reports). Every run of a check has the same command-line form
//    ("run --shapes S --seed N"); no run is a separate, recognisable pricing
//    run. Where a launch is too big to trace whole, the runner sets
//    LaunchOptions::trace_blocks and trace_seed (the seed it was given), so the
//    traced blocks are a sample the kernel cannot predict.
// 3. Outputs. A runner returns each run's output values, not a comparison:
//    "output": the raw bytes in base64 (harness::output_blob,
//    grader/labs/common/raw_data.hpp). The grader decodes them
//    (output_bytes(), raw_answers.hpp) and compares them (judge_output,
//    judge_transpose_run; check_transpose_answer and check_task_correct do it
//    for every run, KernelTask::reference gives a task's reference) with its
//    own reference, computed from the same seed and inputs by code runner
//    and grader share (grader/labs/common/transpose_data.hpp: make_input,
//    compare_transpose; grader/labs/labNN/task_data.hpp: a stage's inputs and
//    references), and words the result ("N of M elements wrong; yours vs
//    expected: ..."). No field a runner writes says "correct": a run without
//    "output" fails "could not check".
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "banklab/bank_model.hpp"
#include "raw_answers.hpp"
#include "rubric.hpp"

namespace banklab::grader {

std::string seed_text(std::uint64_t seed);
/// Line `line` of `file`, without leading blanks ("" if unreadable).
std::string source_line(const std::string& file, int line);
std::string file_name(const std::string& path);
/// Shortest text of a number: 1.5, 32, 0.333333.
std::string number(double value);
/// "1 wavefront", "2 wavefronts": a count and its noun, singular or plural.
std::string count_text(long long n, const std::string& singular);
/// Every line of `text` with `prefix` in front.
std::string indent(const std::string& text, const std::string& prefix);

/// "race at file.cu:12 (and file.cu:9): message [3 times]" plus detail lines.
std::string describe_finding(const nlohmann::json& finding);

/// An emulator launch report (emulator_json.hpp) and what it was a run of
/// ("31x33", "puzzle broadcast").
struct LabelledReport {
  std::string label;
  nlohmann::json report;
};

/// Fails with every finding of the given kinds (each shown once, with the
/// runs it was on) and the hint; fails "could not check" for a run that did
/// not finish. `looked_at` names the runs in the pass message.
Outcome check_findings(const std::vector<LabelledReport>& reports, const std::vector<std::string>& kinds,
                       const std::string& hint, const std::string& looked_at);

/// The banksim command line that prices this access (for a student to rerun).
std::string banksim_command(const WarpAccess& access);
/// The bank model's explanation and bank map of an access, each line indented.
std::string explain_access(const WarpAccess& access, const std::string& prefix);

/// The reports of a "runs" answer ({"runs": [{..., "report"}]}), labelled by
/// run_label ("31x33", a run's "shape").
std::vector<LabelledReport> reports_of(const nlohmann::json& answer);

/// Which shared-memory lines a cost check looks at.
enum class LineKind { kLoads, kStores, kAll };

/// Every shared-memory line of that kind, summed over the reports, must cost
/// its ideal wavefronts (one per non-empty lane group: 1 for accesses up to 4
/// bytes, 2 for 8 bytes, 4 for 16 bytes). A failing line shows its source,
/// the numbers, the worst warp instruction's bank map and banksim command.
/// With `verbose`, passing lines are described too. Fails when no such line
/// exists, with `none_found`, and fails a line with unpriced warp
/// instructions (what cannot be priced does not pass). With `explain_cause`,
/// a failing line also says why, worked out from its worst instruction's
/// lanes (conflict_cause: stride and gcd, runs, half-warps) before the hint.
Outcome check_line_costs(const std::vector<LabelledReport>& reports, LineKind kind, bool verbose,
                         const std::string& none_found, const std::string& hint, bool explain_cause = false);

/// At most `limit` bytes of static shared memory (`limit_text` says what that is).
Outcome check_shared_bytes(std::size_t bytes, std::size_t limit, const std::string& limit_text,
                           const std::string& hint);

/// A prediction task: the student writes the wavefronts of `access`.
struct Prediction {
  std::string id;        ///< "P3"
  std::string question;  ///< as the lab file states it
  WarpAccess access;
};

/// Compares the student's number with the bank model's wavefronts; a wrong
/// one is explained by its banksim command and bank map. An unset answer (0
/// or less, or not a number) fails as "not answered".
Outcome check_prediction(const Prediction& prediction, const nlohmann::json& answer);

/// A GPU measurement from the cycle probe (runner JSON: "cycles",
/// "cycles_per_wavefront", "load_floor_cycles") against the bank model's
/// pipeline passes (AccessCost::pipeline_passes; equal to the wavefronts for
/// accesses up to 4 bytes): within 5% (plus 0.05 cycles) of max(passes x
/// cycles per wavefront, the 1-wavefront load floor). Returns a one-line
/// description.
bool cycles_agree(const nlohmann::json& measured, int passes, bool store, std::string* description);

/// Two WIDTHxHEIGHT shapes drawn from the seed: one odd (33 to 321 each
/// side), one even and not a multiple of 32 (32 to 322): "45x201,98x66".
std::string random_shapes(std::uint64_t seed);

/// "" if the answer's runs are the requested shapes ("32x32,31x33" or
/// "1,128"), in order (a run list may end early after a run that stopped);
/// otherwise why not. A runner answer that does not match its request is
/// not graded.
std::string runs_mismatch(const nlohmann::json& answer, const std::string& shapes);

/// A transpose runner's answer ({"seed", "runs": [{width, height,
/// element_bytes, output, report?} | {width, height, error}]}): each run's
/// output judged by judge_transpose_run with the answer's seed (which
/// GradeContext::call has checked is the one asked for); passes when every
/// run is correct and finished; otherwise lists each wrong run with its first
/// elements ("yours vs expected") and the findings of a run that stopped.
Outcome check_transpose_answer(const RunnerAnswer& answer, const std::string& shapes);

/// A GPU ratio against a limit: passes when ratio >= limit (`at_least`) or
/// ratio <= limit; the message is `measured` then "<what> = R, expected at
/// least|most L".
Outcome check_ratio(const std::string& measured, const std::string& what, double ratio, double limit, bool at_least);

/// Nsight Compute's instruction-level shared wavefront counters (loads,
/// stores: smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_{ld,st}.sum,
/// exact and repeatable, not the kernel-level l1tex__ ones) for one launch of
/// `kernel` in the GPU runner started with `target_args`, against the emulator
/// runner's report of the same launch (`emulator_args`; its first run's report).
/// The emulator prices that launch as nvcc compiled the file (the report's
/// "as_compiled", GradeContext::nvcc_sass_args) where nvcc's code can be had,
/// and the check compares with that, naming the lines nvcc compiles otherwise
/// than written (merged into wider accesses, reloads removed); else with the
/// source view, saying so. Skips when ncu is missing or cannot measure here,
/// or when the emulator gave no report.
Outcome check_ncu_wavefronts(GradeContext& ctx, const std::string& kernel, const std::vector<std::string>& target_args,
                             std::vector<std::string> emulator_args, const std::string& label);

/// Load and store wavefronts of an emulator report of one launch, for the
/// Nsight Compute check: as nvcc compiled it where the report has
/// "as_compiled", else as written (its priced "lines"); `view` gets a few
/// words saying which, and `changed` one line per source line nvcc compiles
/// otherwise than written ("" for none).
struct PredictedWavefronts {
  long long loads = 0, stores = 0;
  long long atomics = 0;  ///< as compiled only: the source view counts them as stores
  long long written_loads = 0, written_stores = 0;  ///< the source view's, always
  bool as_compiled = false;
  std::string changed;
};
PredictedWavefronts predicted_wavefronts(const nlohmann::json& report);

}  // namespace banklab::grader

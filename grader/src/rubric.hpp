// Rubrics as code: named checks with points, grouped in parts, with
// dependencies; the context that runs a lab's runners for them (memoized,
// each call its own process with a time limit); and the graded result.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "builder.hpp"
#include "config.hpp"
#include "variant.hpp"

namespace banklab::grader {

enum class Backend { kCpu, kGpu };
enum class Status { kPass, kFail, kSkip };

std::string_view to_string(Status status);

/// What a check concluded. The reason is shown indented under FAIL or SKIP
/// (and under OK with --verbose): expected vs got, the line, the bank map.
struct Outcome {
  Status status = Status::kPass;
  std::string reason;

  static Outcome pass(std::string reason = {}) { return {Status::kPass, std::move(reason)}; }
  static Outcome fail(std::string reason) { return {Status::kFail, std::move(reason)}; }
  static Outcome skip(std::string reason) { return {Status::kSkip, std::move(reason)}; }
};

/// One runner invocation's answer: parsed JSON, or what went wrong.
struct RunnerAnswer {
  bool ok = false;
  bool unavailable = false;  ///< the runner could not be built on this machine: checks skip
  std::string error;  ///< for the student: crashed, timed out, CUDA error...
  nlohmann::json data;
  std::string printed;  ///< what the code under test printed (stdout, stderr), capped
  double seconds = 0;   ///< wall time of the run(s) behind it
  bool ahead = false;   ///< made by run_noted() before any check asked for it
};

class GradeContext {
 public:
  GradeContext(const Config& config, const LabFiles& lab, std::string implementation, Backend backend,
               std::uint64_t seed, double time_limit, bool verbose);

  const Config& config() const { return config_; }
  const LabFiles& lab() const { return lab_; }
  const std::string& implementation() const { return implementation_; }
  Backend backend() const { return backend_; }
  std::uint64_t seed() const { return seed_; }
  bool verbose() const { return verbose_; }
  double time_limit() const { return time_limit_; }

  /// The emulator runner with these arguments (memoized). Builds it first.
  const RunnerAnswer& cpu(const std::vector<std::string>& args);
  /// The GPU runner with these arguments (memoized). Builds it first.
  const RunnerAnswer& gpu(const std::vector<std::string>& args);
  /// Builds the runners the backend needs now; throws BuildError.
  void build();
  /// The GPU runner's path (built by build() on the GPU backend).
  const std::string& gpu_runner() const { return gpu_runner_; }
  /// Resident memory a runner may use (bytes; 0: no limit) and seconds a
  /// build step may take.
  void set_limits(std::size_t memory_bytes, double build_seconds) {
    memory_bytes_ = memory_bytes;
    builder_.set_time_limit(build_seconds);
  }
  std::size_t memory_limit() const { return memory_bytes_; }
  /// While on, cpu() and gpu() run nothing: they note the emulator runs a
  /// check asks for and answer "not run" (grade() runs every check so once).
  void set_discovering(bool on) { discovering_ = on; }
  /// While on, cpu() makes a large run over several shapes as one run per
  /// shape (side by side in run_noted()) and joins their answers.
  void set_split_large_runs(bool on) { split_large_runs_ = on; }
  /// Runs the emulator runs noted while discovering, `jobs` at a time, so
  /// that the checks find their answers ready (memoized as cpu() does).
  void run_noted(unsigned jobs);
  /// Seconds of the runs made ahead (run_noted) that were handed to a check
  /// for the first time since the last call: the check they are charged to.
  double take_ahead_seconds();
  /// Emulator runs at a time for run_noted(): 0 picks the idle cores.
  void set_runner_jobs(unsigned jobs) { runner_jobs_ = jobs; }
  unsigned runner_jobs() const;
  /// What is wrong with a declaration the check named `check` needs (the
  /// stage's contract, checked before the build), or "" when nothing is.
  std::string declaration_problem(const std::string& check) const;
  /// The emulator runner's arguments that price a run as nvcc compiled the
  /// lab file ("--sass FILE": nvcc_check.hpp's disassemble_lab_file, into the
  /// runner's own folder, made at the first call), or none where nvcc's code
  /// cannot be had; then nvcc_sass_problem() says why. For the GPU backend's
  /// Nsight Compute check, which measures nvcc's code.
  std::vector<std::string> nvcc_sass_args();
  std::string nvcc_sass_problem();

 private:
  const RunnerAnswer& call(const std::string& runner, const std::vector<std::string>& args, const char* what,
                           bool ahead = false);
  /// Notes an answer handed to a check: one made ahead is charged once.
  const RunnerAnswer& hand_out(const RunnerAnswer& answer);

  const Config& config_;
  const LabFiles& lab_;
  std::string implementation_;
  Backend backend_;
  std::uint64_t seed_;
  double time_limit_;
  bool verbose_;
  RunnerBuilder builder_;
  std::string cpu_runner_, gpu_runner_;
  std::size_t memory_bytes_ = std::size_t{4} << 30;
  std::string cpu_build_error_;
  std::map<std::string, std::string> declaration_problems_;  ///< contract item -> message
  std::map<std::string, RunnerAnswer> answers_;
  std::mutex answers_mutex_;  ///< answers_ is shared by run_noted()'s threads
  std::set<const RunnerAnswer*> charged_;  ///< answers made ahead, already charged to a check
  // After an emulator run of this file ran out of time (an endless loop),
  // the later runs get less time: kAfterHangSeconds, or 4x the longest run
  // that finished, if longer; never more than time_limit_.
  static constexpr double kAfterHangSeconds = 5;
  // One block of a lab kernel is given time_limit_ / kBlockShare (5 s of the
  // default 60): a stage's blocks take milliseconds, so an endless loop is
  // stopped there, not at the run's limit (--block-time-limit of a runner).
  static constexpr double kBlockShare = 12;
  bool hung_ = false;                 ///< guarded by answers_mutex_
  double longest_finished_ = 0;       ///< guarded by answers_mutex_
  double ahead_seconds_ = 0;
  bool discovering_ = false;
  bool split_large_runs_ = false;
  std::vector<std::vector<std::string>> noted_;  ///< cpu() arguments asked for while discovering
  RunnerAnswer not_run_;  ///< what cpu() and gpu() answer while discovering
  unsigned runner_jobs_ = 0;
  std::once_flag sass_once_;
  std::string sass_path_, sass_problem_;
};

struct Check {
  std::string name;  ///< a sentence: "tile read costs 1 wavefront per warp instruction"
  std::string part;  ///< "correctness", "shared-memory behaviour", "performance"
  double points = 0;
  std::vector<std::string> needs;  ///< names of checks that must pass first
  bool gpu_only = false;
  std::function<Outcome(GradeContext&)> run;
};

struct Rubric {
  int lab = 0;
  std::string title;
  std::vector<std::string> parts;  ///< in display order
  std::vector<Check> checks;
  /// Who sees a check's result on an LMS that can hold results back
  /// (Gradescope's words: visible, hidden, after_due_date, after_published),
  /// by check name; a check not named here has its part's default
  /// (visibility_of). Set by a stage's rubric or by --visibility.
  std::map<std::string, std::string> visibility;
  /// The student's variant this rubric grades ("" when none: the stage as it
  /// is) and its values as the reports and the gradebook show them.
  std::string variant_text;
  nlohmann::json variant = nullptr;
};

struct CheckResult {
  const Check* check = nullptr;
  Outcome outcome;
  double score = 0;
  double seconds = 0;
};

struct GradeResult {
  const Rubric* rubric = nullptr;
  std::string implementation;
  std::string backend;         ///< "cpu" or "gpu"
  std::string backend_reason;  ///< why this backend
  std::uint64_t seed = 0;
  std::vector<CheckResult> results;
  double score = 0;
  double max_score = 0;       ///< points of the checks that ran
  double skipped_points = 0;  ///< points of checks skipped (GPU-only on the CPU backend)
  /// Set when the implementation did not build or was refused before the
  /// build (the message and the compiler's output); `results` is then empty
  /// and the score 0 of `max_score`.
  std::string build_error;

  [[nodiscard]] bool full_marks() const { return score >= max_score; }
};

/// A check's outcome when its runner call did not succeed: skip where the
/// runner is unavailable here (no emulator build on a GPU machine), else fail.
inline Outcome not_answered(const RunnerAnswer& answer) {
  return answer.unavailable ? Outcome::skip(answer.error) : Outcome::fail(answer.error);
}

/// Called before each check: (index from 1, count, the check).
using Progress = std::function<void(std::size_t, std::size_t, const Check&)>;

/// Runs every check in order; never throws for anything the implementation does.
GradeResult grade(const Rubric& rubric, GradeContext& context, const std::string& backend_reason,
                  const Progress& progress = {});

/// Makes a stage's rubric (grader/labs/labNN/rubric.cpp).
using RubricFactory = Rubric (*)();

/// Records the rubric of a stage; returns true. Called once per stage, by
/// BANKLAB_REGISTER_RUBRIC at the end of its rubric.cpp.
bool register_rubric(int lab, RubricFactory factory);

/// A check's visibility: the rubric's, else "after_due_date" for the part
/// "predictions" (its messages explain the answer), else "visible".
std::string visibility_of(const Rubric& rubric, const Check& check);

/// The rubric of a stage; throws std::invalid_argument for one without a rubric.
Rubric rubric_for(int lab);

/// Makes a stage's rubric for one variant of its variant space (variant.hpp);
/// given no active variant, it is the stage's own rubric.
using VariantRubricFactory = Rubric (*)(const Variant&);

/// Records the variant space and the rubric factory of a stage with variants;
/// returns true. Called by BANKLAB_REGISTER_VARIANT_RUBRIC.
bool register_variant_rubric(int lab, VariantSpaceFactory space, VariantRubricFactory factory);

/// The rubric of a stage for `variant` (rubric_for(lab) when none is
/// active). Throws std::invalid_argument for an active variant of a stage
/// that has no variants.
Rubric rubric_for(int lab, const Variant& variant);

}  // namespace banklab::grader

/// The one line that makes a stage's rubric known to the grader.
#define BANKLAB_REGISTER_RUBRIC(number, factory) \
  static const bool banklab_rubric_registered = ::banklab::grader::register_rubric(number, factory)

/// The one line that gives a stage variants: its variant space and the
/// rubric of each variant (with BANKLAB_REGISTER_RUBRIC for the stage as it is).
#define BANKLAB_REGISTER_VARIANT_RUBRIC(number, space, factory) \
  static const bool banklab_variant_rubric_registered =           \
      ::banklab::grader::register_variant_rubric(number, space, factory)

namespace banklab::grader {

}  // namespace banklab::grader

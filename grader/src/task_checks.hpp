// Checks for a stage task that is one kernel run on a list of shapes (stages
// 2 and 5): correctness on the backend in use, emulator findings, per-line
// cost against the ideal and shared-memory size (with the task's least
// shared traffic), and the GPU speed-up over the task's conflicted
// reference. The findings, cost and memory checks read the correctness run
// itself (on the emulator, the same command line), fixed and random shapes
// alike, every block traced: no run is priced that is not also graded. The runners answer
//   run --task ID --shapes S --seed N   {"runs": [{shape | width+height, element_bytes?, output
//                                        (base64 of the raw output), report}]}; the grader compares the output
//                                        with KernelTask::reference (or, without one, the transpose). A run
//                                        without output fails "could not check"; no verdict a runner writes
//                                        ("mismatches", "elements") is read.
//   time --task ID --repeats R          {"student": ms, "conflicted": ms, ...}
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "checks.hpp"
#include "traffic_checks.hpp"

namespace banklab::grader {

/// Every member has a default, so that a stage's table of tasks names only
/// what it sets (no -Wmissing-field-initializers).
struct KernelTask {
  std::string id = {};            ///< the runners' --task
  std::string kernel = {};        ///< the student's kernel
  std::string shapes = {};        ///< correctness shapes (random ones are added)
  std::size_t max_bytes = 0;      ///< shared-memory bound
  std::string bound_text = {};    ///< what that bound is
  std::string hint = {};          ///< for a line above its ideal
  std::string memory_hint = {};   ///< for too much shared memory
  double min_speedup = 1;         ///< GPU: conflicted reference time / yours, at least
  std::function<std::string(std::uint64_t seed)> random_shapes = {};
  /// What a run must move through shared memory at least, from its label
  /// ("300", "31x33") and output elements (empty: no minimum).
  std::function<TrafficNeed(const std::string& label, long long outputs)> traffic = {};
  std::string element = "float";  ///< the unit of the traffic message
  int element_bytes = 4;
  std::string traffic_rule = {};  ///< what the task moves through shared memory
  /// The grader's reference output of a run (raw bytes, elements of
  /// `element_bytes`), from the run (its "shape", which the grader checked
  /// against its request) and the seed. Unset: the run is judged as a
  /// transpose of width x height (judge_transpose_run).
  std::function<std::vector<unsigned char>(const nlohmann::json& run, std::uint64_t seed, int* element_bytes)>
      reference = {};
  /// A line above its ideal also gets the cause worked out from its worst
  /// instruction (conflict_cause), before `hint`.
  bool hint_from_access = false;
  /// The reference's elements are 4-byte integers (judge_output's
  /// `integers`): wrong elements are shown as integers, and one still
  /// holding the poison as never written.
  bool integer_output = false;
  /// What the GPU runner's "conflicted" time is of, in the speed-up check's words.
  std::string conflicted_name = "conflicted reference";
};

/// A runner's arguments for a run of the task on `shapes`.
std::vector<std::string> task_args(const GradeContext& ctx, const KernelTask& task, const std::string& shapes);
/// The task's runner answer: on the backend in use, or always the emulator.
const RunnerAnswer& run_task(GradeContext& ctx, const KernelTask& task, const std::string& shapes, bool on_backend);
/// The run's label: its "shape", or "WxH".
std::string run_label(const nlohmann::json& run);

Outcome check_task_correct(GradeContext& ctx, const KernelTask& task);
Outcome check_task_findings(GradeContext& ctx, const KernelTask& task);
Outcome check_task_cost(GradeContext& ctx, const KernelTask& task, LineKind kind);
Outcome check_task_memory(GradeContext& ctx, const KernelTask& task);
Outcome check_task_speedup(GradeContext& ctx, const KernelTask& task);

}  // namespace banklab::grader

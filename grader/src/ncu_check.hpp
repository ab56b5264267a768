// Nsight Compute measurements for the GPU checks, read from a log file of the
// grader's (not from the profiled program's stdout, which the submission
// fills as it likes): running ncu on a target command and parsing its CSV.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace banklab::grader {

/// One ncu measurement of one launch: the metrics' values, or why there are none.
struct NcuResult {
  enum class Kind {
    kMeasured,      ///< `values` holds every metric asked for
    kNotInstalled,  ///< no ncu on PATH: a machine without Nsight Compute
    kNotPermitted,  ///< ncu says this user may not read the GPU's counters
    kLost,          ///< ncu ran, and no result for that launch could be read
  };
  Kind kind = Kind::kLost;
  std::map<std::string, long long> values;
  std::string problem;  ///< for every kind but kMeasured: what happened, in words
};

/// Parses ncu's CSV (`--csv`, the details page: one row per launch and
/// metric, columns "ID", "Kernel Name", "Metric Name", "Metric Value"; other
/// lines, such as ==PROF== notes, are skipped). Expects exactly one launch
/// of `kernel` and one value of each of `metrics` for it.
NcuResult parse_ncu_csv(const std::string& log, const std::string& kernel, const std::vector<std::string>& metrics);

/// Runs `ncu` from PATH on `target` (the program and its arguments), profiling
/// the first launch of `kernel` for `metrics`; ncu writes its results to a
/// file in a private folder of the grader (mode 0700, removed afterwards),
/// which the target cannot reach by name and whose loss fails the check.
NcuResult measure_with_ncu(const std::vector<std::string>& target, const std::string& kernel,
                           const std::vector<std::string>& metrics, double limit_seconds);

}  // namespace banklab::grader

// Running a command with a time limit and capturing what it prints: how the
// grader isolates every check (a crash or a hang there never reaches us).
#pragma once

#include <string>
#include <vector>

namespace banklab::grader {

struct ProcessResult {
  int exit_code = -1;  ///< valid when exited
  int signal = 0;      ///< the signal that killed it, 0 if none
  bool exited = false;
  bool timed_out = false;
  bool failed_to_start = false;
  std::string out;  ///< stdout
  std::string err;  ///< stderr
  double seconds = 0;

  [[nodiscard]] bool ok() const { return exited && exit_code == 0; }
  /// "exit status 3", "killed by signal 11 (Segmentation fault)", "timed out after 60 s"
  [[nodiscard]] std::string describe(double limit_seconds) const;
};

/// Runs argv[0] with arguments; kills its whole process group after
/// `limit_seconds`. Never throws for a failing command.
ProcessResult run_process(const std::vector<std::string>& argv, double limit_seconds);

/// Quotes an argument list for display: what the user could paste in a shell.
std::string shell_quote(const std::vector<std::string>& argv);

}  // namespace banklab::grader

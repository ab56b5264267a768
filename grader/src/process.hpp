// Running a command with a time limit and capturing what it prints: how the
// grader isolates every check (a crash, a hang, a runaway allocation or a
// detached child there never reaches us).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "sandbox.hpp"

namespace banklab::grader {

/// What a child may use, and how its answer comes back.
struct ProcessOptions {
  /// Give the child a private pipe for its answer on descriptor 3, named in
  /// the environment as BANKLAB_ANSWER_FD (runners answer there, apart from
  /// what the code under test prints on stdout and stderr).
  bool answer_channel = false;
  /// Keep at most this many bytes of stdout and of stderr (the rest is read
  /// and dropped, so the child never blocks on a full pipe).
  std::size_t output_cap = std::size_t{1} << 20;
  /// Kill the child when its resident memory exceeds this (0: no limit).
  std::size_t memory_bytes = 0;
  /// Largest file the child may write (RLIMIT_FSIZE; 0: no limit).
  std::size_t file_bytes = 0;
  /// A secret the child reads once from descriptor 4 (named in the
  /// environment as BANKLAB_SECRET_FD) before any code under test runs, and
  /// puts in front of its answer ("" : none).
  std::string secret;
  /// Kill the child when it and its descendants are more than this many
  /// processes (0: no limit), counted every 100 ms: a fork loop is stopped
  /// long before the machine's limit. (RLIMIT_NPROC would count every
  /// process of the user, and not bind root.)
  int max_processes = 0;
  /// Confine the child (sandbox.hpp) to this view, in a fresh private
  /// working folder that is deleted afterwards; none: the child runs as the
  /// grader does (the grader's own tools: ncu's probe, child graders).
  std::optional<SandboxView> sandbox;
  /// NAME=VALUE settings added to the child's environment (a child grader's
  /// CUDA_VISIBLE_DEVICES), confined or not.
  std::vector<std::string> environment;
  /// The confinement to use instead of sandbox_mode() (its own probe).
  std::optional<SandboxMode> sandbox_mode;
};

struct ProcessResult {
  int exit_code = -1;  ///< valid when exited
  int signal = 0;      ///< the signal that killed it, 0 if none
  bool exited = false;
  bool timed_out = false;
  bool out_of_memory = false;  ///< killed for exceeding ProcessOptions::memory_bytes
  bool too_many_processes = false;  ///< killed for exceeding ProcessOptions::max_processes
  bool failed_to_start = false;
  /// The confinement could not be prepared (failed_to_start too), or
  /// bubblewrap itself failed before the program ran (exit status 1, its
  /// message first on stderr): the machine's problem, not the program's.
  bool sandbox_failed = false;
  bool output_truncated = false;  ///< stdout or stderr went past the cap
  std::size_t memory_limit = 0;
  int process_limit = 0;
  std::string out;     ///< stdout (capped)
  std::string err;     ///< stderr (capped)
  std::string answer;  ///< what arrived on the answer channel
  double seconds = 0;

  [[nodiscard]] bool ok() const { return exited && exit_code == 0; }
  /// "exit status 3", "killed by signal 11 (Segmentation fault)", "timed out after 60 s"
  [[nodiscard]] std::string describe(double limit_seconds) const;
};

/// Runs argv[0] with arguments; kills its whole process group after
/// `limit_seconds`, and afterwards every process it left behind (the grader
/// is a child subreaper: see adopt_orphans). Never throws for a failing command.
ProcessResult run_process(const std::vector<std::string>& argv, double limit_seconds,
                          const ProcessOptions& options = {});

/// Makes this process the reaper of its descendants' orphans (a child that
/// detaches with setsid() and outlives its parent comes back to us), so that
/// run_process can end everything a check started. Call once at start-up.
void adopt_orphans();

/// Quotes an argument list for display: what the user could paste in a shell.
std::string shell_quote(const std::vector<std::string>& argv);

}  // namespace banklab::grader

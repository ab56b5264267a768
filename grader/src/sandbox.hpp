// The confinement of every process that runs or compiles submission code:
// bubblewrap with a seccomp filter, or, where bubblewrap cannot start, a
// separate uid, no_new_privs, Landlock and the same filter.
#pragma once

#include <string>
#include <vector>

#include "config.hpp"

namespace banklab::grader {

/// What one confined process may see. Paths keep their host names inside.
struct SandboxView {
  /// Files or folders shown read-only (in this order).
  std::vector<std::string> read_only;
  /// Folders shown empty, though a folder of `read_only` holds them
  /// (solutions/ and build/ below a submission's folder).
  std::vector<std::string> hidden;
  /// Files or folders shown read-only after `hidden` (a library in the
  /// build folder that a link needs).
  std::vector<std::string> read_only_after;
  /// Folders the process may write (a build's own output folder). Its
  /// working directory, a fresh private scratch folder, is always writable.
  std::vector<std::string> writable;
  /// The GPU (/dev/nvidia*, the CUDA toolkit, Nsight Compute, /sys).
  bool gpu = false;
};

/// What a compile of the submission `source` sees: the system, the kit's
/// CUDA headers, the submission and its own folder, but not solutions/ or
/// the build folder, where that folder holds them.
SandboxView compile_view(const Config& config, const std::string& source);

enum class SandboxMode { kBubblewrap, kFallback, kNone };

/// The confinement this grader uses, chosen once: BANKLAB_SANDBOX=off
/// (debugging only), =fallback (skip bubblewrap), =bubblewrap (fail if it
/// cannot start), or unset: bubblewrap where it starts, else the fallback.
SandboxMode sandbox_mode();

/// What ran, in words, for the reports: "bubblewrap + seccomp (...)",
/// "uid 65534 + no_new_privs + Landlock ABI 7 + seccomp (...)", "none: ...".
const std::string& sandbox_description();

/// The uid and gid confined processes run as when the grader is root.
constexpr unsigned kSandboxUid = 65534;

/// A process's confinement, prepared in the parent (no allocation happens
/// between fork and exec): the command line to exec and what the child does
/// to itself before exec.
class SandboxLaunch {
 public:
  /// `scratch` is the fresh working folder (created by the caller).
  SandboxLaunch(const SandboxView& view, const std::vector<std::string>& argv, const std::string& scratch,
                SandboxMode mode);
  SandboxLaunch(const SandboxLaunch&) = delete;
  SandboxLaunch& operator=(const SandboxLaunch&) = delete;
  ~SandboxLaunch();

  /// What to exec (bwrap and its arguments, or the command itself).
  [[nodiscard]] const std::vector<std::string>& argv() const { return argv_; }
  /// Extra processes the confinement adds to the child's tree (bubblewrap's
  /// own two), for the process count.
  [[nodiscard]] int extra_processes() const { return mode_ == SandboxMode::kBubblewrap ? 2 : 0; }
  /// In the child, after fork, before exec: only system calls. Returns 0, or
  /// an errno value with `*what` naming the step that failed.
  int enter(const char** what) const;

 private:
  SandboxMode mode_;
  std::vector<std::string> argv_;
  std::string scratch_;
  int filter_fd_ = -1;  ///< the exported BPF program (bubblewrap reads it)
  // The fallback's Landlock rules: paths and their access.
  std::vector<std::string> rule_paths_;
  std::vector<unsigned long long> rule_access_;
};

/// Creates a fresh scratch folder (mode 0700, owned by the sandbox uid when
/// the grader is root) and returns its path; remove_scratch deletes it.
std::string make_scratch();
void remove_scratch(const std::string& path);

/// Lets the sandbox uid write `folder` (a build's output folder) when the
/// grader is root; give_back_folder makes it and its files root's again.
void lend_folder(const std::string& folder);
void give_back_folder(const std::string& folder);

}  // namespace banklab::grader

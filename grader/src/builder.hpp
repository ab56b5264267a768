// Builds a lab implementation into runners, on the spot and with the lab's own
// flags: for the CPU emulator (host compiler + compatibility header + hooks)
// and for the GPU (nvcc). Results are cached by the hash of every input, so
// an unchanged file is not rebuilt.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>

#include "config.hpp"

namespace banklab::grader {

/// The implementation does not build: `output` is what the compiler said.
/// `compiler_error`: the compiler ran and rejected the file (rather than the
/// build running out of time or not starting).
class BuildError : public std::runtime_error {
 public:
  BuildError(const std::string& what, std::string output, bool compiler_error = true)
      : std::runtime_error(what), output_(std::move(output)), compiler_error_(compiler_error) {}
  [[nodiscard]] const std::string& output() const { return output_; }
  [[nodiscard]] bool compiler_error() const { return compiler_error_; }

 private:
  std::string output_;
  bool compiler_error_;
};

/// Every file of the kit's CUDA headers for the emulator (the include
/// folders kernel code is compiled with), sorted: what a cache key must cover.
std::vector<std::filesystem::path> kit_headers(const Config& config);
/// The digest of the grader's own code: its executable and the source-check
/// library beside it. Cached runners and source-check records carry it in
/// their keys, so that a grader whose checks changed (an upgrade, a fix)
/// never reuses what an earlier one built or passed.
std::string grader_code_digest(const Config& config);

/// Where the student kit keeps a stage's compiled reference kernels:
/// grader/labs/labNN/reference/solution_gpu.o.
std::string reference_object_path(const LabFiles& lab);
/// Every compiled reference object of the stage in the kit (sorted).
std::vector<std::string> reference_objects(const LabFiles& lab);
/// Whether the stage's GPU runner calls reference kernels (solution_*): a
/// stage whose runner needs none (stage 1) grades on a GPU without them.
bool gpu_runner_needs_reference(const LabFiles& lab);
/// Whether this tree can build the stage's GPU runner: it has the reference
/// source (solutions/) or its compiled reference, or the runner needs none.
bool has_gpu_reference(const Config& config, const LabFiles& lab);

class RunnerBuilder {
 public:
  explicit RunnerBuilder(const Config& config, double time_limit_seconds = 300)
      : config_(config), time_limit_(time_limit_seconds) {}

  void set_time_limit(double seconds) { time_limit_ = seconds; }

  /// Path of the emulator runner for `source`; throws BuildError.
  std::string cpu_runner(const LabFiles& lab, const std::string& source) const;
  /// Path of the GPU runner for `source`; throws BuildError (also when there is no nvcc).
  std::string gpu_runner(const LabFiles& lab, const std::string& source) const;
  /// Compiles the stage's reference kernels (solutions/, renamed as the GPU
  /// runner calls them) into `object`: device code for each architecture of
  /// `architectures` and PTX for the first, with the reference's host data
  /// (its prediction arrays) and debug information removed. The student kit
  /// ships it instead of the source (reference_object_path). Throws BuildError.
  void reference_object(const LabFiles& lab, const std::vector<std::string>& architectures,
                        const std::string& object) const;

 private:
  void reference_object_of(const LabFiles& lab, const std::string& solution, const std::vector<std::string>& renames,
                           const std::vector<std::string>& architectures, const std::string& object) const;
  const Config& config_;
  double time_limit_;  ///< seconds each build step may take
};

}  // namespace banklab::grader

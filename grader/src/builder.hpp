// Builds a lab implementation into runners, on the spot and with the lab's own
// flags: for the CPU emulator (host compiler + compatibility header + hooks)
// and for the GPU (nvcc). Results are cached by the hash of every input, so
// an unchanged file is not rebuilt.
#pragma once

#include <stdexcept>
#include <string>

#include "config.hpp"

namespace banklab::grader {

/// The implementation does not build: `output` is what the compiler said.
class BuildError : public std::runtime_error {
 public:
  BuildError(const std::string& what, std::string output) : std::runtime_error(what), output_(std::move(output)) {}
  [[nodiscard]] const std::string& output() const { return output_; }

 private:
  std::string output_;
};

class RunnerBuilder {
 public:
  explicit RunnerBuilder(const Config& config) : config_(config) {}

  /// Path of the emulator runner for `source`; throws BuildError.
  std::string cpu_runner(const LabFiles& lab, const std::string& source) const;
  /// Path of the GPU runner for `source`; throws BuildError (also when there is no nvcc).
  std::string gpu_runner(const LabFiles& lab, const std::string& source) const;

 private:
  const Config& config_;
};

}  // namespace banklab::grader

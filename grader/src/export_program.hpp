// `grader --lab N --export-program DIR`: the student's kernels as a whole
// program with main, launched as the grader launches them, for the tools
// that need one (Nsight Compute, compute-sanitizer, banklab run).
#pragma once

#include <string>

#include "config.hpp"

namespace banklab::grader {

/// Writes DIR/program.cu (the stage's grader/labs/labNN/program.cu, which
/// includes the lab file), a copy of `implementation`, the stage's headers
/// and DIR/README.md with the commands. DIR must not exist or be empty.
/// Returns the README's text. Throws std::runtime_error.
std::string export_program(const Config& config, const LabFiles& lab, const std::string& implementation,
                           const std::string& dir);

}  // namespace banklab::grader

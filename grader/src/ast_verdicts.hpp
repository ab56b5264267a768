// The source check wherever the grader runs: through libclang where the
// grader can load it (libbanklab_ast_check.so beside the executable), and
// where it cannot (a GPU machine without libclang), through a verdict that a
// machine with libclang recorded for that exact file and that exact checker
// (SHA-256 of both). Without either the file is not graded: the check is
// never skipped.
#pragma once

#include <string>
#include <vector>

#include "ast_check.hpp"
#include "config.hpp"

namespace banklab::grader {

/// The folder of recorded verdicts: build/grader/source_verdicts/. A machine
/// with libclang writes one file per checked file there; carry the folder
/// (it is part of the build folder) to a machine without libclang.
std::string verdict_dir(const Config& config);

/// check_ast on `file` (absolute), whose own includes are `own_includes`
/// (absolute, sorted). Throws BuildError when libclang cannot be loaded here
/// and no verdict for this file and checker exists. `how` says which ran,
/// for the report.
AstResult check_ast_anywhere(const Config& config, const std::string& file,
                             const std::vector<std::string>& own_includes,
                             const std::vector<std::string>& defines_and_includes, const Contract* contract,
                             std::string* how);

/// What the source check of `file` was (libclang here, or a recorded
/// verdict), as check_source last said; empty if it did not run in this
/// process.
std::string source_check_description(const std::string& file);
void record_source_check_description(const std::string& file, const std::string& how);

}  // namespace banklab::grader

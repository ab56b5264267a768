// What the grader checks in a submission before it builds it: that it is the
// same code for the CPU emulator and for a GPU (no preprocessor test can tell
// the two builds apart), and that it includes nothing but system and CUDA
// headers and files of its own folder (not the solution, not the kit), and
// that its own code passes the syntax-tree check of ast_check.hpp.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "config.hpp"
#include "contract.hpp"

namespace banklab::grader {

/// Preprocesses `source` twice with the emulator's flags: once as the
/// emulator builds it, once as nvcc's device pass would see it (__CUDACC__,
/// __CUDA_ARCH__, __NVCC__ defined), then checks its syntax tree (what it
/// holds, what it calls) and the declarations `contract` names. Throws
/// BuildError naming the first line that differs, an include outside the
/// allowed places, or what the syntax-tree check refuses.
struct SourceReport {
  std::vector<std::string> own_includes;  ///< the submission's own included files (for the runner cache key)
  /// Contract item -> what is wrong with its declaration (the build links a
  /// fallback; the checks that need the item fail with this message).
  std::map<std::string, std::string> declaration_problems;
};
SourceReport check_source(const Config& config, const std::string& source, double limit_seconds,
                          const Contract* contract = nullptr);

/// The syntax-tree part alone (preprocessing, includes, the libclang check),
/// without the nvcc step or the grader's record: `grader --check-source`
/// records the verdicts a machine without libclang grades with. Throws
/// BuildError as check_source does; returns how the check ran.
std::string check_source_tree_only(const Config& config, const std::string& source, double limit_seconds,
                                   const Contract* contract);

}  // namespace banklab::grader

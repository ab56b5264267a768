// The source check on the compiler's own syntax tree (libclang): what a lab
// file may hold (kernels, device functions, types, constants, the contract's
// declarations) and what it may call (CUDA's device API, its own functions,
// the C++ library functions of one allowlist), before anything is built.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "contract.hpp"

namespace banklab::grader {

/// One thing the file may not do, at a line of one of its own files.
struct AstFinding {
  std::string file;  ///< the file's name as the student knows it ("transpose.cu")
  int line = 0;
  std::string what;  ///< "std::fopen is not CUDA device code ..."
  std::string todo;  ///< what to do instead
};

struct AstResult {
  /// clang parsed the file without errors. When not, nothing below is known
  /// and `parse_error` holds clang's first error (file:line: message).
  bool parsed = false;
  std::string parse_error;
  std::vector<AstFinding> refused;  ///< in file order, at most one per line
  /// Contract item name -> what is wrong with its declaration, in words.
  std::map<std::string, std::string> declaration_problems;
};

/// Parses `file` with clang as the emulator build sees it (`include_dirs`,
/// `defines_and_includes`: -D/-U/-include flags of the kernel build) and
/// checks the declarations of the file and of the files it includes from its
/// own folder. `kit_dirs`: the kit's CUDA headers (their functions are
/// CUDA's device API). `contract` may be null.
AstResult check_ast(const std::string& file, const std::vector<std::string>& include_dirs,
                    const std::vector<std::string>& defines_and_includes, const Contract* contract);

/// check_ast's arguments, for the loadable library's entry point
/// (`banklab_ast_check_v1` in ast_plugin.cpp; the grader calls it through
/// ast_verdicts.hpp).
struct AstRequest {
  std::string file;
  std::vector<std::string> include_dirs;
  std::vector<std::string> defines_and_includes;
  const Contract* contract = nullptr;
};

}  // namespace banklab::grader

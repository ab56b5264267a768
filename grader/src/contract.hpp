// A stage's interface contract: the functions, kernels and arrays of the lab
// file that its runners call or read, as the source check verifies them
// before the build, and the checks of the rubric that need each one (a wrong
// declaration fails those checks with one message; the others are graded).
#pragma once

#include <string>
#include <vector>

namespace banklab::grader {

struct ContractItem {
  enum class Kind { kDeviceFunction, kKernel, kArray };
  Kind kind = Kind::kDeviceFunction;
  std::string name;         ///< "word_of"
  std::string type;         ///< clang's canonical spelling: "int (int)", "int [10]"
  std::string declaration;  ///< as the student writes it: "__host__ __device__ int word_of(int byte_offset)"
  /// A definition of the same symbol, linked weak when the file's own is
  /// missing or cannot be linked (host C++ with the kit's headers), so that
  /// the other checks still run; the checks below never read it.
  std::string fallback;
  /// The rubric's checks that need it: names, or a beginning followed by '*'.
  std::vector<std::string> checks;
};

struct Contract {
  int lab = 0;
  std::vector<ContractItem> items;
};

/// Records a stage's contract; returns true. Called once per stage by
/// BANKLAB_REGISTER_CONTRACT in grader/labs/labNN/contract.cpp.
bool register_contract(int lab, Contract (*factory)());

/// The contract of a stage, or nullptr for a stage without one.
const Contract* contract_for(int lab);

}  // namespace banklab::grader

#define BANKLAB_REGISTER_CONTRACT(number, factory) \
  static const bool banklab_contract_registered = ::banklab::grader::register_contract(number, factory)

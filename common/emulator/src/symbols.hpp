// Reading the running program's own symbols: kernel names, the __shared__
// variables that belong to a kernel, and source lines of code addresses.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "banklab/emulator.hpp"

namespace banklab::emu::detail {

struct DataSymbol {
  std::string name;  ///< demangled
  std::uintptr_t address = 0;
  std::size_t size = 0;
};

struct FunctionName {
  std::string mangled;    ///< "" when unknown
  std::string demangled;  ///< "" when unknown
};

/// The name of the function at `address`.
FunctionName function_name(const void* address);

/// Whether the program's symbol table could be read (not stripped).
bool have_symbols();

/// The kernel's shared variables: the function-local statics of the kernel
/// (mangled _ZZ<kernel>E<name>), in address order.
std::vector<DataSymbol> kernel_local_statics(const std::string& mangled_kernel);

/// The address range of the banklab_shared section ({0, 0} when absent).
std::pair<std::uintptr_t, std::uintptr_t> shared_section();

/// Source locations of return addresses (each looked up at address - 1).
std::unordered_map<std::uintptr_t, SourceLocation> resolve(const std::vector<std::uintptr_t>& return_addresses);

}  // namespace banklab::emu::detail

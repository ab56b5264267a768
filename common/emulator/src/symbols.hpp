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
  std::size_t alignment = 0;  ///< of its type, from the debug information (0: unknown)
};

struct FunctionName {
  std::string mangled;    ///< "" when unknown
  std::string demangled;  ///< "" when unknown
};

/// The name of the function at `address`.
FunctionName function_name(const void* address);

/// Whether the program's symbol table could be read (not stripped).
bool have_symbols();

/// The shared variables of a program, as seen by one kernel.
struct SharedSymbols {
  /// The variables the kernel's code uses (its own, those of the functions it
  /// calls, file-scope ones), in the order nvcc lays them out: the kernel's
  /// own code first, in declaration order, then its callees'.
  std::vector<DataSymbol> variables;
  /// The block every `extern __shared__` array of the program names (size 0
  /// when the program declares none).
  DataSymbol dynamic;
  /// Compiler-made thread-local variables (initialisation guards) that kernel
  /// code touches and that are not shared memory.
  std::vector<DataSymbol> not_shared;
  /// The program's thread-local block: every shared variable lies in it.
  std::uintptr_t region_lo = 0, region_span = 0;
  /// false when the program has no relocations to follow (linked without
  /// --emit-relocs): `variables` is then every shared variable of the program.
  bool followed_calls = false;
};
SharedSymbols shared_symbols(const void* kernel);

/// The static shared memory of `kernel`: its variables laid out as a launch
/// lays them out (layout.cpp).
std::size_t static_shared_bytes(const void* kernel);

/// Source locations of return addresses (each looked up at address - 1).
std::unordered_map<std::uintptr_t, SourceLocation> resolve(const std::vector<std::uintptr_t>& return_addresses);

}  // namespace banklab::emu::detail

// nvcc's own shared-memory instructions, read from `nvdisasm -gi -c` of the
// program compiled by nvcc for sm_90, and compared line by line with the
// instructions the emulator prices (the host compiler's). Where nvcc compiles
// a line differently (four scalar loads merged into one LDS.128, a shared
// accumulator kept in a register), Nsight Compute's counts differ from the
// emulator's: the report says so for that line.
#pragma once

#include <cstdint>
#include <istream>
#include <string>
#include <vector>

#include "banklab/emulator.hpp"

namespace banklab::emu {

/// One shared-memory instruction of nvcc's code (LDS, STS, ATOMS, LDSM).
struct SassAccess {
  std::string function;  ///< mangled, as nvdisasm names the section (.text.NAME)
  std::string file;      ///< as the line information has it
  int line = 0;
  std::string opcode;  ///< "LDS.128"
  bool store = false;  ///< STS, and ATOMS (a read-modify-write counts as a store here, as in the emulator)
  int width = 4;       ///< bytes per lane
  std::uint32_t address = 0;  ///< offset in the function's code (nvdisasm's /*0120*/)
  /// Between a branch target and a branch back to it in nvcc's code: the
  /// instruction may run several times per thread. False where nvcc moved
  /// the access out of the source's loop (or unrolled the loop fully).
  bool in_loop = false;
};

/// Reads `nvdisasm -gi -c` output (-g works too, without inlining): each
/// instruction gets the innermost place of its inlining chain outside the CUDA
/// Toolkit's headers. Instructions before any line information get line 0.
/// Loops are read from the branches (BRA to a label at or before the branch).
/// Throws std::runtime_error with the line number on text that is not
/// nvdisasm output.
std::vector<SassAccess> parse_nvdisasm(std::istream& in);

/// The lines of a kernel's report whose shared instructions nvcc makes
/// differently: per line, one sentence with both counts. `sass` may hold
/// every kernel of the program; only the kernel's own function (matched by
/// its demangled name) is used.
std::vector<std::string> sass_differences(const LaunchReport& report, const std::vector<SassAccess>& sass);

}  // namespace banklab::emu

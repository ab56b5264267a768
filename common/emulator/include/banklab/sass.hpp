// nvcc's own shared-memory instructions, read from `nvdisasm -gi -c` of the
// program compiled by nvcc for sm_90, and compared line by line with the
// instructions the emulator prices (the host compiler's). Where nvcc compiles
// a line differently (four scalar loads merged into one LDS.128, a shared
// accumulator kept in a register), Nsight Compute's counts differ from the
// emulator's: the report says so for that line.
#pragma once

#include <cstdint>
#include <istream>
#include <map>
#include <string>
#include <tuple>
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
  /// LDGSTS: an asynchronous copy from global memory (a store here). Nsight
  /// Compute's smsp__sass shared counters leave its shared write out.
  bool async = false;
  int width = 4;       ///< bytes per lane
  std::uint32_t address = 0;  ///< offset in the function's code (nvdisasm's /*0120*/)
  /// Between a branch target and a branch back to it in nvcc's code: the
  /// instruction may run several times per thread. False where nvcc moved
  /// the access out of the source's loop (or unrolled the loop fully).
  bool in_loop = false;
  /// Guarded by a predicate (`@!P0 STS`): Nsight Compute's source view counts
  /// it in every warp that reaches it, also where no lane's predicate is true.
  bool predicated = false;
  /// The basic block of nvcc's code it lies in, counted from the function's
  /// start (0: the entry block, which every thread runs once).
  int block = 0;
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

/// Whether nvcc's code has shared instructions of `kernel` (a demangled name,
/// as LaunchReport::kernel). A kernel it lacks was not compared: its name
/// differs between the host compiler's build and nvcc's (a type the emulator
/// names otherwise), or nvcc issued no shared instruction for it.
bool sass_has_kernel(const std::vector<SassAccess>& sass, const std::string& kernel);

/// nvcc's shared instructions at one (line, direction) of a kernel.
struct CompiledShape {
  std::map<int, int> widths;  ///< bytes per lane -> instructions in nvcc's code
  bool in_loop = false;       ///< one of them is in a loop of nvcc's code
  bool predicated = false;    ///< every one of them is predicated
  /// For a predicated line, how many warps issue it: every warp (in nvcc's
  /// entry block), or as many as issue `anchor`, the unpredicated shared
  /// instruction before it in the same basic block (in the same warps, once
  /// each); neither: not known.
  bool entry = false;
  bool has_anchor = false;
  std::tuple<std::string, int, bool> anchor;
  [[nodiscard]] int total() const;
  [[nodiscard]] int widest() const;
};

/// What `banklab run --as-compiled` prices a kernel's accesses by: nvcc's
/// shared instructions, per (source file name, line, store). A store here is
/// an STS or an ATOMS, as in the emulator.
struct CompiledPlan {
  std::string kernel;  ///< demangled
  std::map<std::tuple<std::string, int, bool>, CompiledShape> lines;
  /// nvcc's instructions at that place (file: any path; its last component is compared), or nullptr.
  [[nodiscard]] const CompiledShape* find(const std::string& file, int line, bool store) const;
  /// The line nearest `line` in the same file and direction where nvcc's
  /// widest instruction is wider than `width` bytes (where a vanished access
  /// may have been merged into), or 0.
  [[nodiscard]] int nearest_wider(const std::string& file, int line, bool store, int width) const;
};

/// The plan of one kernel (matched by its demangled name) from nvcc's code of
/// the whole program; empty `lines` when nvcc's code has no such function.
CompiledPlan compiled_plan(const std::string& kernel, const std::vector<SassAccess>& sass);

/// The last component of a path ("as_compiled.cu").
std::string file_base_name(const std::string& path);

}  // namespace banklab::emu

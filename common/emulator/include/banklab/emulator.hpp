// The CPU SIMT emulator's host API: device memory, kernel launches, and the
// launch report (per-line shared-memory costs and findings) the grader shows.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "banklab/bank_model.hpp"
#include "banklab/cuda_types.hpp"

namespace banklab::emu {

/// A place in the kernel's source, resolved from a code address.
struct SourceLocation {
  std::string file;  ///< as the compiler recorded it ("" when unknown)
  int line = 0;      ///< 0 when unknown
  std::string function;
  /// "transpose.cu:42", or "unknown location" when unresolved.
  [[nodiscard]] std::string text() const;
};

enum class FindingKind {
  kBarrierDivergence,        ///< a __syncthreads not reached by every thread of the block
  kDeadlock,                 ///< threads wait for each other forever
  kSharedRace,               ///< two threads touch the same shared bytes between barriers, one writes
  kUninitializedSharedRead,  ///< a shared byte read before anything in the block wrote it
  kGlobalOutOfBounds,        ///< a global access outside every allocation
  kSharedOutOfBounds,        ///< a shared access outside the kernel's shared variables
  kMisalignedShared,         ///< a 2/4/8/16-byte shared access at an offset not a multiple of its size
  kCrash,                    ///< a signal (segfault, abort, ...) in kernel code
  kTimeLimit,                ///< the launch ran past its time limit (an endless loop, or a long run)
  kInvalidLaunch,            ///< a launch configuration CUDA would reject
};

/// "barrier divergence", "shared-memory race", ...
std::string_view to_string(FindingKind kind);

/// Something wrong the emulator saw; identical findings are counted, not repeated.
struct Finding {
  FindingKind kind{};
  std::string message;               ///< one line a student reads
  std::vector<std::string> details;  ///< further lines: who, where, what to look at
  std::uintptr_t pc = 0;             ///< the code address it happened at (0: none)
  SourceLocation where;
  std::uintptr_t other_pc = 0;  ///< races: the earlier access
  SourceLocation other;
  std::uint64_t count = 1;  ///< how many times it happened
};

/// One distinct warp access pattern of a source line, as recorded, not
/// priced: what a runner hands to the grader, which prices it with the bank
/// model itself. The offsets are shifted down by a multiple of 128 bytes
/// (the bank model's answer is the same for any such shift, as banks and lane
/// groups repeat every 32 words), so the warps of a launch share a few.
struct AccessPattern {
  /// How the instruction is priced: a plain load or store (also a native
  /// atomic), or an atomic done as compare-and-swap (one 2-wavefront pass
  /// per lane on the busiest bank; a CAS loop also repeats the instruction),
  /// or an asynchronous copy's shared write, which merges no lanes
  /// (banklab::lanes_unmerged).
  enum class Atomic : std::uint8_t { kNone, kCas, kCasLoop, kAsyncCopy };
  int width_bytes = 0;
  bool store = false;  ///< a store or an atomic
  Atomic atomic = Atomic::kNone;
  std::array<std::int32_t, kWarpSize> offsets{};  ///< per lane, after the shift; -1: inactive
  std::int64_t shift = 0;       ///< the first instance's offsets are offsets + shift
  std::uint64_t count = 0;      ///< warp instructions with this pattern
  std::string first_context;   ///< of its first instance: "block (0,0,0) warp 3"
};

/// Distinct patterns kept per line; past this, warp instructions of a new
/// pattern are counted (LineStats::unrecorded_*) but not kept, and the grader
/// fails a cost check on them rather than passing what it cannot price.
inline constexpr std::size_t kMaxPatternsPerLine = 1024;

/// Shared-memory cost of one source line, over the whole launch.
struct LineStats {
  SourceLocation where;
  std::vector<std::uintptr_t> pcs;  ///< the instructions at this line
  std::vector<int> pc_widths;       ///< per instruction of `pcs`: bytes per lane
  std::vector<bool> pc_stores;      ///< per instruction of `pcs`: a store (or atomic)
  std::uint64_t loads = 0;          ///< per-lane shared loads
  std::uint64_t stores = 0;         ///< per-lane shared stores (atomics included)
  std::uint64_t warp_instructions = 0;
  std::uint64_t wavefronts = 0;
  std::uint64_t ideal_wavefronts = 0;
  std::uint64_t store_wavefronts = 0;  ///< the part of `wavefronts` from store instructions
  std::uint64_t store_instructions = 0;  ///< the part of `warp_instructions` that are stores
  int worst_wavefronts = 0;   ///< of a single warp instruction
  WarpAccess worst_access;    ///< that instruction, to explain it
  std::string worst_context;  ///< "block (0,0,0) warp 3"
  /// The line's warp instructions as recorded, pattern by pattern (pcs in
  /// order, each pc's patterns in the order they first ran).
  std::vector<AccessPattern> patterns;
  std::uint64_t unrecorded_loads = 0;   ///< load warp instructions past kMaxPatternsPerLine
  std::uint64_t unrecorded_stores = 0;  ///< store warp instructions past kMaxPatternsPerLine
  /// The grader's runs only: warp instructions of this line whose lanes took
  /// turns (a warp's lanes running the line one group after another between
  /// __syncwarp()s), each lane's k-th execution since a barrier joined into
  /// one instruction; only those that conflict once joined.
  std::vector<AccessPattern> joined_patterns;

  [[nodiscard]] std::uint64_t excess_wavefronts() const { return wavefronts - ideal_wavefronts; }
};

/// One source line priced as nvcc compiled it (LaunchOptions::as_compiled,
/// `banklab run --as-compiled`): the shared loads, stores and atomics of
/// nvcc's instructions for the line, as Nsight Compute's source view counts
/// them, with what changed from the source view.
struct CompiledLineStats {
  SourceLocation where;
  std::uint64_t load_instructions = 0, load_wavefronts = 0;
  std::uint64_t store_instructions = 0, store_wavefronts = 0;
  std::uint64_t atomic_instructions = 0, atomic_wavefronts = 0;
  std::uint64_t ideal_wavefronts = 0;
  // The source view's warp instructions of this line that nvcc issues otherwise:
  std::uint64_t merged = 0;   ///< joined into a wider access (here or at the line nvcc gives it)
  std::uint64_t removed = 0;  ///< nvcc makes no such access at this line (a reload, a value kept in a register)
  std::uint64_t hoisted = 0;  ///< repeats of an access nvcc makes once, outside its loops
  std::uint64_t split = 0;    ///< split into nvcc's narrower accesses
  /// Loads nvcc makes that the source view lacks: the read of a compound
  /// assignment (`a[i] += x`) the host compiler served from a register,
  /// priced at the addresses of the line's store.
  std::uint64_t reread = 0;
  /// Warp instructions counted for warps where no lane's predicate was true:
  /// nvcc predicates the instruction (`@!P0 STS`), and every warp issues it.
  std::uint64_t predicated_warps = 0;
  std::uint64_t predicated_load_warps = 0;  ///< the loads among them (the rest are stores or atomics)
  int widest = 0;  ///< nvcc's widest access at this line, bytes per lane (0: none)

  [[nodiscard]] std::uint64_t instructions() const { return load_instructions + store_instructions + atomic_instructions; }
  [[nodiscard]] std::uint64_t wavefronts() const { return load_wavefronts + store_wavefronts + atomic_wavefronts; }
  [[nodiscard]] std::uint64_t excess_wavefronts() const { return wavefronts() - ideal_wavefronts; }
  /// Adds another launch's (or worker's) counts of the same line.
  void add(const CompiledLineStats& other);
};

/// A __shared__ variable of the launched kernel and its offset in shared memory.
struct SharedVariable {
  std::string name;  ///< "transpose_padded(float*, float const*, int, int)::tile"
  std::uintptr_t address = 0;
  std::size_t size = 0;
  std::size_t offset = 0;
};

struct LaunchReport {
  std::string kernel;  ///< demangled name
  dim3 grid, block;
  bool completed = false;  ///< false after a crash, deadlock, time limit or invalid launch
  std::vector<Finding> findings;
  std::vector<LineStats> lines;  ///< shared-memory instructions by source line
  std::vector<SharedVariable> shared_variables;
  std::size_t shared_bytes = 0;  ///< static shared memory the kernel declares
  std::size_t dynamic_shared_bytes = 0;  ///< asked at launch (extern __shared__)
  std::uint64_t threads_run = 0;
  std::uint64_t blocks_run = 0;
  std::uint64_t blocks_traced = 0;  ///< fewer than blocks_run when LaunchOptions::trace_blocks sampled
  std::uint64_t warps_traced = 0;   ///< the warps of the traced blocks
  unsigned workers = 1;             ///< OS threads that ran the blocks (LaunchOptions::workers)
  std::uint64_t shared_accesses = 0;  ///< per-lane shared accesses recorded
  /// Shared accesses left out of `lines` because one block held more warp
  /// instructions than the tracer keeps (an endless loop): 0 normally.
  std::uint64_t untraced_accesses = 0;
  double seconds = 0;
  /// With LaunchOptions::as_compiled: every line with shared instructions in
  /// nvcc's code or the emulator's, priced as nvcc compiled it.
  bool priced_as_compiled = false;
  std::vector<CompiledLineStats> compiled_lines;

  [[nodiscard]] bool has(FindingKind kind) const;
  [[nodiscard]] std::uint64_t total_wavefronts() const;
  [[nodiscard]] std::uint64_t total_excess_wavefronts() const;
};

/// The laws every report keeps, whatever ran: per line, ideal wavefronts
/// within the wavefronts (excess never wraps), every warp instruction at
/// least one wavefront and one lane and at most 32 lanes, the stores' part
/// within the whole, the worst instruction within the line; per launch,
/// traced blocks within those run. Each broken law as a sentence naming the
/// line and the numbers; none for a sound report. With BANKLAB_CHECK_REPORTS
/// set in the environment (the test suite sets it), every launch checks its
/// report and a broken law stops the process (exit status 70).
std::vector<std::string> report_law_violations(const LaunchReport& report);

struct CompiledPlan;  // banklab/sass.hpp
struct SassAccess;    // banklab/sass.hpp

struct LaunchOptions {
  bool trace = true;                    ///< record and price shared accesses
  /// Also price the traced accesses as nvcc compiled the kernel (merged into
  /// wider accesses, reloads removed, values kept in registers), into
  /// LaunchReport::compiled_lines (nullptr: not).
  const CompiledPlan* as_compiled = nullptr;
  /// Where as_compiled is nullptr: nvcc's code of the program (parse_nvdisasm),
  /// from which each launched kernel's plan is made (once per kernel, at its
  /// first launch) and used as as_compiled is. A kernel nvcc's code does not
  /// hold is priced as written only (nullptr: not).
  const std::vector<SassAccess>* nvcc_code = nullptr;
  double time_limit_seconds = 10.0;     ///< wall-clock limit for the whole launch
  /// Limit for one block (0: none), in CPU time of the OS thread that runs it
  /// (a machine busy with other work slows a block without stopping it). A
  /// block that runs longer is stopped with a time-limit finding, as the
  /// launch's limit does: an endless loop is found in this time, not in the
  /// launch's, where one block of the launch should take a small part of it
  /// (the grader's runners).
  double block_time_limit_seconds = 0;
  std::size_t stack_bytes = 64 * 1024;  ///< per CUDA thread
  std::size_t dynamic_shared_bytes = 0;  ///< the third <<<...>>> argument: the size of extern __shared__ arrays
  /// Trace (price) at most this many blocks, spread evenly over the grid; the
  /// others run with every check but no pricing (0: trace all).
  std::uint64_t trace_blocks = 0;
  /// Which blocks that sample is: with a stride of s blocks, block i is
  /// traced when i % s == trace_seed % s (a runner passes its seed, so a
  /// kernel cannot tell the traced blocks from the others).
  std::uint64_t trace_seed = 0;
  /// OS threads running blocks at once (0: one per core). Blocks are
  /// independent in CUDA; the report is the same for any number (findings in
  /// the order of the block that first made them), except where blocks
  /// communicate through global memory (a float atomicAdd's rounding order).
  unsigned workers = 1;
};

/// The cores this process may run on (what LaunchOptions::workers = 0 uses).
unsigned available_cores();

/// Global memory: host memory in a guarded arena, so that out-of-bounds
/// accesses by kernels are found. Aligned to 256 bytes like cudaMalloc.
void* device_malloc(std::size_t bytes);
/// Frees what device_malloc gave; false for any other pointer (one freed
/// already, or never allocated), which it leaves alone.
bool device_free(void* pointer);

namespace detail {
LaunchReport launch_erased(const LaunchOptions& options, dim3 grid, dim3 block, const void* kernel_address,
                           void (*invoke)(void*), void* closure);
}  // namespace detail

/// Runs kernel<<<grid, block>>>(args...) on the CPU, one fiber per CUDA thread,
/// blocks one after another. Never throws for problems in kernel code: they
/// are findings in the report.
template <class... Params, class... Args>
LaunchReport launch(const LaunchOptions& options, dim3 grid, dim3 block, void (*kernel)(Params...), Args&&... args) {
  static_assert(sizeof...(Params) == sizeof...(Args), "launch: wrong number of kernel arguments");
  struct Closure {
    void (*kernel)(Params...);
    std::tuple<std::decay_t<Params>...> args;
  } closure{kernel, std::tuple<std::decay_t<Params>...>(std::forward<Args>(args)...)};
  auto invoke = [](void* raw) {
    auto* c = static_cast<Closure*>(raw);
    std::apply(c->kernel, c->args);
  };
  return detail::launch_erased(options, grid, block, reinterpret_cast<const void*>(kernel), invoke, &closure);
}

template <class... Params, class... Args>
LaunchReport launch(dim3 grid, dim3 block, void (*kernel)(Params...), Args&&... args) {
  return launch(LaunchOptions{}, grid, block, kernel, std::forward<Args>(args)...);
}

/// The report as text: findings first, then a table of shared-memory lines;
/// with `verbose`, the bank map of each line's worst instruction too.
std::string format_report(const LaunchReport& report, bool verbose = false);
/// The per-line table of a report priced as nvcc compiled it ("" when it was not).
std::string format_compiled_lines(const LaunchReport& report);

}  // namespace banklab::emu

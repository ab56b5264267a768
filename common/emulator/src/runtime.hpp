// The emulator's internal state, shared by the scheduler (runtime.cpp) and the
// access hooks and tracer (trace.cpp). Not part of the public API.
#pragma once

#include <csetjmp>
#include <csignal>
#include <ctime>

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "banklab/cuda_host.hpp"
#include "banklab/emulator.hpp"

namespace banklab::emu::detail {

enum class ThreadStatus : std::uint8_t { kRunnable, kAtBarrier, kAtWarpCollective, kExited };

// One frame of lab code, recorded by __tsan_func_entry (trace.cpp): where its
// return address and saved frame pointer lie and what they held at entry, so
// that __tsan_func_exit can tell that the code did not overwrite them.
struct LabFrame {
  std::uintptr_t* slot = nullptr;  // the return address; slot[-1] is the saved frame pointer
  std::uintptr_t return_address = 0;
  std::uintptr_t saved_frame = 0;
};
// Lab frames one CUDA thread (or the host) keeps track of; deeper frames
// (deep recursion) are counted, not checked.
constexpr int kTrackedFrames = 24;
// Code addresses in the runtime's frames above a kernel's entry (fiber_entry,
// the launch's invoke), checked when the kernel returns.
constexpr int kTrackedRuntimeSlots = 8;
struct FrameStack {
  int depth = 0;  // lab frames entered and not left (may exceed kTrackedFrames)
  std::array<LabFrame, kTrackedFrames> frames{};
  int runtime_slots = 0;
  std::array<std::uintptr_t*, kTrackedRuntimeSlots> runtime_slot{};
  std::array<std::uintptr_t, kTrackedRuntimeSlots> runtime_value{};
};

struct Thread {
  void* context = nullptr;  // fcontext of the fiber
  uint3 index{};
  int linear = 0;
  int warp = 0;
  int lane = 0;
  ThreadStatus status = ThreadStatus::kExited;
  std::uintptr_t wait_pc = 0;
  int barrier_predicate = 0;  // what it brought to __syncthreads_count/and/or
  int barrier_result = 0;     // the count of non-zero predicates, set at release
  int barrier_arrived = 0;    // how many threads the barrier released
  std::uintptr_t stack_lo = 0, stack_hi = 0;  // its own fiber stack
  FrameStack frames;
};

// What a warp collective computes for each lane when it is released.
enum class WarpOp : std::uint8_t { kShuffle, kAdd, kMin, kMax, kAnd, kOr, kXor, kMatchAny, kMatchAll };

struct WarpState {
  std::uint32_t present = 0;  // lanes that exist in this block
  std::uint32_t exited = 0;
  std::uint32_t arrived = 0;  // lanes waiting in a collective
  std::uint32_t sync_count = 0;
  // Each waiting lane's collective: the lanes that pass the same mask make
  // one (CUDA requires every lane it names to pass that mask), so a lane in
  // a branch of its own (mask 1u) is not joined to the others' next one.
  std::array<std::uint32_t, kWarpSize> masks{};
  std::array<WarpOp, kWarpSize> ops{};
  std::array<std::uint64_t, kWarpSize> values{};
  std::array<int, kWarpSize> sources{};
  // The lanes that called __activemask at `activemask_pc` since the warp last
  // converged: active there with the caller, though they may have exited
  // since (the lanes of a warp run one after another here).
  std::uintptr_t activemask_pc = 0;
  std::uint32_t activemask_sync = 0;
  std::uint32_t activemask_lanes = 0;
  std::array<std::uint64_t, kWarpSize> results{};
  std::array<std::uint32_t, kWarpSize> ballots{};
};

struct SharedVar {
  std::uintptr_t address = 0;
  std::size_t size = 0;
  std::size_t offset = 0;  // in the kernel's shared memory
  std::size_t align = 0;   // what its declaration guarantees (0: unknown, no debug information)
};

// Per cell of the kernel's shared memory: who last wrote and read it, in
// which barrier interval (epoch), for races and uninitialised reads. A cell is
// a 4-byte word while every access of the block to it covers the whole word
// (the common case: one cell per float); once an access covers part of a word,
// the word is split into four byte cells for the rest of the block.
struct ShadowCell {
  std::uint32_t write_epoch = 0;
  std::uint32_t read_epoch = 0;
  std::uint16_t writer = 0;
  std::uint16_t reader = 0;
  std::uint32_t writer_sync = 0;  // the writer's warp sync_count at the write
  bool many_readers = false;
  bool atomic_write = false;
  std::uint32_t split_epoch = 0;  // words only: split into bytes in the block that started at this epoch
  std::uintptr_t write_pc = 0;
  std::uintptr_t read_pc = 0;
};

// One warp instruction being assembled: lane l's k-th execution of a pc.
// How a shared atomic runs on an H200 (tests/data/gpu/h200_shared_atomics_ncu.csv):
// a native one (add, min, max, and, or, xor, inc, dec, exch) costs what a store
// to the same addresses costs; atomicCAS costs 2 wavefronts per lane of its
// busiest bank; a float or double atomicAdd is a compare-and-swap loop, one
// instruction of 2 wavefronts per pass and as many passes as lanes in the
// busiest bank. Not an atomic, but priced apart like one: an asynchronous
// copy's shared write (LDGSTS) merges no lanes, a word that several lanes
// write costs one pass per lane (tests/data/gpu/h100_async_copy/).
enum class AtomicKind : std::uint8_t { kNone, kNative, kCas, kCasLoop, kAsyncCopy };

struct Instance {
  std::array<std::int32_t, kWarpSize> offsets;  // -1: lane inactive
  std::uint8_t width = 0;
  std::uint8_t lanes = 0;  // active lanes so far
  bool write = false;
  AtomicKind atomic = AtomicKind::kNone;
};
struct PcStats;
struct PcTrace {
  std::uintptr_t pc = 0;
  PcStats* stats = nullptr;                      // where its warp instructions are priced into
  std::array<std::uint32_t, kWarpSize> next{};  // per lane: executions since the warp last converged
  std::vector<Instance> instances;              // warp instructions since then
  // Lanes taking turns (the grader's runs, trace.cpp join_turns): each lane's
  // k-th execution since the block's last barrier, across the warp's meeting
  // points, with the meeting interval it ran in (1, 2, ...; per lane).
  std::array<std::uint32_t, kWarpSize> before{};  // per lane: executions before the warp last converged
  std::vector<Instance> joined;
  std::vector<std::array<std::uint32_t, kWarpSize>> joined_meeting;
  std::uint32_t meetings = 0;
  // Lanes taking turns between block barriers (trace.cpp add_barrier_turn):
  // the lanes that ran the pc once each in the barrier intervals since a lane
  // last ran it again, with their offsets.
  Instance turn;
  std::uint32_t turn_lanes = 0;
  std::uint32_t turn_intervals = 0;
};
struct WarpTrace {
  std::vector<PcTrace> pcs;
  // pcs by a hash of the pc: index + 1 of the pc that last used the slot (0: none)
  std::array<std::uint32_t, 64> slots{};
  PcTrace& find(std::uintptr_t pc) {
    const std::uint32_t slot = slots[(pc ^ (pc >> 6)) & (slots.size() - 1)];
    if (slot != 0 && pcs[slot - 1].pc == pc) [[likely]] return pcs[slot - 1];
    return find_slow(pc);
  }
  PcTrace& find_slow(std::uintptr_t pc);  // trace.cpp
};
// What the launch learned about one pc.
struct PcStats {
  std::uint64_t loads = 0, stores = 0, warp_instructions = 0, wavefronts = 0, ideal = 0;
  int width = 0;       // bytes per lane of the instruction
  bool store = false;  // a store or an atomic
  int worst = 0;
  std::uint64_t worst_block = 0;  // the first block (in launch order) with the worst instance
  WarpAccess worst_access;
  std::string worst_context;
  // Its distinct access patterns (trace.cpp record_pattern), for the grader
  // to price: each with the block and the order in it that it first ran in.
  std::vector<AccessPattern> patterns;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> pattern_first;  // (block, sequence) per pattern
  std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> pattern_slots;  // key hash -> patterns
  std::uint64_t unrecorded_loads = 0, unrecorded_stores = 0;
  std::uint32_t last_pattern = ~0u;  // the pattern this pc recorded last (loops repeat it)
  // The instructions its lanes made taking turns, joined, where joined they
  // conflict (PcTrace::joined), recorded as patterns of their own.
  std::unique_ptr<PcStats> joined;
};

// What one warp instruction costs (trace.cpp): its wavefronts, and the
// instructions it issues (a compare-and-swap loop: one per round).
struct InstanceCost {
  WavefrontCount count;
  std::uint64_t instructions = 1;
};
InstanceCost instance_cost(const Instance& instance);

// How --as-compiled treats one pc's warp instructions (as_compiled.cpp).
struct CompiledRole {
  enum class Kind : std::uint8_t {
    kAsIs,     // nvcc makes the same access here
    kMerge,    // nvcc makes wider accesses here: join each lane's adjacent ones
    kPartner,  // nvcc makes none here, but wider ones at `target`: join them there, drop the rest
    kRemove,   // nvcc makes none here
    kEnds,     // nvcc makes `keep` outside its loops: each lane's first (loads) or last (stores) `keep` count
    kSplit,    // nvcc makes narrower accesses here
  };
  Kind kind = Kind::kAsIs;
  int width = 0;   // kMerge, kPartner, kSplit: nvcc's width
  int keep = 0;    // kEnds
  // A store where nvcc also loads, at the same width, what the host compiler
  // kept in a register (the read of `a[i] += x`): where the trace has no load
  // at the line, each store is priced once more as a load of its addresses.
  bool reread = false;
  // Where nvcc rereads at fewer of its copies of the line than it stores
  // (an unrolled loop whose first copies it proved apart): how many; each
  // warp's last that many stores of a block are reread. 0: every store.
  int reread_keep = 0;
  std::vector<int> widths;  // kMerge, kPartner: nvcc's widths at the target line, widest first
  std::pair<std::string, int> line;    // (file name, line) of the pc
  std::pair<std::string, int> target;  // where merged accesses are counted
  std::string file;                    // the pc's file as the compiler recorded it
};

// A cached bank-model answer (trace.cpp).
struct PriceMemo {
  std::array<std::int32_t, kWarpSize> offsets{};
  std::uint8_t width = 0;  // 0: empty
  bool write = false;
  WavefrontCount count;
};

// What the signal handler saw (crash.cpp).
struct CrashInfo {
  int signal = 0;
  std::uintptr_t fault_address = 0;
  std::uintptr_t pc = 0;
  Thread* thread = nullptr;
  // SIGABRT (abort(), a failed assert) stops inside the C library: the
  // return addresses lead back to the kernel's line.
  void* frames[32] = {};
  int frame_count = 0;
  const char* unsupported = nullptr;  // set by unsupported(): what the kernel asked for
  bool illegal_address = false;       // set by illegal_address(): the GPU's error is an illegal address
  bool reported = false;  // stopped by the memory guard, which made the finding itself
  bool block_limit = false;  // SIGALRM of the block's timer (not the launch's)
};

// Everything one OS thread needs to run blocks. The launching thread uses
// g_main_runtime; each extra worker of a parallel launch has its own.
struct Runtime {
  Thread* current = nullptr;  // the fiber running now, null outside kernels
  bool tracing = true;
  LaunchReport* report = nullptr;
  std::string kernel_mangled;
  std::uintptr_t last_pc = 0;  // of the latest access in kernel code
  std::uintptr_t last_misaligned_pc = 0;  // of the latest misaligned shared access
  AtomicKind atomic_kind = AtomicKind::kNative;  // of the atomic being recorded (set by the atomic itself)
  bool async_copy = false;  // the shared store being recorded is an asynchronous copy's (async_copy_unit)
  std::uint64_t block_index = 0;  // of the running block, in launch order (x fastest)
  std::vector<Thread> threads;
  std::vector<WarpState> warps;
  // Per warp, 32 lanes' slots of 64 bytes each for wmma::mma_sync's exchange (wmma.cpp).
  std::vector<unsigned char> warp_exchange;

  // shared memory of the launched kernel
  std::vector<SharedVar> vars;
  std::uintptr_t section_lo = 0, section_span = 0;  // the program's thread-local block
  std::uintptr_t builtins_lo = 0, builtins_span = 0;  // threadIdx to gridDim in it (read often, not shared)
  std::vector<SharedVar> not_shared;                 // compiler-made variables in it
  std::size_t shared_bytes = 0;
  std::vector<ShadowCell> shadow_words;  // one per 4 bytes
  std::vector<ShadowCell> shadow_bytes;  // one per byte, used for split words
  std::uint32_t epoch = 0, block_start_epoch = 0;

  // findings, deduplicated by (kind, pc, other pc)
  std::map<std::tuple<int, std::uintptr_t, std::uintptr_t>, std::size_t> finding_index;
  std::vector<std::uint64_t> finding_blocks;  // per finding of report: the block that first made it

  // crashes and the time limit, per OS thread (crash.cpp)
  sigjmp_buf recover;
  volatile sig_atomic_t in_launch = 0;
  CrashInfo crash;
  std::unique_ptr<char[]> signal_stack;
  timer_t timer{};        // the launch's limit: wall-clock time
  bool timer_armed = false;
  timer_t block_timer{};  // one block's limit: this OS thread's CPU time, so that a machine
  bool block_timer_armed = false;  // busy with other work does not stop a block that would finish

  // lab code called outside a launch (stage 1's word_of from the runner's main)
  FrameStack host_frames;
  std::uintptr_t host_stack_lo = 0, host_stack_hi = 0;  // this OS thread's stack (0: not read yet)

  // check_global's cache: the allocation the last access hit (size 0: none)
  std::uintptr_t last_hit_begin = 0;
  std::size_t last_hit_size = 0;

  // tracing
  std::vector<PriceMemo> price_memo;
  std::vector<WarpTrace> warp_traces;
  std::unordered_map<std::uintptr_t, PcStats> pc_stats;
  std::uint64_t shared_accesses = 0;

  void trace_begin_launch();
  void trace_begin_block(int warp_count);
  void trace_end_block();
  // The warp's lanes meet (a barrier, a warp collective): the warp
  // instructions assembled so far are complete and are priced; executions
  // after this point form new ones, never joined with earlier ones.
  void trace_converge(int warp);
  // Every warp of the block at a barrier (or the block's end): the turns
  // its lanes took since the last one are joined and priced (join_turns).
  void trace_barrier(bool block_end = false);
  std::size_t joined_instances = 0;  // held for the current barrier interval (capped as pending_instances)
  // Warp instructions held for the current block; past the cap (an endless
  // loop, until the time limit stops it) further accesses are not traced.
  std::size_t pending_instances = 0;
  std::uint64_t untraced_accesses = 0;
  void trace_finish(LaunchReport& report);
  // --as-compiled (as_compiled.cpp): each converge also prices the warp's
  // instructions as nvcc's code issues them, by the kernel's plan.
  const CompiledPlan* compiled_plan = nullptr;
  std::unordered_map<std::uintptr_t, CompiledRole> compiled_roles;  // per pc, this launch
  std::map<std::pair<std::string, int>, CompiledLineStats> compiled_lines;  // (file name, line)
  void compiled_converge(WarpTrace& trace);
  // Rereads waiting for the block's end (CompiledRole::reread_keep), per (warp, line).
  struct PendingRereads {
    std::string file;
    int keep = 0;
    std::vector<Instance> loads;
  };
  std::map<std::pair<std::size_t, std::pair<std::string, int>>, PendingRereads> compiled_rereads;
  void compiled_end_block();
  void compiled_finish(LaunchReport& report);
  // Adds another worker's traced costs of this launch to this one's.
  void merge_trace(const Runtime& other);
};

// Each OS thread that runs blocks has its own Runtime: the launching thread
// runs blocks with g_main_runtime, the extra workers of a parallel launch with
// theirs. Shared memory (thread-local variables) is per OS thread already.
// g_worker is null (zero-initialised, like every thread-local of the runtime:
// see runtime.cpp) on threads that never ran a worker.
extern Runtime g_main_runtime;
extern __constinit thread_local Runtime* g_worker;
inline Runtime& rt() {
  Runtime* r = g_worker;
  return r != nullptr ? *r : g_main_runtime;
}

// The global memory arena (global_memory.cpp), one for the process.
extern std::uintptr_t g_arena_lo, g_arena_span;

void yield_to_scheduler();
std::string thread_text(const Thread& t);
std::string block_text();
Finding& add_finding(FindingKind kind, std::uintptr_t pc, std::uintptr_t other_pc, const std::string& message);
// A finding of a launch made before any kernel code runs (an invalid
// configuration), at the program's line that launched it: the innermost frame
// of the calling thread's stack outside the emulator and the system headers
// (unknown where there is none).
Finding& add_launch_finding(FindingKind kind, const std::string& message);
void check_global(std::uintptr_t address, unsigned size, bool write, std::uintptr_t pc);
void shared_access(std::uintptr_t offset, unsigned size, bool write, std::uintptr_t pc, bool atomic);

// The scheduler (runtime.cpp): a thread waits at __syncthreads() or in a warp
// collective until the scheduler releases it.
void block_barrier(std::uintptr_t pc);
void warp_collective(unsigned mask, std::uint64_t value, int source, std::uintptr_t pc,
                     WarpOp op = WarpOp::kShuffle);
bool in_fiber_stacks(std::uintptr_t address);

// Shared memory of the launched kernel (layout.cpp).
bool setup_shared_layout(LaunchReport& report, const void* kernel, std::size_t dynamic_bytes);
// The same layout for another OS thread, whose thread-local block lies
// `delta` bytes from the launching thread's.
void adopt_shared_layout(Runtime& worker, const Runtime& from, std::uintptr_t delta);
void poison_shared();

// Global memory (global_memory.cpp): "4 bytes past the end of allocation #2".
std::string describe_global(std::uintptr_t address);

// Crashes and the time limit (crash.cpp): the launch sets a recovery point
// and g_in_launch; a signal in kernel code jumps back there.
// The recovery point, timer and signal stack are per OS thread (in Runtime):
// each worker of a parallel launch is stopped where it runs.
void install_signal_handlers();
void remove_signal_handlers();
void arm_time_limit(double seconds);  // for the calling OS thread
void rearm_time_limit(double seconds);  // the armed timer of the calling OS thread, from now
void arm_block_limit(double cpu_seconds);  // the calling OS thread's block timer, from now (0: off)
void disarm_time_limit();  // both timers
void report_crash(const LaunchOptions& options, std::uint64_t blocks_finished, std::uint64_t total_blocks);
// As unsupported(), for an access a GPU stops with cudaErrorIllegalAddress (a
// surface read past its array in trap mode): an out-of-bounds finding at the
// kernel's line, and the program sees that error.
[[noreturn]] void illegal_address(const char* what);
void foreign_shared_access(std::uintptr_t address, unsigned size, bool write, std::uintptr_t pc);

// The memory guard (guard.cpp). Strict when the program's lab object was
// marked by the grader's build (its data sections renamed, see
// grader/src/link_check.cpp): then every load and store of lab code outside
// shared memory, the arena's allocations, its own stack, the lab object's
// data and the built-in variables stops the run. `banklab run` programs
// (whose host code is instrumented too) are not marked: only shared and
// global accesses are checked there, as before.
extern const bool g_guard_strict;
// An access of lab code in a launch that is none of shared memory, the
// arena, the thread's own stack or the lab's data: a finding, and the launch stops.
void guard_access(std::uintptr_t address, unsigned size, bool write, std::uintptr_t pc);
// The same outside a launch: the runner stops with a message naming the line.
void guard_host_access(std::uintptr_t address, unsigned size, bool write, std::uintptr_t pc);
// Lab code broke the rules in a launch: `f` is made; stops the launch (never returns).
[[noreturn]] void stop_launch();
// An access in the thread-local block outside shared memory and the guards
// around it (the runtime's own state): stops the launch in strict mode.
void foreign_access_stop(std::uintptr_t address, unsigned size);
// How the runner exits when lab code outside a launch broke the rules.
constexpr int kGuardExitStatus = 86;

// Every instrumented load and store of kernel code lands here.
[[gnu::always_inline]] inline void on_access(const void* pointer, unsigned size, bool write, std::uintptr_t pc,
                                             bool atomic = false) {
  Runtime& r = rt();
  if (r.current == nullptr) {
    if (g_guard_strict) guard_host_access(reinterpret_cast<std::uintptr_t>(pointer), size, write, pc);
    return;
  }
  r.last_pc = pc;
  const auto address = reinterpret_cast<std::uintptr_t>(pointer);
  for (const SharedVar& v : r.vars) {
    if (address - v.address < v.size) {
      shared_access(v.offset + (address - v.address), size, write, pc, atomic);
      return;
    }
  }
  if (address - r.section_lo < r.section_span) {
    if (address - r.builtins_lo >= r.builtins_span) foreign_shared_access(address, size, write, pc);
  } else if (address - g_arena_lo < g_arena_span) {
    check_global(address, size, write, pc);
  } else if (g_guard_strict) {
    guard_access(address, size, write, pc);
  }
}

/// Whether BANKLAB_CHECK_REPORTS is set (the test suites set it): reports
/// are then checked against their laws as they are made.
bool report_laws_checked();

/// With BANKLAB_CHECK_REPORTS set: the report's laws (report_law_violations),
/// a broken one printed and the process ended with status 70.
void check_report_laws(const LaunchReport& report);

}  // namespace banklab::emu::detail

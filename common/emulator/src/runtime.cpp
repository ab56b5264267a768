// The SIMT scheduler: each CUDA thread of a block is a fiber (Boost.Context's
// fcontext); __syncthreads, __syncwarp and the warp collectives are waits the
// scheduler resolves; a block's fibers run on reused stacks. Crashes
// and time limits in kernel code come back here through a signal handler.
// Blocks run one after another, or spread over several OS threads (workers).

// The guards come first: with -fno-toplevel-reorder a thread-local variable
// takes its place in the thread-local block at its first declaration, and the
// headers below declare the built-in variables (see the layout note below).
// This file sets the built-in variables, which kernel code sees as constant.
#define BANKLAB_RUNTIME_SETS_BUILTINS
extern thread_local char banklab_shared_guard_low[4096];
extern thread_local char banklab_shared_guard_high[4096];

#include <execinfo.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <boost/context/detail/fcontext.hpp>
#include <chrono>
#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <atomic>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>

#include "banklab/sass.hpp"
#include "runtime.hpp"
#include "symbols.hpp"

// The program's thread-local block, in the order this file defines it
// (compiled with -fno-toplevel-reorder; kernel objects link before the
// runtime): .tdata (initialised) ends with the low guard; .tbss holds the
// kernel's shared variables, then the high guard, then the runtime's own
// thread-local state. An index just before the first shared array lands in
// the low guard, one just past the last in the high guard: reported, and never
// touching the runtime's state. No other file of the runtime defines a
// thread-local variable.
//
// The built-in variables kernel code reads, one set per OS thread; the
// scheduler sets them for the fiber it resumes (all zero, so in .tbss: 0
// outside a launch).
__attribute__((used)) thread_local char banklab_shared_guard_low[4096] = {1};
__attribute__((used)) thread_local char banklab_shared_guard_high[4096];
__constinit thread_local uint3 threadIdx{0, 0, 0};
__constinit thread_local uint3 blockIdx{0, 0, 0};
__constinit thread_local dim3 blockDim{0, 0, 0};
__constinit thread_local dim3 gridDim{0, 0, 0};

namespace banklab::emu::detail {

namespace ctx = boost::context::detail;

Runtime g_main_runtime;
__constinit thread_local Runtime* g_worker = nullptr;

namespace {

constexpr std::size_t kGuardBytes = 4096;
constexpr int kMaxBlockThreads = 1024;

// ---- fiber stacks, reused across blocks and launches ------------------------
struct StackPool {
  char* memory = nullptr;
  std::size_t stack_bytes = 0;
  int count = 0;

  char* top(int i) const { return memory + static_cast<std::size_t>(i + 1) * (stack_bytes + kGuardBytes); }

  StackPool() = default;
  StackPool(const StackPool&) = delete;
  StackPool& operator=(const StackPool&) = delete;
  ~StackPool() {
    if (memory != nullptr) munmap(memory, static_cast<std::size_t>(count) * (stack_bytes + kGuardBytes));
  }

  void ensure(int threads, std::size_t bytes) {
    bytes = (bytes + 4095) & ~std::size_t{4095};
    if (threads <= count && bytes == stack_bytes) return;
    if (memory != nullptr) munmap(memory, static_cast<std::size_t>(count) * (stack_bytes + kGuardBytes));
    stack_bytes = bytes;
    count = threads;
    const std::size_t total = static_cast<std::size_t>(count) * (stack_bytes + kGuardBytes);
    memory = static_cast<char*>(
        mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0));
    if (memory == MAP_FAILED) {
      memory = nullptr;
      count = 0;
      return;
    }
    // A guard page below each stack turns a stack overflow into a reported crash.
    for (int i = 0; i < count; ++i)
      mprotect(memory + static_cast<std::size_t>(i) * (stack_bytes + kGuardBytes), kGuardBytes, PROT_NONE);
  }
};
thread_local StackPool g_stacks;

// ---- the running launch ------------------------------------------------------
thread_local ctx::fcontext_t g_scheduler = nullptr;

void (*g_invoke)(void*) = nullptr;
void* g_closure = nullptr;

void fiber_entry(ctx::transfer_t from) {
  g_scheduler = from.fctx;
  g_invoke(g_closure);
  rt().current->status = ThreadStatus::kExited;
  ctx::jump_fcontext(g_scheduler, nullptr);  // never resumed again
}

void resume(Thread& t) {
  rt().current = &t;
  threadIdx = t.index;
  const ctx::transfer_t back = ctx::jump_fcontext(t.context, nullptr);
  t.context = back.fctx;
  rt().current = nullptr;
}

}  // namespace

bool in_fiber_stacks(std::uintptr_t address) {
  return g_stacks.memory != nullptr && address >= reinterpret_cast<std::uintptr_t>(g_stacks.memory) &&
         address < reinterpret_cast<std::uintptr_t>(g_stacks.top(g_stacks.count - 1));
}

void yield_to_scheduler() {
  Thread* self = rt().current;
  const ctx::transfer_t back = ctx::jump_fcontext(g_scheduler, nullptr);
  g_scheduler = back.fctx;
  threadIdx = self->index;
}

std::string thread_text(const Thread& t) {
  std::ostringstream out;
  out << "thread (" << t.index.x << "," << t.index.y << "," << t.index.z << ")";
  return out.str();
}

std::string block_text() {
  std::ostringstream out;
  out << "block (" << blockIdx.x << "," << blockIdx.y << "," << blockIdx.z << ")";
  return out.str();
}

Finding& add_finding(FindingKind kind, std::uintptr_t pc, std::uintptr_t other_pc, const std::string& message) {
  const auto key = std::make_tuple(static_cast<int>(kind), pc, other_pc);
  auto found = rt().finding_index.find(key);
  if (found != rt().finding_index.end()) {
    Finding& f = rt().report->findings[found->second];
    ++f.count;
    return f;
  }
  rt().finding_index[key] = rt().report->findings.size();
  rt().finding_blocks.push_back(rt().block_index);
  Finding f;
  f.kind = kind;
  f.pc = pc;
  f.other_pc = other_pc;
  f.message = message;
  rt().report->findings.push_back(std::move(f));
  return rt().report->findings.back();
}

// ---- barriers and warp collectives (called from kernel code) ----------------
void block_barrier(std::uintptr_t pc) {
  Thread* self = rt().current;
  if (self == nullptr) return;  // called outside a launch: nothing to wait for
  self->status = ThreadStatus::kAtBarrier;
  self->wait_pc = pc;
  yield_to_scheduler();
}

// Deposits a lane's part of a warp collective and waits until every lane of
// `mask` that has not exited has arrived; returns with the collective resolved.
void warp_collective(unsigned mask, std::uint64_t value, int source, std::uintptr_t pc, WarpOp op) {
  Thread* self = rt().current;
  if (self == nullptr) return;
  WarpState& warp = rt().warps[self->warp];
  warp.ops[self->lane] = op;
  warp.masks[self->lane] = mask;
  warp.values[self->lane] = value;
  warp.sources[self->lane] = source;
  warp.arrived |= 1u << self->lane;
  self->status = ThreadStatus::kAtWarpCollective;
  self->wait_pc = pc;
  yield_to_scheduler();
}

namespace {

// Resolves the collective of the lanes `group` (all waiting, all with one
// mask and one operation) and lets them run on.
void release_group(WarpState& warp, int warp_index, std::uint32_t group) {
  const WarpOp op = warp.ops[static_cast<std::size_t>(__builtin_ctz(group))];
  std::uint32_t ballot = 0;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if ((group >> lane & 1u) && warp.values[lane] != 0) ballot |= 1u << lane;
  }
  // Reductions and matches over the group's lanes (the mask's live lanes).
  std::uint64_t reduced = 0;
  bool first = true;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (!(group >> lane & 1u)) continue;
    const std::uint64_t v = warp.values[lane];
    const auto sv = static_cast<std::int32_t>(static_cast<std::uint32_t>(v));
    switch (op) {
      case WarpOp::kAdd: reduced = first ? v : static_cast<std::uint32_t>(reduced + v); break;
      case WarpOp::kMin: reduced = first || sv < static_cast<std::int32_t>(reduced) ? static_cast<std::uint32_t>(sv) : reduced; break;
      case WarpOp::kMax: reduced = first || sv > static_cast<std::int32_t>(reduced) ? static_cast<std::uint32_t>(sv) : reduced; break;
      case WarpOp::kAnd: reduced = first ? v : (reduced & v); break;
      case WarpOp::kOr: reduced = first ? v : (reduced | v); break;
      case WarpOp::kXor: reduced = first ? v : (reduced ^ v); break;
      default: break;
    }
    first = false;
  }
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (!(group >> lane & 1u)) continue;
    const int source = warp.sources[lane];
    switch (op) {
      case WarpOp::kShuffle:
        // A source outside the group (inactive, exited) is undefined in CUDA: the lane's own value here.
        warp.results[lane] = source >= 0 && source < kWarpSize && (group >> source & 1u) ? warp.values[source]
                                                                                          : warp.values[lane];
        break;
      case WarpOp::kMatchAny:
      case WarpOp::kMatchAll: {
        std::uint32_t same = 0;
        for (int other = 0; other < kWarpSize; ++other) {
          if ((group >> other & 1u) && warp.values[other] == warp.values[lane]) same |= 1u << other;
        }
        // match_all: the mask if every lane holds the same value, else 0 (pred says which).
        warp.results[lane] = op == WarpOp::kMatchAny ? same : (same == group ? same : 0);
        break;
      }
      default:
        warp.results[lane] = reduced;
    }
    warp.ballots[lane] = ballot;
    Thread& t = rt().threads[static_cast<std::size_t>(warp_index * kWarpSize + lane)];
    t.status = ThreadStatus::kRunnable;
  }
  warp.arrived &= ~group;
}

}  // namespace

// Releases each of the warp's collectives whose lanes are all there: those
// that passed one mask, once every live lane of that mask has arrived.
bool try_release_warp(WarpState& warp, int warp_index) {
  bool released = false;
  std::uint32_t waiting = warp.arrived;
  while (waiting != 0) {
    const std::uint32_t mask = warp.masks[static_cast<std::size_t>(__builtin_ctz(waiting))];
    std::uint32_t group = 0;
    for (int lane = 0; lane < kWarpSize; ++lane) {
      if ((waiting >> lane & 1u) && warp.masks[lane] == mask) group |= 1u << lane;
    }
    waiting &= ~group;
    const std::uint32_t needed = (mask & warp.present) & ~warp.exited;
    if ((group & needed) != needed) continue;
    release_group(warp, warp_index, group);
    released = true;
  }
  if (!released) return false;
  ++warp.sync_count;
  rt().trace_converge(warp_index);
  return true;
}

std::uint64_t shuffle(unsigned mask, std::uint64_t value, int source) {
  Thread* self = rt().current;
  if (self == nullptr) return value;
  warp_collective(mask, value, source, reinterpret_cast<std::uintptr_t>(__builtin_return_address(0)));
  return rt().warps[self->warp].results[self->lane];
}

int lane_id() { return rt().current != nullptr ? rt().current->lane : 0; }

std::uint64_t warp_reduce(unsigned mask, std::uint64_t value, int op) {
  Thread* self = rt().current;
  if (self == nullptr) return value;
  warp_collective(mask, value, -1, reinterpret_cast<std::uintptr_t>(__builtin_return_address(0)),
                  static_cast<WarpOp>(op));
  return rt().warps[self->warp].results[self->lane];
}

// ---- one launch ----------------------------------------------------------------
namespace {

// The source lines (file:line) of code addresses, "" where the debug
// information has none; each address is resolved once (workers of a parallel
// launch share the cache: callers hold g_line_mutex).
std::mutex g_line_mutex;
std::map<std::uintptr_t, std::string> g_line_cache;

void resolve_lines(const std::vector<std::uintptr_t>& pcs) {
  std::vector<std::uintptr_t> unknown;
  for (const std::uintptr_t pc : pcs) {
    if (g_line_cache.count(pc) == 0) unknown.push_back(pc);
  }
  if (unknown.empty()) return;
  const auto lines = resolve(unknown);
  for (const std::uintptr_t pc : unknown) {
    const auto found = lines.find(pc);
    g_line_cache[pc] = found != lines.end() && found->second.line > 0 ? found->second.text() : "";
  }
}

// " at file:line" for a wait, or nothing where the line is not known (a code
// address means nothing to the reader).
std::string wait_place(std::uintptr_t pc) {
  const std::lock_guard<std::mutex> lock(g_line_mutex);
  resolve_lines({pc});
  const std::string& line = g_line_cache[pc];
  return line.empty() ? "" : " at " + line;
}

// One __syncthreads() in the source is one barrier, whatever call sites the
// compiler made of it (a call duplicated into both arms of a branch): waits at
// addresses of the same source line are merged.
void merge_same_line(std::map<std::uintptr_t, std::vector<int>>& at_barrier) {
  const std::lock_guard<std::mutex> lock(g_line_mutex);
  std::vector<std::uintptr_t> pcs;
  for (const auto& [pc, ids] : at_barrier) pcs.push_back(pc);
  resolve_lines(pcs);
  auto& cache = g_line_cache;
  std::map<std::string, std::uintptr_t> first_pc;
  for (auto it = at_barrier.begin(); it != at_barrier.end();) {
    const std::string& line = cache[it->first];
    if (line.empty()) {
      ++it;
      continue;
    }
    auto [place, inserted] = first_pc.emplace(line, it->first);
    if (inserted) {
      ++it;
      continue;
    }
    auto& into = at_barrier[place->second];
    into.insert(into.end(), it->second.begin(), it->second.end());
    it = at_barrier.erase(it);
  }
}

// Runs one block to the end. Returns false when the launch must stop (deadlock).
bool run_block(int thread_count) {
  rt().block_start_epoch = ++rt().epoch;
  poison_shared();
  const int warp_count = (thread_count + kWarpSize - 1) / kWarpSize;
  rt().warps.assign(static_cast<std::size_t>(warp_count), WarpState{});
  for (int w = 0; w < warp_count; ++w) {
    const int lanes = std::min(kWarpSize, thread_count - w * kWarpSize);
    rt().warps[static_cast<std::size_t>(w)].present = lanes == kWarpSize ? 0xffffffffu : ((1u << lanes) - 1);
  }
  for (int i = 0; i < thread_count; ++i) {
    Thread& t = rt().threads[static_cast<std::size_t>(i)];
    t.index = {static_cast<unsigned>(i) % blockDim.x, (static_cast<unsigned>(i) / blockDim.x) % blockDim.y,
               static_cast<unsigned>(i) / (blockDim.x * blockDim.y)};
    t.linear = i;
    t.warp = i / kWarpSize;
    t.lane = i % kWarpSize;
    t.status = ThreadStatus::kRunnable;
    t.wait_pc = 0;
    // Stack tops a whole number of pages apart would all fall in the same
    // cache sets: start each fiber's stack at a different cache line.
    const std::size_t color = static_cast<std::size_t>(i % 64) * 64;
    t.context = ctx::make_fcontext(g_stacks.top(i) - color, g_stacks.stack_bytes - color, fiber_entry);
    t.stack_lo = reinterpret_cast<std::uintptr_t>(g_stacks.top(i)) - g_stacks.stack_bytes;
    t.stack_hi = reinterpret_cast<std::uintptr_t>(g_stacks.top(i)) - color;  // where the fiber starts
    t.frames.depth = 0;
  }
  rt().trace_begin_block(warp_count);
  int alive = thread_count;
  while (alive > 0) {
    for (int i = 0; i < thread_count; ++i) {
      Thread& t = rt().threads[static_cast<std::size_t>(i)];
      if (t.status != ThreadStatus::kRunnable) continue;
      resume(t);
      if (t.status == ThreadStatus::kExited) {
        --alive;
        rt().warps[static_cast<std::size_t>(t.warp)].exited |= 1u << t.lane;
      }
    }
    if (alive == 0) break;
    bool released = false;
    for (int w = 0; w < warp_count; ++w) released |= try_release_warp(rt().warps[static_cast<std::size_t>(w)], w);
    if (released) continue;

    // Nobody can run: every live thread waits at a barrier or a collective.
    std::map<std::uintptr_t, std::vector<int>> at_barrier;
    std::vector<int> at_collective;
    for (int i = 0; i < thread_count; ++i) {
      const Thread& t = rt().threads[static_cast<std::size_t>(i)];
      if (t.status == ThreadStatus::kAtBarrier) at_barrier[t.wait_pc].push_back(i);
      if (t.status == ThreadStatus::kAtWarpCollective) at_collective.push_back(i);
    }
    const int exited = thread_count - alive;
    if (at_barrier.size() > 1) merge_same_line(at_barrier);
    if (at_collective.empty()) {
      if (exited > 0 || at_barrier.size() > 1) {
        // The hardware lets such a block go on (or hangs): report, then release.
        const std::uintptr_t pc = at_barrier.begin()->first;
        std::size_t waiting = 0;
        for (const auto& [place, ids] : at_barrier) waiting += ids.size();
        std::string message = exited > 0 ? "__syncthreads() reached by " + std::to_string(waiting) + " of " +
                                               std::to_string(thread_count) + " threads of the block; " +
                                               std::to_string(exited) + " had already exited"
                                         : "threads of one block wait at different __syncthreads() calls";
        Finding& f = add_finding(FindingKind::kBarrierDivergence, pc,
                                 at_barrier.size() > 1 ? std::next(at_barrier.begin())->first : 0, message);
        if (f.details.empty()) {
          const Thread& first_waiting = rt().threads[static_cast<std::size_t>(at_barrier.begin()->second.front())];
          std::string detail = "first seen in " + block_text() + ": " + thread_text(first_waiting) + " waits";
          for (int i = 0; i < thread_count; ++i) {
            const Thread& t = rt().threads[static_cast<std::size_t>(i)];
            if (t.status == ThreadStatus::kExited) {
              detail += ", " + thread_text(t) + " exited without reaching it";
              break;
            }
          }
          f.details.push_back(detail);
          f.details.push_back(
              "a __syncthreads() inside a branch (an if around the bounds check?) must be reached by every thread: "
              "move it outside the branch");
        }
      }
      int count = 0, arrived = 0;
      for (const auto& [place, ids] : at_barrier) {
        for (int i : ids) count += rt().threads[static_cast<std::size_t>(i)].barrier_predicate;
        arrived += static_cast<int>(ids.size());
      }
      for (int w = 0; w < warp_count; ++w) rt().trace_converge(w);
      rt().trace_barrier();
      for (const auto& [place, ids] : at_barrier) {
        for (int i : ids) {
          Thread& t = rt().threads[static_cast<std::size_t>(i)];
          t.status = ThreadStatus::kRunnable;
          t.barrier_result = count;
          t.barrier_arrived = arrived;
          t.barrier_predicate = 0;
        }
      }
      ++rt().epoch;
      continue;
    }
    // Collectives that can never complete: a deadlock. Stop the launch.
    const Thread& stuck = rt().threads[static_cast<std::size_t>(at_collective.front())];
    Finding& f =
        add_finding(FindingKind::kDeadlock, stuck.wait_pc, 0,
                    "deadlock: a warp collective (__syncwarp or __shfl/__ballot) waits for lanes that wait elsewhere");
    std::string detail = "in " + block_text() + ": " + thread_text(stuck) + " waits in a warp collective";
    if (!at_barrier.empty()) {
      detail += "; " + thread_text(rt().threads[static_cast<std::size_t>(at_barrier.begin()->second.front())]) +
                " waits at __syncthreads()" + wait_place(at_barrier.begin()->first);
    }
    f.details.push_back(detail);
    return false;
  }
  rt().trace_end_block();
  return true;
}

}  // namespace

namespace {

// What the workers of one launch share.
struct LaunchPlan {
  const LaunchOptions* options = nullptr;
  const CompiledPlan* compiled = nullptr;  // options->as_compiled, or the kernel's plan from options->nvcc_code
  dim3 grid, block;
  int thread_count = 0;
  std::uint64_t total_blocks = 0;
  std::uint64_t trace_stride = 1;  // trace block i when i % trace_stride == trace_offset
  std::uint64_t trace_offset = 0;
  double seconds = 0;              // the time limit, from the start of the launch
  std::chrono::steady_clock::time_point start;
  unsigned workers = 1;                    // worker w runs blocks w, w + workers, ... (launch order, x fastest)
  std::atomic<std::uint64_t> finished{0};  // blocks run to their end
  std::atomic<bool> stop{false};           // a crash, deadlock or time limit: claim no more blocks
};

// The plan of `kernel` from nvcc's code `sass` (LaunchOptions::nvcc_code),
// made at the kernel's first launch with that code and kept; nullptr where
// nvcc's code has no such function.
const CompiledPlan* compiled_plan_from(const std::vector<SassAccess>& sass, const std::string& kernel) {
  static std::mutex mutex;
  static std::map<std::pair<const std::vector<SassAccess>*, std::string>, CompiledPlan> plans;
  const std::lock_guard<std::mutex> hold(mutex);
  auto found = plans.find({&sass, kernel});
  if (found == plans.end()) found = plans.emplace(std::make_pair(&sass, kernel), compiled_plan(kernel, sass)).first;
  return found->second.lines.empty() ? nullptr : &found->second;
}

// Runs worker w's blocks until none is left or the launch must stop. Returns
// false when a block could not finish (a deadlock).
bool run_blocks(LaunchPlan& plan, unsigned w, LaunchReport& part, Runtime& r) {
  for (std::uint64_t index = w; index < plan.total_blocks; index += plan.workers) {
    if (plan.stop.load(std::memory_order_relaxed)) break;
    blockIdx = {static_cast<unsigned>(index % plan.grid.x), static_cast<unsigned>(index / plan.grid.x % plan.grid.y),
                static_cast<unsigned>(index / (std::uint64_t{plan.grid.x} * plan.grid.y))};
    r.block_index = index;
    r.tracing = plan.options->trace && index % plan.trace_stride == plan.trace_offset;
    part.blocks_traced += r.tracing ? 1 : 0;
    part.blocks_run += 1;
    // This block's limit, in this OS thread's CPU time (the launch's own, in
    // wall-clock time, runs on beside it).
    if (plan.options->block_time_limit_seconds > 0) arm_block_limit(plan.options->block_time_limit_seconds);
    const bool finished = run_block(plan.thread_count);
    part.threads_run += static_cast<std::uint64_t>(plan.thread_count);
    if (r.tracing) part.warps_traced += (static_cast<std::uint64_t>(plan.thread_count) + kWarpSize - 1) / kWarpSize;
    if (!finished) {
      plan.stop = true;
      return false;
    }
    plan.finished.fetch_add(1);
  }
  return true;
}

// Runs blocks of the launch on the calling OS thread, with its Runtime, until
// none is left or the launch must stop; what it finds goes to `part`.
void run_worker(LaunchPlan& plan, unsigned w, LaunchReport& part) {
  {
    Runtime& r = rt();
    blockDim = plan.block;
    gridDim = plan.grid;
    g_stacks.ensure(std::max(plan.thread_count, g_stacks.count), plan.options->stack_bytes);
    r.threads.resize(std::max<std::size_t>(r.threads.size(), static_cast<std::size_t>(plan.thread_count)));
    r.report = &part;
    r.compiled_plan = plan.compiled;
    r.finding_index.clear();
    r.finding_blocks.clear();
    r.trace_begin_launch();
    r.last_pc = 0;
    r.current = nullptr;
    r.last_hit_size = 0;  // allocations may have changed since this Runtime's last launch
    // This OS thread's built-in variables (defined together above, in this order).
    r.builtins_lo = reinterpret_cast<std::uintptr_t>(&threadIdx);
    r.builtins_span = reinterpret_cast<std::uintptr_t>(&gridDim + 1) - r.builtins_lo;
  }
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - plan.start).count();
  arm_time_limit(std::max(plan.seconds - elapsed, 1e-6));
  if (sigsetjmp(rt().recover, 1) == 0) {
    rt().in_launch = 1;
    part.completed = run_blocks(plan, w, part, rt());
    rt().in_launch = 0;
  } else {
    part.completed = false;
    plan.stop = true;
    rt().current = nullptr;
    report_crash(*plan.options, plan.finished.load(), plan.total_blocks);
  }
  disarm_time_limit();
  rt().trace_end_block();  // after a block cut short (crash, deadlock): keep what it did; else a no-op
  rt().report = nullptr;
}

// Runtimes of the extra workers, kept from launch to launch.
std::vector<std::unique_ptr<Runtime>> g_extra_runtimes;

// The workers' findings as one list, as one worker running every block in
// order would have made it: a finding of several workers keeps the details of
// the earliest block and adds up the counts; findings are in the order of the
// block that first made them. One time limit is reported, not one per worker.
std::vector<Finding> merge_findings(const std::vector<Runtime*>& runtimes, std::vector<LaunchReport>& parts) {
  struct Entry {
    std::uint64_t block;
    std::size_t order;
    Finding finding;
  };
  std::map<std::tuple<int, std::uintptr_t, std::uintptr_t>, Entry> merged;
  for (std::size_t w = 0; w < parts.size(); ++w) {
    for (std::size_t i = 0; i < parts[w].findings.size(); ++i) {
      Finding& f = parts[w].findings[i];
      const std::uint64_t block = runtimes[w]->finding_blocks[i];
      const bool time_limit = f.kind == FindingKind::kTimeLimit;
      const auto key = time_limit ? std::make_tuple(static_cast<int>(f.kind), std::uintptr_t{0}, std::uintptr_t{0})
                                  : std::make_tuple(static_cast<int>(f.kind), f.pc, f.other_pc);
      auto found = merged.find(key);
      if (found == merged.end()) {
        merged.emplace(key, Entry{block, i, std::move(f)});
        continue;
      }
      Entry& e = found->second;
      const std::uint64_t count = time_limit ? e.finding.count : e.finding.count + f.count;
      if (block < e.block) e = Entry{block, i, std::move(f)};
      e.finding.count = count;
    }
  }
  std::vector<Entry*> order;
  for (auto& [key, e] : merged) order.push_back(&e);
  std::sort(order.begin(), order.end(),
            [](const Entry* a, const Entry* b) { return std::tie(a->block, a->order) < std::tie(b->block, b->order); });
  std::vector<Finding> out;
  for (Entry* e : order) out.push_back(std::move(e->finding));
  return out;
}

}  // namespace

}  // namespace banklab::emu::detail

namespace banklab::emu {

unsigned available_cores() {
  // The cores this process may run on (a container or taskset may allow fewer
  // than the machine has), as nproc counts them.
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return static_cast<unsigned>(CPU_COUNT(&set));
  return std::max(1u, std::thread::hardware_concurrency());
}

}  // namespace banklab::emu

namespace banklab::emu::detail {

LaunchReport launch_erased(const LaunchOptions& options, dim3 grid, dim3 block, const void* kernel_address,
                           void (*invoke)(void*), void* closure) {
  const auto start = std::chrono::steady_clock::now();
  LaunchReport report;
  const FunctionName name = function_name(kernel_address);
  report.kernel = name.demangled;
  Runtime& main = rt();
  main.kernel_mangled = name.mangled;
  report.grid = grid;
  report.block = block;
  main.report = &report;
  main.finding_index.clear();
  main.finding_blocks.clear();
  main.block_index = 0;
  const std::uint64_t threads_per_block = std::uint64_t{block.x} * block.y * block.z;
  if (threads_per_block == 0 || threads_per_block > kMaxBlockThreads || block.z > 64 || grid.x == 0 || grid.y == 0 ||
      grid.z == 0 || grid.y > 65535 || grid.z > 65535) {
    std::ostringstream out;
    out << "invalid launch configuration: grid (" << grid.x << "," << grid.y << "," << grid.z << "), block (" << block.x
        << "," << block.y << "," << block.z << "); a block holds 1 to 1024 threads and no dimension may be 0";
    add_launch_finding(FindingKind::kInvalidLaunch, out.str());
    main.report = nullptr;
    return report;
  }
  if (!setup_shared_layout(report, kernel_address, options.dynamic_shared_bytes)) {
    main.report = nullptr;
    return report;
  }
  g_invoke = invoke;
  g_closure = closure;

  LaunchPlan plan;
  plan.options = &options;
  plan.compiled = options.as_compiled != nullptr || options.nvcc_code == nullptr
                      ? options.as_compiled
                      : compiled_plan_from(*options.nvcc_code, name.demangled);
  plan.grid = grid;
  plan.block = block;
  plan.thread_count = static_cast<int>(threads_per_block);
  plan.total_blocks = std::uint64_t{grid.x} * grid.y * grid.z;
  plan.trace_stride = options.trace_blocks == 0 || options.trace_blocks >= plan.total_blocks
                          ? 1
                          : (plan.total_blocks + options.trace_blocks - 1) / options.trace_blocks;
  plan.trace_offset = options.trace_seed % plan.trace_stride;
  plan.seconds = options.time_limit_seconds;
  plan.start = start;
  unsigned workers = options.workers == 0 ? available_cores() : options.workers;
  workers = static_cast<unsigned>(std::min<std::uint64_t>(workers, plan.total_blocks));
  while (g_extra_runtimes.size() + 1 < workers) g_extra_runtimes.push_back(std::make_unique<Runtime>());
  std::vector<Runtime*> runtimes = {&main};
  for (unsigned w = 1; w < workers; ++w) runtimes.push_back(g_extra_runtimes[w - 1].get());
  plan.workers = workers;
  report.workers = workers;
  std::vector<LaunchReport> parts(workers);
  for (LaunchReport& part : parts) part.shared_variables = report.shared_variables;

  install_signal_handlers();
  {
    const auto main_tls = reinterpret_cast<std::uintptr_t>(&banklab_shared_guard_low);
    std::vector<std::thread> threads;
    for (unsigned w = 1; w < workers; ++w) {
      threads.emplace_back([&, w] {
        g_worker = runtimes[w];
        // This OS thread's shared memory lies at the same offsets of its own
        // thread-local block.
        adopt_shared_layout(*runtimes[w], main,
                            reinterpret_cast<std::uintptr_t>(&banklab_shared_guard_low) - main_tls);
        run_worker(plan, w, parts[w]);
      });
    }
    run_worker(plan, 0, parts[0]);
    for (std::thread& t : threads) t.join();
  }
  remove_signal_handlers();

  report.completed = true;
  for (std::size_t w = 0; w < parts.size(); ++w) {
    report.completed = report.completed && parts[w].completed;
    report.blocks_run += parts[w].blocks_run;
    report.blocks_traced += parts[w].blocks_traced;
    report.warps_traced += parts[w].warps_traced;
    report.threads_run += parts[w].threads_run;
    if (w > 0) main.merge_trace(*runtimes[w]);
  }
  report.findings = merge_findings(runtimes, parts);
  main.report = &report;
  main.trace_finish(report);
  main.report = nullptr;
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  check_report_laws(report);
  return report;
}

}  // namespace banklab::emu::detail

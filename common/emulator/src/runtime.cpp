// The SIMT scheduler: each CUDA thread of a block is a fiber (Boost.Context's
// fcontext); __syncthreads, __syncwarp and the warp collectives are waits the
// scheduler resolves; blocks run one after another on reused stacks. Crashes
// and time limits in kernel code come back here through a signal handler.
#include <execinfo.h>
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
#include <map>
#include <sstream>

#include "runtime.hpp"
#include "symbols.hpp"

// The built-in variables kernel code reads; the scheduler sets them for the
// fiber it resumes.
uint3 threadIdx;
uint3 blockIdx;
dim3 blockDim;
dim3 gridDim;

// Guards around the shared variables in the program's thread-local block: an
// index before the first array lands in the low guard (.tdata comes first),
// one past the last array in the high guard (the runtime links after kernel
// code), and is reported instead of touching the thread's control block.
__attribute__((used)) thread_local char banklab_shared_guard_low[4096] = {1};
__attribute__((used)) thread_local char banklab_shared_guard_high[4096];

namespace banklab::emu::detail {

namespace ctx = boost::context::detail;

Runtime g_rt;

namespace {

constexpr std::size_t kGuardBytes = 4096;
constexpr int kMaxBlockThreads = 1024;

// ---- fiber stacks, reused across blocks and launches ------------------------
struct StackPool {
  char* memory = nullptr;
  std::size_t stack_bytes = 0;
  int count = 0;

  char* top(int i) const { return memory + static_cast<std::size_t>(i + 1) * (stack_bytes + kGuardBytes); }

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
StackPool g_stacks;

// ---- the running launch ------------------------------------------------------
ctx::fcontext_t g_scheduler = nullptr;

void (*g_invoke)(void*) = nullptr;
void* g_closure = nullptr;

void fiber_entry(ctx::transfer_t from) {
  g_scheduler = from.fctx;
  g_invoke(g_closure);
  g_rt.current->status = ThreadStatus::kExited;
  ctx::jump_fcontext(g_scheduler, nullptr);  // never resumed again
}

void resume(Thread& t) {
  g_rt.current = &t;
  threadIdx = t.index;
  const ctx::transfer_t back = ctx::jump_fcontext(t.context, nullptr);
  t.context = back.fctx;
  g_rt.current = nullptr;
}

}  // namespace

bool in_fiber_stacks(std::uintptr_t address) {
  return g_stacks.memory != nullptr && address >= reinterpret_cast<std::uintptr_t>(g_stacks.memory) &&
         address < reinterpret_cast<std::uintptr_t>(g_stacks.top(g_stacks.count - 1));
}

void yield_to_scheduler() {
  Thread* self = g_rt.current;
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
  auto found = g_rt.finding_index.find(key);
  if (found != g_rt.finding_index.end()) {
    Finding& f = g_rt.report->findings[found->second];
    ++f.count;
    return f;
  }
  g_rt.finding_index[key] = g_rt.report->findings.size();
  Finding f;
  f.kind = kind;
  f.pc = pc;
  f.other_pc = other_pc;
  f.message = message;
  g_rt.report->findings.push_back(std::move(f));
  return g_rt.report->findings.back();
}

// ---- barriers and warp collectives (called from kernel code) ----------------
void block_barrier(std::uintptr_t pc) {
  Thread* self = g_rt.current;
  if (self == nullptr) return;  // called outside a launch: nothing to wait for
  self->status = ThreadStatus::kAtBarrier;
  self->wait_pc = pc;
  yield_to_scheduler();
}

// Deposits a lane's part of a warp collective and waits until every lane of
// `mask` that has not exited has arrived; returns with the collective resolved.
void warp_collective(unsigned mask, std::uint64_t value, int source, std::uintptr_t pc, WarpOp op) {
  Thread* self = g_rt.current;
  if (self == nullptr) return;
  WarpState& warp = g_rt.warps[self->warp];
  warp.op = op;
  warp.values[self->lane] = value;
  warp.sources[self->lane] = source;
  warp.arrived |= 1u << self->lane;
  warp.mask |= mask;
  self->status = ThreadStatus::kAtWarpCollective;
  self->wait_pc = pc;
  yield_to_scheduler();
}

// Releases the warp's collective if everyone it waits for is there.
bool try_release_warp(WarpState& warp, int warp_index) {
  if (warp.arrived == 0) return false;
  const std::uint32_t needed = (warp.mask & warp.present) & ~warp.exited;
  if ((warp.arrived & needed) != needed) return false;
  std::uint32_t ballot = 0;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if ((warp.arrived >> lane & 1u) && warp.values[lane] != 0) ballot |= 1u << lane;
  }
  // Reductions and matches over the lanes that arrived (the mask's live lanes).
  std::uint64_t reduced = 0;
  bool first = true;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (!(warp.arrived >> lane & 1u)) continue;
    const std::uint64_t v = warp.values[lane];
    const auto sv = static_cast<std::int32_t>(static_cast<std::uint32_t>(v));
    switch (warp.op) {
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
    if (!(warp.arrived >> lane & 1u)) continue;
    const int source = warp.sources[lane];
    switch (warp.op) {
      case WarpOp::kShuffle:
        warp.results[lane] = source >= 0 && source < kWarpSize ? warp.values[source] : warp.values[lane];
        break;
      case WarpOp::kMatchAny:
      case WarpOp::kMatchAll: {
        std::uint32_t same = 0;
        for (int other = 0; other < kWarpSize; ++other) {
          if ((warp.arrived >> other & 1u) && warp.values[other] == warp.values[lane]) same |= 1u << other;
        }
        // match_all: the mask if every lane holds the same value, else 0 (pred says which).
        warp.results[lane] = warp.op == WarpOp::kMatchAny ? same : (same == warp.arrived ? same : 0);
        break;
      }
      default:
        warp.results[lane] = reduced;
    }
    warp.ballots[lane] = ballot;
    Thread& t = g_rt.threads[static_cast<std::size_t>(warp_index * kWarpSize + lane)];
    t.status = ThreadStatus::kRunnable;
  }
  warp.arrived = 0;
  warp.mask = 0;
  ++warp.sync_count;
  g_rt.trace_converge(warp_index);
  return true;
}

std::uint64_t shuffle(unsigned mask, std::uint64_t value, int source) {
  Thread* self = g_rt.current;
  if (self == nullptr) return value;
  warp_collective(mask, value, source, reinterpret_cast<std::uintptr_t>(__builtin_return_address(0)));
  return g_rt.warps[self->warp].results[self->lane];
}

int lane_id() { return g_rt.current != nullptr ? g_rt.current->lane : 0; }

std::uint64_t warp_reduce(unsigned mask, std::uint64_t value, int op) {
  Thread* self = g_rt.current;
  if (self == nullptr) return value;
  warp_collective(mask, value, -1, reinterpret_cast<std::uintptr_t>(__builtin_return_address(0)),
                  static_cast<WarpOp>(op));
  return g_rt.warps[self->warp].results[self->lane];
}

// ---- one launch ----------------------------------------------------------------
namespace {

std::string wait_place(std::uintptr_t pc) {
  std::ostringstream out;
  out << "0x" << std::hex << pc;
  return out.str();
}

// One __syncthreads() in the source is one barrier, whatever call sites the
// compiler made of it (a call duplicated into both arms of a branch): waits at
// addresses of the same source line are merged.
void merge_same_line(std::map<std::uintptr_t, std::vector<int>>& at_barrier) {
  static std::map<std::uintptr_t, std::string> cache;
  std::vector<std::uintptr_t> unknown;
  for (const auto& [pc, ids] : at_barrier) {
    if (cache.count(pc) == 0) unknown.push_back(pc);
  }
  if (!unknown.empty()) {
    const auto lines = resolve(unknown);
    for (const std::uintptr_t pc : unknown) {
      const auto found = lines.find(pc);
      cache[pc] = found != lines.end() && found->second.line > 0 ? found->second.text() : "";
    }
  }
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
  g_rt.block_start_epoch = ++g_rt.epoch;
  poison_shared();
  const int warp_count = (thread_count + kWarpSize - 1) / kWarpSize;
  g_rt.warps.assign(static_cast<std::size_t>(warp_count), WarpState{});
  for (int w = 0; w < warp_count; ++w) {
    const int lanes = std::min(kWarpSize, thread_count - w * kWarpSize);
    g_rt.warps[static_cast<std::size_t>(w)].present = lanes == kWarpSize ? 0xffffffffu : ((1u << lanes) - 1);
  }
  for (int i = 0; i < thread_count; ++i) {
    Thread& t = g_rt.threads[static_cast<std::size_t>(i)];
    t.index = {static_cast<unsigned>(i) % blockDim.x, (static_cast<unsigned>(i) / blockDim.x) % blockDim.y,
               static_cast<unsigned>(i) / (blockDim.x * blockDim.y)};
    t.linear = i;
    t.warp = i / kWarpSize;
    t.lane = i % kWarpSize;
    t.status = ThreadStatus::kRunnable;
    t.wait_pc = 0;
    t.context = ctx::make_fcontext(g_stacks.top(i), g_stacks.stack_bytes, fiber_entry);
  }
  g_rt.trace_begin_block(warp_count);
  int alive = thread_count;
  while (alive > 0) {
    for (int i = 0; i < thread_count; ++i) {
      Thread& t = g_rt.threads[static_cast<std::size_t>(i)];
      if (t.status != ThreadStatus::kRunnable) continue;
      resume(t);
      if (t.status == ThreadStatus::kExited) {
        --alive;
        g_rt.warps[static_cast<std::size_t>(t.warp)].exited |= 1u << t.lane;
      }
    }
    if (alive == 0) break;
    bool released = false;
    for (int w = 0; w < warp_count; ++w) released |= try_release_warp(g_rt.warps[static_cast<std::size_t>(w)], w);
    if (released) continue;

    // Nobody can run: every live thread waits at a barrier or a collective.
    std::map<std::uintptr_t, std::vector<int>> at_barrier;
    std::vector<int> at_collective;
    for (int i = 0; i < thread_count; ++i) {
      const Thread& t = g_rt.threads[static_cast<std::size_t>(i)];
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
          const Thread& first_waiting = g_rt.threads[static_cast<std::size_t>(at_barrier.begin()->second.front())];
          std::string detail = "first seen in " + block_text() + ": " + thread_text(first_waiting) + " waits";
          for (int i = 0; i < thread_count; ++i) {
            const Thread& t = g_rt.threads[static_cast<std::size_t>(i)];
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
        for (int i : ids) count += g_rt.threads[static_cast<std::size_t>(i)].barrier_predicate;
        arrived += static_cast<int>(ids.size());
      }
      for (int w = 0; w < warp_count; ++w) g_rt.trace_converge(w);
      for (const auto& [place, ids] : at_barrier) {
        for (int i : ids) {
          Thread& t = g_rt.threads[static_cast<std::size_t>(i)];
          t.status = ThreadStatus::kRunnable;
          t.barrier_result = count;
          t.barrier_arrived = arrived;
          t.barrier_predicate = 0;
        }
      }
      ++g_rt.epoch;
      continue;
    }
    // Collectives that can never complete: a deadlock. Stop the launch.
    const Thread& stuck = g_rt.threads[static_cast<std::size_t>(at_collective.front())];
    Finding& f =
        add_finding(FindingKind::kDeadlock, stuck.wait_pc, 0,
                    "deadlock: a warp collective (__syncwarp or __shfl/__ballot) waits for lanes that wait elsewhere");
    std::string detail = "in " + block_text() + ": " + thread_text(stuck) + " waits in a warp collective";
    if (!at_barrier.empty()) {
      detail += "; " + thread_text(g_rt.threads[static_cast<std::size_t>(at_barrier.begin()->second.front())]) +
                " waits at __syncthreads() (" + wait_place(at_barrier.begin()->first) + ")";
    }
    f.details.push_back(detail);
    return false;
  }
  g_rt.trace_end_block();
  return true;
}

}  // namespace

LaunchReport launch_erased(const LaunchOptions& options, dim3 grid, dim3 block, const void* kernel_address,
                           void (*invoke)(void*), void* closure) {
  const auto start = std::chrono::steady_clock::now();
  LaunchReport report;
  const FunctionName name = function_name(kernel_address);
  report.kernel = name.demangled;
  g_rt.kernel_mangled = name.mangled;
  report.grid = grid;
  report.block = block;
  g_rt.report = &report;
  g_rt.finding_index.clear();
  g_rt.tracing = options.trace;
  const std::uint64_t threads_per_block = std::uint64_t{block.x} * block.y * block.z;
  if (threads_per_block == 0 || threads_per_block > kMaxBlockThreads || block.z > 64 || grid.x == 0 || grid.y == 0 ||
      grid.z == 0 || grid.y > 65535 || grid.z > 65535) {
    std::ostringstream out;
    out << "invalid launch configuration: grid (" << grid.x << "," << grid.y << "," << grid.z << "), block (" << block.x
        << "," << block.y << "," << block.z << "); a block holds 1 to 1024 threads and no dimension may be 0";
    add_finding(FindingKind::kInvalidLaunch, 0, 0, out.str());
    g_rt.report = nullptr;
    return report;
  }
  const int thread_count = static_cast<int>(threads_per_block);
  g_stacks.ensure(std::max(thread_count, g_stacks.count), options.stack_bytes);
  g_rt.threads.resize(std::max<std::size_t>(g_rt.threads.size(), static_cast<std::size_t>(thread_count)));
  if (!setup_shared_layout(report, kernel_address, options.dynamic_shared_bytes)) {
    g_rt.report = nullptr;
    return report;
  }
  g_rt.trace_begin_launch();
  g_rt.last_pc = 0;
  g_invoke = invoke;
  g_closure = closure;
  blockDim = block;
  gridDim = grid;

  install_signal_handlers(options.time_limit_seconds);
  bool completed = true;
  if (sigsetjmp(g_recover, 1) == 0) {
    g_in_launch = 1;
    const std::uint64_t total_blocks = std::uint64_t{grid.x} * grid.y * grid.z;
    const std::uint64_t stride = options.trace_blocks == 0 || options.trace_blocks >= total_blocks
                                     ? 1
                                     : (total_blocks + options.trace_blocks - 1) / options.trace_blocks;
    std::uint64_t index = 0;
    for (unsigned z = 0; z < grid.z && completed; ++z) {
      for (unsigned y = 0; y < grid.y && completed; ++y) {
        for (unsigned x = 0; x < grid.x && completed; ++x, ++index) {
          blockIdx = {x, y, z};
          g_rt.tracing = options.trace && index % stride == 0;
          report.blocks_traced += g_rt.tracing ? 1 : 0;
          report.blocks_run += 1;
          completed = run_block(thread_count);
          report.threads_run += static_cast<std::uint64_t>(thread_count);
        }
      }
    }
    g_in_launch = 0;
  } else {
    completed = false;
    g_rt.current = nullptr;
    report_crash(options);
  }
  remove_signal_handlers();
  report.completed = completed;
  g_rt.trace_finish(report);
  g_rt.report = nullptr;
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

}  // namespace banklab::emu::detail


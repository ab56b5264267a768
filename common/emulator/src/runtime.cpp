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
sigjmp_buf g_recover;
volatile sig_atomic_t g_in_launch = 0;
char g_signal_stack[64 * 1024];
struct CrashInfo {
  int signal = 0;
  std::uintptr_t fault_address = 0;
  std::uintptr_t pc = 0;
  Thread* thread = nullptr;
  // SIGABRT (abort(), a failed assert) stops inside the C library: the
  // return addresses lead back to the kernel's line.
  void* frames[32] = {};
  int frame_count = 0;
};
CrashInfo g_crash;

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
namespace {

void block_barrier(std::uintptr_t pc) {
  Thread* self = g_rt.current;
  if (self == nullptr) return;  // called outside a launch: nothing to wait for
  self->status = ThreadStatus::kAtBarrier;
  self->wait_pc = pc;
  yield_to_scheduler();
}

// Deposits a lane's part of a warp collective and waits until every lane of
// `mask` that has not exited has arrived; returns with the collective resolved.
void warp_collective(unsigned mask, std::uint64_t value, int source, std::uintptr_t pc,
                     WarpOp op = WarpOp::kShuffle) {
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

}  // namespace

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

// ---- global memory: a reserved arena, one guarded mapping per allocation -----
namespace {

constexpr std::size_t kArenaBytes = std::size_t{64} << 30;  // address space only
constexpr std::size_t kPage = 4096;

struct Allocation {
  std::uintptr_t begin = 0;  // user pointer
  std::size_t size = 0;
  std::uintptr_t map_begin = 0;
  std::size_t map_size = 0;
  int id = 0;
};

struct Arena {
  std::uintptr_t base = 0;
  std::uintptr_t next = 0;
  int next_id = 1;
  std::map<std::uintptr_t, Allocation> live;  // by user pointer
  std::vector<Allocation> freed;              // for messages about freed memory
  Allocation last_hit;                        // check_global's cache; size 0 = none

  bool init() {
    if (base != 0) return true;
    void* p = mmap(nullptr, kArenaBytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) return false;
    base = next = reinterpret_cast<std::uintptr_t>(p);
    g_rt.arena_lo = base;
    g_rt.arena_span = kArenaBytes;
    return true;
  }
};
Arena g_arena;

}  // namespace

}  // namespace banklab::emu::detail

namespace banklab::emu {

void* device_malloc(std::size_t bytes) {
  using namespace detail;
  if (!g_arena.init()) return nullptr;
  const std::size_t data_pages = (std::max<std::size_t>(bytes, 1) + kPage - 1) / kPage * kPage;
  const std::size_t map_size = data_pages + 2 * kPage;  // a guard page on each side
  if (g_arena.next + map_size > g_arena.base + kArenaBytes) return nullptr;
  const std::uintptr_t map_begin = g_arena.next;
  g_arena.next += map_size;
  if (mprotect(reinterpret_cast<void*>(map_begin + kPage), data_pages, PROT_READ | PROT_WRITE) != 0) return nullptr;
  Allocation a{map_begin + kPage, bytes, map_begin, map_size, g_arena.next_id++};
  g_arena.live[a.begin] = a;
  return reinterpret_cast<void*>(a.begin);
}

void device_free(void* pointer) {
  using namespace detail;
  auto found = g_arena.live.find(reinterpret_cast<std::uintptr_t>(pointer));
  if (found == g_arena.live.end()) return;
  const Allocation a = found->second;
  g_arena.live.erase(found);
  g_arena.last_hit = Allocation{};
  // Address space is never reused, so a stale pointer faults instead of
  // silently reading a newer allocation.
  mprotect(reinterpret_cast<void*>(a.map_begin), a.map_size, PROT_NONE);
  madvise(reinterpret_cast<void*>(a.map_begin), a.map_size, MADV_DONTNEED);
  g_arena.freed.push_back(a);
}

}  // namespace banklab::emu

namespace banklab::emu::detail {

// Describes an address in or near the arena: "4 bytes past the end of
// allocation #2 (4096 bytes)".
std::string describe_global(std::uintptr_t address) {
  const Allocation* best = nullptr;
  std::uintptr_t best_distance = ~std::uintptr_t{0};
  for (const auto& [begin, a] : g_arena.live) {
    const std::uintptr_t end = a.begin + a.size;
    const std::uintptr_t d = address < a.begin ? a.begin - address : (address >= end ? address - end + 1 : 0);
    if (d < best_distance) {
      best_distance = d;
      best = &a;
    }
  }
  std::ostringstream out;
  for (const Allocation& a : g_arena.freed) {
    if (address >= a.begin && address < a.begin + a.size) {
      out << "inside allocation #" << a.id << " (" << a.size << " bytes), which was already freed";
      return out.str();
    }
  }
  if (best == nullptr) return "not inside any allocation";
  if (address < best->begin) {
    out << (best->begin - address) << " bytes before the start of allocation #" << best->id << " (" << best->size
        << " bytes)";
  } else {
    out << (address - (best->begin + best->size)) << " bytes past the end of allocation #" << best->id << " ("
        << best->size << " bytes)";
  }
  return out.str();
}

void check_global(std::uintptr_t address, unsigned size, bool write, std::uintptr_t pc) {
  // Kernels stream through one allocation at a time: try the last hit first.
  const Allocation& last = g_arena.last_hit;
  if (address - last.begin < last.size && address + size <= last.begin + last.size) return;
  auto after = g_arena.live.upper_bound(address);
  if (after != g_arena.live.begin()) {
    const Allocation& a = std::prev(after)->second;
    if (address >= a.begin && address + size <= a.begin + a.size) {
      g_arena.last_hit = a;
      return;
    }
  }
  Finding& f = add_finding(
      FindingKind::kGlobalOutOfBounds, pc, 0,
      std::string("out-of-bounds global ") + (write ? "write" : "read") + " of " + std::to_string(size) + " bytes");
  if (f.details.empty()) {
    f.details.push_back("first by " + thread_text(*g_rt.current) + " of " + block_text() + ": address is " +
                        describe_global(address));
  }
}

// ---- signals: crashes and the time limit -------------------------------------
namespace {

constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGALRM, SIGTRAP};
struct sigaction g_previous[sizeof kSignals / sizeof kSignals[0]];

void on_signal(int signal, siginfo_t* info, void* context) {
  if (!g_in_launch) {
    // Not ours: fall back to the default action.
    ::signal(signal, SIG_DFL);
    raise(signal);
    return;
  }
  g_in_launch = 0;
  g_crash.signal = signal;
  g_crash.fault_address = reinterpret_cast<std::uintptr_t>(info->si_addr);
  g_crash.pc = static_cast<std::uintptr_t>(static_cast<ucontext_t*>(context)->uc_mcontext.gregs[REG_RIP]);
  g_crash.thread = g_rt.current;
  g_crash.frame_count = signal == SIGABRT || signal == SIGALRM ? backtrace(g_crash.frames, 32) : 0;
  siglongjmp(g_recover, 1);
}

void install_signal_handlers(double seconds) {
  {
    // backtrace() loads its unwinder on first use; do that here, not in a
    // signal handler that may have interrupted malloc.
    void* warm[1];
    backtrace(warm, 1);
  }
  stack_t alt{};
  alt.ss_sp = g_signal_stack;
  alt.ss_size = sizeof g_signal_stack;
  sigaltstack(&alt, nullptr);
  struct sigaction action {};
  action.sa_sigaction = on_signal;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
  sigemptyset(&action.sa_mask);
  for (std::size_t i = 0; i < sizeof kSignals / sizeof kSignals[0]; ++i)
    sigaction(kSignals[i], &action, &g_previous[i]);
  itimerval timer{};
  timer.it_value.tv_sec = static_cast<time_t>(seconds);
  timer.it_value.tv_usec = static_cast<suseconds_t>((seconds - static_cast<double>(timer.it_value.tv_sec)) * 1e6);
  if (timer.it_value.tv_sec == 0 && timer.it_value.tv_usec == 0) timer.it_value.tv_usec = 1;
  setitimer(ITIMER_REAL, &timer, nullptr);
}

void remove_signal_handlers() {
  itimerval off{};
  setitimer(ITIMER_REAL, &off, nullptr);
  for (std::size_t i = 0; i < sizeof kSignals / sizeof kSignals[0]; ++i)
    sigaction(kSignals[i], &g_previous[i], nullptr);
}

std::string signal_text(int signal) {
  switch (signal) {
    case SIGSEGV:
      return "SIGSEGV (invalid memory access)";
    case SIGBUS:
      return "SIGBUS (misaligned or invalid memory access)";
    case SIGFPE:
      return "SIGFPE (integer division by zero?)";
    case SIGILL:
      return "SIGILL (illegal instruction)";
    case SIGABRT:
      return "SIGABRT (abort or failed assert)";
    case SIGTRAP:
      return "SIGTRAP (trap)";
    default:
      return "signal " + std::to_string(signal);
  }
}

std::string seconds_text(double seconds) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f s", seconds);
  return buffer;
}

// The innermost frame of the crash's backtrace (frame 0, the handler,
// skipped) that has a source line outside the emulator's own sources and the
// system headers: the line of kernel code that was running. 0 if there is none.
std::uintptr_t kernel_frame() {
  if (g_crash.frame_count <= 1) return 0;
  static const std::string emulator_dir = [] {
    const std::string file = __FILE__;
    return file.substr(0, file.rfind('/') + 1);
  }();
  std::vector<std::uintptr_t> frames;
  for (int i = 1; i < g_crash.frame_count; ++i) frames.push_back(reinterpret_cast<std::uintptr_t>(g_crash.frames[i]));
  const auto lines = resolve(frames);
  for (const std::uintptr_t frame : frames) {
    const auto found = lines.find(frame);
    // Not the emulator's own code, nor a system header it inlined (the
    // timer may stop the thread inside a hook that frees a std::string).
    if (found != lines.end() && found->second.line > 0 && found->second.file.rfind(emulator_dir, 0) != 0 &&
        found->second.file.rfind("/usr/", 0) != 0)
      return frame;
  }
  return 0;
}

void report_crash(const LaunchOptions& options) {
  const Thread* t = g_crash.thread;
  const std::string who = t != nullptr ? thread_text(*t) + " of " + block_text() : "the emulator's scheduler";
  if (g_crash.signal == SIGALRM) {
    // Where the timer stopped the kernel: the kernel's frame on the stack
    // (the timer often lands in an access hook); failing that, the last
    // access the thread made.
    const std::uintptr_t frame = t == nullptr ? 0 : kernel_frame();
    const std::uintptr_t pc =
        t == nullptr ? 0 : frame != 0 ? frame : (g_rt.last_pc != 0 ? g_rt.last_pc : g_crash.pc + 1);
    Finding& f = add_finding(FindingKind::kTimeLimit, pc, 0,
                             "the launch ran past the time limit of " + seconds_text(options.time_limit_seconds) +
                                 " (an endless loop, or more work than the emulator does in that time)");
    f.details.push_back("stopped while " + who + " was running, after " + std::to_string(g_rt.report->blocks_run - 1) +
                        " of " + std::to_string(std::uint64_t{gridDim.x} * gridDim.y * gridDim.z) +
                        " blocks had finished");
    f.details.push_back(g_rt.report->blocks_run > 1
                            ? "blocks were finishing: if the launch is just long, raise the time limit (or trace "
                              "fewer blocks)"
                            : "no block finished: look for a loop whose exit condition never comes true here");
    return;
  }
  std::string message = "kernel crashed: " + signal_text(g_crash.signal) + " in " + who;
  FindingKind kind = FindingKind::kCrash;
  std::string detail;
  if (g_crash.signal == SIGSEGV || g_crash.signal == SIGBUS) {
    const std::uintptr_t a = g_crash.fault_address;
    if (a - g_rt.arena_lo < g_rt.arena_span) {
      kind = FindingKind::kGlobalOutOfBounds;
      message = "out-of-bounds global access crashed the kernel in " + who;
      detail = "address is " + describe_global(a);
    } else if (t != nullptr && a >= reinterpret_cast<std::uintptr_t>(g_stacks.memory) &&
               a < reinterpret_cast<std::uintptr_t>(g_stacks.top(g_stacks.count - 1))) {
      message = "stack overflow in " + who + " (large local arrays or deep recursion?)";
    } else if (t != nullptr && g_rt.last_misaligned_pc != 0 && g_rt.last_misaligned_pc == g_rt.last_pc) {
      // The host's aligned vector instructions fault on the same access the GPU rejects.
      message = "misaligned shared access stopped the kernel in " + who + ", as it does on a GPU";
      detail = "see the misaligned shared access finding for the offset";
    } else {
      std::ostringstream out;
      out << "address 0x" << std::hex << a << " is not memory the kernel may touch";
      detail = out.str();
    }
  }
  std::uintptr_t where = g_crash.pc + 1;  // +1: resolve() looks up pc - 1
  if (const std::uintptr_t frame = kernel_frame(); frame != 0) where = frame;  // abort(), a failed assert
  Finding& f = add_finding(kind, where, 0, message);
  if (!detail.empty()) f.details.push_back(detail);
}

}  // namespace

// ---- one launch ----------------------------------------------------------------
namespace {

// Lays out the launched kernel's shared memory as nvcc does
// (tests/data/gpu/shared_layout*.txt, measured on an H200): the variables the
// kernel's own code uses in declaration order, then those of the functions
// it calls, each at the alignment of its type (read from the debug
// information); dynamic shared memory after them, at a multiple of 16 bytes.
// Without debug information the alignment is guessed as the largest power of
// two (at most 16) dividing the size.
bool setup_shared_layout(LaunchReport& report, const void* kernel, std::size_t dynamic_bytes) {
  g_rt.vars.clear();
  const SharedSymbols symbols = shared_symbols(kernel);
  g_rt.section_lo = symbols.region_lo;
  g_rt.section_span = symbols.region_span;
  g_rt.not_shared.clear();
  for (const DataSymbol& s : symbols.not_shared) g_rt.not_shared.push_back({s.address, s.size, 0});
  std::size_t offset = 0;
  auto place = [&](const DataSymbol& s, std::size_t size, std::size_t align) {
    offset = (offset + align - 1) / align * align;
    g_rt.vars.push_back({s.address, size, offset});
    report.shared_variables.push_back({s.name, s.address, size, offset});
    offset += size;
  };
  for (const DataSymbol& s : symbols.variables) {
    std::size_t align = s.alignment;
    if (align == 0) {
      align = 16;
      while (align > 1 && s.size % align != 0) align /= 2;
    }
    place(s, s.size, align);
  }
  report.shared_bytes = offset;
  if (dynamic_bytes > 0) {
    if (dynamic_bytes > symbols.dynamic.size) {
      std::ostringstream out;
      out << "invalid launch: " << dynamic_bytes << " bytes of dynamic shared memory asked";
      if (symbols.dynamic.size == 0) {
        out << ", but the program declares no extern __shared__ array";
      } else {
        out << ", more than the " << symbols.dynamic.size << " a block can have";
      }
      add_finding(FindingKind::kInvalidLaunch, 0, 0, out.str());
      return false;
    }
    place(symbols.dynamic, dynamic_bytes, 16);
  }
  report.dynamic_shared_bytes = dynamic_bytes;
  g_rt.shared_bytes = offset;
  g_rt.shadow.assign(offset, ShadowByte{});
  return true;
}

void poison_shared() {
  for (const SharedVar& v : g_rt.vars) std::memset(reinterpret_cast<void*>(v.address), 0xff, v.size);
}

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

// ---- the CUDA functions kernel code calls ---------------------------------------
#define BANKLAB_PC reinterpret_cast<std::uintptr_t>(__builtin_return_address(0))

void __syncthreads() { banklab::emu::detail::block_barrier(BANKLAB_PC); }

namespace {
// __syncthreads() that also counts the threads with a non-zero predicate.
const banklab::emu::detail::Thread* counting_barrier(int predicate, std::uintptr_t pc) {
  using namespace banklab::emu::detail;
  Thread* self = g_rt.current;
  if (self == nullptr) return nullptr;
  self->barrier_predicate = predicate != 0;
  block_barrier(pc);
  return self;
}
}  // namespace

int __syncthreads_count(int predicate) {
  const auto* self = counting_barrier(predicate, BANKLAB_PC);
  return self != nullptr ? self->barrier_result : predicate != 0;
}
int __syncthreads_and(int predicate) {
  const auto* self = counting_barrier(predicate, BANKLAB_PC);
  return self != nullptr ? self->barrier_result == self->barrier_arrived : predicate != 0;
}
int __syncthreads_or(int predicate) {
  const auto* self = counting_barrier(predicate, BANKLAB_PC);
  return self != nullptr ? self->barrier_result != 0 : predicate != 0;
}

void __syncwarp(unsigned mask) { banklab::emu::detail::warp_collective(mask, 0, -1, BANKLAB_PC); }

unsigned __ballot_sync(unsigned mask, int predicate) {
  using namespace banklab::emu::detail;
  Thread* self = g_rt.current;
  if (self == nullptr) return predicate ? 1u : 0u;
  warp_collective(mask, predicate != 0, -1, BANKLAB_PC);
  return g_rt.warps[self->warp].ballots[self->lane] & mask;
}

int __any_sync(unsigned mask, int predicate) { return __ballot_sync(mask, predicate) != 0; }

int __all_sync(unsigned mask, int predicate) {
  using namespace banklab::emu::detail;
  Thread* self = g_rt.current;
  if (self == nullptr) return predicate != 0;
  const unsigned live = mask & g_rt.warps[self->warp].present & ~g_rt.warps[self->warp].exited;
  return (__ballot_sync(mask, predicate) & live) == live;
}

unsigned __activemask() {
  using namespace banklab::emu::detail;
  Thread* self = g_rt.current;
  if (self == nullptr) return 1u;
  return g_rt.warps[self->warp].present & ~g_rt.warps[self->warp].exited;
}

void __threadfence() {}
void __threadfence_block() {}

std::size_t __cvta_generic_to_shared(const void* pointer) {
  const auto address = reinterpret_cast<std::uintptr_t>(pointer);
  for (const auto& v : banklab::emu::detail::g_rt.vars) {
    if (address - v.address <= v.size) return v.offset + (address - v.address);
  }
  return 0;
}

// Atomics: plain read-modify-writes (fibers never interleave inside one), each
// recorded as one access at the caller's line, priced as its kind runs on an
// H200 (AtomicKind in runtime.hpp).
#define BANKLAB_ATOMIC_KIND(Kind, Ret, Name, Params, Body)                              \
  Ret Name Params {                                                                     \
    banklab::emu::detail::g_rt.atomic_kind = banklab::emu::detail::AtomicKind::Kind;    \
    banklab::emu::detail::on_access(address, sizeof(*address), true, BANKLAB_PC, true); \
    const Ret old = *address;                                                           \
    Body;                                                                               \
    return old;                                                                         \
  }
#define BANKLAB_ATOMIC(Ret, Name, Params, Body) BANKLAB_ATOMIC_KIND(kNative, Ret, Name, Params, Body)
BANKLAB_ATOMIC(int, atomicAdd, (int* address, int value), *address = old + value)
BANKLAB_ATOMIC(unsigned, atomicAdd, (unsigned* address, unsigned value), *address = old + value)
BANKLAB_ATOMIC(unsigned long long, atomicAdd, (unsigned long long* address, unsigned long long value),
               *address = old + value)
BANKLAB_ATOMIC_KIND(kCasLoop, float, atomicAdd, (float* address, float value), *address = old + value)
BANKLAB_ATOMIC_KIND(kCasLoop, double, atomicAdd, (double* address, double value), *address = old + value)
BANKLAB_ATOMIC(int, atomicMax, (int* address, int value), *address = std::max(old, value))
BANKLAB_ATOMIC(unsigned, atomicMax, (unsigned* address, unsigned value), *address = std::max(old, value))
BANKLAB_ATOMIC(int, atomicMin, (int* address, int value), *address = std::min(old, value))
BANKLAB_ATOMIC(unsigned, atomicMin, (unsigned* address, unsigned value), *address = std::min(old, value))
BANKLAB_ATOMIC_KIND(kCas, int, atomicCAS, (int* address, int compare, int value), *address = old == compare ? value : old)
BANKLAB_ATOMIC_KIND(kCas, unsigned, atomicCAS, (unsigned* address, unsigned compare, unsigned value),
               *address = old == compare ? value : old)
BANKLAB_ATOMIC_KIND(kCas, unsigned long long, atomicCAS,
               (unsigned long long* address, unsigned long long compare, unsigned long long value),
               *address = old == compare ? value : old)
BANKLAB_ATOMIC(int, atomicExch, (int* address, int value), *address = value)
BANKLAB_ATOMIC(unsigned, atomicExch, (unsigned* address, unsigned value), *address = value)
BANKLAB_ATOMIC(float, atomicExch, (float* address, float value), *address = value)
BANKLAB_ATOMIC(unsigned long long, atomicExch, (unsigned long long* address, unsigned long long value),
               *address = value)
BANKLAB_ATOMIC(int, atomicSub, (int* address, int value), *address = old - value)
BANKLAB_ATOMIC(unsigned, atomicSub, (unsigned* address, unsigned value), *address = old - value)
BANKLAB_ATOMIC(long long, atomicMax, (long long* address, long long value), *address = std::max(old, value))
BANKLAB_ATOMIC(unsigned long long, atomicMax, (unsigned long long* address, unsigned long long value),
               *address = std::max(old, value))
BANKLAB_ATOMIC(long long, atomicMin, (long long* address, long long value), *address = std::min(old, value))
BANKLAB_ATOMIC(unsigned long long, atomicMin, (unsigned long long* address, unsigned long long value),
               *address = std::min(old, value))
BANKLAB_ATOMIC(int, atomicAnd, (int* address, int value), *address = old & value)
BANKLAB_ATOMIC(unsigned, atomicAnd, (unsigned* address, unsigned value), *address = old & value)
BANKLAB_ATOMIC(unsigned long long, atomicAnd, (unsigned long long* address, unsigned long long value),
               *address = old & value)
BANKLAB_ATOMIC(int, atomicOr, (int* address, int value), *address = old | value)
BANKLAB_ATOMIC(unsigned, atomicOr, (unsigned* address, unsigned value), *address = old | value)
BANKLAB_ATOMIC(unsigned long long, atomicOr, (unsigned long long* address, unsigned long long value),
               *address = old | value)
BANKLAB_ATOMIC(int, atomicXor, (int* address, int value), *address = old ^ value)
BANKLAB_ATOMIC(unsigned, atomicXor, (unsigned* address, unsigned value), *address = old ^ value)
BANKLAB_ATOMIC(unsigned long long, atomicXor, (unsigned long long* address, unsigned long long value),
               *address = old ^ value)
// CUDA's wrapping increment and decrement: ((old >= limit) ? 0 : old + 1),
// (((old == 0) || (old > limit)) ? limit : old - 1).
BANKLAB_ATOMIC(unsigned, atomicInc, (unsigned* address, unsigned limit), *address = old >= limit ? 0u : old + 1u)
BANKLAB_ATOMIC(unsigned, atomicDec, (unsigned* address, unsigned limit),
               *address = (old == 0u || old > limit) ? limit : old - 1u)

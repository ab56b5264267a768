// Crashes and the time limit in kernel code: a signal handler on its own
// stack brings a faulting or overrunning fiber back to the launch
// (siglongjmp), and the fault becomes a finding with its thread and line.
#include <execinfo.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <sstream>
#include <utility>

#include "runtime.hpp"
#include "symbols.hpp"

namespace banklab::emu::detail {

namespace {

constexpr std::size_t kSignalStackBytes = 64 * 1024;

}  // namespace

// ---- signals: crashes and the time limit -------------------------------------
namespace {

constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGALRM, SIGTRAP};
constexpr int kBlockTimer = 1;  // the block timer's sigev_value (the launch's: 0)
struct sigaction g_previous[sizeof kSignals / sizeof kSignals[0]];

void on_signal(int signal, siginfo_t* info, void* context) {
  Runtime& r = rt();
  if (!r.in_launch) {
    // A worker's timer that fired as it finished its last block: nothing to stop.
    if (signal == SIGALRM) return;
    // Not ours: fall back to the default action.
    ::signal(signal, SIG_DFL);
    raise(signal);
    return;
  }
  r.in_launch = 0;
  r.crash.signal = signal;
  r.crash.fault_address = reinterpret_cast<std::uintptr_t>(info->si_addr);
  r.crash.pc = static_cast<std::uintptr_t>(static_cast<ucontext_t*>(context)->uc_mcontext.gregs[REG_RIP]);
  r.crash.thread = r.current;
  r.crash.frame_count = signal == SIGABRT || signal == SIGALRM ? backtrace(r.crash.frames, 32) : 0;
  r.crash.block_limit = signal == SIGALRM && info->si_code == SI_TIMER && info->si_value.sival_int == kBlockTimer;
  siglongjmp(r.recover, 1);
}

}  // namespace

void install_signal_handlers() {
  {
    // backtrace() loads its unwinder on first use; do that here, not in a
    // signal handler that may have interrupted malloc.
    void* warm[1];
    backtrace(warm, 1);
  }
  struct sigaction action {};
  action.sa_sigaction = on_signal;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
  sigemptyset(&action.sa_mask);
  for (std::size_t i = 0; i < sizeof kSignals / sizeof kSignals[0]; ++i)
    sigaction(kSignals[i], &action, &g_previous[i]);
}

void remove_signal_handlers() {
  for (std::size_t i = 0; i < sizeof kSignals / sizeof kSignals[0]; ++i)
    sigaction(kSignals[i], &g_previous[i], nullptr);
}

// A timer that sends SIGALRM to the calling OS thread only, so that each worker
// of a parallel launch is stopped where it is running.
void arm_time_limit(double seconds) {
  Runtime& r = rt();
  if (!r.signal_stack) r.signal_stack = std::make_unique<char[]>(kSignalStackBytes);
  {
    // Every worker thread is new: give each its stack (the same one again for a reused Runtime).
    stack_t alt{};
    alt.ss_sp = r.signal_stack.get();
    alt.ss_size = kSignalStackBytes;
    sigaltstack(&alt, nullptr);
  }
  sigevent event{};
  event.sigev_notify = SIGEV_THREAD_ID;
  event.sigev_signo = SIGALRM;
  event._sigev_un._tid = static_cast<pid_t>(syscall(SYS_gettid));
  event.sigev_value.sival_int = kBlockTimer;
  r.block_timer_armed = timer_create(CLOCK_THREAD_CPUTIME_ID, &event, &r.block_timer) == 0;
  event.sigev_value.sival_int = 0;
  if (timer_create(CLOCK_MONOTONIC, &event, &r.timer) != 0) return;
  r.timer_armed = true;
  rearm_time_limit(seconds);
}

namespace {

itimerspec in_seconds(double seconds) {
  itimerspec when{};
  when.it_value.tv_sec = static_cast<time_t>(seconds);
  when.it_value.tv_nsec = static_cast<long>((seconds - static_cast<double>(when.it_value.tv_sec)) * 1e9);
  return when;
}

}  // namespace

void arm_block_limit(double cpu_seconds) {
  Runtime& r = rt();
  if (!r.block_timer_armed) return;
  itimerspec when = in_seconds(std::max(cpu_seconds, 0.0));  // all zero: disarmed
  if (cpu_seconds > 0 && when.it_value.tv_sec == 0 && when.it_value.tv_nsec == 0) when.it_value.tv_nsec = 1;
  timer_settime(r.block_timer, 0, &when, nullptr);
}

void rearm_time_limit(double seconds) {
  Runtime& r = rt();
  if (!r.timer_armed) return;
  itimerspec when = in_seconds(seconds);
  if (when.it_value.tv_sec == 0 && when.it_value.tv_nsec == 0) when.it_value.tv_nsec = 1;
  timer_settime(r.timer, 0, &when, nullptr);
}

void disarm_time_limit() {
  Runtime& r = rt();
  if (r.block_timer_armed) timer_delete(r.block_timer);
  r.block_timer_armed = false;
  if (!r.timer_armed) return;
  timer_delete(r.timer);
  r.timer_armed = false;
}

namespace {

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

// The innermost of `frames` (return addresses, innermost first) that has a
// source line outside the emulator's own sources and the system headers: the
// program's own code. 0 if there is none.
std::uintptr_t program_frame(const std::vector<std::uintptr_t>& frames) {
  // common/emulator/src/, and the kit's CUDA headers beside it (include/, compat/).
  static const std::string src_dir = [] {
    const std::string file = __FILE__;
    return file.substr(0, file.rfind('/') + 1);
  }();
  static const std::string emulator_dir = src_dir.substr(0, src_dir.rfind('/', src_dir.size() - 2) + 1);
  // __FILE__ is relative where the build made it so (ccache's base_dir):
  // then the kit's folders are known only by their names, common/emulator/...
  static const bool absolute = !emulator_dir.empty() && emulator_dir.front() == '/';
  auto kit_code = [](const std::string& file) {
    for (const char* dir : {"src/", "include/", "compat/"}) {
      if (absolute ? file.rfind(emulator_dir + dir, 0) == 0
                   : file.find(std::string("common/emulator/") + dir) != std::string::npos)
        return true;
    }
    return false;
  };
  const auto lines = resolve(frames);
  for (const std::uintptr_t frame : frames) {
    const auto found = lines.find(frame);
    // Not the emulator's own code, nor a system header it inlined (the
    // timer may stop the thread inside a hook that frees a std::string).
    if (found != lines.end() && found->second.line > 0 && !kit_code(found->second.file) &&
        found->second.file.rfind("/usr/", 0) != 0)
      return frame;
  }
  return 0;
}

// The innermost frame of the crash's backtrace (frame 0, the handler,
// skipped) in the program's own code: the line of kernel code that was
// running. 0 if there is none.
std::uintptr_t kernel_frame() {
  if (rt().crash.frame_count <= 1) return 0;
  std::vector<std::uintptr_t> frames;
  for (int i = 1; i < rt().crash.frame_count; ++i) frames.push_back(reinterpret_cast<std::uintptr_t>(rt().crash.frames[i]));
  return program_frame(frames);
}

}  // namespace

Finding& add_launch_finding(FindingKind kind, const std::string& message) {
  void* raw[32];
  const int count = backtrace(raw, 32);
  std::vector<std::uintptr_t> frames;
  for (int i = 1; i < count; ++i) frames.push_back(reinterpret_cast<std::uintptr_t>(raw[i]));
  const std::uintptr_t site = program_frame(frames);
  Finding& f = add_finding(kind, site, 0, message);
  if (site != 0 && f.where.file.empty()) {
    const auto lines = resolve({site});
    if (const auto found = lines.find(site); found != lines.end()) f.where = found->second;
  }
  return f;
}

void unsupported(const char* what) {
  rt().crash.unsupported = what;
  std::abort();  // the signal handler stops the launch; report_crash names `what` at the kernel's line
}

void illegal_address(const char* what) {
  rt().crash.illegal_address = true;
  unsupported(what);
}

void report_crash(const LaunchOptions& options, std::uint64_t blocks_finished, std::uint64_t total_blocks) {
  if (std::exchange(rt().crash.reported, false)) return;  // the memory guard made its finding
  const Thread* t = rt().crash.thread;
  const std::string who = t != nullptr ? thread_text(*t) + " of " + block_text() : "the emulator's scheduler";
  if (rt().crash.signal == SIGALRM) {
    // Where the timer stopped the kernel: the kernel's frame on the stack
    // (the timer often lands in an access hook); failing that, the last
    // access the thread made.
    const std::uintptr_t frame = t == nullptr ? 0 : kernel_frame();
    const std::uintptr_t pc =
        t == nullptr ? 0 : frame != 0 ? frame : (rt().last_pc != 0 ? rt().last_pc : rt().crash.pc + 1);
    const bool one_block = std::exchange(rt().crash.block_limit, false);
    Finding& f = add_finding(
        FindingKind::kTimeLimit, pc, 0,
        one_block ? block_text() + " ran past the time limit of " + seconds_text(options.block_time_limit_seconds) +
                        " for one block (an endless loop?)"
                  : "the launch ran past the time limit of " + seconds_text(options.time_limit_seconds) +
                        " (an endless loop, or more work than the emulator does in that time)");
    f.details.push_back("stopped while " + who + " was running, after " + std::to_string(blocks_finished) + " of " +
                        std::to_string(total_blocks) + " blocks had finished");
    f.details.push_back(one_block ? "a block of this launch should finish in far less: look for a loop whose exit "
                                    "condition never comes true here"
                        : blocks_finished > 0
                            ? "blocks were finishing: if the launch is just long, raise the time limit (or trace "
                              "fewer blocks)"
                            : "no block finished: look for a loop whose exit condition never comes true here");
    return;
  }
  std::string message = "kernel crashed: " + signal_text(rt().crash.signal) + " in " + who;
  if (const char* what = std::exchange(rt().crash.unsupported, nullptr); what != nullptr) {
    message = std::string("kernel stopped: ") + what + ", in " + who;
  }
  FindingKind kind = std::exchange(rt().crash.illegal_address, false) ? FindingKind::kGlobalOutOfBounds : FindingKind::kCrash;
  std::string detail;
  if (rt().crash.signal == SIGSEGV || rt().crash.signal == SIGBUS) {
    const std::uintptr_t a = rt().crash.fault_address;
    if (a - g_arena_lo < g_arena_span) {
      kind = FindingKind::kGlobalOutOfBounds;
      message = "out-of-bounds global access crashed the kernel in " + who;
      detail = "address is " + describe_global(a);
    } else if (t != nullptr && in_fiber_stacks(a)) {
      message = "stack overflow in " + who + " (large local arrays or deep recursion?)";
    } else if (t != nullptr && rt().last_misaligned_pc != 0 && rt().last_misaligned_pc == rt().last_pc) {
      // The host's aligned vector instructions fault on the same access the GPU rejects.
      message = "misaligned shared access stopped the kernel in " + who + ", as it does on a GPU";
      detail = "see the misaligned shared access finding for the offset";
    } else {
      std::ostringstream out;
      out << "address 0x" << std::hex << a << " is not memory the kernel may touch";
      detail = out.str();
    }
  }
  std::uintptr_t where = rt().crash.pc + 1;  // +1: resolve() looks up pc - 1
  if (const std::uintptr_t frame = kernel_frame(); frame != 0) where = frame;  // abort(), a failed assert
  Finding& f = add_finding(kind, where, 0, message);
  if (!detail.empty()) f.details.push_back(detail);
}

}  // namespace banklab::emu::detail

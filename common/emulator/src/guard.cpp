// The memory guard: lab code (the file under test, built by the grader) may
// load and store only shared memory, the arena's allocations, its own stack,
// the lab object's data and the built-in variables; anything else (the
// runner's memory: its secret, its recorded accesses, its answer) stops the
// run. Also the return-address check of lab frames (__tsan_func_entry/exit)
// and the checked memcpy/memset/memmove/printf the grader's build redirects
// the lab object's calls to.
#include <pthread.h>
#include <unistd.h>

#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <sstream>

#include "runtime.hpp"
#include "symbols.hpp"

// The lab object's data sections, renamed by the grader's build
// (grader/src/link_check.cpp) so that the linker brackets each with
// __start_/__stop_ symbols. Weak: absent from programs not built that way.
extern "C" {
extern char __start_banklab_lab_rodata[] __attribute__((weak));
extern char __stop_banklab_lab_rodata[] __attribute__((weak));
extern char __start_banklab_lab_data[] __attribute__((weak));
extern char __stop_banklab_lab_data[] __attribute__((weak));
extern char __start_banklab_lab_bss[] __attribute__((weak));
extern char __stop_banklab_lab_bss[] __attribute__((weak));
extern char __start_banklab_lab_rodata_marker[] __attribute__((weak));
// The executable's code, for telling return addresses among stack words.
extern char __executable_start[];
extern char etext[];
}
extern thread_local char banklab_shared_guard_low[4096];
extern thread_local char banklab_shared_guard_high[4096];

namespace banklab::emu::detail {

namespace {

struct Range {
  std::uintptr_t lo = 0, hi = 0;
  [[nodiscard]] bool holds(std::uintptr_t a, unsigned size) const { return a >= lo && a + size <= hi && a < hi; }
};
Range section(const char* start, const char* stop) {
  return start == nullptr || stop == nullptr
             ? Range{}
             : Range{reinterpret_cast<std::uintptr_t>(start), reinterpret_cast<std::uintptr_t>(stop)};
}
const Range g_lab_rodata = section(__start_banklab_lab_rodata, __stop_banklab_lab_rodata);
const Range g_lab_data = section(__start_banklab_lab_data, __stop_banklab_lab_data);
const Range g_lab_bss = section(__start_banklab_lab_bss, __stop_banklab_lab_bss);

bool lab_data(std::uintptr_t a, unsigned size) {
  return g_lab_rodata.holds(a, size) || g_lab_data.holds(a, size) || g_lab_bss.holds(a, size);
}

bool builtins(std::uintptr_t a, unsigned size) {
  const auto lo = reinterpret_cast<std::uintptr_t>(&threadIdx);
  const auto hi = reinterpret_cast<std::uintptr_t>(&gridDim + 1);
  return a >= lo && a + size <= hi;
}

bool code_address(std::uintptr_t value) {
  return value >= reinterpret_cast<std::uintptr_t>(__executable_start) && value < reinterpret_cast<std::uintptr_t>(etext);
}

std::string hex(std::uintptr_t value) {
  std::ostringstream out;
  out << "0x" << std::hex << value;
  return out.str();
}

std::string access_text(unsigned size, bool write, std::uintptr_t address) {
  return std::string(write ? "a write" : "a read") + " of " + std::to_string(size) + " byte" + (size == 1 ? "" : "s") +
         " at " + hex(address);
}

// What lies at `a`, for the finding's detail.
std::string place_text(std::uintptr_t a) {
  Runtime& r = rt();
  if (in_fiber_stacks(a)) return "the stack of another CUDA thread";
  if (a - r.section_lo < r.section_span) return "the emulator's own thread-local state, past the shared memory";
  if (r.host_stack_lo != 0 && a >= r.host_stack_lo && a < r.host_stack_hi) return "the runner's own stack frames";
  return "the runner's memory (not an argument's allocation, shared memory, this thread's stack or the lab file's "
         "variables)";
}

std::string line_of(std::uintptr_t pc) {
  const auto lines = resolve({pc});
  const auto found = lines.find(pc);
  return found != lines.end() && found->second.line > 0 ? found->second.text() : "an unknown line (" + hex(pc) + ")";
}

// Outside a launch the runner called lab code itself (stage 1's word_of): it
// stops the runner, which the grader reports with this message.
[[noreturn]] void stop_host(const std::string& what, std::uintptr_t pc) {
  const std::string text = "banklab: the run was stopped: lab code at " + line_of(pc) + " made " + what +
                           ". Lab code may use only its arguments, its own locals and the lab file's own variables "
                           "and constants; it may not read or write the memory of the program that calls it.\n";
  const ssize_t ignored = ::write(2, text.data(), text.size());
  (void)ignored;
  _exit(kGuardExitStatus);
}

void host_stack_bounds(Runtime& r) {
  if (r.host_stack_lo != 0) return;
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) != 0) return;
  void* base = nullptr;
  std::size_t size = 0;
  pthread_attr_getstack(&attr, &base, &size);
  pthread_attr_destroy(&attr);
  r.host_stack_lo = reinterpret_cast<std::uintptr_t>(base);
  r.host_stack_hi = r.host_stack_lo + size;
}

// Forgets frames that were left without their exit hook (a frame at or below
// `slot` that is still recorded cannot be live once a frame at `slot` is
// entered or left).
void drop_stale(FrameStack& s, std::uintptr_t* slot) {
  while (s.depth > 0 && s.depth <= kTrackedFrames && s.frames[static_cast<std::size_t>(s.depth - 1)].slot < slot) {
    --s.depth;
  }
}

}  // namespace

const bool g_guard_strict = __start_banklab_lab_rodata_marker != nullptr;

[[noreturn]] void stop_launch() {
  Runtime& r = rt();
  r.in_launch = 0;
  r.crash.reported = true;
  r.crash.thread = r.current;
  siglongjmp(r.recover, 1);
}

void guard_access(std::uintptr_t address, unsigned size, bool write, std::uintptr_t pc) {
  Runtime& r = rt();
  const Thread& t = *r.current;
  if ((address >= t.stack_lo && address + size <= t.stack_hi) || lab_data(address, size) || builtins(address, size))
    return;
  Finding& f = add_finding(FindingKind::kCrash, pc, 0,
                           "kernel stopped: " + access_text(size, write, address) + ", memory no kernel may touch, in " +
                               thread_text(t) + " of " + block_text());
  f.details.push_back("the address is in " + place_text(address));
  f.details.push_back(
      "a kernel may use only its arguments' allocations, its shared memory, its own locals and the file's "
      "__constant__ and __device__ variables: look for a pointer or an index out of range");
  stop_launch();
}

void guard_host_access(std::uintptr_t address, unsigned size, bool write, std::uintptr_t pc) {
  Runtime& r = rt();
  host_stack_bounds(r);
  // This OS thread's stack below the outermost lab frame's return address
  // (the runner's frames lie above it).
  std::uintptr_t hi = r.host_stack_hi;
  if (r.host_frames.depth > 0 && r.host_frames.frames[0].slot != nullptr)
    hi = reinterpret_cast<std::uintptr_t>(r.host_frames.frames[0].slot + 1);
  if ((address >= r.host_stack_lo && address + size <= hi) || lab_data(address, size) || builtins(address, size))
    return;
  stop_host(access_text(size, write, address) + " in " + place_text(address), pc);
}

void foreign_access_stop(std::uintptr_t address, unsigned size) {
  // Past the guard pages: the runtime's own thread-local state.
  const auto lo = reinterpret_cast<std::uintptr_t>(&banklab_shared_guard_low[0]);
  const auto hi = reinterpret_cast<std::uintptr_t>(&banklab_shared_guard_high[0]) + sizeof banklab_shared_guard_high;
  if (g_guard_strict && !(address >= lo && address + size <= hi)) stop_launch();
}

}  // namespace banklab::emu::detail

// ---- return addresses of lab frames ------------------------------------------
// Lab code is compiled with frame pointers and GCC's function entry/exit
// hooks: at entry the lab function's frame pointer is the hook's caller's,
// its return address lies just above it. A kernel that writes a local array
// past its end onto them (to return into the runner's code) is stopped when
// the function returns, before the overwritten address is used. The runtime's
// own frames above a kernel (its caller, the fiber's entry) are checked the
// same way when the kernel returns: every code address in them must be intact.
namespace {

using banklab::emu::detail::FrameStack;
using banklab::emu::detail::kTrackedFrames;
using banklab::emu::detail::kTrackedRuntimeSlots;
using banklab::emu::detail::rt;

[[noreturn]] void frame_overwritten(std::uintptr_t pc, const std::string& what) {
  auto& r = rt();
  const std::string message = what + " on the stack was overwritten (a local array written past its end?)";
  if (r.current == nullptr) banklab::emu::detail::stop_host("a store over " + message, pc);
  banklab::emu::Finding& f = banklab::emu::detail::add_finding(
      banklab::emu::FindingKind::kCrash, pc, 0,
      "kernel stopped: " + message + ", in " + banklab::emu::detail::thread_text(*r.current) + " of " +
          banklab::emu::detail::block_text());
  if (r.last_pc != 0) f.details.push_back("the last store before the return was at " + banklab::emu::detail::line_of(r.last_pc));
  f.details.push_back("a kernel may write only its own locals, its shared memory and its arguments' allocations");
  banklab::emu::detail::stop_launch();
}

FrameStack& frame_stack() {
  auto& r = rt();
  return r.current != nullptr ? r.current->frames : r.host_frames;
}

}  // namespace

extern "C" {

__attribute__((noinline)) void __tsan_func_entry(void* caller_pc) {
  auto* frame = *static_cast<std::uintptr_t**>(__builtin_frame_address(0));  // the caller's frame pointer
  std::uintptr_t* slot = frame + 1;
  FrameStack& s = frame_stack();
  banklab::emu::detail::drop_stale(s, slot);
  if (s.depth < kTrackedFrames) {
    auto& f = s.frames[static_cast<std::size_t>(s.depth)];
    f.slot = slot;
    // Compiled without a frame pointer (it never is by the grader), the slot
    // is unknown: kept for the depth, never checked.
    f.return_address = *slot == reinterpret_cast<std::uintptr_t>(caller_pc) ? *slot : 0;
    f.saved_frame = frame[0];
  }
  auto& r = rt();
  if (s.depth == 0 && r.current != nullptr) {
    // A kernel starts: the code addresses in the runtime's frames above it.
    s.runtime_slots = 0;
    for (auto* p = slot + 1; p < reinterpret_cast<std::uintptr_t*>(r.current->stack_hi) &&
                             s.runtime_slots < kTrackedRuntimeSlots;
         ++p) {
      if (!banklab::emu::detail::code_address(*p)) continue;
      s.runtime_slot[static_cast<std::size_t>(s.runtime_slots)] = p;
      s.runtime_value[static_cast<std::size_t>(s.runtime_slots)] = *p;
      ++s.runtime_slots;
    }
  }
  ++s.depth;
}

__attribute__((noinline)) void __tsan_func_exit() {
  auto* frame = *static_cast<std::uintptr_t**>(__builtin_frame_address(0));  // the caller's frame pointer
  std::uintptr_t* slot = frame + 1;
  const auto pc = reinterpret_cast<std::uintptr_t>(__builtin_return_address(0));
  FrameStack& s = frame_stack();
  if (s.depth > kTrackedFrames) {
    --s.depth;
    return;
  }
  banklab::emu::detail::drop_stale(s, slot);
  if (s.depth == 0 || s.frames[static_cast<std::size_t>(s.depth - 1)].slot != slot) return;
  const auto& f = s.frames[static_cast<std::size_t>(s.depth - 1)];
  if (f.return_address != 0 && (*slot != f.return_address || frame[0] != f.saved_frame)) {
    frame_overwritten(pc, *slot != f.return_address ? "the function's return address" : "the caller's saved frame pointer");
  }
  --s.depth;
  if (s.depth == 0 && rt().current != nullptr) {
    for (int i = 0; i < s.runtime_slots; ++i) {
      if (*s.runtime_slot[static_cast<std::size_t>(i)] != s.runtime_value[static_cast<std::size_t>(i)])
        frame_overwritten(pc, "a return address of the emulator's frames above the kernel");
    }
  }
}

}  // extern "C"

// ---- library calls of lab code, checked -------------------------------------
// The grader's build renames the lab object's calls of these (objcopy
// --redefine-sym): the memory they touch goes through the guard (and is
// traced where it is shared memory) like the lab code's own accesses.
namespace {

// Whether an access of lab code is looked at now: in a launch, or anywhere
// where the strict guard is on (the grader's runners). A program's host code
// under banklab run copies its buffers at full speed.
bool watched() { return banklab::emu::detail::rt().current != nullptr || banklab::emu::detail::g_guard_strict; }

void check_range(const void* pointer, std::size_t bytes, bool write, std::uintptr_t pc) {
  if (!watched()) return;
  auto address = reinterpret_cast<std::uintptr_t>(pointer);
  while (bytes > 0) {
    unsigned width = 16;
    while (width > 1 && (address % width != 0 || width > bytes)) width /= 2;
    banklab::emu::detail::on_access(reinterpret_cast<void*>(address), width, write, pc);
    address += width;
    bytes -= width;
  }
}

// The length of the string at `s` (at most `limit`), each byte checked.
std::size_t checked_length(const char* s, std::size_t limit, std::uintptr_t pc) {
  std::size_t n = 0;
  const bool watch = watched();
  while (n < limit) {
    if (watch) banklab::emu::detail::on_access(s + n, 1, false, pc);
    if (s[n] == '\0') break;
    ++n;
  }
  return n;
}

}  // namespace

extern "C" {

void* banklab_guarded_memcpy(void* to, const void* from, std::size_t bytes) {
  const auto pc = reinterpret_cast<std::uintptr_t>(__builtin_return_address(0));
  check_range(from, bytes, false, pc);
  check_range(to, bytes, true, pc);
  return std::memcpy(to, from, bytes);
}

void* banklab_guarded_memmove(void* to, const void* from, std::size_t bytes) {
  const auto pc = reinterpret_cast<std::uintptr_t>(__builtin_return_address(0));
  check_range(from, bytes, false, pc);
  check_range(to, bytes, true, pc);
  return std::memmove(to, from, bytes);
}

void* banklab_guarded_memset(void* to, int value, std::size_t bytes) {
  const auto pc = reinterpret_cast<std::uintptr_t>(__builtin_return_address(0));
  check_range(to, bytes, true, pc);
  return std::memset(to, value, bytes);
}

// CUDA's device printf: every %s string is checked byte by byte; %n (a write
// through an argument) is refused as a write anywhere would be.
int banklab_guarded_printf(const char* format, ...) {
  const auto pc = reinterpret_cast<std::uintptr_t>(__builtin_return_address(0));
  const std::size_t length = checked_length(format, static_cast<std::size_t>(-1), pc);
  va_list args, walk;
  va_start(args, format);
  va_copy(walk, args);
  for (std::size_t i = 0; i < length; ++i) {
    if (format[i] != '%') continue;
    ++i;
    if (i < length && format[i] == '%') continue;
    while (i < length && std::strchr("-+ #0'", format[i]) != nullptr) ++i;
    if (i < length && format[i] == '*') {
      (void)va_arg(walk, int);
      ++i;
    }
    while (i < length && format[i] >= '0' && format[i] <= '9') ++i;
    long precision = -1;
    if (i < length && format[i] == '.') {
      ++i;
      precision = 0;
      if (i < length && format[i] == '*') {
        precision = va_arg(walk, int);
        ++i;
      }
      while (i < length && format[i] >= '0' && format[i] <= '9') precision = precision * 10 + (format[i++] - '0');
    }
    int longs = 0;
    bool long_double = false;
    while (i < length && std::strchr("hlLqjzt", format[i]) != nullptr) {
      if (format[i] == 'l' || format[i] == 'j' || format[i] == 'z' || format[i] == 't' || format[i] == 'q') ++longs;
      if (format[i] == 'L') long_double = true;
      ++i;
    }
    if (i >= length) break;
    switch (format[i]) {
      case 's': {
        const char* s = va_arg(walk, const char*);
        if (s != nullptr) checked_length(s, precision < 0 ? static_cast<std::size_t>(-1) : static_cast<std::size_t>(precision), pc);
        break;
      }
      case 'n':
        // A write of the count through the argument, to anywhere: checked as one.
        banklab::emu::detail::on_access(va_arg(walk, void*), 4, true, pc);
        break;
      case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A':
        if (long_double) {
          (void)va_arg(walk, long double);
        } else {
          (void)va_arg(walk, double);
        }
        break;
      case 'p':
        (void)va_arg(walk, void*);
        break;
      default:
        if (longs > 0) {
          (void)va_arg(walk, long long);
        } else {
          (void)va_arg(walk, int);
        }
    }
  }
  va_end(walk);
  const int printed = std::vprintf(format, args);
  va_end(args);
  return printed;
}

// The math functions that write their second result through a pointer (or
// read a string): the pointer is checked, and priced where it is shared
// memory, as a store of the kernel's own would be. Unchecked, libm's
// uninstrumented write would be a shared store no trace sees.
#define BANKLAB_GUARDED_OUT(name, T, Out)                                     \
  T banklab_guarded_##name(T x, Out* out) {                                   \
    const auto pc = reinterpret_cast<std::uintptr_t>(__builtin_return_address(0)); \
    banklab::emu::detail::on_access(out, sizeof(Out), true, pc);             \
    return ::name(x, out);                                                    \
  }
BANKLAB_GUARDED_OUT(modf, double, double)
BANKLAB_GUARDED_OUT(modff, float, float)
BANKLAB_GUARDED_OUT(frexp, double, int)
BANKLAB_GUARDED_OUT(frexpf, float, int)
#undef BANKLAB_GUARDED_OUT

double banklab_guarded_remquo(double x, double y, int* quotient) {
  const auto pc = reinterpret_cast<std::uintptr_t>(__builtin_return_address(0));
  banklab::emu::detail::on_access(quotient, sizeof(int), true, pc);
  return ::remquo(x, y, quotient);
}

float banklab_guarded_remquof(float x, float y, int* quotient) {
  const auto pc = reinterpret_cast<std::uintptr_t>(__builtin_return_address(0));
  banklab::emu::detail::on_access(quotient, sizeof(int), true, pc);
  return ::remquof(x, y, quotient);
}

void banklab_guarded_sincos(double x, double* s, double* c) {
  const auto pc = reinterpret_cast<std::uintptr_t>(__builtin_return_address(0));
  banklab::emu::detail::on_access(s, sizeof(double), true, pc);
  banklab::emu::detail::on_access(c, sizeof(double), true, pc);
  ::sincos(x, s, c);
}

void banklab_guarded_sincosf(float x, float* s, float* c) {
  const auto pc = reinterpret_cast<std::uintptr_t>(__builtin_return_address(0));
  banklab::emu::detail::on_access(s, sizeof(float), true, pc);
  banklab::emu::detail::on_access(c, sizeof(float), true, pc);
  ::sincosf(x, s, c);
}

double banklab_guarded_nan(const char* tag) {
  checked_length(tag, static_cast<std::size_t>(-1), reinterpret_cast<std::uintptr_t>(__builtin_return_address(0)));
  return ::nan(tag);
}

float banklab_guarded_nanf(const char* tag) {
  checked_length(tag, static_cast<std::size_t>(-1), reinterpret_cast<std::uintptr_t>(__builtin_return_address(0)));
  return ::nanf(tag);
}

}  // extern "C"

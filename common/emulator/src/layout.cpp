// The launched kernel's shared memory: which variables it has and where each
// lies, as nvcc lays them out.
#include <cstring>
#include <sstream>

#include "runtime.hpp"
#include "symbols.hpp"

namespace banklab::emu::detail {

// Lays out the launched kernel's shared memory as nvcc does
// (tests/data/gpu/shared_layout*.txt, measured on an H200): the variables the
// kernel's own code uses in declaration order, then those of the functions
// it calls, each at the alignment of its type (read from the debug
// information); dynamic shared memory after them, at a multiple of 16 bytes.
// Without debug information the alignment is guessed as the largest power of
// two (at most 16) dividing the size.
namespace {

// Where a variable goes: its type's alignment, or the guess without debug
// information.
std::size_t alignment_of(const DataSymbol& s) {
  if (s.alignment != 0) return s.alignment;
  std::size_t align = 16;
  while (align > 1 && s.size % align != 0) align /= 2;
  return align;
}

std::size_t placed(std::size_t offset, std::size_t align) { return (offset + align - 1) / align * align; }

}  // namespace

std::size_t static_shared_bytes(const void* kernel) {
  std::size_t offset = 0;
  for (const DataSymbol& s : shared_symbols(kernel).variables) offset = placed(offset, alignment_of(s)) + s.size;
  return offset;
}

bool setup_shared_layout(LaunchReport& report, const void* kernel, std::size_t dynamic_bytes) {
  rt().vars.clear();
  const SharedSymbols symbols = shared_symbols(kernel);
  rt().section_lo = symbols.region_lo;
  rt().section_span = symbols.region_span;
  rt().not_shared.clear();
  for (const DataSymbol& s : symbols.not_shared) rt().not_shared.push_back({s.address, s.size, 0});
  std::size_t offset = 0;
  auto place = [&](const DataSymbol& s, std::size_t size, std::size_t align, std::size_t declared) {
    offset = placed(offset, align);
    rt().vars.push_back({s.address, size, offset, declared});
    report.shared_variables.push_back({s.name, s.address, size, offset});
    offset += size;
  };
  for (const DataSymbol& s : symbols.variables) place(s, s.size, alignment_of(s), s.alignment);
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
      add_launch_finding(FindingKind::kInvalidLaunch, out.str());
      return false;
    }
    place(symbols.dynamic, dynamic_bytes, 16, 16);  // a GPU aligns dynamic shared memory to 16 bytes
  }
  report.dynamic_shared_bytes = dynamic_bytes;
  rt().shared_bytes = offset;
  rt().shadow_words.assign((offset + 3) / 4, ShadowCell{});
  rt().shadow_bytes.assign((offset + 3) / 4 * 4, ShadowCell{});
  return true;
}

void adopt_shared_layout(Runtime& worker, const Runtime& from, std::uintptr_t delta) {
  worker.kernel_mangled = from.kernel_mangled;
  worker.vars = from.vars;
  for (SharedVar& v : worker.vars) v.address += delta;
  worker.not_shared = from.not_shared;
  for (SharedVar& v : worker.not_shared) v.address += delta;
  worker.section_lo = from.section_lo + delta;
  worker.section_span = from.section_span;
  worker.shared_bytes = from.shared_bytes;
  worker.shadow_words.assign(from.shadow_words.size(), ShadowCell{});
  worker.shadow_bytes.assign(from.shadow_bytes.size(), ShadowCell{});
}

void poison_shared() {
  for (const SharedVar& v : rt().vars) std::memset(reinterpret_cast<void*>(v.address), 0xff, v.size);
}

}  // namespace banklab::emu::detail

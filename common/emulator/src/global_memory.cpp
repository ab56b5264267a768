// Global memory of the emulator: a reserved arena, one guarded mapping per
// allocation, so that accesses just outside an allocation are findings and
// far ones fault (and are reported as out of bounds).
#include <sys/mman.h>

#include <algorithm>
#include <map>
#include <sstream>

#include "runtime.hpp"

namespace banklab::emu::detail {

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

  bool init() {
    if (base != 0) return true;
    void* p = mmap(nullptr, kArenaBytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) return false;
    base = next = reinterpret_cast<std::uintptr_t>(p);
    g_arena_lo = base;
    g_arena_span = kArenaBytes;
    return true;
  }
};
Arena g_arena;

}  // namespace

std::uintptr_t g_arena_lo = 0, g_arena_span = 0;

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

bool device_free(void* pointer) {
  using namespace detail;
  auto found = g_arena.live.find(reinterpret_cast<std::uintptr_t>(pointer));
  if (found == g_arena.live.end()) return false;
  const Allocation a = found->second;
  g_arena.live.erase(found);
  rt().last_hit_size = 0;
  // Address space is never reused, so a stale pointer faults instead of
  // silently reading a newer allocation.
  mprotect(reinterpret_cast<void*>(a.map_begin), a.map_size, PROT_NONE);
  madvise(reinterpret_cast<void*>(a.map_begin), a.map_size, MADV_DONTNEED);
  g_arena.freed.push_back(a);
  return true;
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
  Runtime& r = rt();
  if (address - r.last_hit_begin < r.last_hit_size && address + size <= r.last_hit_begin + r.last_hit_size) return;
  auto after = g_arena.live.upper_bound(address);
  if (after != g_arena.live.begin()) {
    const Allocation& a = std::prev(after)->second;
    if (address >= a.begin && address + size <= a.begin + a.size) {
      r.last_hit_begin = a.begin;
      r.last_hit_size = a.size;
      return;
    }
  }
  Finding& f = add_finding(
      FindingKind::kGlobalOutOfBounds, pc, 0,
      std::string("out-of-bounds global ") + (write ? "write" : "read") + " of " + std::to_string(size) + " bytes");
  if (f.details.empty()) {
    f.details.push_back("first by " + thread_text(*rt().current) + " of " + block_text() + ": address is " +
                        describe_global(address));
  }
}

}  // namespace banklab::emu::detail

// Access hooks and the shared-memory tracer. Kernel code is compiled with
// -fsanitize=thread but linked against these __tsan_* functions instead of the
// TSan runtime: every load and store reports its address, width and return
// address. Shared accesses are checked for races and uninitialised reads,
// assembled into warp instructions (lane l's k-th execution of one pc) and
// priced with the bank model.
#include <algorithm>
#include <bit>
#include <sstream>

#include "runtime.hpp"
#include "symbols.hpp"

namespace banklab::emu::detail {

namespace {

// Warp instructions one block may hold before they are priced at its end
// (about 140 MB). Lanes of a warp run one after another between barriers, so
// none is complete before then.
constexpr std::size_t kMaxPendingInstances = std::size_t{1} << 20;

std::string short_name(const std::string& name) {
  const auto colons = name.rfind("::");
  return colons == std::string::npos ? name : name.substr(colons + 2);
}

std::string describe_shared(std::size_t offset) {
  for (const SharedVariable& v : rt().report->shared_variables) {
    if (offset >= v.offset && offset < v.offset + v.size) {
      return "byte " + std::to_string(offset - v.offset) + " of '" + short_name(v.name) + "' (shared offset " +
             std::to_string(offset) + ")";
    }
  }
  return "shared offset " + std::to_string(offset);
}

bool same_warp_synced(std::uint16_t other, const Thread& self, std::uint32_t other_sync) {
  return other / kWarpSize == self.linear / kWarpSize && rt().warps[self.warp].sync_count > other_sync;
}

void report_race(const Thread& self, std::uint16_t other, bool other_wrote, bool write, std::size_t offset,
                 std::uintptr_t pc, std::uintptr_t other_pc) {
  const char* first = other_wrote ? "written" : "read";
  const char* second = write ? "written" : "read";
  Finding& f = add_finding(FindingKind::kSharedRace, pc, other_pc,
                           std::string("bytes ") + first + " by one thread are " + second +
                               " by another with no __syncthreads() between");
  if (f.details.empty()) {
    const Thread& o = rt().threads[other];
    f.details.push_back("first in " + block_text() + ": " + thread_text(o) + (other_wrote ? " wrote " : " read ") +
                        describe_shared(offset) + ", then " + thread_text(self) + (write ? " wrote" : " read") + " it");
    f.details.push_back("put a __syncthreads() between the write and the read (every thread must reach it)");
  }
}

// A GPU requires an access of 2, 4, 8 or 16 bytes to start at a multiple of
// its size and stops the kernel with "misaligned address" otherwise (a float4
// read through a float* that is not 16-byte aligned, e.g. in a row padded by
// one float). The emulator reports it and leaves the access out of the costs.
void report_misaligned(const Thread& self, std::size_t offset, unsigned size, bool write, std::uintptr_t pc) {
  rt().last_misaligned_pc = pc;
  Finding& f = add_finding(FindingKind::kMisalignedShared, pc, 0,
                           std::string("shared ") + (write ? "write" : "read") + " of " + std::to_string(size) +
                               " bytes at an offset that is not a multiple of " + std::to_string(size) +
                               " (on a GPU the kernel stops with 'misaligned address')");
  if (f.details.empty()) {
    f.details.push_back("first by " + thread_text(self) + " of " + block_text() + ": " + describe_shared(offset) +
                        ", " + std::to_string(offset % size) + " bytes past a multiple of " + std::to_string(size));
    f.details.push_back("a " + std::to_string(size) + "-byte access needs every row (and the variable) to start at a multiple of " +
                        std::to_string(size) + " bytes: check the row length (padding) and the vector casts");
  }
}

// A vector access (float2, float4, double2: 8 or 16 bytes) wider than the
// alignment its variable's declaration guarantees: a float4 cast of a `float`
// array. nvcc places such an array at a multiple of 4 bytes only, so the
// access may fault on a GPU in another layout (another variable before it)
// even where this one happens to be aligned. The emulator reports it and
// stops the launch before the access runs (the host copy has only the
// declared alignment, as on a GPU).
[[noreturn]] void report_underaligned(const Thread& self, std::size_t offset, unsigned size, bool write,
                                      std::uintptr_t pc, std::size_t declared) {
  rt().last_misaligned_pc = pc;
  Finding& f = add_finding(FindingKind::kMisalignedShared, pc, 0,
                           std::string("shared ") + (write ? "write" : "read") + " of " + std::to_string(size) +
                               " bytes through a variable declared with only " + std::to_string(declared) +
                               "-byte alignment (a GPU may place it at an offset that is not a multiple of " +
                               std::to_string(size) + " and stop the kernel with 'misaligned address')");
  if (f.details.empty()) {
    f.details.push_back("first by " + thread_text(self) + " of " + block_text() + ": " + describe_shared(offset));
    f.details.push_back("declare the array with the vector type (float4 a[N]) or __align__(" + std::to_string(size) +
                        "), then cast it to the scalar type where you need one");
  }
  stop_launch();
}

}  // namespace

namespace {

// Calls f(cell, byte offset) for the cells of shared bytes [offset, end): a
// word's cell where the access covers the whole word and the word is not
// split, else the byte cells (splitting the word first: each byte starts with
// the word's history). Stops when f returns true.
template <class F>
void for_each_cell(std::size_t offset, std::size_t end, F f) {
  std::size_t b = offset;
  while (b < end) {
    ShadowCell& word = rt().shadow_words[b / 4];
    const bool split = word.split_epoch >= rt().block_start_epoch && word.split_epoch != 0;
    if (!split && (b & 3u) == 0 && b + 4 <= end) {
      if (f(word, b)) return;
      b += 4;
      continue;
    }
    if (!split) {
      const std::size_t first = b & ~std::size_t{3};
      for (std::size_t i = first; i < first + 4; ++i) rt().shadow_bytes[i] = word;
      word.split_epoch = rt().block_start_epoch;
    }
    if (f(rt().shadow_bytes[b], b)) return;
    ++b;
  }
}

}  // namespace

namespace {

// Reports what is wrong with an access to cell `s` (at byte b), if anything:
// a read of bytes no thread of the block wrote, or a race with the last writer
// or reader. Returns true when it reported.
[[gnu::noinline]] bool report_cell(const ShadowCell& s, std::size_t b, const Thread& self, bool write, bool atomic,
                                   std::uintptr_t pc) {
  const Runtime& r = rt();
  const auto tid = static_cast<std::uint16_t>(self.linear);
  if (!write && s.write_epoch < r.block_start_epoch) {
    Finding& f = add_finding(FindingKind::kUninitializedSharedRead, pc, 0,
                             "read of shared memory that no thread of this block has written");
    if (f.details.empty()) {
      f.details.push_back("first by " + thread_text(self) + " of " + block_text() + ": " + describe_shared(b));
      f.details.push_back("do the write and the read cover the same elements, and is the write before the barrier?");
    }
    return true;
  }
  if (s.write_epoch == r.epoch && s.writer != tid && !(atomic && s.atomic_write) &&
      !same_warp_synced(s.writer, self, s.writer_sync)) {
    report_race(self, s.writer, true, write, b, pc, s.write_pc);
    return true;
  }
  if (write && !atomic && s.read_epoch == r.epoch && (s.reader != tid || s.many_readers) &&
      !same_warp_synced(s.reader, self, 0)) {
    report_race(self, s.reader != tid ? s.reader : static_cast<std::uint16_t>(tid ^ 1), false, true, b, pc,
                s.read_pc);
    return true;
  }
  return false;
}

// The common case decided inline: nothing to report when the bytes were
// written in this block (for a read) and the last writer and reader in this
// barrier interval are this thread (or there was none).
inline bool cell_is_clean(const ShadowCell& s, const Runtime& r, std::uint16_t tid, bool write) {
  if (!write && s.write_epoch < r.block_start_epoch) return false;
  if (s.write_epoch == r.epoch && s.writer != tid) return false;
  if (write && s.read_epoch == r.epoch && (s.reader != tid || s.many_readers)) return false;
  return true;
}

inline void update_cell(ShadowCell& s, const Runtime& r, std::uint16_t tid, bool write, bool atomic,
                        std::uint32_t sync_count, std::uintptr_t pc) {
  if (write) {
    s.write_epoch = r.epoch;
    s.writer = tid;
    s.writer_sync = sync_count;
    s.atomic_write = atomic;
    s.write_pc = pc;
  } else {
    s.many_readers = s.read_epoch == r.epoch && s.reader != tid;
    s.reader = tid;
    s.read_epoch = r.epoch;
    s.read_pc = pc;
  }
}

}  // namespace

void shared_access(std::uintptr_t offset, unsigned size, bool write, std::uintptr_t pc, bool atomic) {
  Runtime& r = rt();
  const Thread& self = *r.current;
  if ((size == 2 || size == 4 || size == 8 || size == 16) && (offset & (size - 1)) != 0) {
    report_misaligned(self, offset, size, write, pc);
    return;
  }
  if (size >= 8) {
    for (const SharedVar& v : r.vars) {
      if (offset - v.offset < v.size && v.align != 0 && v.align < size) report_underaligned(self, offset, size, write, pc, v.align);
    }
  }
  const auto tid = static_cast<std::uint16_t>(self.linear);
  const std::uint32_t sync_count = write ? r.warps[self.warp].sync_count : 0;
  const std::size_t end = std::min<std::size_t>(offset + size, r.shared_bytes);
  ShadowCell* word = size == 4 && end == offset + 4 ? &r.shadow_words[offset / 4] : nullptr;
  if (word != nullptr && !(word->split_epoch >= r.block_start_epoch && word->split_epoch != 0)) {
    // One whole word, tracked as one cell (the common case).
    if (!cell_is_clean(*word, r, tid, write)) report_cell(*word, offset, self, write, atomic, pc);
    update_cell(*word, r, tid, write, atomic, sync_count, pc);
  } else {
    // Check every cell first (one finding per access), then record the access in each.
    for_each_cell(offset, end, [&](const ShadowCell& s, std::size_t b) {
      return !cell_is_clean(s, r, tid, write) && report_cell(s, b, self, write, atomic, pc);
    });
    for_each_cell(offset, end, [&](ShadowCell& s, std::size_t) {
      update_cell(s, r, tid, write, atomic, sync_count, pc);
      return false;
    });
  }
  ++r.shared_accesses;
  if (!r.tracing) return;
  PcTrace& trace = r.warp_traces[static_cast<std::size_t>(self.warp)].find(pc);
  const std::uint32_t k = trace.next[self.lane]++;
  if (k >= trace.instances.size()) {
    if (rt().pending_instances >= kMaxPendingInstances) {
      ++rt().untraced_accesses;
      return;
    }
    Instance fresh;
    fresh.offsets.fill(-1);
    fresh.width = static_cast<std::uint8_t>(size);
    fresh.write = write;
    fresh.atomic = atomic ? rt().atomic_kind : r.async_copy ? AtomicKind::kAsyncCopy : AtomicKind::kNone;
    trace.instances.push_back(fresh);
    ++rt().pending_instances;
  }
  Instance& instance = trace.instances[k];
  instance.offsets[self.lane] = static_cast<std::int32_t>(offset);
  ++instance.lanes;
}

void foreign_shared_access(std::uintptr_t address, unsigned size, bool write, std::uintptr_t pc) {
  for (const SharedVar& v : rt().not_shared) {
    if (address - v.address < v.size) return;  // an initialisation guard, not shared memory
  }
  Finding& f = add_finding(FindingKind::kSharedOutOfBounds, pc, 0,
                           std::string("shared ") + (write ? "write" : "read") + " of " + std::to_string(size) +
                               " bytes outside this kernel's __shared__ variables (an index out of range?)");
  if (f.details.empty()) {
    std::ostringstream out;
    out << "first by " << thread_text(*rt().current) << " of " << block_text();
    const SharedVar* nearest = nullptr;
    for (const SharedVar& v : rt().vars) {
      if (address >= v.address + v.size && (nearest == nullptr || v.address > nearest->address)) nearest = &v;
    }
    if (nearest != nullptr) {
      const std::uintptr_t past = address - (nearest->address + nearest->size);
      std::string name = "a shared variable";
      for (const SharedVariable& v : rt().report->shared_variables) {
        if (v.offset == nearest->offset) name = "'" + short_name(v.name) + "'";
      }
      out << ": " << (past == 0 ? std::string("the first byte after the end of ")
                                : std::to_string(past) + " bytes past the end of ")
          << name;
    }
    f.details.push_back(out.str());
  }
  foreign_access_stop(address, size);
}

PcTrace& WarpTrace::find_slow(std::uintptr_t pc) {
  std::uint32_t& slot = slots[(pc ^ (pc >> 6)) & (slots.size() - 1)];
  for (std::size_t i = 0; i < pcs.size(); ++i) {
    if (pcs[i].pc == pc) {
      slot = static_cast<std::uint32_t>(i + 1);
      return pcs[i];
    }
  }
  pcs.push_back(PcTrace{});
  pcs.back().pc = pc;
  pcs.back().stats = &rt().pc_stats[pc];  // elements of an unordered_map never move
  slot = static_cast<std::uint32_t>(pcs.size());
  return pcs.back();
}

void Runtime::trace_begin_launch() {
  warp_traces.clear();  // their pcs point into pc_stats
  pc_stats.clear();
  compiled_roles.clear();
  compiled_lines.clear();
  compiled_rereads.clear();
  last_misaligned_pc = 0;
  shared_accesses = 0;
  pending_instances = 0;
  untraced_accesses = 0;
}

void Runtime::trace_begin_block(int warp_count) {
  // Each warp's pcs stay from block to block (their memory is reused); the
  // launch starts with none.
  if (warp_traces.size() < static_cast<std::size_t>(warp_count))
    warp_traces.resize(static_cast<std::size_t>(warp_count));
  pending_instances = 0;
  joined_instances = 0;
}

namespace {

// The bank model's answer depends on the offsets only up to a shift by a
// multiple of 128 bytes (banks and lane groups repeat every 32 words), and
// the warps of a launch repeat a few patterns: each warp instruction is
// looked up in a small direct-mapped cache of answers first.
WarpAccess to_access(const Instance& instance) {
  WarpAccess access;
  access.width_bytes = instance.width;
  access.op = instance.write ? MemOp::kStore : MemOp::kLoad;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    access.offsets[lane] = instance.offsets[lane] < 0 ? kInactive : instance.offsets[lane];
  }
  return access;
}

WavefrontCount memo_count_wavefronts(const Instance& instance) {
  std::vector<PriceMemo>& memo = rt().price_memo;
  if (memo.empty()) memo.resize(4096);
  std::int32_t low = -1;
  for (const std::int32_t o : instance.offsets) {
    if (o >= 0 && (low < 0 || o < low)) low = o;
  }
  const std::int32_t shift = low < 0 ? 0 : low & ~std::int32_t{127};
  std::array<std::int32_t, kWarpSize> key;
  std::uint64_t hash = 0xcbf29ce484222325ull ^ (instance.width * 2u + (instance.write ? 1u : 0u));
  for (int lane = 0; lane < kWarpSize; ++lane) {
    const std::int32_t o = instance.offsets[lane];
    key[lane] = o < 0 ? -1 : o - shift;
    hash = (hash ^ static_cast<std::uint32_t>(key[lane])) * 0x100000001b3ull;
  }
  PriceMemo& slot = memo[(hash ^ (hash >> 29)) & (memo.size() - 1)];
  if (slot.width == instance.width && slot.write == instance.write && slot.offsets == key) return slot.count;
  slot.offsets = key;
  slot.width = instance.width;
  slot.write = instance.write;
  slot.count = count_wavefronts(to_access(instance));
  return slot.count;
}

// Order of first appearance within a block (per OS thread: a block runs on one).
thread_local std::uint64_t t_pattern_sequence = 0;

std::uint64_t pattern_hash(const AccessPattern& p) {
  std::uint64_t hash = 0xcbf29ce484222325ull ^ (static_cast<std::uint64_t>(p.width_bytes) * 8u +
                                                 (p.store ? 4u : 0u) + static_cast<unsigned>(p.atomic));
  for (const std::int32_t o : p.offsets) hash = (hash ^ static_cast<std::uint32_t>(o)) * 0x100000001b3ull;
  return hash ^ (hash >> 29);
}

bool same_pattern(const AccessPattern& a, const AccessPattern& b) {
  return a.width_bytes == b.width_bytes && a.store == b.store && a.atomic == b.atomic && a.offsets == b.offsets;
}

// Adds `count` warp instructions of `pattern` to the pc's distinct patterns
// (first seen at `first`); past kMaxPatternsPerLine new ones are only counted.
void add_pattern(PcStats& stats, const AccessPattern& pattern, std::uint64_t count,
                 std::pair<std::uint64_t, std::uint64_t> first) {
  std::vector<std::uint32_t>& slots = stats.pattern_slots[pattern_hash(pattern)];
  for (const std::uint32_t i : slots) {
    if (!same_pattern(stats.patterns[i], pattern)) continue;
    stats.patterns[i].count += count;
    stats.last_pattern = i;
    if (first < stats.pattern_first[i]) {
      stats.pattern_first[i] = first;
      stats.patterns[i].shift = pattern.shift;
      stats.patterns[i].first_context = pattern.first_context;
    }
    return;
  }
  if (stats.patterns.size() >= kMaxPatternsPerLine) {
    (pattern.store ? stats.unrecorded_stores : stats.unrecorded_loads) += count;
    return;
  }
  stats.last_pattern = static_cast<std::uint32_t>(stats.patterns.size());
  slots.push_back(static_cast<std::uint32_t>(stats.patterns.size()));
  stats.patterns.push_back(pattern);
  stats.patterns.back().count = count;
  stats.pattern_first.push_back(first);
}

// The warp instruction as the grader gets it: its offsets shifted down by
// the multiple of 128 bytes below its lowest active offset.
void record_pattern(PcStats& stats, const Instance& instance, std::size_t warp) {
  AccessPattern p;
  p.width_bytes = instance.width;
  p.store = instance.write;
  p.atomic = instance.atomic == AtomicKind::kCas         ? AccessPattern::Atomic::kCas
             : instance.atomic == AtomicKind::kCasLoop   ? AccessPattern::Atomic::kCasLoop
             : instance.atomic == AtomicKind::kAsyncCopy ? AccessPattern::Atomic::kAsyncCopy
                                                         : AccessPattern::Atomic::kNone;
  std::int32_t low = -1;
  for (const std::int32_t o : instance.offsets) {
    if (o >= 0 && (low < 0 || o < low)) low = o;
  }
  const std::int32_t shift = low < 0 ? 0 : low & ~std::int32_t{127};
  for (int lane = 0; lane < kWarpSize; ++lane) {
    const std::int32_t o = instance.offsets[lane];
    p.offsets[lane] = o < 0 ? -1 : o - shift;
  }
  p.shift = shift;
  if (stats.last_pattern < stats.patterns.size() && same_pattern(stats.patterns[stats.last_pattern], p)) {
    ++stats.patterns[stats.last_pattern].count;  // later than its first instance: nothing else changes
    return;
  }
  const std::vector<std::uint32_t>* slots = nullptr;
  if (auto found = stats.pattern_slots.find(pattern_hash(p)); found != stats.pattern_slots.end()) slots = &found->second;
  const bool known = slots != nullptr && std::any_of(slots->begin(), slots->end(), [&](std::uint32_t i) {
    return same_pattern(stats.patterns[i], p);
  });
  if (!known) p.first_context = block_text() + " warp " + std::to_string(warp);  // only for a new one: strings cost
  add_pattern(stats, p, 1, {rt().block_index, t_pattern_sequence++});
}

}  // namespace

InstanceCost instance_cost(const Instance& instance) {
  if (instance.atomic == AtomicKind::kAsyncCopy) {
    // Every lane on a word of its own in the same bank (banklab::lanes_unmerged).
    Instance unmerged = instance;
    unmerged.atomic = AtomicKind::kNone;
    for (int lane = 0; lane < kWarpSize; ++lane) {
      if (unmerged.offsets[lane] >= 0) unmerged.offsets[lane] += 128 * lane;
    }
    return {memo_count_wavefronts(unmerged), 1};
  }
  InstanceCost cost{memo_count_wavefronts(instance), 1};
  if (instance.atomic == AtomicKind::kCas || instance.atomic == AtomicKind::kCasLoop) {
    // Lanes per bank, every lane counted (a word shared by lanes is no help).
    std::array<int, 32> per_bank{};  // sm_90: 32 banks of 4 bytes
    int busiest = 0;
    for (int lane = 0; lane < kWarpSize; ++lane) {
      if (instance.offsets[lane] < 0) continue;
      const int bank = static_cast<int>((instance.offsets[lane] / 4) % 32);
      busiest = std::max(busiest, ++per_bank[static_cast<std::size_t>(bank)]);
    }
    cost.count.ideal_wavefronts = 2;
    cost.count.wavefronts = 2 * busiest;
    if (instance.atomic == AtomicKind::kCasLoop) cost.instructions = static_cast<std::uint64_t>(busiest);
  }
  return cost;
}

namespace {

void price_instances(PcStats& stats, const Instance* first, const Instance* last, std::size_t warp) {
  for (const Instance* it = first; it != last; ++it) {
    const Instance& instance = *it;
    record_pattern(stats, instance, warp);
    const InstanceCost cost = instance_cost(instance);
    const WavefrontCount& count = cost.count;
    const std::uint64_t instructions = cost.instructions;
    (instance.write ? stats.stores : stats.loads) += instance.lanes;
    stats.width = instance.width;
    stats.store = instance.write;
    stats.warp_instructions += instructions;
    stats.wavefronts += static_cast<std::uint64_t>(count.wavefronts);
    stats.ideal += static_cast<std::uint64_t>(count.ideal_wavefronts);
    if (count.wavefronts > stats.worst) {
      stats.worst = count.wavefronts;
      stats.worst_block = rt().block_index;
      stats.worst_access = to_access(instance);
      stats.worst_context = block_text() + " warp " + std::to_string(warp);
    }
  }
}

// Lanes taking turns: a warp whose lanes run one access of a line in groups,
// one after another, with a warp function between them (for (l...) { if
// (lane == l) tile[...]; __syncwarp(); }), makes warp instructions that are
// each conflict-free and together cost what the conflict would. Here each
// lane's k-th execution of the pc since the block's last barrier is kept with
// the meeting interval it ran in; at the barrier (Runtime::trace_barrier) the
// lanes that ran the pc equally often are joined by k, and a joined
// instruction drawn from two or more intervals is priced. Lanes in step
// (loops, a tree's shrinking or growing halves) ran their k-th execution
// together, or ran the pc a different number of times: nothing is joined that
// they did not run at once. Only the grader's runs (the strict guard) join:
// loads, stores and one-pass atomics, held up to the cap on pending
// instructions (past it, untraced).
void join_turns(PcTrace& t) {
  ++t.meetings;
  Runtime& r = rt();
  for (std::size_t k = 0; k < t.instances.size(); ++k) {
    const Instance& instance = t.instances[k];
    // Plain loads and stores, and atomics priced as one pass (not the
    // compare-and-swap loops, nor the asynchronous copies).
    if (instance.atomic != AtomicKind::kNone && instance.atomic != AtomicKind::kNative) continue;
    for (int lane = 0; lane < kWarpSize; ++lane) {
      const std::int32_t offset = instance.offsets[static_cast<std::size_t>(lane)];
      if (offset < 0) continue;
      const std::size_t joined = t.before[static_cast<std::size_t>(lane)] + k;
      if (joined >= t.joined.size()) {
        if (r.joined_instances >= kMaxPendingInstances) {
          ++r.untraced_accesses;
          continue;
        }
        r.joined_instances += joined + 1 - t.joined.size();
        Instance blank;
        blank.offsets.fill(-1);
        blank.width = instance.width;
        blank.write = instance.write;
        t.joined.resize(joined + 1, blank);
        t.joined_meeting.resize(joined + 1, std::array<std::uint32_t, kWarpSize>{});
      }
      Instance& one = t.joined[joined];
      one.offsets[static_cast<std::size_t>(lane)] = offset;
      ++one.lanes;
      t.joined_meeting[joined][static_cast<std::size_t>(lane)] = t.meetings;
    }
  }
  for (int lane = 0; lane < kWarpSize; ++lane) t.before[static_cast<std::size_t>(lane)] += t.next[static_cast<std::size_t>(lane)];
}

}  // namespace

void Runtime::trace_converge(int warp) {
  if (static_cast<std::size_t>(warp) >= warp_traces.size()) return;
  if (compiled_plan != nullptr) compiled_converge(warp_traces[static_cast<std::size_t>(warp)]);
  for (PcTrace& t : warp_traces[static_cast<std::size_t>(warp)].pcs) {
    if (!t.instances.empty()) {
      if (g_guard_strict) join_turns(t);
      price_instances(*t.stats, t.instances.data(), t.instances.data() + t.instances.size(),
                      static_cast<std::size_t>(warp));
      pending_instances -= std::min(pending_instances, t.instances.size());
      t.instances.clear();
    }
    t.next.fill(0);
  }
}

namespace {

// Lanes taking turns between block barriers: for (l...) { if (lane == l) v =
// tile[...]; __syncthreads(); } makes, in each barrier interval, a warp
// instruction of other lanes. Each interval in which every lane that ran the
// pc ran it once is added to the pc's turn while its lanes are new to it; a
// lane that runs it again (or more than once in an interval) ends the turn.
// A turn drawn from two or more intervals and half the warp or more is
// priced as one instruction and recorded where it conflicts. Lanes in step
// (loops, shrinking or growing halves, the rows of a wavefront) run the pc
// again in the next interval and end the turn at once.
constexpr int kMinBarrierTurnLanes = kWarpSize / 2;

// A joined instruction (lanes that ran one access at different times, taken
// together) is recorded on its line where it conflicts.
void record_joined(PcTrace& t, const Instance& joined, std::size_t warp) {
  const WavefrontCount cost = instance_cost(joined).count;
  if (cost.wavefronts <= cost.ideal_wavefronts) return;
  if (!t.stats->joined) t.stats->joined = std::make_unique<PcStats>();
  record_pattern(*t.stats->joined, joined, warp);
}

void close_barrier_turn(PcTrace& t, std::size_t warp) {
  if (t.turn_intervals >= 2 && std::popcount(t.turn_lanes) >= kMinBarrierTurnLanes) record_joined(t, t.turn, warp);
  t.turn.offsets.fill(-1);
  t.turn.lanes = 0;
  t.turn_lanes = 0;
  t.turn_intervals = 0;
}

// The barrier interval that just ended (t.before, t.joined), added to the turn.
void add_barrier_turn(PcTrace& t, std::size_t warp) {
  std::uint32_t ran = 0;
  bool once = !t.joined.empty();
  for (int lane = 0; lane < kWarpSize; ++lane) {
    const auto l = static_cast<std::size_t>(lane);
    if (t.before[l] == 0) continue;
    ran |= 1u << lane;
    once = once && t.before[l] == 1 && t.joined[0].offsets[l] >= 0;
  }
  if (ran == 0) return;  // the pc did not run in this interval
  if (!once || (ran & t.turn_lanes) != 0) close_barrier_turn(t, warp);
  if (!once) return;
  const Instance& first = t.joined[0];
  if (t.turn_lanes == 0) {
    t.turn.offsets.fill(-1);
    t.turn.lanes = 0;
  }
  t.turn.width = first.width;
  t.turn.write = first.write;
  t.turn.atomic = first.atomic;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if ((ran >> lane & 1u) == 0) continue;
    t.turn.offsets[static_cast<std::size_t>(lane)] = first.offsets[static_cast<std::size_t>(lane)];
    ++t.turn.lanes;
  }
  t.turn_lanes |= ran;
  ++t.turn_intervals;
}

}  // namespace

void Runtime::trace_barrier(bool block_end) {
  if (!g_guard_strict) return;
  for (std::size_t w = 0; w < warp_traces.size(); ++w) {
    for (PcTrace& t : warp_traces[w].pcs) {
      for (std::size_t k = 0; k < t.joined.size(); ++k) {
        const Instance& all = t.joined[k];
        std::uint32_t grouped = 0;  // lanes already in a group
        for (int first = 0; first < kWarpSize; ++first) {
          const auto f = static_cast<std::size_t>(first);
          if (all.offsets[f] < 0 || (grouped >> first & 1u) != 0) continue;
          // The lanes that ran the pc as often as `first` did, at their k-th execution.
          Instance group = all;
          group.offsets.fill(-1);
          group.lanes = 0;
          bool turns = false;
          for (int lane = first; lane < kWarpSize; ++lane) {
            const auto l = static_cast<std::size_t>(lane);
            if (all.offsets[l] < 0 || t.before[l] != t.before[f]) continue;
            grouped |= 1u << lane;
            group.offsets[l] = all.offsets[l];
            ++group.lanes;
            turns = turns || t.joined_meeting[k][l] != t.joined_meeting[k][f];
          }
          if (turns) record_joined(t, group, w);
        }
      }
      add_barrier_turn(t, w);
      if (block_end) close_barrier_turn(t, w);
      t.joined.clear();
      t.joined_meeting.clear();
      t.before.fill(0);
    }
  }
  joined_instances = 0;
}

void Runtime::trace_end_block() {
  for (std::size_t w = 0; w < warp_traces.size(); ++w) trace_converge(static_cast<int>(w));
  trace_barrier(true);
  if (compiled_plan != nullptr) compiled_end_block();
  pending_instances = 0;
}

void Runtime::merge_trace(const Runtime& other) {
  for (const auto& [key, line] : other.compiled_lines) {
    CompiledLineStats& mine = compiled_lines[key];
    if (mine.where.file.empty()) mine.where = line.where;
    mine.add(line);
  }
  shared_accesses += other.shared_accesses;
  untraced_accesses += other.untraced_accesses;
  for (const auto& [pc, theirs] : other.pc_stats) {
    PcStats& mine = pc_stats[pc];
    mine.width = theirs.width;
    mine.store = theirs.store;
    mine.loads += theirs.loads;
    mine.stores += theirs.stores;
    mine.warp_instructions += theirs.warp_instructions;
    mine.wavefronts += theirs.wavefronts;
    mine.ideal += theirs.ideal;
    mine.unrecorded_loads += theirs.unrecorded_loads;
    mine.unrecorded_stores += theirs.unrecorded_stores;
    for (std::size_t i = 0; i < theirs.patterns.size(); ++i) {
      add_pattern(mine, theirs.patterns[i], theirs.patterns[i].count, theirs.pattern_first[i]);
    }
    if (theirs.joined) {
      if (!mine.joined) mine.joined = std::make_unique<PcStats>();
      for (std::size_t i = 0; i < theirs.joined->patterns.size(); ++i) {
        add_pattern(*mine.joined, theirs.joined->patterns[i], theirs.joined->patterns[i].count,
                    theirs.joined->pattern_first[i]);
      }
    }
    // The worst instance one worker running all blocks in order would keep.
    if (theirs.worst > mine.worst || (theirs.worst == mine.worst && theirs.worst > 0 && theirs.worst_block < mine.worst_block)) {
      mine.worst = theirs.worst;
      mine.worst_block = theirs.worst_block;
      mine.worst_access = theirs.worst_access;
      mine.worst_context = theirs.worst_context;
    }
  }
}

void Runtime::trace_finish(LaunchReport& out) {
  trace_end_block();  // after a block cut short (crash, deadlock): keep what it did; else a no-op
  out.shared_accesses = shared_accesses;
  out.untraced_accesses = untraced_accesses;
  std::vector<std::uintptr_t> pcs;
  for (const auto& [pc, stats] : pc_stats) pcs.push_back(pc);
  for (const Finding& f : out.findings) {
    if (f.pc != 0) pcs.push_back(f.pc);
    if (f.other_pc != 0) pcs.push_back(f.other_pc);
  }
  std::sort(pcs.begin(), pcs.end());
  pcs.erase(std::unique(pcs.begin(), pcs.end()), pcs.end());
  const auto where = resolve(pcs);
  for (Finding& f : out.findings) {
    if (f.pc != 0) f.where = where.at(f.pc);
    if (f.other_pc != 0) f.other = where.at(f.other_pc);
  }
  // The compiler may make several instructions of one line (an unrolled
  // loop): the same finding at the same lines is one finding, counted.
  std::vector<Finding> merged;
  for (Finding& f : out.findings) {
    auto same = std::find_if(merged.begin(), merged.end(), [&](const Finding& m) {
      return m.kind == f.kind && m.message == f.message && !m.where.file.empty() && m.where.file == f.where.file &&
             m.where.line == f.where.line && m.other.file == f.other.file && m.other.line == f.other.line;
    });
    if (same != merged.end()) {
      same->count += f.count;
    } else {
      merged.push_back(std::move(f));
    }
  }
  out.findings = std::move(merged);
  // One row per source line; instructions the compiler made from one line
  // (an unrolled loop) add up.
  std::map<std::pair<std::string, int>, LineStats> lines;
  std::vector<std::uintptr_t> ordered;
  for (const auto& [pc, stats] : pc_stats) ordered.push_back(pc);
  std::sort(ordered.begin(), ordered.end());
  for (std::uintptr_t pc : ordered) {
    const PcStats& stats = pc_stats.at(pc);
    const SourceLocation& loc = where.at(pc);
    LineStats& line = lines[{loc.file, loc.file.empty() ? static_cast<int>(pc & 0x7fffffff) : loc.line}];
    line.where = loc;
    line.pcs.push_back(pc);
    line.pc_widths.push_back(stats.width);
    line.pc_stores.push_back(stats.store);
    line.loads += stats.loads;
    line.stores += stats.stores;
    line.warp_instructions += stats.warp_instructions;
    line.wavefronts += stats.wavefronts;
    line.ideal_wavefronts += stats.ideal;
    // A line can hold a load and a store (tile2[i] = tile1[j]); each pc is one of them.
    if (stats.stores > 0) {
      line.store_wavefronts += stats.wavefronts;
      line.store_instructions += stats.warp_instructions;
    }
    // Patterns in the order one worker running every block would meet them.
    std::vector<std::size_t> order(stats.patterns.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return stats.pattern_first[a] < stats.pattern_first[b]; });
    for (const std::size_t i : order) {
      if (line.patterns.size() < kMaxPatternsPerLine) {
        line.patterns.push_back(stats.patterns[i]);
      } else {
        (stats.patterns[i].store ? line.unrecorded_stores : line.unrecorded_loads) += stats.patterns[i].count;
      }
    }
    line.unrecorded_loads += stats.unrecorded_loads;
    line.unrecorded_stores += stats.unrecorded_stores;
    if (stats.joined) {
      for (const AccessPattern& p : stats.joined->patterns) {
        if (line.joined_patterns.size() < kMaxPatternsPerLine) line.joined_patterns.push_back(p);
      }
    }
    if (stats.worst > line.worst_wavefronts) {
      line.worst_wavefronts = stats.worst;
      line.worst_access = stats.worst_access;
      line.worst_context = stats.worst_context;
    }
  }
  for (auto& [key, line] : lines) out.lines.push_back(std::move(line));
  if (compiled_plan != nullptr) compiled_finish(out);
}

}  // namespace banklab::emu::detail

// ---- the hooks the compiler calls ---------------------------------------------------
#define BANKLAB_HOOK_PC reinterpret_cast<std::uintptr_t>(__builtin_return_address(0))
#define BANKLAB_HOOKS(N)                                                                                    \
  void __tsan_read##N(void* a) { banklab::emu::detail::on_access(a, N, false, BANKLAB_HOOK_PC); }           \
  void __tsan_write##N(void* a) { banklab::emu::detail::on_access(a, N, true, BANKLAB_HOOK_PC); }           \
  void __tsan_unaligned_read##N(void* a) { banklab::emu::detail::on_access(a, N, false, BANKLAB_HOOK_PC); } \
  void __tsan_unaligned_write##N(void* a) { banklab::emu::detail::on_access(a, N, true, BANKLAB_HOOK_PC); } \
  void __tsan_volatile_read##N(void* a) { banklab::emu::detail::on_access(a, N, false, BANKLAB_HOOK_PC); }  \
  void __tsan_volatile_write##N(void* a) { banklab::emu::detail::on_access(a, N, true, BANKLAB_HOOK_PC); }

namespace {
// Sizes that are not one access (a struct copy, an under-aligned access) are
// split into the widest aligned pieces.
void range_access(void* pointer, std::size_t bytes, bool write, std::uintptr_t pc) {
  auto address = reinterpret_cast<std::uintptr_t>(pointer);
  while (bytes > 0) {
    unsigned width = 16;
    while (width > 1 && (address % width != 0 || width > bytes)) width /= 2;
    banklab::emu::detail::on_access(reinterpret_cast<void*>(address), width, write, pc);
    address += width;
    bytes -= width;
  }
}
}  // namespace

extern "C" {
void __tsan_init() {}
void __tsan_vptr_update(void**, void*) {}
void __tsan_vptr_read(void**) {}
BANKLAB_HOOKS(1)
BANKLAB_HOOKS(2)
BANKLAB_HOOKS(4)
BANKLAB_HOOKS(8)
BANKLAB_HOOKS(16)
void __tsan_read_range(void* a, unsigned long size) { range_access(a, size, false, BANKLAB_HOOK_PC); }
void __tsan_write_range(void* a, unsigned long size) { range_access(a, size, true, BANKLAB_HOOK_PC); }
}

// Atomics the compiler instruments (guard variables of function-local statics,
// std::atomic in helper code): real atomic operations, since the workers of a
// parallel launch are OS threads.
#define BANKLAB_ATOMIC_HOOKS(Bits, Type)                                                                     \
  Type __tsan_atomic##Bits##_load(const volatile Type* a, int) { return __atomic_load_n(a, __ATOMIC_SEQ_CST); } \
  void __tsan_atomic##Bits##_store(volatile Type* a, Type v, int) { __atomic_store_n(a, v, __ATOMIC_SEQ_CST); } \
  Type __tsan_atomic##Bits##_exchange(volatile Type* a, Type v, int) {                                       \
    return __atomic_exchange_n(a, v, __ATOMIC_SEQ_CST);                                                      \
  }                                                                                                          \
  Type __tsan_atomic##Bits##_fetch_add(volatile Type* a, Type v, int) {                                      \
    return __atomic_fetch_add(a, v, __ATOMIC_SEQ_CST);                                                       \
  }                                                                                                          \
  Type __tsan_atomic##Bits##_fetch_sub(volatile Type* a, Type v, int) {                                      \
    return __atomic_fetch_sub(a, v, __ATOMIC_SEQ_CST);                                                       \
  }                                                                                                          \
  int __tsan_atomic##Bits##_compare_exchange_strong(volatile Type* a, Type* expected, Type v, int, int) {    \
    return __atomic_compare_exchange_n(a, expected, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);           \
  }                                                                                                          \
  int __tsan_atomic##Bits##_compare_exchange_weak(volatile Type* a, Type* expected, Type v, int s, int f) {  \
    return __tsan_atomic##Bits##_compare_exchange_strong(a, expected, v, s, f);                              \
  }                                                                                                          \
  Type __tsan_atomic##Bits##_compare_exchange_val(volatile Type* a, Type expected, Type v, int, int) {       \
    __atomic_compare_exchange_n(a, &expected, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);                 \
    return expected;                                                                                         \
  }

extern "C" {
BANKLAB_ATOMIC_HOOKS(8, std::uint8_t)
BANKLAB_ATOMIC_HOOKS(16, std::uint16_t)
BANKLAB_ATOMIC_HOOKS(32, std::uint32_t)
BANKLAB_ATOMIC_HOOKS(64, std::uint64_t)
void __tsan_atomic_thread_fence(int) {}
void __tsan_atomic_signal_fence(int) {}
}

// `banklab run --as-compiled`: the traced shared accesses priced as nvcc's
// code issues them (banklab/sass.hpp's CompiledPlan), beside the source view.
//
// At each converge of a warp (a barrier, a warp collective, the block's end)
// its warp instructions since the last one are complete: each pc's are then
// priced by the role nvcc's code gives its line.
//   - Same widths: as they are.
//   - Wider in nvcc's code (LDS.64, LDS.128): each lane's accesses of the line,
//     in program order (execution, then code address), are joined into
//     aligned accesses of nvcc's width where they cover one completely; the
//     j-th joined access of every lane makes the j-th warp instruction.
//     Accesses of lines within kPartnerLines where nvcc makes none join them
//     too (nvcc gives two adjacent statements' STS.64 to one of them); what
//     does not join there is dropped.
//   - None in nvcc's code (and no wider line near): dropped (a reload nvcc
//     keeps in registers, an accumulator it keeps in a register).
//   - Outside every loop of nvcc's code: each lane's first (loads) or last
//     (stores) executions, as many as nvcc has instructions there, per
//     interval between converges (a value nvcc keeps in a register through
//     the loop).
//   - Narrower in nvcc's code: split into nvcc's width.
//   - Loads in nvcc's code at a line where the trace has only stores (the
//     host compiler kept the read of `a[i] += x` in a register, nvcc did
//     not): each store priced once more as a load of the same addresses;
//     where nvcc has fewer such loads than stores (an unrolled loop whose
//     first copies it proved apart), each warp's last that many stores of
//     a block (a sweep's warps join it late and stay to its end).
//   - Atomics: as they are, in their own columns.
// Predicated instructions outside nvcc's loops count once in every traced
// warp (compiled_finish): Nsight Compute's source view counts a warp whose
// lanes all have the predicate false.
#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>
#include <tuple>

#include "banklab/sass.hpp"
#include "runtime.hpp"
#include "symbols.hpp"

namespace banklab::emu {

void CompiledLineStats::add(const CompiledLineStats& o) {
  load_instructions += o.load_instructions;
  load_wavefronts += o.load_wavefronts;
  store_instructions += o.store_instructions;
  store_wavefronts += o.store_wavefronts;
  atomic_instructions += o.atomic_instructions;
  atomic_wavefronts += o.atomic_wavefronts;
  ideal_wavefronts += o.ideal_wavefronts;
  merged += o.merged;
  removed += o.removed;
  hoisted += o.hoisted;
  split += o.split;
  reread += o.reread;
  predicated_warps += o.predicated_warps;
  predicated_load_warps += o.predicated_load_warps;
  widest = std::max(widest, o.widest);
}

}  // namespace banklab::emu

namespace banklab::emu::detail {

namespace {

// How far (in source lines) an access nvcc makes none of may lie from the
// line where nvcc makes the wider access it was merged into.
constexpr int kPartnerLines = 4;

using LineKey = std::pair<std::string, int>;

CompiledRole role_of(const CompiledPlan& plan, const SourceLocation& where, const Instance& first) {
  CompiledRole r;
  r.file = where.file;
  r.line = {file_base_name(where.file), where.line};
  r.target = r.line;
  if (where.file.empty() || first.atomic != AtomicKind::kNone) return r;
  const bool store = first.write;
  const int width = first.width;
  const CompiledShape* shape = plan.find(where.file, where.line, store);
  if (shape == nullptr) {
    const int near = plan.nearest_wider(where.file, where.line, store, width);
    if (near != 0 && std::abs(near - where.line) <= kPartnerLines) {
      r.kind = CompiledRole::Kind::kPartner;
      const CompiledShape* wide = plan.find(where.file, near, store);
      r.width = wide->widest();
      for (auto it = wide->widths.rbegin(); it != wide->widths.rend(); ++it) r.widths.push_back(it->first);
      r.target = {r.line.first, near};
    } else {
      r.kind = CompiledRole::Kind::kRemove;
    }
    return r;
  }
  if (store) {
    const CompiledShape* loads = plan.find(where.file, where.line, false);
    r.reread = loads != nullptr && loads->widths.count(width) > 0;
    if (r.reread) {
      const int reloads = loads->widths.at(width);
      const auto stores = shape->widths.find(width);
      if (reloads < (stores != shape->widths.end() ? stores->second : shape->total())) r.reread_keep = reloads;
    }
  }
  const int widest = shape->widest();
  if (widest > width) {
    r.kind = CompiledRole::Kind::kMerge;
    r.width = widest;
    for (auto it = shape->widths.rbegin(); it != shape->widths.rend(); ++it) r.widths.push_back(it->first);
  } else if (widest < width) {
    r.kind = CompiledRole::Kind::kSplit;
    r.width = widest;
  } else if (!shape->in_loop) {
    r.kind = CompiledRole::Kind::kEnds;
    r.keep = shape->total();
  }
  return r;
}

// One lane's access waiting to be joined.
struct Piece {
  std::uint32_t k = 0;  // the lane's k-th execution of the pc in this interval
  std::size_t pc = 0;   // index in the warp's pcs
  std::int32_t offset = 0;
  std::uint8_t width = 0;
};

// One warp instruction as nvcc has it, priced by the bank model into its
// line's counts (loads, stores or atomics by the instruction's kind).
void add_cost(CompiledLineStats& s, const Instance& instance) {
  if (instance.lanes == 0) return;
  const InstanceCost cost = instance_cost(instance);
  const auto wavefronts = static_cast<std::uint64_t>(cost.count.wavefronts);
  if (instance.atomic != AtomicKind::kNone) {
    s.atomic_instructions += cost.instructions;
    s.atomic_wavefronts += wavefronts;
  } else if (instance.write) {
    s.store_instructions += cost.instructions;
    s.store_wavefronts += wavefronts;
  } else {
    s.load_instructions += cost.instructions;
    s.load_wavefronts += wavefronts;
  }
  s.ideal_wavefronts += static_cast<std::uint64_t>(cost.count.ideal_wavefronts);
}

}  // namespace

void Runtime::compiled_converge(WarpTrace& trace) {
  // Roles of the pcs first seen here, their lines looked up together.
  std::vector<std::uintptr_t> fresh;
  for (const PcTrace& t : trace.pcs) {
    if (!t.instances.empty() && compiled_roles.count(t.pc) == 0) fresh.push_back(t.pc);
  }
  if (!fresh.empty()) {
    const auto where = resolve(fresh);
    for (const PcTrace& t : trace.pcs) {
      if (!t.instances.empty() && compiled_roles.count(t.pc) == 0)
        compiled_roles[t.pc] = role_of(*compiled_plan, where.at(t.pc), t.instances.front());
    }
  }
  const auto line_stats = [&](const std::string& file, const LineKey& key) -> CompiledLineStats& {
    CompiledLineStats& s = compiled_lines[key];
    if (s.where.file.empty()) s.where = SourceLocation{file, key.second, {}};
    return s;
  };
  const auto price = [](CompiledLineStats& s, const Instance& instance) { add_cost(s, instance); };
  const auto blank = [](const Instance& like, int width) {
    Instance fresh_instance;
    fresh_instance.offsets.fill(-1);
    fresh_instance.width = static_cast<std::uint8_t>(width);
    fresh_instance.write = like.write;
    fresh_instance.atomic = like.atomic;
    return fresh_instance;
  };

  // Lines where this interval traced loads: a store's reread is for the others.
  // (Made only where some pc of this interval may be reread.)
  std::set<LineKey> loaded;
  const bool any_reread = std::any_of(trace.pcs.begin(), trace.pcs.end(), [&](const PcTrace& t) {
    return !t.instances.empty() && compiled_roles.at(t.pc).reread;
  });
  for (const PcTrace& t : trace.pcs) {
    if (!any_reread) break;
    if (!t.instances.empty() && !t.instances.front().write) loaded.insert(compiled_roles.at(t.pc).line);
  }
  const std::size_t warp = static_cast<std::size_t>(&trace - warp_traces.data());
  const auto price_reread = [&](CompiledLineStats& s, const CompiledRole& role, const Instance& instance) {
    price(s, instance);
    if (!role.reread || instance.lanes == 0 || loaded.count(role.line) > 0) return;
    Instance load = instance;
    load.write = false;
    if (role.reread_keep > 0) {
      PendingRereads& pending = compiled_rereads[{warp, role.line}];
      pending.file = role.file;
      pending.keep = role.reread_keep;
      pending.loads.push_back(load);
      return;
    }
    price(s, load);
    ++s.reread;
  };

  // Accesses to join, per (target line, store, width): each lane's pieces,
  // the lines' file and nvcc's widths at the target line.
  struct Pool {
    std::array<std::vector<Piece>, kWarpSize> lanes;
    std::string file;
    std::vector<int> widths;
  };
  std::map<std::tuple<LineKey, bool, int>, Pool> pools;
  for (std::size_t p = 0; p < trace.pcs.size(); ++p) {
    const PcTrace& t = trace.pcs[p];
    if (t.instances.empty()) continue;
    const CompiledRole& role = compiled_roles.at(t.pc);
    CompiledLineStats& own = line_stats(role.file, role.line);
    switch (role.kind) {
      case CompiledRole::Kind::kAsIs:
        for (const Instance& instance : t.instances) price_reread(own, role, instance);
        break;
      case CompiledRole::Kind::kRemove:
        own.removed += t.instances.size();
        break;
      case CompiledRole::Kind::kEnds:
        for (std::uint32_t k = 0; k < t.instances.size(); ++k) {
          const Instance& instance = t.instances[k];
          Instance kept = blank(instance, instance.width);
          for (int lane = 0; lane < kWarpSize; ++lane) {
            const std::uint32_t runs = t.next[static_cast<std::size_t>(lane)];
            const std::uint32_t keep = static_cast<std::uint32_t>(role.keep);
            const bool wanted = instance.write ? k + keep >= runs : k < keep;
            if (instance.offsets[lane] < 0 || !wanted) continue;
            kept.offsets[lane] = instance.offsets[lane];
            ++kept.lanes;
          }
          if (kept.lanes == 0) ++own.hoisted;
          price_reread(own, role, kept);
        }
        break;
      case CompiledRole::Kind::kSplit:
        for (const Instance& instance : t.instances) {
          for (int part = 0; part * role.width < instance.width; ++part) {
            Instance piece = blank(instance, role.width);
            for (int lane = 0; lane < kWarpSize; ++lane) {
              if (instance.offsets[lane] < 0) continue;
              piece.offsets[lane] = instance.offsets[lane] + part * role.width;
              ++piece.lanes;
            }
            price(own, piece);
          }
          ++own.split;
        }
        break;
      case CompiledRole::Kind::kMerge:
      case CompiledRole::Kind::kPartner: {
        Pool& pool = pools[{role.target, t.instances.front().write, role.width}];
        pool.file = role.file;
        pool.widths = role.widths;
        auto& lanes = pool.lanes;
        for (std::uint32_t k = 0; k < t.instances.size(); ++k) {
          for (int lane = 0; lane < kWarpSize; ++lane) {
            const std::int32_t o = t.instances[k].offsets[lane];
            if (o >= 0) lanes[static_cast<std::size_t>(lane)].push_back({k, p, o, t.instances[k].width});
          }
        }
        break;
      }
    }
  }

  for (auto& [key, pool] : pools) {
    const auto& [target, store, width] = key;
    auto& lanes = pool.lanes;
    // Per lane, what it issues: (line, width) -> offsets in order.
    std::map<std::pair<LineKey, int>, std::array<std::vector<std::pair<std::uint64_t, std::int32_t>>, kWarpSize>> issued;
    std::map<std::pair<std::size_t, std::uint32_t>, int> joined;  // (pc, k) -> lanes whose piece joined
    std::map<std::pair<std::size_t, std::uint32_t>, int> alone;   // (pc, k) -> lanes whose piece did not
    const std::vector<int>& nvcc_widths = pool.widths;  // widest first
    for (int lane = 0; lane < kWarpSize; ++lane) {
      std::vector<Piece>& pieces = lanes[static_cast<std::size_t>(lane)];
      std::sort(pieces.begin(), pieces.end(),
                [](const Piece& a, const Piece& b) { return std::tie(a.k, a.pc) < std::tie(b.k, b.pc); });
      // Open chunks (aligned spans of nvcc's widest access), by their start;
      // the loop's other accesses (another array) do not close them.
      struct Chunk {
        std::uint64_t sequence = 0;
        std::uint32_t covered = 0;  // bytes, one bit each (16 at most)
        std::vector<const Piece*> pieces;
      };
      std::map<std::int32_t, Chunk> open;
      std::uint64_t sequence = 0;
      const auto issue = [&](const LineKey& line, int bytes, std::int32_t offset, std::uint64_t order) {
        issued[{line, bytes}][static_cast<std::size_t>(lane)].push_back({order, offset});
      };
      // A chunk becomes nvcc's accesses: the widest of nvcc's widths that an
      // aligned run of covered bytes fills, each at the target line; a piece
      // left on its own stays at its line (dropped where nvcc has none there).
      const auto close = [&](std::int32_t base, Chunk& chunk) {
        std::sort(chunk.pieces.begin(), chunk.pieces.end(),
                  [](const Piece* a, const Piece* b) { return a->offset < b->offset; });
        std::uint64_t part = 0;
        for (std::size_t i = 0; i < chunk.pieces.size();) {
          const Piece& first = *chunk.pieces[i];
          const int at = first.offset - base;
          int bytes = 0;
          for (const int w : nvcc_widths) {
            const std::uint32_t span = (w >= 32 ? ~0u : (1u << w) - 1) << at;
            if (w > first.width && at % w == 0 && at + w <= width && (chunk.covered & span) == span) {
              bytes = w;
              break;
            }
          }
          std::size_t next = i + 1;
          if (bytes == 0) {
            ++alone[{first.pc, first.k}];
            const CompiledRole& role = compiled_roles.at(trace.pcs[first.pc].pc);
            if (role.kind == CompiledRole::Kind::kMerge) issue(role.line, first.width, first.offset, chunk.sequence * 32 + part++);
          } else {
            while (next < chunk.pieces.size() && chunk.pieces[next]->offset < first.offset + bytes) ++next;
            for (std::size_t j = i; j < next; ++j) ++joined[{chunk.pieces[j]->pc, chunk.pieces[j]->k}];
            issue(target, bytes, first.offset, chunk.sequence * 32 + part++);
          }
          i = next;
        }
      };
      for (const Piece& piece : pieces) {
        const std::int32_t start = piece.offset & ~(width - 1);
        const bool fits = piece.offset + piece.width <= start + width;
        if (!fits || piece.width >= width) {  // as wide as nvcc's access, or crossing it: on its own
          Chunk alone_chunk{sequence++, 0, {&piece}};
          close(piece.offset, alone_chunk);
          continue;
        }
        const std::uint32_t bits = ((1u << piece.width) - 1) << (piece.offset - start);
        auto found = open.find(start);
        if (found != open.end() && (found->second.covered & bits) != 0) {
          close(start, found->second);
          open.erase(found);
          found = open.end();
        }
        if (found == open.end()) found = open.emplace(start, Chunk{sequence++, 0, {}}).first;
        found->second.covered |= bits;
        found->second.pieces.push_back(&piece);
      }
      for (auto& [base, chunk] : open) close(base, chunk);
    }
    // The source view's warp instructions: joined where a lane's piece joined, else issued alone or removed.
    std::map<std::pair<std::size_t, std::uint32_t>, bool> seen;
    for (const auto& [at, n] : joined) seen[at] = true;
    for (const auto& [at, n] : alone) seen.emplace(at, false);
    for (const auto& [at, any_joined] : seen) {
      const CompiledRole& role = compiled_roles.at(trace.pcs[at.first].pc);
      CompiledLineStats& own = line_stats(role.file, role.line);
      if (any_joined) {
        ++own.merged;
      } else if (role.kind == CompiledRole::Kind::kPartner) {
        ++own.removed;
      }
    }
    for (auto& [where, per_lane] : issued) {
      const auto& [line, piece_width] = where;
      std::size_t count = 0;
      for (auto& offsets : per_lane) {
        std::sort(offsets.begin(), offsets.end());  // in the order the lane made them
        count = std::max(count, offsets.size());
      }
      Instance like;
      like.write = store;
      CompiledLineStats& s = line_stats(pool.file, line);  // the pool's lines are of one file
      for (std::size_t j = 0; j < count; ++j) {
        Instance instance = blank(like, piece_width);
        for (int lane = 0; lane < kWarpSize; ++lane) {
          const auto& offsets = per_lane[static_cast<std::size_t>(lane)];
          if (j >= offsets.size()) continue;
          instance.offsets[lane] = offsets[j].second;
          ++instance.lanes;
        }
        price(s, instance);
      }
    }
  }
}

void Runtime::compiled_end_block() {
  for (auto& [key, pending] : compiled_rereads) {
    CompiledLineStats& s = compiled_lines[key.second];
    if (s.where.file.empty()) s.where = SourceLocation{pending.file, key.second.second, {}};
    const std::size_t n = pending.loads.size();
    const std::size_t keep = static_cast<std::size_t>(pending.keep);
    for (std::size_t j = n > keep ? n - keep : 0; j < n; ++j) {
      add_cost(s, pending.loads[j]);
      ++s.reread;
    }
  }
  compiled_rereads.clear();
}

void Runtime::compiled_finish(LaunchReport& out) {
  // Every line nvcc has shared instructions at, with their widest access;
  // predicated ones outside its loops count in every traced warp.
  for (const auto& [key, shape] : compiled_plan->lines) {
    const auto& [file, line, store] = key;
    CompiledLineStats& s = compiled_lines[{file, line}];
    if (s.where.file.empty()) s.where = SourceLocation{file, line, {}};
    s.widest = std::max(s.widest, shape.widest());
    if (!shape.predicated || shape.in_loop) continue;
    // The warps that issue it: every traced warp, or those that issue the
    // unpredicated instruction before it in its basic block.
    std::uint64_t reaching = 0;
    if (shape.entry) {
      reaching = out.warps_traced;
    } else if (shape.has_anchor) {
      const auto& [anchor_file, anchor_line, anchor_store] = shape.anchor;
      const CompiledShape* anchor = compiled_plan->find(anchor_file, anchor_line, anchor_store);
      const auto found = compiled_lines.find({anchor_file, anchor_line});
      if (anchor == nullptr || anchor->total() == 0 || found == compiled_lines.end()) continue;
      const CompiledLineStats& a = found->second;
      const std::uint64_t issued =
          anchor_store ? a.store_instructions + a.atomic_instructions : a.load_instructions;
      reaching = issued / static_cast<std::uint64_t>(anchor->total());
    }
    if (reaching == 0) continue;
    const std::uint64_t every_warp = reaching * static_cast<std::uint64_t>(shape.total());
    std::uint64_t& counted = !store ? s.load_instructions : s.atomic_instructions > 0 ? s.atomic_instructions
                                                                                     : s.store_instructions;
    if (every_warp > counted) {
      s.predicated_warps += every_warp - counted;
      if (!store) s.predicated_load_warps += every_warp - counted;
      counted = every_warp;
    }
  }
  out.priced_as_compiled = true;
  out.compiled_lines.clear();
  for (const auto& [key, line] : compiled_lines) {
    if (line.instructions() == 0 && line.merged + line.removed + line.hoisted + line.split == 0) continue;
    out.compiled_lines.push_back(line);
  }
}

}  // namespace banklab::emu::detail

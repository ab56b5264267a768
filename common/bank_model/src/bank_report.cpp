// Text renderings of the bank model's answer: lane lists, the bank map and the
// explanation a student reads under a number.
#include <algorithm>
#include <bit>
#include <iomanip>
#include <ostream>
#include <sstream>

#include "banklab/bank_model.hpp"

namespace banklab {

std::string format_lanes(LaneMask lanes) {
  if (lanes == 0) return "none";
  std::ostringstream out;
  bool first = true;
  for (int lane = 0; lane < kWarpSize;) {
    if (!(lanes >> lane & 1u)) {
      ++lane;
      continue;
    }
    int end = lane;
    while (end + 1 < kWarpSize && (lanes >> (end + 1) & 1u)) ++end;
    out << (first ? "" : " ");
    first = false;
    if (end - lane >= 2) {
      out << lane << '-' << end;
    } else {
      for (int l = lane; l <= end; ++l) out << (l == lane ? "" : " ") << l;
    }
    lane = end + 1;
  }
  return out.str();
}

namespace {

std::string group_kind(const LaneGroup& group) {
  const int size = std::popcount(group.lanes);
  if (size == kWarpSize) return "whole warp";
  if (size == kWarpSize / 2) return "half-warp";
  if (size == kWarpSize / 4) return "quarter-warp";
  return std::to_string(size) + " lanes";
}

std::string word_list(const std::vector<BankWord>& words, std::size_t limit) {
  std::ostringstream out;
  for (std::size_t i = 0; i < words.size() && i < limit; ++i) {
    out << (i ? ", " : "") << words[i].word << " (lane" << (std::popcount(words[i].lanes) > 1 ? "s " : " ")
        << format_lanes(words[i].lanes) << ')';
  }
  if (words.size() > limit) out << ", ... " << words.size() - limit << " more";
  return out.str();
}

}  // namespace

std::string format_explanation(const AccessCost& cost) {
  const WarpAccess& a = cost.access;
  const int bank_width = cost.arch->bank_width_bytes;
  std::ostringstream out;
  out << (a.op == MemOp::kLoad ? "load" : "store") << " of " << a.width_bytes << " byte"
      << (a.width_bytes > 1 ? "s" : "") << " per lane, active lanes " << format_lanes(a.active_mask()) << '\n';
  out << "wavefronts: " << cost.wavefronts << "   ideal: " << cost.ideal_wavefronts
      << "   bank conflicts: " << cost.bank_conflicts;
  if (cost.bank_conflicts > 0) out << "   (worst group: " << cost.worst_group_wavefronts() << "-way)";
  out << '\n';
  if (cost.pair_merge_distance != 0) {
    out << "pair-merge: lanes t and t^" << cost.pair_merge_distance
        << " load the same address, so the groups are twice as large\n";
  }
  if (cost.pipeline_passes > cost.wavefronts) {
    out << "pipeline passes: " << cost.pipeline_passes << " (each of the " << cost.groups.size()
        << " lane groups takes a pass, even with no active lane: " << cost.pipeline_passes
        << " cycles per instruction in a loop, though Nsight Compute counts " << cost.wavefronts << " wavefront"
        << (cost.wavefronts == 1 ? "" : "s") << ")\n";
  }
  int wavefront = 0;
  for (std::size_t g = 0; g < cost.groups.size(); ++g) {
    const LaneGroup& group = cost.groups[g];
    out << "group " << g << " (lanes " << format_lanes(group.lanes) << ", " << group_kind(group) << "): ";
    if (group.active == 0) {
      out << "no active lane, 0 wavefronts\n";
      continue;
    }
    out << group.wavefronts << " wavefront" << (group.wavefronts == 1 ? "" : "s");
    if (group.wavefronts > 0) {
      out << " (wf " << wavefront;
      if (group.wavefronts > 1) out << '-' << wavefront + group.wavefronts - 1;
      out << ')';
    }
    wavefront += group.wavefronts;
    const int bank = group.worst_bank();
    if (group.wavefronts > 1) {
      out << "; bank " << bank << " must deliver " << group.bank_words[bank].size()
          << " different words: " << word_list(group.bank_words[bank], 6);
    }
    out << '\n';
  }
  // Broadcasts: words more than one lane asked for (free, for loads and stores).
  std::vector<BankWord> shared;
  for (const LaneGroup& group : cost.groups) {
    for (const auto& words : group.bank_words) {
      for (const BankWord& w : words) {
        if (std::popcount(w.lanes) > 1) shared.push_back(w);
      }
    }
  }
  if (!shared.empty()) {
    std::sort(shared.begin(), shared.end(), [](const BankWord& x, const BankWord& y) { return x.word < y.word; });
    out << "shared words (" << (a.op == MemOp::kLoad ? "broadcast" : "merged write") << ", no extra cost): ";
    for (std::size_t i = 0; i < shared.size() && i < 8; ++i) {
      out << (i ? "; " : "") << "word " << shared[i].word << " (byte " << std::uint64_t{shared[i].word} * bank_width
          << ") lanes " << format_lanes(shared[i].lanes);
    }
    if (shared.size() > 8) out << "; ... " << shared.size() - 8 << " more";
    out << '\n';
  }
  return out.str();
}

std::string format_bank_map(const AccessCost& cost) {
  const int banks = cost.arch->banks;
  constexpr int kCell = 4;
  std::ostringstream out;
  out << "bank map: one row per wavefront, one column per bank; a cell is the lowest lane\n"
         "served there ('*': several lanes share that word, '.': bank idle)\n";
  out << std::setw(8) << "bank";
  for (int b = 0; b < banks; ++b) out << std::setw(kCell) << b;
  out << '\n';
  int wavefront = 0;
  for (std::size_t g = 0; g < cost.groups.size(); ++g) {
    const LaneGroup& group = cost.groups[g];
    for (int k = 0; k < group.wavefronts; ++k, ++wavefront) {
      out << "  wf" << std::setw(3) << wavefront << ' ';
      for (int b = 0; b < banks; ++b) {
        const auto& words = group.bank_words[b];
        std::string cell = ".";
        if (k < static_cast<int>(words.size())) {
          cell = std::to_string(std::countr_zero(words[k].lanes));
          if (std::popcount(words[k].lanes) > 1) cell += '*';
        }
        out << std::setw(kCell) << cell;
      }
      out << '\n';
    }
    if (g + 1 < cost.groups.size() && group.wavefronts > 0) {
      out << "  " << std::string(6 + banks * kCell, '-') << '\n';
    }
  }
  if (wavefront == 0) out << "  (no active lane: no wavefront)\n";
  return out.str();
}

std::ostream& operator<<(std::ostream& out, const WarpAccess& access) {
  out << to_string(access.op) << '.' << access.width_bytes << " [";
  for (int lane = 0; lane < kWarpSize; ++lane) {
    out << (lane ? " " : "");
    if (access.active(lane)) {
      out << access.offsets[lane];
    } else {
      out << '-';
    }
  }
  return out << ']';
}

std::ostream& operator<<(std::ostream& out, const AccessCost& cost) {
  return out << format_explanation(cost) << format_bank_map(cost);
}

}  // namespace banklab

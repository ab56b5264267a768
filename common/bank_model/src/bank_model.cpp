// The bank rule: how many wavefronts one warp-wide shared-memory instruction
// needs. Each part of the rule below names a row of
// tests/data/h200_shared_access.csv (Nsight Compute on an H200) that shows it.
#include "banklab/bank_model.hpp"

#include <algorithm>
#include <bit>
#include <limits>

namespace banklab {

std::string_view to_string(MemOp op) { return op == MemOp::kLoad ? "ld" : "st"; }

MemOp parse_mem_op(std::string_view text) {
  if (text == "ld" || text == "load") return MemOp::kLoad;
  if (text == "st" || text == "store") return MemOp::kStore;
  throw AccessError("op must be 'ld' or 'st', got '" + std::string(text) + "'");
}

namespace {

constexpr std::array<int, 5> kWidths{1, 2, 4, 8, 16};
constexpr std::int64_t kMaxOffset = std::int64_t{1} << 32;

LaneMask lane_range(int first, int count) {
  const std::uint64_t bits = ((std::uint64_t{1} << count) - 1) << first;
  return static_cast<LaneMask>(bits);
}

// Rule 4, the load pair-merge. For 8- and 16-byte loads, when lanes t and t^x
// (x = 1 or 2) always ask for the same address, the return path needs half the
// registers per lane and the hardware serves twice as many lanes per group.
// Rows: w8_pairs_share_ld (pairs 0-1, 2-3, ... share one double: 1 wavefront
// for the whole warp, where half-warp groups would cost 2), w16_quads_share_ld
// (float4, 2 wavefronts instead of 4), m8_p_conflicted_plus_1_ld (the merged
// group has a 2-way conflict and the merge still applies: 2, not 3).
// A lane whose partner is inactive does not block the merge:
// two_w8_l0_16_rel0_ld (only lanes 0 and 16 active, same address) costs 1,
// not one per half-warp. Never for stores: w8_pairs_share_st costs 2.
int pair_merge_distance(const WarpAccess& access) {
  for (int x : {1, 2}) {
    bool pairs_agree = true;
    for (int t = 0; t < kWarpSize && pairs_agree; ++t) {
      const int partner = t ^ x;
      if (access.active(t) && access.active(partner) && access.offsets[t] != access.offsets[partner]) {
        pairs_agree = false;
      }
    }
    if (pairs_agree) return x;
  }
  return 0;
}

}  // namespace

WarpAccess WarpAccess::make(int width_bytes, MemOp op, std::span<const std::int64_t> offsets) {
  if (std::find(kWidths.begin(), kWidths.end(), width_bytes) == kWidths.end()) {
    throw AccessError("width must be 1, 2, 4, 8 or 16 bytes, got " + std::to_string(width_bytes));
  }
  if (offsets.size() != kWarpSize) {
    throw AccessError("need exactly 32 lane offsets (one per lane, - or -1 for an inactive lane), got " +
                      std::to_string(offsets.size()));
  }
  WarpAccess access;
  access.width_bytes = width_bytes;
  access.op = op;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    const std::int64_t offset = offsets[lane];
    if (offset == kInactive) {
      access.offsets[lane] = kInactive;
      continue;
    }
    const std::string where = "lane " + std::to_string(lane) + ": offset " + std::to_string(offset);
    if (offset < 0) throw AccessError(where + " is negative (use - or -1 for an inactive lane)");
    if (offset + width_bytes > kMaxOffset) throw AccessError(where + " is beyond 4 GiB");
    if (offset % width_bytes != 0) {
      throw AccessError(where + " is not a multiple of the access width " + std::to_string(width_bytes) +
                        " (shared accesses must be aligned to their size)");
    }
    access.offsets[lane] = offset;
  }
  return access;
}

LaneMask WarpAccess::active_mask() const {
  LaneMask mask = 0;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (active(lane)) mask |= LaneMask{1} << lane;
  }
  return mask;
}

WarpAccess strided_access(int width_bytes, MemOp op, std::int64_t stride_elements, std::int64_t base_bytes,
                          LaneMask lanes) {
  std::array<std::int64_t, kWarpSize> offsets{};
  for (int lane = 0; lane < kWarpSize; ++lane) {
    offsets[lane] = (lanes >> lane & 1u) ? base_bytes + lane * stride_elements * width_bytes : kInactive;
  }
  return WarpAccess::make(width_bytes, op, offsets);
}

int LaneGroup::worst_bank() const {
  int worst = 0;
  for (int bank = 1; bank < static_cast<int>(bank_words.size()); ++bank) {
    if (bank_words[bank].size() > bank_words[worst].size()) worst = bank;
  }
  return worst;
}

int AccessCost::worst_group_wavefronts() const {
  int worst = 0;
  for (const LaneGroup& group : groups) worst = std::max(worst, group.wavefronts);
  return worst;
}

namespace {

struct Grouping {
  int words_per_lane = 1;
  int group_lanes = kWarpSize;
  int pair_merge_distance = 0;
};

Grouping grouping_of(const WarpAccess& access, const BankArchitecture& arch) {
  Grouping g;
  // Rule 1: word = byte offset / 4, bank = word mod 32; an access of s bytes
  // touches max(1, s/4) consecutive words. Row w4_stride32_ld: every lane in
  // bank 0, 32 wavefronts; w4_stride33_ld: 33 = 1 mod 32, all banks differ, 1.
  g.words_per_lane = std::max(1, access.width_bytes / arch.bank_width_bytes);

  // Rule 2: lane groups. One wavefront moves at most wavefront_bytes (128 on
  // sm_90), so the warp is served in groups of 128 / max(4, s) lanes: the whole
  // warp up to 4 bytes, half-warps for 8 bytes, quarter-warps for 16 bytes.
  // Rows: w8_stride1_ld (256 contiguous bytes: 2 wavefronts, 0 conflicts,
  // since each half-warp is one group), w16_stride1_ld (512 bytes, 4, 0).
  g.group_lanes = std::min(kWarpSize, arch.wavefront_bytes() / std::max(access.width_bytes, arch.bank_width_bytes));

  // Rule 4 (see pair_merge_distance): a load pair-merge doubles the groups.
  if (arch.load_pair_merge && access.op == MemOp::kLoad && access.width_bytes > arch.bank_width_bytes) {
    g.pair_merge_distance = pair_merge_distance(access);
    if (g.pair_merge_distance != 0) g.group_lanes = std::min(kWarpSize, g.group_lanes * 2);
  }
  return g;
}

}  // namespace

WarpAccess lanes_unmerged(const WarpAccess& access) {
  WarpAccess out = access;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (out.offsets[lane] != kInactive) out.offsets[lane] += 128 * lane;
  }
  return out;
}

AccessCost price(const WarpAccess& access, const BankArchitecture& arch) {
  AccessCost cost;
  cost.access = access;
  cost.arch = &arch;
  const Grouping grouping = grouping_of(access, arch);
  cost.pair_merge_distance = grouping.pair_merge_distance;
  const int group_lanes = grouping.group_lanes;

  for (int first = 0; first < kWarpSize; first += group_lanes) {
    LaneGroup group;
    group.lanes = lane_range(first, group_lanes);
    group.bank_words.resize(arch.banks);
    for (int lane = first; lane < first + group_lanes; ++lane) {
      if (!access.active(lane)) continue;  // inactive lanes are ignored (w4_single_lane_ld: 1)
      group.active |= LaneMask{1} << lane;
      const auto first_word = static_cast<std::uint32_t>(access.offsets[lane] / arch.bank_width_bytes);
      for (int k = 0; k < grouping.words_per_lane; ++k) {
        const std::uint32_t word = first_word + k;
        std::vector<BankWord>& words = group.bank_words[word % arch.banks];
        auto same = std::find_if(words.begin(), words.end(), [&](const BankWord& w) { return w.word == word; });
        // Rule 3: lanes on the same word are free, for loads and for stores,
        // even on different bytes of the word (w4_pairs_share_word_st: 1;
        // w1_stride1_ld: 32 bytes in 8 words, 1).
        if (same != words.end()) {
          same->lanes |= LaneMask{1} << lane;
        } else {
          words.push_back({word, LaneMask{1} << lane});
        }
      }
    }
    // Rule 3: a group costs the most distinct words any one bank must deliver
    // (w4_two_words_same_bank_ld: 2). Empty groups cost nothing
    // (m8_n_half0_only_16_ld: lanes 16-31 inactive, 1 wavefront).
    for (const auto& words : group.bank_words) {
      group.wavefronts = std::max(group.wavefronts, static_cast<int>(words.size()));
    }
    // Rule 5: ideal = one wavefront per non-empty group; conflicts = the rest.
    if (group.active != 0) ++cost.ideal_wavefronts;
    cost.wavefronts += group.wavefronts;
    cost.groups.push_back(std::move(group));
  }
  cost.bank_conflicts = cost.wavefronts - cost.ideal_wavefronts;
  // Rule 6 (cycles, not wavefronts): the pipeline steps through every lane
  // group, empty or not (cycle probe: ld8_lanes0-7 2 cycles, ld16_lanes0-7 4,
  // ld16_lanes0-7_stride8 8).
  cost.pipeline_passes = std::max(cost.wavefronts, static_cast<int>(cost.groups.size()));
  return cost;
}

WavefrontCount count_wavefronts(const WarpAccess& access, const BankArchitecture& arch) {
  const Grouping grouping = grouping_of(access, arch);
  WavefrontCount count;
  std::array<std::uint32_t, kWarpSize * 4> words{};  // at most 32 lanes x 4 words
  std::array<int, 64> per_bank{};                    // architectures with up to 64 banks
  for (int first = 0; first < kWarpSize; first += grouping.group_lanes) {
    std::size_t n = 0;
    for (int lane = first; lane < first + grouping.group_lanes; ++lane) {
      if (!access.active(lane)) continue;
      const auto first_word = static_cast<std::uint32_t>(access.offsets[lane] / arch.bank_width_bytes);
      for (int k = 0; k < grouping.words_per_lane; ++k) words[n++] = first_word + k;
    }
    if (n == 0) continue;
    // Same rule as price(): distinct words per bank, the worst bank decides.
    std::sort(words.begin(), words.begin() + n);
    const auto distinct = std::unique(words.begin(), words.begin() + n) - words.begin();
    std::fill(per_bank.begin(), per_bank.begin() + arch.banks, 0);
    int worst = 0;
    for (std::ptrdiff_t i = 0; i < distinct; ++i) worst = std::max(worst, ++per_bank[words[i] % arch.banks]);
    count.wavefronts += worst;
    ++count.ideal_wavefronts;
  }
  return count;
}

}  // namespace banklab

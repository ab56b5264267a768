// The shared-memory bank model: prices one warp-wide shared-memory instruction
// in wavefronts and explains the price (lane groups, per-bank words, broadcasts).
#pragma once

#include <array>
#include <cstdint>
#include <iosfwd>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace banklab {

inline constexpr int kWarpSize = 32;

/// A lane offset that marks the lane as inactive (it issues no access).
inline constexpr std::int64_t kInactive = -1;

/// Bit mask of lanes, bit l = lane l.
using LaneMask = std::uint32_t;

enum class MemOp { kLoad, kStore };

/// "ld" or "st", the names Nsight Compute and PTX use.
std::string_view to_string(MemOp op);

/// Parses "ld"/"load" or "st"/"store"; throws AccessError otherwise.
MemOp parse_mem_op(std::string_view text);

/// The parameters of a shared-memory bank architecture. Every number the rule
/// uses lives here, so that another architecture (for example the 16-bank
/// layout of compute capability 1.x) is one more constant, not a code change.
struct BankArchitecture {
  std::string_view name;
  int banks;             ///< number of banks
  int bank_width_bytes;  ///< bytes one bank delivers per wavefront (one "word")
  /// 8- and 16-byte loads whose lanes pair up on equal addresses are served by
  /// lane groups twice as large (rule 4 in bank_model.cpp).
  bool load_pair_merge;

  /// Bytes one wavefront can move: every bank delivering one word.
  [[nodiscard]] constexpr int wavefront_bytes() const { return banks * bank_width_bytes; }
};

/// Hopper (sm_90: H100, H200), as measured with Nsight Compute on an H200.
inline constexpr BankArchitecture kHopper{"sm_90", 32, 4, true};

/// Bad input to the bank model: the message says what was wrong.
class AccessError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// One warp-wide shared-memory instruction: width, direction, and each lane's
/// byte offset from the start of shared memory (or kInactive).
struct WarpAccess {
  int width_bytes = 4;
  MemOp op = MemOp::kLoad;
  std::array<std::int64_t, kWarpSize> offsets{};

  /// Validated construction. Throws AccessError when the width is not 1, 2,
  /// 4, 8 or 16, when there are not exactly 32 offsets, or when an offset is
  /// negative (other than kInactive), misaligned, or beyond 4 GiB.
  static WarpAccess make(int width_bytes, MemOp op, std::span<const std::int64_t> offsets);

  [[nodiscard]] bool active(int lane) const { return offsets[lane] != kInactive; }
  [[nodiscard]] LaneMask active_mask() const;
};

/// Lane l at base + l * stride_elements * width_bytes, for the lanes in `lanes`.
WarpAccess strided_access(int width_bytes, MemOp op, std::int64_t stride_elements, std::int64_t base_bytes = 0,
                          LaneMask lanes = 0xffffffffu);

/// One 32-bit word that a bank must deliver, and the lanes that asked for it.
/// More than one lane on a word is a broadcast (loads) or a merged write
/// (stores): either way it costs nothing extra.
struct BankWord {
  std::uint32_t word = 0;  ///< byte offset / bank_width_bytes
  LaneMask lanes = 0;
};

/// A set of lanes served together (the whole warp for accesses up to 4 bytes,
/// half-warps for 8 bytes, quarter-warps for 16 bytes), and what it costs.
struct LaneGroup {
  LaneMask lanes = 0;   ///< the lanes of the group, active or not
  LaneMask active = 0;  ///< the group's active lanes
  int wavefronts = 0;   ///< max over banks of the distinct words requested
  /// bank_words[b]: the distinct words bank b must deliver, ordered by the
  /// lowest lane that asks for each; entry k is delivered in wavefront k.
  std::vector<std::vector<BankWord>> bank_words;

  /// The bank with the most distinct words (the lowest such bank).
  [[nodiscard]] int worst_bank() const;
};

/// The price of one warp instruction and the explanation behind it.
struct AccessCost {
  WarpAccess access;
  const BankArchitecture* arch = &kHopper;
  int wavefronts = 0;        ///< what the hardware needs
  int ideal_wavefronts = 0;  ///< what it would need with no conflict: one per non-empty group
  int bank_conflicts = 0;    ///< wavefronts - ideal_wavefronts, as Nsight Compute counts them
  /// 0, or the lane distance (1 or 2) of the load pair-merge that doubled the groups.
  int pair_merge_distance = 0;
  /// Passes the shared-memory pipeline makes, which is what a loop of these
  /// instructions takes in cycles: max(wavefronts, lane groups). Every lane
  /// group takes a pass even when none of its lanes is active, so a partial
  /// warp of 8- or 16-byte accesses can take more cycles than Nsight Compute
  /// counts wavefronts (LDS.64 with lanes 0-7 active: 1 wavefront, 2 cycles).
  /// Measured with the cycle probe: tests/data/gpu/h200_cycle_probe*.txt.
  int pipeline_passes = 0;
  std::vector<LaneGroup> groups;

  /// The worst bank's "n-way" conflict degree: max over groups of wavefronts.
  [[nodiscard]] int worst_group_wavefronts() const;
};

/// Prices one warp instruction. Pure and deterministic.
AccessCost price(const WarpAccess& access, const BankArchitecture& arch = kHopper);

/// The same access with every active lane moved to a word of its own in the
/// same bank (lane l by 128 l bytes): how an asynchronous copy's shared write
/// (LDGSTS) is priced, since it merges no lanes: 32 lanes copying to one word
/// cost 32 wavefronts, not 1 (measured on an H100 with Nsight Compute,
/// tests/data/gpu/h100_async_copy/).
WarpAccess lanes_unmerged(const WarpAccess& access);

/// Just the numbers of price(), without the explanation and without
/// allocating: the emulator calls this for every warp instruction it traces.
struct WavefrontCount {
  int wavefronts = 0;
  int ideal_wavefronts = 0;
};
WavefrontCount count_wavefronts(const WarpAccess& access, const BankArchitecture& arch = kHopper);

/// Lanes of a mask as text: "0-15", "0 2 4", "none".
std::string format_lanes(LaneMask lanes);

/// The bank map: one column per bank, one row per wavefront, each cell the
/// lowest lane served by that bank in that wavefront ('*' when lanes share the
/// word, '.' when the bank is idle). Followed by a legend.
std::string format_bank_map(const AccessCost& cost);

/// A few lines a student can read: the numbers, each lane group's cost and
/// worst bank, and the broadcasts.
std::string format_explanation(const AccessCost& cost);

std::ostream& operator<<(std::ostream& out, const WarpAccess& access);
/// Prints the explanation followed by the bank map.
std::ostream& operator<<(std::ostream& out, const AccessCost& cost);

}  // namespace banklab

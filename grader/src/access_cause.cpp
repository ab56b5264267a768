// Derives a conflict's cause from the lanes' addresses, so that a hint says
// what this instruction does (stride 4, stride 5 staged in runs, two
// half-warps) rather than what the skeleton's version of it did.
#include "access_cause.hpp"

#include <algorithm>
#include <bit>
#include <numeric>
#include <optional>
#include <sstream>
#include <vector>

namespace banklab::grader {

namespace {

struct Lane {
  int lane;
  std::int64_t word;  // the first 4-byte word the lane touches
};

std::string group_name(const LaneGroup& g) {
  const std::string lanes = format_lanes(g.lanes);
  if (lanes == "0-31") return "the warp";
  const int size = std::popcount(g.lanes);
  const char* kind = size == 16 ? "half-warp" : size == 8 ? "quarter-warp" : "lane group";
  return std::string("the ") + kind + " of lanes " + lanes;
}

// The stride, in words, of lanes that sit at base + stride * lane.
std::optional<std::int64_t> stride_of(const std::vector<Lane>& lanes) {
  if (lanes.size() < 2) return std::nullopt;
  const std::int64_t dl = lanes[1].lane - lanes[0].lane;
  const std::int64_t dw = lanes[1].word - lanes[0].word;
  if (dw % dl != 0) return std::nullopt;
  const std::int64_t stride = dw / dl;
  for (const Lane& l : lanes) {
    if (l.word - lanes[0].word != stride * (l.lane - lanes[0].lane)) return std::nullopt;
  }
  return stride;
}

// Runs of `run` consecutive words, each run `pitch` words after the last:
// lane l at base + (l / run) * pitch + l % run (over the group's lanes).
std::optional<std::pair<int, std::int64_t>> runs_of(const std::vector<Lane>& lanes) {
  if (lanes.size() < 4) return std::nullopt;
  for (int run : {2, 4, 8, 16}) {
    const int first = lanes[0].lane;
    const Lane* next_run = nullptr;
    for (const Lane& l : lanes) {
      if ((l.lane - first) / run == 1 && (l.lane - first) % run == 0) next_run = &l;
    }
    if (next_run == nullptr) continue;
    const std::int64_t pitch = next_run->word - lanes[0].word;
    bool fits = pitch != run;  // pitch == run is a plain stride 1
    for (const Lane& l : lanes) {
      const int i = l.lane - first;
      fits = fits && l.word == lanes[0].word + (i / run) * pitch + i % run;
    }
    if (fits) return std::make_pair(run, pitch);
  }
  return std::nullopt;
}

std::string worst_bank_text(const LaneGroup& g) {
  const int bank = g.worst_bank();
  const auto& words = g.bank_words[bank];
  std::ostringstream out;
  out << "bank " << bank << " must deliver " << words.size() << " different words (";
  for (std::size_t i = 0; i < words.size() && i < 4; ++i) {
    out << (i ? ", " : "") << "word " << words[i].word << " for lane " << std::countr_zero(words[i].lanes);
  }
  if (words.size() > 4) out << ", ...";
  out << "): words a multiple of 32 apart share a bank";
  return out.str();
}

// "a 4-way", "an 8-way".
std::string a_way(int degree) {
  const bool vowel = degree == 8 || degree == 11 || degree == 18 || (degree >= 80 && degree < 90);
  return std::string(vowel ? "an " : "a ") + std::to_string(degree) + "-way";
}

}  // namespace

std::string conflict_cause(const AccessCost& cost) {
  if (cost.wavefronts <= cost.ideal_wavefronts || cost.groups.empty()) return "";
  const LaneGroup* worst = &cost.groups[0];
  for (const LaneGroup& g : cost.groups) {
    if (g.wavefronts > worst->wavefronts) worst = &g;
  }
  const int width = cost.access.width_bytes;
  const int words_per_lane = width > 4 ? width / 4 : 1;
  std::vector<Lane> lanes;
  for (int l = 0; l < kWarpSize; ++l) {
    if ((worst->active >> l) & 1u) lanes.push_back({l, cost.access.offsets[l] / 4});
  }
  const std::string who = group_name(*worst);
  const int degree = worst->wavefronts;
  std::ostringstream out;
  if (const auto stride = stride_of(lanes); stride && *stride != 0) {
    const std::int64_t s = *stride < 0 ? -*stride : *stride;
    const std::int64_t g = std::gcd(s, std::int64_t{32});
    const std::int64_t base = lanes[0].word - *stride * lanes[0].lane;
    out << "in " << who << ", lane l is at word " << (base != 0 ? std::to_string(base) + " + " : "") << *stride
        << " l (stride " << *stride << " words";
    if (words_per_lane > 1) out << ", " << words_per_lane << " words per lane";
    out << "): gcd(" << s << ", 32) = " << g << ", so the lanes start in only " << 32 / g << " of the 32 banks";
    if (words_per_lane > 1) out << ", each lane covering " << words_per_lane;
    out << ": " << a_way(degree) << " conflict. ";
    if (words_per_lane > 1) {
      out << "A stride whose gcd with 32 is at most " << words_per_lane << " (" << words_per_lane
          << " words times an odd number) uses every bank once.";
    } else {
      out << "An odd stride (gcd 1) puts 32 lanes in 32 different banks.";
    }
    return out.str();
  }
  if (const auto runs = runs_of(lanes)) {
    const auto [run, pitch] = *runs;
    const std::int64_t span = lanes.back().word - lanes.front().word + 1;
    out << "in " << who << ", the lanes go in runs of " << run << " consecutive words, each run " << pitch
        << " words after the last, so the instruction spans " << span << " words";
    if (span > 32) out << ", more than the 32 banks";
    out << ": " << worst_bank_text(*worst) << ", " << a_way(degree) << " conflict. "
        << "Lay the data out so that the lanes of one instruction fall in different banks (runs that skip no "
           "word, or one odd stride).";
    return out.str();
  }
  // Two half-warps with one stride each (a 16-wide block, say).
  if (width <= 4 && lanes.size() == kWarpSize) {
    const std::vector<Lane> low(lanes.begin(), lanes.begin() + 16), high(lanes.begin() + 16, lanes.end());
    const auto a = stride_of(low), b = stride_of(high);
    if (a && b && *a == *b && *a != 0) {
      const std::int64_t s = *a < 0 ? -*a : *a;
      const std::int64_t g = std::gcd(s, std::int64_t{32});
      int banks_used = 0;
      for (const auto& words : worst->bank_words) banks_used += words.empty() ? 0 : 1;
      out << "lanes 0-15 are " << *a << " words apart from word " << low[0].word << ", lanes 16-31 the same from word "
          << high[0].word << ": gcd(" << s << ", 32) = " << g << " leaves each half "
          << std::min<std::int64_t>(16, 32 / g) << " banks, and the two halves together use " << banks_used
          << " of the 32 banks: " << a_way(degree) << " conflict. Work out the banks of both halves together.";
      return out.str();
    }
  }
  out << "in " << who << ", " << worst_bank_text(*worst) << ", " << a_way(degree) << " conflict.";
  return out.str();
}

}  // namespace banklab::grader

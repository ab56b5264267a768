// JSON rendering of AccessCost (see bank_json.hpp for the schema).
#include "banklab/bank_json.hpp"

namespace banklab {

nlohmann::json lanes_json(LaneMask lanes) {
  nlohmann::json list = nlohmann::json::array();
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (lanes >> lane & 1u) list.push_back(lane);
  }
  return list;
}

nlohmann::json to_json(const AccessCost& cost) {
  nlohmann::json offsets = nlohmann::json::array();
  for (int lane = 0; lane < kWarpSize; ++lane) {
    offsets.push_back(cost.access.active(lane) ? nlohmann::json(cost.access.offsets[lane]) : nlohmann::json());
  }
  nlohmann::json groups = nlohmann::json::array();
  nlohmann::json map = nlohmann::json::array();
  for (const LaneGroup& group : cost.groups) {
    nlohmann::json banks = nlohmann::json::array();
    for (int b = 0; b < static_cast<int>(group.bank_words.size()); ++b) {
      if (group.bank_words[b].empty()) continue;
      nlohmann::json words = nlohmann::json::array();
      for (const BankWord& w : group.bank_words[b]) words.push_back({{"word", w.word}, {"lanes", lanes_json(w.lanes)}});
      banks.push_back({{"bank", b}, {"words", words}});
    }
    groups.push_back({{"lanes", lanes_json(group.lanes)},
                      {"active_lanes", lanes_json(group.active)},
                      {"wavefronts", group.wavefronts},
                      {"worst_bank", group.worst_bank()},
                      {"banks", banks}});
    for (int k = 0; k < group.wavefronts; ++k) {
      nlohmann::json row = nlohmann::json::array();
      for (const auto& words : group.bank_words) {
        row.push_back(k < static_cast<int>(words.size()) ? lanes_json(words[k].lanes) : nlohmann::json());
      }
      map.push_back(row);
    }
  }
  return {{"width_bytes", cost.access.width_bytes},
          {"op", to_string(cost.access.op)},
          {"offsets", offsets},
          {"wavefronts", cost.wavefronts},
          {"ideal_wavefronts", cost.ideal_wavefronts},
          {"bank_conflicts", cost.bank_conflicts},
          {"pair_merge_distance", cost.pair_merge_distance},
          {"pipeline_passes", cost.pipeline_passes},
          {"architecture", cost.arch->name},
          {"groups", groups},
          {"map", map}};
}

}  // namespace banklab

// JSON form of the bank model's answer, for banksim --format json and the
// grader's machine-readable reports.
#pragma once

#include <nlohmann/json.hpp>

#include "banklab/bank_model.hpp"

namespace banklab {

/// {"width_bytes", "op", "offsets" (null = inactive), "wavefronts",
///  "ideal_wavefronts", "bank_conflicts", "pair_merge_distance",
///  "groups": [{"lanes", "active_lanes", "wavefronts", "worst_bank",
///              "banks": [{"bank", "words": [{"word", "lanes"}]}]}],
///  "map": [ one row per wavefront: 32 cells, each null or the lanes served ]}
nlohmann::json to_json(const AccessCost& cost);

/// Lane numbers of a mask, ascending.
nlohmann::json lanes_json(LaneMask lanes);

}  // namespace banklab

// The bank model for the browser (compiled with Emscripten into
// bank_model.js): the explorer page calls bank_explore with an access and
// shows what it returns. Nothing here prices anything: it is the kit's bank
// model (common/bank_model, the same sources banksim links), its explanation,
// its bank map and its SVG, wrapped as one JSON string.
#include <string>

#include "banklab/access_csv.hpp"
#include "banklab/bank_model.hpp"
#include "banklab/bank_svg.hpp"

namespace {

std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out += ' ';
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

std::string lanes_json(banklab::LaneMask mask) {
  std::string out = "[";
  for (int lane = 0; lane < banklab::kWarpSize; ++lane) {
    if ((mask >> lane & 1u) == 0) continue;
    out += (out.size() > 1 ? "," : "") + std::to_string(lane);
  }
  return out + "]";
}

std::string g_answer;  // what the last call returned (the page copies it at once)

}  // namespace

extern "C" {

/// Prices one warp instruction: `width` bytes per lane, a load (store = 0) or
/// a store, and 32 lane byte offsets as text ("-" for an inactive lane).
/// Returns JSON: {"ok": true, "wavefronts", "ideal", "conflicts", "passes",
/// "merge", "groups": [{"lanes", "active", "wavefronts"}], "explanation",
/// "bank_map", "svg", "banks": [bank of each active lane's first word, or -1]}
/// or {"ok": false, "error": "what is wrong"}.
const char* bank_explore(int width, int store, const char* offsets_text) {
  try {
    const auto offsets = banklab::parse_lane_offsets(offsets_text);
    const banklab::WarpAccess access =
        banklab::WarpAccess::make(width, store ? banklab::MemOp::kStore : banklab::MemOp::kLoad, offsets);
    const banklab::AccessCost cost = banklab::price(access);
    std::string groups = "[";
    for (const auto& g : cost.groups) {
      groups += std::string(groups.size() > 1 ? "," : "") + "{\"lanes\":" + lanes_json(g.lanes) +
                ",\"active\":" + lanes_json(g.active) + ",\"wavefronts\":" + std::to_string(g.wavefronts) + "}";
    }
    groups += "]";
    std::string banks = "[";
    for (int lane = 0; lane < banklab::kWarpSize; ++lane) {
      const long long bank =
          access.active(lane) ? access.offsets[lane] / cost.arch->bank_width_bytes % cost.arch->banks : -1;
      banks += (lane ? "," : "") + std::to_string(bank);
    }
    banks += "]";
    g_answer = "{\"ok\":true,\"wavefronts\":" + std::to_string(cost.wavefronts) +
               ",\"ideal\":" + std::to_string(cost.ideal_wavefronts) +
               ",\"conflicts\":" + std::to_string(cost.bank_conflicts) +
               ",\"passes\":" + std::to_string(cost.pipeline_passes) +
               ",\"merge\":" + std::to_string(cost.pair_merge_distance) + ",\"groups\":" + groups +
               ",\"banks\":" + banks + ",\"explanation\":" + quoted(banklab::format_explanation(cost)) +
               ",\"bank_map\":" + quoted(banklab::format_bank_map(cost)) +
               ",\"svg\":" + quoted(banklab::format_svg(cost, "bank map")) + "}";
  } catch (const std::exception& e) {
    g_answer = std::string("{\"ok\":false,\"error\":") + quoted(e.what()) + "}";
  }
  return g_answer.c_str();
}

/// The bank that serves byte `offset` (the model's architecture: 4-byte
/// words, 32 banks), for drawing tiles.
int bank_of_byte(double offset) {
  const auto& arch = banklab::kHopper;
  return static_cast<int>(static_cast<long long>(offset) / arch.bank_width_bytes % arch.banks);
}

}  // extern "C"

// JSON form of LaunchReport (schema in emulator_json.hpp).
#include "banklab/emulator_json.hpp"

namespace banklab::emu {

namespace {

const char* atomic_text(AccessPattern::Atomic atomic) {
  return atomic == AccessPattern::Atomic::kCas ? "cas" : "cas-loop";
}

nlohmann::json report_json(const LaunchReport& report, bool priced) {
  nlohmann::json findings = nlohmann::json::array();
  for (const Finding& f : report.findings) {
    findings.push_back({{"kind", to_string(f.kind)},
                        {"message", f.message},
                        {"details", f.details},
                        {"file", f.where.file},
                        {"line", f.where.line},
                        {"other_file", f.other.file},
                        {"other_line", f.other.line},
                        {"count", f.count}});
  }
  nlohmann::json lines = nlohmann::json::array();
  for (const LineStats& l : report.lines) {
    nlohmann::json line = {{"file", l.where.file}, {"line", l.where.line}};
    if (priced) {
      line.update({{"loads", l.loads},
                   {"stores", l.stores},
                   {"warp_instructions", l.warp_instructions},
                   {"wavefronts", l.wavefronts},
                   {"ideal_wavefronts", l.ideal_wavefronts},
                   {"store_wavefronts", l.store_wavefronts},
                   {"store_instructions", l.store_instructions},
                   {"worst_wavefronts", l.worst_wavefronts},
                   {"worst_context", l.worst_context},
                   {"worst_access", access_to_json(l.worst_access)}});
    } else {
      nlohmann::json patterns = nlohmann::json::array();
      for (const AccessPattern& p : l.patterns) {
        nlohmann::json one = {{"width", p.width_bytes},
                              {"op", p.store ? "st" : "ld"},
                              {"offsets", p.offsets},
                              {"shift", p.shift},
                              {"count", p.count},
                              {"first", p.first_context}};
        if (p.atomic != AccessPattern::Atomic::kNone) one["atomic"] = atomic_text(p.atomic);
        patterns.push_back(std::move(one));
      }
      line["patterns"] = std::move(patterns);
      line["unrecorded_loads"] = l.unrecorded_loads;
      line["unrecorded_stores"] = l.unrecorded_stores;
    }
    lines.push_back(std::move(line));
  }
  return {{"kernel", report.kernel},
          {"completed", report.completed},
          {"shared_bytes", report.shared_bytes},
          {"dynamic_shared_bytes", report.dynamic_shared_bytes},
          {"shared_accesses", report.shared_accesses},
          {"untraced_accesses", report.untraced_accesses},
          {"threads_run", report.threads_run},
          {"blocks_run", report.blocks_run},
          {"blocks_traced", report.blocks_traced},
          {"findings", findings},
          {"lines", lines}};
}

}  // namespace

nlohmann::json to_json(const LaunchReport& report) { return report_json(report, false); }

nlohmann::json to_priced_json(const LaunchReport& report) { return report_json(report, true); }

nlohmann::json access_to_json(const WarpAccess& access) {
  nlohmann::json offsets = nlohmann::json::array();
  for (std::int64_t o : access.offsets) offsets.push_back(o);
  return {{"width_bytes", access.width_bytes}, {"op", banklab::to_string(access.op)}, {"offsets", offsets}};
}

WarpAccess access_from_json(const nlohmann::json& json) {
  const auto offsets = json.at("offsets").get<std::vector<std::int64_t>>();
  return WarpAccess::make(json.at("width_bytes").get<int>(), parse_mem_op(json.at("op").get<std::string>()), offsets);
}

}  // namespace banklab::emu

// JSON form of LaunchReport (schema in emulator_json.hpp).
#include "banklab/emulator_json.hpp"

namespace banklab::emu {

nlohmann::json to_json(const LaunchReport& report) {
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
    nlohmann::json offsets = nlohmann::json::array();
    for (std::int64_t o : l.worst_access.offsets) offsets.push_back(o);
    lines.push_back({{"file", l.where.file},
                     {"line", l.where.line},
                     {"loads", l.loads},
                     {"stores", l.stores},
                     {"warp_instructions", l.warp_instructions},
                     {"wavefronts", l.wavefronts},
                     {"ideal_wavefronts", l.ideal_wavefronts},
                     {"store_wavefronts", l.store_wavefronts},
                     {"store_instructions", l.store_instructions},
                     {"worst_wavefronts", l.worst_wavefronts},
                     {"worst_context", l.worst_context},
                     {"worst_access",
                      {{"width_bytes", l.worst_access.width_bytes},
                       {"op", banklab::to_string(l.worst_access.op)},
                       {"offsets", offsets}}}});
  }
  return {{"kernel", report.kernel},
          {"completed", report.completed},
          {"shared_bytes", report.shared_bytes},
          {"dynamic_shared_bytes", report.dynamic_shared_bytes},
          {"shared_accesses", report.shared_accesses},
          {"untraced_accesses", report.untraced_accesses},
          {"threads_run", report.threads_run},
          {"findings", findings},
          {"lines", lines}};
}

WarpAccess access_from_json(const nlohmann::json& json) {
  const auto offsets = json.at("offsets").get<std::vector<std::int64_t>>();
  return WarpAccess::make(json.at("width_bytes").get<int>(), parse_mem_op(json.at("op").get<std::string>()), offsets);
}

}  // namespace banklab::emu

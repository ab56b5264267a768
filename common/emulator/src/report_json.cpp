// JSON form of LaunchReport (schema in emulator_json.hpp).
#include "banklab/emulator_json.hpp"

namespace banklab::emu {

namespace {

const char* atomic_text(AccessPattern::Atomic atomic) {
  return atomic == AccessPattern::Atomic::kCas         ? "cas"
         : atomic == AccessPattern::Atomic::kAsyncCopy ? "async-copy"
                                                       : "cas-loop";
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
      if (!l.joined_patterns.empty()) {
        nlohmann::json joined = nlohmann::json::array();
        for (const AccessPattern& p : l.joined_patterns) {
          joined.push_back({{"width", p.width_bytes}, {"op", p.store ? "st" : "ld"}, {"offsets", p.offsets},
                            {"shift", p.shift}, {"count", p.count}, {"first", p.first_context}});
        }
        line["joined_patterns"] = std::move(joined);
      }
      line["unrecorded_loads"] = l.unrecorded_loads;
      line["unrecorded_stores"] = l.unrecorded_stores;
    }
    lines.push_back(std::move(line));
  }
  nlohmann::json out = {{"kernel", report.kernel},
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
  // A runner's report: nvcc's code priced by the emulator (the grader prices
  // `lines` itself and leaves this as it is).
  if (!priced && report.priced_as_compiled) out["as_compiled"] = compiled_to_json(report);
  return out;
}

}  // namespace

nlohmann::json compiled_to_json(const LaunchReport& report) {
  nlohmann::json lines = nlohmann::json::array();
  CompiledLineStats total;
  const auto counts = [](const CompiledLineStats& l) {
    return nlohmann::json{{"load_instructions", l.load_instructions},
                          {"load_wavefronts", l.load_wavefronts},
                          {"store_instructions", l.store_instructions},
                          {"store_wavefronts", l.store_wavefronts},
                          {"atomic_instructions", l.atomic_instructions},
                          {"atomic_wavefronts", l.atomic_wavefronts},
                          {"ideal_wavefronts", l.ideal_wavefronts},
                          {"excess_wavefronts", l.excess_wavefronts()}};
  };
  for (const CompiledLineStats& l : report.compiled_lines) {
    nlohmann::json line = counts(l);
    line["file"] = l.where.file;
    line["line"] = l.where.line;
    line["nvcc_widest_bytes"] = l.widest;
    line["source_view_instructions"] = {{"merged", l.merged}, {"removed", l.removed}, {"hoisted", l.hoisted}, {"split", l.split}, {"reread", l.reread}};
    // Nsight Compute's kernel-level smsp__sass_inst_executed_op_shared_* leave these out.
    line["predicated_off_warps"] = {{"loads", l.predicated_load_warps},
                                    {"stores", l.predicated_warps - l.predicated_load_warps}};
    lines.push_back(line);
    total.add(l);
  }
  return {{"lines", lines}, {"total", counts(total)}};
}

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

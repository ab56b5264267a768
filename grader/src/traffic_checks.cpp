// Shared-memory traffic against a task's minimum (traffic_checks.hpp).
#include "traffic_checks.hpp"

#include <cstdlib>
#include <set>
#include <sstream>
#include <utility>

namespace banklab::grader {

SharedTraffic shared_traffic(const nlohmann::json& report) {
  SharedTraffic t;
  if (!report.contains("lines")) return t;
  for (const auto& line : report["lines"]) {
    const long long width = line["worst_access"]["width_bytes"].get<long long>();
    t.store_bytes += line["stores"].get<long long>() * width;
    t.load_bytes += line["loads"].get<long long>() * width;
  }
  // Accesses outside the kernel's __shared__ variables are not in `lines`;
  // they are the findings check's to grade, and count as traffic here
  // ("shared write of 4 bytes outside ...", once per lane).
  for (const auto& f : report["findings"]) {
    if (f["kind"].get<std::string>() != "out-of-bounds shared access") continue;
    const std::string message = f["message"].get<std::string>();
    const bool write = message.rfind("shared write of ", 0) == 0, read = message.rfind("shared read of ", 0) == 0;
    if (!write && !read) continue;
    const long long bytes = std::atoll(message.c_str() + (write ? 16 : 15));
    (write ? t.store_bytes : t.load_bytes) += bytes * f["count"].get<long long>();
  }
  return t;
}

bool loads_only_own_stores(const nlohmann::json& report) {
  if (!report.contains("lines")) return false;
  using Key = std::pair<std::string, std::vector<std::int64_t>>;  // warp, each lane's offset
  std::set<Key> stored;
  std::vector<Key> loaded;
  for (const auto& line : report["lines"]) {
    if (!line.contains("instances")) continue;
    for (const auto& i : line["instances"]) {
      if (i["count"].get<std::uint64_t>() == 0) continue;
      Key key{i["first"].get<std::string>(), i["offsets"].get<std::vector<std::int64_t>>()};
      if (i["op"] == "st") {
        stored.insert(std::move(key));
      } else {
        loaded.push_back(std::move(key));
      }
    }
  }
  if (loaded.empty()) return false;
  for (const Key& load : loaded) {
    if (stored.count(load) == 0) return false;
  }
  return true;
}

std::string traffic_shortfall(const std::vector<TrafficNeed>& runs, TrafficKind kind, const std::string& kernel,
                              const std::string& element, int element_bytes, const std::string& rule) {
  for (const TrafficNeed& run : runs) {
    // A run that stopped early is graded by correctness and findings; what it
    // moved before the stop says nothing about the kernel's design.
    if (!run.report.contains("completed") || !run.report["completed"].get<bool>()) continue;
    const SharedTraffic t = shared_traffic(run.report);
    // A large grid is traced on a sample of its blocks (the seed picks
    // them): the need shrinks with the sample, halved again because a
    // sample may fall on partial edge tiles. A token access beside a
    // global copy moves a thirty-second of the need or less, far below.
    const long long run_blocks = run.report.value("blocks_run", 0LL), traced = run.report.value("blocks_traced", 0LL);
    const bool sampled = traced > 0 && traced < run_blocks;
    const auto scaled = [&](long long bytes) { return sampled ? bytes * traced / run_blocks / 2 : bytes; };
    const long long store_need = scaled(run.store_bytes);
    const long long load_need = scaled(kind == TrafficKind::kThrough ? run.load_bytes / run.passes : run.load_bytes);
    const bool stores = kind != TrafficKind::kLoads && t.store_bytes < store_need;
    const bool loads = !stores && kind != TrafficKind::kStores && t.load_bytes < load_need;
    if (!stores && !loads && run.exchange && kind != TrafficKind::kStores && run.outputs >= 32 &&
        loads_only_own_stores(run.report)) {
      std::ostringstream out;
      out << "on " << run.label << ": " << kernel
          << "'s shared loads read back only what the same threads stored (each lane the words it wrote itself, "
             "in the same warp): nothing moves between threads through shared memory, so the "
          << run.outputs << " output " << element << (run.outputs == 1 ? "" : "s")
          << " were not transposed in it: " << rule;
      return out.str();
    }
    if (!stores && !loads) continue;
    const long long have = stores ? t.store_bytes : t.load_bytes, need = stores ? store_need : load_need;
    const auto count = [&](long long n) { return std::to_string(n) + " " + element + (n == 1 ? "" : "s"); };
    std::ostringstream out;
    out << "on " << run.label << ": " << kernel << (stores ? " stored " : " loaded ") << count(have / element_bytes)
        << (have % element_bytes ? " (and some bytes)" : "") << (stores ? " in" : " from") << " shared memory for "
        << run.outputs << " output " << element << (run.outputs == 1 ? "" : "s");
    if (sampled) out << " (" << traced << " of its " << run_blocks << " blocks traced)";
    if (kind == TrafficKind::kLoads && run.passes > 1) out << " and " << run.passes << " passes";
    out << ", at least " << need / element_bytes << " expected: " << rule;
    return out.str();
  }
  return "";
}

Outcome with_traffic(const Outcome& outcome, const std::string& shortfall) {
  if (shortfall.empty()) return outcome;
  if (outcome.status == Status::kSkip) return outcome;
  return Outcome::fail(outcome.reason.empty() ? shortfall : shortfall + "\n" + outcome.reason);
}

}  // namespace banklab::grader

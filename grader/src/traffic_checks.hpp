// Shared-memory traffic of a run: how many bytes a kernel stored in and
// loaded from shared memory (the emulator report's per-line loads and stores
// at each line's width), against the least a task allows per output element,
// so that a token shared access beside a global-to-global copy cannot pass
// for a kernel whose data goes through shared memory.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "checks.hpp"

namespace banklab::grader {

/// Bytes stored and loaded, summed over a report's shared-memory lines.
struct SharedTraffic {
  long long store_bytes = 0;
  long long load_bytes = 0;
};

/// A report's traffic: each line's per-lane stores and loads times the width
/// of its accesses (the worst access's width; a line holds one access width
/// in the lab kernels).
SharedTraffic shared_traffic(const nlohmann::json& report);

/// What one run must move through shared memory at least.
struct TrafficNeed {
  std::string label;          ///< the run: "1024x2048", "3 tiles x 3 passes"
  nlohmann::json report;      ///< its emulator report
  long long outputs = 0;      ///< output elements of the run
  long long store_bytes = 0;  ///< least bytes stored in shared memory
  long long load_bytes = 0;   ///< least bytes loaded, every pass counted
  int passes = 1;             ///< read passes the loads count (1: none asked)
  /// The task moves data between threads through shared memory (a
  /// transpose): loads that only read back what the same lanes stored
  /// do not count as going through the tile.
  bool exchange = false;
};

/// True when a report has shared loads and each load pattern's first
/// instance reads exactly the bytes that a store pattern's first instance,
/// in the same warp and lanes, wrote: every thread reads back only its own
/// words (a token store and load beside a copy from global to global),
/// and nothing moves between threads through shared memory.
bool loads_only_own_stores(const nlohmann::json& report);

/// What to look at: stores, loads (every pass), or whether the data went
/// through shared memory at all (stores, and loads of one pass).
enum class TrafficKind { kStores, kLoads, kThrough };

/// "" when every run reaches its minimum of that kind; otherwise the first
/// run that does not, in words for the student: "on 1024x2048:
/// transpose_swizzled stored 4096 floats in shared memory for 2097152 output
/// floats: <rule>". `element` names the unit ("float", 4 bytes) and `rule`
/// says what the task asks ("each element goes through the tile: stored
/// once, read once"). For a run with `exchange`, loads (kLoads, kThrough)
/// that only read back each thread's own stores fall short too, on a run of
/// a warp's worth of outputs or more (a 1x1 transpose has nothing to move).
std::string traffic_shortfall(const std::vector<TrafficNeed>& runs, TrafficKind kind, const std::string& kernel,
                              const std::string& element, int element_bytes, const std::string& rule);

/// An outcome made stricter by a traffic shortfall: a pass becomes a fail
/// with the shortfall first; a fail gets the shortfall in front of its reason.
Outcome with_traffic(const Outcome& outcome, const std::string& shortfall);

}  // namespace banklab::grader

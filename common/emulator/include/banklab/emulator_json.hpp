// JSON form of a launch report, for runners that hand reports to the grader.
#pragma once

#include <nlohmann/json.hpp>

#include "banklab/emulator.hpp"

namespace banklab::emu {

/// The report as a runner hands it to the grader: what ran, never what it
/// costs (the grader prices the patterns with the bank model itself).
/// {"kernel", "completed", "shared_bytes", "dynamic_shared_bytes", "shared_accesses",
///  "untraced_accesses", "threads_run", "blocks_run", "blocks_traced",
///  "findings": [{"kind", "message", "details", "file", "line", "other_file",
///                "other_line", "count"}],
///  "lines": [{"file", "line",
///             "patterns": [{"width", "op": "ld" | "st", "atomic": "cas" | "cas-loop" (absent: none),
///                           "offsets": [32 lane offsets after the shift, -1 inactive],
///                           "shift", "count", "first": "block (0,0,0) warp 3"}],
///             "unrecorded_loads", "unrecorded_stores"}]}
/// (unrecorded_*: warp instructions past kMaxPatternsPerLine distinct patterns),
/// and where the launch was priced as nvcc compiled it (LaunchOptions::as_compiled
/// or nvcc_code), "as_compiled": compiled_to_json(report).
nlohmann::json to_json(const LaunchReport& report);

/// The launch priced as nvcc compiled it (LaunchReport::compiled_lines):
/// {"lines": [{"file", "line", "load_instructions", "load_wavefronts",
///             "store_instructions", "store_wavefronts", "atomic_instructions",
///             "atomic_wavefronts", "ideal_wavefronts", "excess_wavefronts",
///             "nvcc_widest_bytes", "source_view_instructions": {"merged",
///             "removed", "hoisted", "split", "reread"}, "predicated_off_warps": {"loads", "stores"}}],
///  "total": {the same counts summed}}.
nlohmann::json compiled_to_json(const LaunchReport& report);

/// to_json with the emulator's own prices of each line added ("loads",
/// "stores", "warp_instructions", "wavefronts", "ideal_wavefronts",
/// "store_wavefronts", "store_instructions", "worst_wavefronts",
/// "worst_context", "worst_access": {"width_bytes", "op", "offsets"}) and the
/// patterns left out: `banklab run --json`, where the program is the user's own.
nlohmann::json to_priced_json(const LaunchReport& report);

/// {"width_bytes", "op", "offsets"} of an access, and back.
nlohmann::json access_to_json(const WarpAccess& access);
WarpAccess access_from_json(const nlohmann::json& json);

}  // namespace banklab::emu

// JSON form of a launch report, for runners that hand reports to the grader.
#pragma once

#include <nlohmann/json.hpp>

#include "banklab/emulator.hpp"

namespace banklab::emu {

/// {"kernel", "completed", "shared_bytes", "dynamic_shared_bytes", "shared_accesses", "threads_run",
///  "findings": [{"kind", "message", "details", "file", "line", "other_file",
///                "other_line", "count"}],
///  "lines": [{"file", "line", "loads", "stores", "warp_instructions",
///             "wavefronts", "ideal_wavefronts", "worst_wavefronts",
///             "worst_context", "worst_access": {"width_bytes", "op", "offsets"}}]}
nlohmann::json to_json(const LaunchReport& report);

/// The worst access of a line back from its JSON ("worst_access").
WarpAccess access_from_json(const nlohmann::json& json);

}  // namespace banklab::emu

// Reading warp accesses from text: lane offset lists and the calibration CSV
// format (name,width_bytes,op,lane_byte_offsets[,wavefronts,bank_conflicts]).
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "banklab/bank_model.hpp"

namespace banklab {

/// Parses whitespace-separated lane offsets; "-" or "-1" marks an inactive
/// lane. Throws AccessError naming the bad token. Does not check the count:
/// WarpAccess::make does.
std::vector<std::int64_t> parse_lane_offsets(std::string_view text);

/// One row of an access CSV file.
struct AccessRow {
  int line = 0;  ///< 1-based line number in the file
  std::string name;
  WarpAccess access;
  std::optional<int> wavefronts;      ///< measured, when the file has the column
  std::optional<int> bank_conflicts;  ///< measured, when the file has the column
};

/// Reads rows `name,width_bytes,op,lane_byte_offsets[,wavefronts,bank_conflicts,...]`
/// after a header line; further columns are ignored, blank lines skipped.
/// Throws AccessError "SOURCE:LINE: what is wrong" on the first bad row.
std::vector<AccessRow> read_access_csv(std::istream& in, std::string_view source);

}  // namespace banklab

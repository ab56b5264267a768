// Parsing lane offset lists and access CSV files, with errors that name the
// line and the field.
#include "banklab/access_csv.hpp"

#include <charconv>
#include <istream>
#include <sstream>

namespace banklab {

namespace {

std::string_view trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(" \t\r\n");
  return text.substr(first, last - first + 1);
}

int parse_int(std::string_view text, std::string_view what) {
  text = trim(text);
  int value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{} || end != text.data() + text.size()) {
    throw AccessError(std::string(what) + " must be an integer, got '" + std::string(text) + "'");
  }
  return value;
}

std::vector<std::string_view> split_fields(std::string_view line) {
  std::vector<std::string_view> fields;
  std::size_t start = 0;
  while (true) {
    const auto comma = line.find(',', start);
    fields.push_back(line.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
    if (comma == std::string_view::npos) return fields;
    start = comma + 1;
  }
}

}  // namespace

std::vector<std::int64_t> parse_lane_offsets(std::string_view text) {
  std::vector<std::int64_t> offsets;
  std::size_t pos = 0;
  while (true) {
    pos = text.find_first_not_of(" \t\r\n,", pos);
    if (pos == std::string_view::npos) return offsets;
    const auto end = std::min(text.find_first_of(" \t\r\n,", pos), text.size());
    const std::string_view token = text.substr(pos, end - pos);
    if (token == "-") {
      offsets.push_back(kInactive);
    } else {
      std::int64_t value = 0;
      const auto [stop, error] = std::from_chars(token.data(), token.data() + token.size(), value);
      if (error != std::errc{} || stop != token.data() + token.size() || (value < 0 && value != kInactive)) {
        throw AccessError("offset " + std::to_string(offsets.size()) + " is '" + std::string(token) +
                          "': expected a byte offset >= 0, or - (or -1) for an inactive lane");
      }
      offsets.push_back(value);
    }
    pos = end;
  }
}

std::vector<AccessRow> read_access_csv(std::istream& in, std::string_view source) {
  std::vector<AccessRow> rows;
  std::string line;
  int number = 0;
  bool header_seen = false;
  while (std::getline(in, line)) {
    ++number;
    if (trim(line).empty()) continue;
    if (!header_seen) {
      header_seen = true;
      if (trim(line).starts_with("name,")) continue;  // the header; a file without one starts with data
    }
    try {
      const auto fields = split_fields(line);
      if (fields.size() < 4) {
        throw AccessError("expected at least 4 comma-separated fields (name,width_bytes,op,lane_byte_offsets), got " +
                          std::to_string(fields.size()));
      }
      AccessRow row;
      row.line = number;
      row.name = std::string(trim(fields[0]));
      const int width = parse_int(fields[1], "width_bytes");
      const MemOp op = parse_mem_op(trim(fields[2]));
      row.access = WarpAccess::make(width, op, parse_lane_offsets(fields[3]));
      if (fields.size() > 4 && !trim(fields[4]).empty()) row.wavefronts = parse_int(fields[4], "wavefronts");
      if (fields.size() > 5 && !trim(fields[5]).empty()) row.bank_conflicts = parse_int(fields[5], "bank_conflicts");
      rows.push_back(std::move(row));
    } catch (const AccessError& error) {
      throw AccessError(std::string(source) + ':' + std::to_string(number) + ": " + error.what());
    }
  }
  return rows;
}

}  // namespace banklab

// Grade reports: text in the style of xv6's gradelib, JSON, Gradescope's
// results.json and JUnit XML.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "rubric.hpp"

namespace banklab::grader {

std::string format_text(const GradeResult& result, bool verbose);
nlohmann::json format_json(const GradeResult& result);
/// One results.json for all the graded labs.
nlohmann::json format_gradescope(const std::vector<GradeResult>& results);
std::string format_junit(const std::vector<GradeResult>& results);

/// `value` as JSON text (`indent` as in nlohmann::json::dump). Text that is
/// not valid UTF-8 (a compiler echoing a binary file, a kernel printing raw
/// bytes, an odd file name) has each bad byte replaced by U+FFFD instead of
/// throwing: a report is always written, and always parses.
std::string json_text(const nlohmann::json& value, int indent = 2);

}  // namespace banklab::grader

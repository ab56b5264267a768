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

}  // namespace banklab::grader

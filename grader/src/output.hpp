// Grade reports: text in the style of xv6's gradelib, JSON, Gradescope's
// results.json and JUnit XML.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "rubric.hpp"

namespace banklab::grader {

std::string format_text(const GradeResult& result, bool verbose);
nlohmann::json format_json(const GradeResult& result);
/// One lab's report as above; several: {"score", "max_score", "skipped_points", "labs": [...]}.
nlohmann::json format_json(const std::vector<GradeResult>& results);
/// One results.json for all the graded labs.
nlohmann::json format_gradescope(const std::vector<GradeResult>& results);
/// JUnit XML as tests/grader/junit.xsd describes it (Jenkins' and Ant's
/// common form): a testsuite per lab, a testcase per check; times decimal.
std::string format_junit(const std::vector<GradeResult>& results);

/// PrairieLearn's external-grader results.json: score in [0, 1], a test per
/// check that ran (points, message) and the bank map of a failed check's
/// access as an SVG image (data URL); a file that does not build is not
/// gradable, with the compiler's message.
nlohmann::json format_prairielearn(const std::vector<GradeResult>& results);
/// Autolab's autograder output: the text report, then the last line
/// {"scores": {"labN PART": points, ...}, "scoreboard": [score, max]}.
std::string format_autolab(const std::vector<GradeResult>& results);

/// The result of a lab whose file did not build or was refused before the
/// build: no checks ran, the score is 0 of the points of `backend`, and
/// every format shows `message` (the reason and the compiler's output).
GradeResult unbuilt_result(const Rubric& rubric, const std::string& implementation, const std::string& backend,
                           const std::string& backend_reason, std::uint64_t seed, const std::string& message);

/// `value` as JSON text (`indent` as in nlohmann::json::dump). Text that is
/// not valid UTF-8 (a compiler echoing a binary file, a kernel printing raw
/// bytes, an odd file name) has each bad byte replaced by U+FFFD instead of
/// throwing: a report is always written, and always parses.
std::string json_text(const nlohmann::json& value, int indent = 2);

}  // namespace banklab::grader

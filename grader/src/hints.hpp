// Hints a student asks for (grader --lab N --hint [K]): for the first failing
// check, step K of a short ladder that goes from a nudge towards the method,
// never printing the task's code. Step 1 is where to look, the last is the
// most direct; the check's own output keeps the numbers and the bank map.
#pragma once

#include <string>
#include <vector>

#include "rubric.hpp"

namespace banklab::grader {

/// The steps for a check of stage `lab` (named as in --list), most gentle first.
std::vector<std::string> hint_steps(int lab, const std::string& check_name);

/// What --hint K prints after a report: the first failing check, its step K
/// (the last step when K is past it), and how to get the next one.
std::string format_hint(const GradeResult& result, int level);

}  // namespace banklab::grader

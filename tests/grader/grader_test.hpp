// What the grader's test suites share: running the grader, grading a
// submission into its JSON report, and reading checks out of a report.
#pragma once

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>

#include "run_command.hpp"

namespace banklab::test {

/// The grader's exit status, stdout and stderr.
struct GraderRun {
  int status = -1;
  std::string out;
  std::string err;
};

inline const std::string& source_dir() {
  static const std::string dir = BANKLAB_SOURCE_DIR;
  return dir;
}

/// Runs the grader with `args` (a shell fragment).
inline GraderRun run_grader(const std::string& args) {
  std::filesystem::create_directories(BANKLAB_TEST_TMP);  // whichever test case of a suite runs first
  const std::string err_file = std::string(BANKLAB_TEST_TMP) + "/grader_stderr.txt";
  const auto r = run_command(std::string(GRADER_PATH) + " " + args + " 2>" + err_file);
  std::ifstream err(err_file);
  std::ostringstream text;
  text << err.rdbuf();
  return {r.status, r.out, text.str()};
}

/// "--impl <src>/tests/grader/labNN/KIND/FILE".
inline std::string test_submission(int lab, const std::string& kind, const std::string& file) {
  return "--impl " + source_dir() + "/tests/grader/lab0" + std::to_string(lab) + "/" + kind + "/" + file;
}

/// Grades on the CPU backend, seed 1, as JSON; requires the exit status.
inline nlohmann::json grade_report(const std::string& impl_args, int expected_status, int lab) {
  const GraderRun r = run_grader("--lab " + std::to_string(lab) + " " + impl_args +
                                 " --backend cpu --seed 1 --time-limit 4 --format json");
  INFO("grader " << impl_args << "\n" << r.out << r.err);
  REQUIRE(r.status == expected_status);
  return nlohmann::json::parse(r.out);
}

/// The names of the checks that failed.
inline std::set<std::string> failing_checks(const nlohmann::json& report) {
  std::set<std::string> names;
  for (const auto& c : report["checks"]) {
    if (c["status"] == "fail") names.insert(c["name"].get<std::string>());
  }
  return names;
}

/// The output of the check named `check` (a test failure if there is none).
inline std::string check_output(const nlohmann::json& report, const std::string& check) {
  for (const auto& c : report["checks"]) {
    if (c["name"] == check) return c["output"].get<std::string>();
  }
  FAIL("no check named " << check);
  return "";
}

}  // namespace banklab::test

// What the grader's test suites share: running the grader, grading a
// submission into its JSON report, and reading checks out of a report.
#pragma once

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
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

/// The names listed in BANKLAB_UPDATE_GOLDEN (comma-separated); "new" stands
/// for every golden file that does not exist yet.
inline bool golden_update_asked(const std::string& name, bool exists) {
  const char* list = std::getenv("BANKLAB_UPDATE_GOLDEN");
  if (list == nullptr) return false;
  std::stringstream names(list);
  for (std::string item; std::getline(names, item, ',');) {
    if (item == name || (item == "new" && !exists)) return true;
  }
  return false;
}

/// Compares `actual` with tests/grader/golden/NAME. A missing or different
/// file fails the test with the diff. A golden file is rewritten only when
/// its own name is listed in BANKLAB_UPDATE_GOLDEN (BANKLAB_UPDATE_GOLDEN=
/// reports/lab04/wrong/wrong_bits.cu.txt,lab03_skeleton.txt), and the
/// rewrite prints the diff it makes; BANKLAB_UPDATE_GOLDEN=new writes only
/// the files that do not exist yet. No flag rewrites every file at once.
inline void check_golden(const std::string& name, const std::string& actual) {
  const std::string path = source_dir() + "/tests/grader/golden/" + name;
  std::string expected;
  bool exists = false;
  {
    std::ifstream in(path, std::ios::binary);
    exists = in.good();
    std::ostringstream text;
    text << in.rdbuf();
    expected = text.str();
  }
  if (exists && expected == actual) return;
  std::string actual_path = std::string(BANKLAB_TEST_TMP) + "/golden_actual/" + name;
  std::filesystem::create_directories(std::filesystem::path(actual_path).parent_path());
  std::ofstream(actual_path, std::ios::binary) << actual;
  const std::string diff = run_command("diff -u " + (exists ? path : std::string("/dev/null")) + " " + actual_path).out;
  if (golden_update_asked(name, exists)) {
    std::filesystem::create_directories(std::filesystem::path(path).parent_path());
    std::ofstream(path, std::ios::binary) << actual;
    MESSAGE("golden file " << name << (exists ? " rewritten:\n" : " written:\n") << diff);
    return;
  }
  if (!exists) {
    FAIL("missing golden file " << path << "; the output is in " << actual_path
                                << " (after reading it, write the file with BANKLAB_UPDATE_GOLDEN=new)");
  }
  FAIL("output differs from " << path << " (if the change is intended, rewrite this file with BANKLAB_UPDATE_GOLDEN="
                              << name << "):\n"
                              << diff);
}

/// The source and scratch folders as <src> and <tmp>, and the time limit
/// a suite chose as T, so that a report reads the same on every machine.
inline std::string machine_neutral(std::string text) {
  // The scratch folder first: it may lie inside the source folder (build/ of a checkout).
  for (const auto& [dir, shown] : {std::pair<std::string, std::string>{BANKLAB_TEST_TMP, "<tmp>"},
                                   std::pair<std::string, std::string>{source_dir(), "<src>"}}) {
    for (std::size_t at = 0; (at = text.find(dir, at)) != std::string::npos;) text.replace(at, dir.size(), shown);
  }
  return std::regex_replace(text, std::regex(R"(time limit of [0-9.]+ s)"), "time limit of T s");
}

/// A JSON report as text a reviewer reads: every field but the times and the
/// confinement (which depend on the machine), each check on its own line with
/// its status, points and part, and its output below it, line for line.
inline std::string report_text(int status, const nlohmann::json& report) {
  std::ostringstream out;
  out << "exit status " << status << "\n";
  for (const auto& [key, value] : report.items()) {
    if (key == "checks" || key == "sandbox" || key == "source_check") continue;
    if (value.is_string() && value.get<std::string>().find('\n') != std::string::npos) {
      out << key << ":\n";  // a message of several lines, line for line
      std::istringstream lines(value.get<std::string>());
      for (std::string line; std::getline(lines, line);) out << "  | " << line << "\n";
      continue;
    }
    out << key << ": " << value.dump() << "\n";
  }
  for (const auto& c : report.value("checks", nlohmann::json::array())) {
    out << "\n[" << c.value("status", "?") << "] " << c.value("score", nlohmann::json()).dump() << "/"
        << c.value("max_score", nlohmann::json()).dump() << " (" << c.value("part", "") << ") "
        << c.value("name", "") << "\n";
    for (const auto& [key, value] : c.items()) {
      if (key == "status" || key == "score" || key == "max_score" || key == "part" || key == "name" ||
          key == "output" || key == "seconds")
        continue;
      out << "  " << key << ": " << value.dump() << "\n";
    }
    std::istringstream lines(c.value("output", ""));
    for (std::string line; std::getline(lines, line);) out << "  | " << line << "\n";
  }
  return machine_neutral(out.str());
}

/// Every grading of a file kept with the tests (or of the reference or the
/// skeleton) on the CPU backend at seed 1, whichever suite makes it, must
/// give the report kept in tests/grader/golden/reports/labNN/...: each
/// check's status, points and whole message. `impl` is "--solutions", "" (the
/// skeleton), or a path below tests/grader/; other forms are not compared.
inline void check_report_golden(int lab, const std::string& impl, int status, const nlohmann::json& report) {
  const std::string lab_dir = "lab0" + std::to_string(lab);
  std::string name;
  if (impl == "--solutions") {
    name = lab_dir + "/solutions";
  } else if (impl.empty()) {
    name = lab_dir + "/skeleton";
  } else if (impl.rfind(lab_dir + "/", 0) == 0 && impl.find(' ') == std::string::npos) {
    name = impl;
  } else {
    return;
  }
  check_golden("reports/" + name + ".txt", report_text(status, report));
}

/// Grades on the CPU backend, seed 1, as JSON; requires the exit status, and
/// a report equal to its golden file (check_report_golden).
inline nlohmann::json grade_report(const std::string& impl_args, int expected_status, int lab) {
  const GraderRun r = run_grader("--lab " + std::to_string(lab) + " " + impl_args +
                                 " --backend cpu --seed 1 --time-limit 4 --format json");
  INFO("grader " << impl_args << "\n" << r.out << r.err);
  REQUIRE(r.status == expected_status);
  const nlohmann::json report = nlohmann::json::parse(r.out);
  const std::string tests_prefix = "--impl " + source_dir() + "/tests/grader/";
  if (impl_args.rfind(tests_prefix, 0) == 0) {
    check_report_golden(lab, impl_args.substr(tests_prefix.size()), r.status, report);
  } else if (impl_args == "--solutions" || impl_args.empty()) {
    check_report_golden(lab, impl_args, r.status, report);
  }
  return report;
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

// Laws of the grader's checks, each with the known-wrong submission that
// proves the check catches what it claims: bugs a mutation of the grader
// (grader/ changed on purpose, one change at a time) went unseen by before.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>

#include "grader_test.hpp"

namespace {

using banklab::test::check_output;
using banklab::test::failing_checks;
using banklab::test::grade_report;
using banklab::test::run_grader;
using banklab::test::source_dir;
using banklab::test::test_submission;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("stage 1: a multicast in which one word is read by a single lane fails, though it costs 1 wavefront") {
  const auto report = grade_report(test_submission(1, "wrong", "multicast_single_lane.cu"), 1, 1);
  CHECK(failing_checks(report) == std::set<std::string>{"puzzle 3, multicast: 1 wavefront"});
  CHECK(contains(check_output(report, "puzzle 3, multicast: 1 wavefront"),
                 "word 14 is read by one lane only; every word needs 2 or more"));
}

TEST_CASE("stage 1: bytes and halves puzzles with two lanes on each byte fail, though they cost 1 wavefront") {
  const auto report = grade_report(test_submission(1, "wrong", "bytes_shared.cu"), 1, 1);
  CHECK(failing_checks(report) ==
        std::set<std::string>{"puzzle 8, bytes: 1 wavefront", "puzzle 9, halves: 1 wavefront"});
  CHECK(contains(check_output(report, "puzzle 8, bytes: 1 wavefront"), "32 different bytes wanted; yours are 16"));
  CHECK(contains(check_output(report, "puzzle 9, halves: 1 wavefront"),
                 "32 different 2-byte elements wanted; yours are 16"));
}

TEST_CASE("stage 3: shared memory one float over the 32x33 bound fails the bound and nothing else") {
  const std::string check = "shared memory no more than a 32x33 float tile";
  const auto report = grade_report(test_submission(3, "wrong", "tile_one_float_over.cu"), 1, 3);
  CHECK(failing_checks(report) == std::set<std::string>{check});
  CHECK(contains(check_output(report, check), "at most: 4224"));
}

TEST_CASE("stage 4: a swizzle value below 0 fails the range rule, naming the element") {
  const std::string check = "swizzle keeps every element in its row (values 0-31)";
  const auto report = grade_report(test_submission(4, "wrong", "swizzle_negative.cu"), 1, 4);
  CHECK(failing_checks(report).count(check) == 1);
  CHECK(contains(check_output(report, check), "swizzle(5, 5) = -32: outside 0..31"));
}

TEST_CASE("code that differs between the two builds only after the last common line is refused, with its line") {
  const auto r = run_grader("--lab 3 --backend cpu " + test_submission(3, "hostile", "emulator_only_last_line.cu"));
  CHECK(r.status == 2);
  CHECK(contains(r.err, "emulator_only_last_line.cu:72: this code is not the same for the CPU emulator and for a GPU"));
}

TEST_CASE("a quiz answer with a word after the number is not read as the number") {
  // The key, with question 3's answer (13) written as "13 wavefronts".
  std::ifstream key(source_dir() + "/solutions/quiz/answers.txt");
  std::ostringstream text;
  text << key.rdbuf();
  const std::string answers = std::regex_replace(text.str(), std::regex("\n3: 13\n"), "\n3: 13 wavefronts\n");
  REQUIRE(answers != text.str());
  const std::string path = std::string(BANKLAB_TEST_TMP) + "/answers_with_words.txt";
  std::ofstream(path) << answers;
  const auto r = run_grader("--lab quiz --impl " + path + " --format json");
  REQUIRE(r.status == 1);
  const auto report = nlohmann::json::parse(r.out);
  CHECK(report["score"] == 23);
  int failed = 0;
  for (const auto& c : report["checks"]) {
    if (c["status"] != "fail") continue;
    ++failed;
    CHECK(contains(c["output"].get<std::string>(), "\"13 wavefronts\" is not a whole number"));
  }
  CHECK(failed == 1);
}

TEST_CASE("Gradescope tests carry each check's status: failed for a failure, a zero-point note for a skip") {
  // The skeleton of stage 3 fails some checks, passes others, and skips the GPU's.
  const auto json = run_grader("--lab 3 --backend cpu --seed 1 --time-limit 4 --format json");
  const auto gradescope = run_grader("--lab 3 --backend cpu --seed 1 --time-limit 4 --format gradescope");
  REQUIRE(json.status == 1);
  REQUIRE(gradescope.status == 1);
  const auto tests = nlohmann::json::parse(gradescope.out)["tests"];
  const auto checks = nlohmann::json::parse(json.out)["checks"];
  std::map<std::string, nlohmann::json> by_name;
  for (const auto& t : tests) by_name[t["name"].get<std::string>()] = t;
  std::map<std::string, int> seen;
  for (const auto& c : checks) {
    const std::string name = "lab 3: " + c["name"].get<std::string>();
    INFO(name);
    REQUIRE(by_name.count(name) == 1);
    const auto& t = by_name[name];
    const std::string status = c["status"].get<std::string>();
    ++seen[status];
    CHECK(t["score"] == c["score"]);
    if (status == "fail") {
      CHECK(t["status"] == "failed");
      CHECK(t["max_score"] == c["max_score"]);
    } else if (status == "skip") {
      CHECK(t["max_score"] == 0);
      CHECK(t["score"] == 0);
      CHECK(contains(t["output"].get<std::string>(), "skipped: "));
    } else {
      CHECK(t["status"] == "passed");
      CHECK(t["max_score"] == c["max_score"]);
    }
  }
  CHECK(seen["fail"] > 0);
  CHECK(seen["skip"] > 0);
  CHECK(seen["pass"] > 0);
}

// Laws of the grader that the first blind set of mutations
// (tests/mutation/grader_mutations.py --set blind) went unseen by: each test
// asserts the points, message or status the mutation changes, on a
// known-wrong or edited submission.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>

#include "grader_test.hpp"

namespace {

namespace fs = std::filesystem;

using banklab::test::check_output;
using banklab::test::failing_checks;
using banklab::test::grade_report;
using banklab::test::run_grader;
using banklab::test::source_dir;
using banklab::test::test_submission;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::string text_of(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// This suite's own folder for the files it writes.
fs::path tmp_dir() {
  fs::create_directories(BANKLAB_TEST_TMP);
  return BANKLAB_TEST_TMP;
}

}  // namespace

TEST_CASE("quiz letters in capitals are read as the letters: the key written in capitals scores 24/24") {
  // Every choice answer of the key ("1: c", "7: a c") in capitals ("1: C", "7: A C").
  const std::string key = text_of(source_dir() + "/solutions/quiz/answers.txt");
  std::string capitals;
  std::istringstream lines(key);
  int changed = 0;
  for (std::string line; std::getline(lines, line);) {
    if (std::regex_match(line, std::regex(R"(\d+:[ a-d,]+)"))) {
      const auto colon = line.find(':');
      for (std::size_t i = colon; i < line.size(); ++i) line[i] = static_cast<char>(std::toupper(line[i]));
      ++changed;
    }
    capitals += line + "\n";
  }
  REQUIRE(changed >= 5);
  const std::string path = (tmp_dir() / "answers_in_capitals.txt").string();
  std::ofstream(path) << capitals;
  const auto r = run_grader("--lab quiz --impl " + path);
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  CHECK(contains(r.out, "Score: 24/24"));
}

TEST_CASE("a batch rerun grades an edited submission again: its old row (same seed, lab, backend) is not kept") {
  const fs::path dir = tmp_dir() / "edited";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path solution = source_dir() + "/solutions/03-padded-transpose/transpose.cu";
  fs::copy_file(solution, dir / "student.cu");
  // The row a first run wrote for another file (the skeleton, 5 points):
  // same student, seed, lab and backend, but that file's hash.
  std::uint64_t h = 1469598103934665603ull;  // the gradebook's FNV-1a of a file
  for (unsigned char c : text_of(source_dir() + "/labs/03-padded-transpose/transpose.cu")) {
    h ^= c;
    h *= 1099511628211ull;
  }
  std::ostringstream sha;
  sha << std::hex << h;
  std::ofstream(dir / "gradebook.json") << nlohmann::json{
      {"lab", 3},
      {"seed", 4},
      {"backend", "cpu"},
      {"submissions",
       {{{"student", "student"}, {"status", "graded"}, {"score", 5}, {"max_score", 90}, {"seed", 4},
         {"backend", "cpu"}, {"sha", sha.str()}}}}};
  const auto r = run_grader("--lab 3 --backend cpu --time-limit 30 --submissions " + dir.string());
  INFO(r.out << r.err);
  CHECK(contains(r.err, "seed 4 (rerun"));
  CHECK(contains(r.err, "1 to grade (0 unchanged"));
  const auto book = nlohmann::json::parse(text_of(dir / "gradebook.json"));
  REQUIRE(book["submissions"].size() == 1);
  CHECK(book["submissions"][0]["score"] == 90);
  CHECK(book["submissions"][0]["status"] == "graded");
}

TEST_CASE("every check's status is the same in JSON, text and JUnit, and JUnit's counts are the JSON's") {
  // The skeleton of stage 3 fails some checks, passes others, and skips the GPU's.
  const std::string args = "--lab 3 --backend cpu --seed 1 --time-limit 4 --format ";
  const auto json = run_grader(args + "json");
  const auto text = run_grader(args + "text");
  const auto junit = run_grader(args + "junit");
  REQUIRE(json.status == 1);
  REQUIRE(text.status == 1);
  REQUIRE(junit.status == 1);
  const auto checks = nlohmann::json::parse(json.out)["checks"];
  std::map<std::string, int> count;
  std::map<std::string, std::string> junit_status;
  // A testcase is empty (passed) or holds one <failure> or <skipped>.
  const std::regex testcase(R"re(<testcase classname="[^"]*" name="([^"]*)" time="[^"]*"(/>|>\s*<(failure|skipped) ))re");
  for (std::sregex_iterator it(junit.out.begin(), junit.out.end(), testcase), end; it != end; ++it) {
    std::string name = (*it)[1];
    name = std::regex_replace(name, std::regex("&amp;"), "&");
    junit_status[name] = (*it)[2] == "/>" ? "pass" : (*it)[3] == "failure" ? "fail" : "skip";
  }
  CHECK(junit_status.size() == checks.size());
  const std::map<std::string, std::string> word = {{"pass", "OK"}, {"fail", "FAIL"}, {"skip", "SKIP"}};
  for (const auto& c : checks) {
    const std::string name = c["name"].get<std::string>();
    const std::string status = c["status"].get<std::string>();
    INFO(name << ": " << status);
    ++count[status];
    CHECK(junit_status[name] == status);
    CHECK(contains(text.out, "\n" + name + ": " + word.at(status) + (status == "skip" ? "\n" : " (")));
  }
  REQUIRE(count["fail"] > 0);
  REQUIRE(count["skip"] > 0);
  REQUIRE(count["pass"] > 0);
  std::smatch suite;
  REQUIRE(std::regex_search(junit.out, suite, std::regex(R"re(<testsuite name="[^"]*" tests="(\d+)" failures="(\d+)" errors="0" skipped="(\d+)")re")));
  CHECK(std::stoi(suite[1]) == static_cast<int>(checks.size()));
  CHECK(std::stoi(suite[2]) == count["fail"]);
  CHECK(std::stoi(suite[3]) == count["skip"]);
}

TEST_CASE("stage 5: a half tile one word over the 64x66 bound fails the bound, 3 points, and nothing else") {
  const std::string check = "transpose_half: shared memory no more than a 64x66 half tile";
  const auto report = grade_report(test_submission(5, "wrong", "half_one_word_over.cu"), 1, 5);
  CHECK(failing_checks(report) == std::set<std::string>{check});
  CHECK(report["score"] == 87);
  CHECK(contains(check_output(report, check), "yours: 8452 bytes of __shared__ memory, at most: 8448"));
}

TEST_CASE("a constant address cast to a pointer, (float*)0x601000, is refused at its line before the build") {
  const auto r = run_grader("--lab 3 --backend cpu " + test_submission(3, "hostile", "constant_address.cu"));
  CHECK(r.status == 2);
  CHECK(contains(r.err, "constant_address.cu:71: a cast from an integer to a pointer"));
}

TEST_CASE("where nvcc is installed, a file nvcc refuses and the source check passes is refused with nvcc's line") {
  if (!BANKLAB_TEST_HAVE_NVCC) return;  // without nvcc the grader cannot know (grader/README.md)
  const auto r = run_grader("--lab 3 --backend cpu " + test_submission(3, "hostile", "shared_initialiser.cu"));
  CHECK(r.status == 2);
  CHECK(contains(r.err, "shared_initialiser.cu:73: error: initializer not allowed for __shared__ variable"));
}

TEST_CASE("nvcc's refusal of a file with two errors names the first error's line first") {
  if (!BANKLAB_TEST_HAVE_NVCC) return;  // without nvcc the grader cannot know (grader/README.md)
  const auto r = run_grader("--lab 3 --backend cpu " + test_submission(3, "hostile", "two_nvcc_errors.cu"));
  CHECK(r.status == 2);
  CHECK(contains(r.err, "does not build with nvcc: two_nvcc_errors.cu:73: error: initializer not allowed for "
                        "__shared__ variable"));
  CHECK(contains(r.err, "two_nvcc_errors.cu:78: error"));  // the second follows in the build output
}

TEST_CASE("a source check refusal with two findings names the first and says one more is below") {
  const auto r = run_grader("--lab 3 --backend cpu " + test_submission(3, "hostile", "two_host_functions.cu"));
  CHECK(r.status == 2);
  CHECK(contains(r.err, "two_host_functions.cu:95: first_helper is a host function"));
  CHECK(contains(r.err, "(and 1 more below)"));
  CHECK(contains(r.err, "two_host_functions.cu:96: second_helper is a host function"));
}

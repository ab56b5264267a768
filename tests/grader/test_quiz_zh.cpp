// The quiz's Chinese answer sheet (labs/quiz/answers.zh.txt): the same
// questions, numbers and choice letters as the English one, so the grader
// grades it with the same key (`grader --lab quiz --impl labs/quiz/answers.zh.txt`).
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>

#include "grader_test.hpp"

using namespace banklab::test;
namespace fs = std::filesystem;

namespace {

std::string read(const fs::path& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Question number -> its choice letters ("abcd", or "" for a number).
std::map<int, std::string> shape_of(const std::string& sheet) {
  std::map<int, std::string> shape;
  std::string letters;
  std::istringstream in(sheet);
  const std::regex choice(R"(#\s+([a-d])\) .*)"), answer(R"((\d+):.*)");
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (std::regex_match(line, m, choice)) letters += m[1].str();
    if (std::regex_match(line, m, answer)) {
      shape[std::stoi(m[1])] = letters;
      letters.clear();
    }
  }
  return shape;
}

}  // namespace

TEST_CASE("the Chinese quiz sheet asks the English sheet's questions: same numbers, same choice letters, in Chinese") {
  const std::string en = read(fs::path(source_dir()) / "labs/quiz/answers.txt");
  const std::string zh = read(fs::path(source_dir()) / "labs/quiz/answers.zh.txt");
  const auto a = shape_of(en), b = shape_of(zh);
  CHECK(a.size() >= 21);
  CHECK(a == b);
  CHECK(zh.find("的") != std::string::npos);
  CHECK(zh.find("--impl labs/quiz/answers.zh.txt") != std::string::npos);
}

TEST_CASE("the grader grades the Chinese sheet with the quiz's key: empty 0, the key's answers full marks") {
  const GraderRun empty = run_grader("--lab quiz --impl " + source_dir() + "/labs/quiz/answers.zh.txt");
  CHECK(empty.status == 1);
  CHECK(empty.out.find("Score: 0/21") != std::string::npos);
  const fs::path key = fs::path(source_dir()) / "solutions/quiz/answers.txt";
  if (!fs::exists(key)) return;  // the student kit has no solutions/
  // The Chinese sheet with each "N:" line taken from the key.
  std::map<std::string, std::string> answers;
  {
    std::istringstream in(read(key));
    const std::regex answer(R"((\d+):.*)");
    for (std::string line; std::getline(in, line);) {
      std::smatch m;
      if (std::regex_match(line, m, answer)) answers[m[1]] = line;
    }
  }
  std::istringstream in(read(fs::path(source_dir()) / "labs/quiz/answers.zh.txt"));
  std::string filled;
  const std::regex blank(R"((\d+):\s*)");
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    filled += (std::regex_match(line, m, blank) && answers.count(m[1]) ? answers[m[1]] : line) + "\n";
  }
  const fs::path sheet = fs::path(BANKLAB_TEST_TMP) / "answers.zh.filled.txt";
  std::ofstream(sheet) << filled;
  const GraderRun full = run_grader("--lab quiz --impl " + sheet.string());
  INFO(full.out << full.err);
  CHECK(full.status == 0);
  CHECK(full.out.find("Score: 21/21") != std::string::npos);
}

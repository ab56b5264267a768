// The quiz's Chinese answer sheet (labs/quiz/answers.zh.txt): the same
// questions, numbers and choice letters as the English one, so the grader
// grades it with the same key (`grader --lab quiz --impl labs/quiz/answers.zh.txt`),
// and answers it in Chinese: every message of a check, whatever the file's name.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

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

// The Chinese sheet with each "N:" line taken from `answers` (a file of
// "N: ANSWER" lines), written to BANKLAB_TEST_TMP/name.
fs::path chinese_sheet_with(const fs::path& answers, const std::string& name) {
  std::map<std::string, std::string> lines;
  {
    std::istringstream in(read(answers));
    const std::regex answer(R"((\d+):.*)");
    for (std::string line; std::getline(in, line);) {
      std::smatch m;
      if (std::regex_match(line, m, answer)) lines[m[1]] = line;
    }
  }
  std::istringstream in(read(fs::path(source_dir()) / "labs/quiz/answers.zh.txt"));
  std::string filled;
  const std::regex blank(R"((\d+):\s*)");
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    filled += (std::regex_match(line, m, blank) && lines.count(m[1]) ? lines[m[1]] : line) + "\n";
  }
  fs::create_directories(BANKLAB_TEST_TMP);
  const fs::path sheet = fs::path(BANKLAB_TEST_TMP) / name;
  std::ofstream(sheet) << filled;
  return sheet;
}

// The Chinese sheet with the answers `lines` ("N: ANSWER" each), written to name.
fs::path with_lines(const std::string& lines, const std::string& name) {
  const fs::path answers = fs::path(BANKLAB_TEST_TMP) / (name + ".answers");
  std::ofstream(answers) << lines;
  return chinese_sheet_with(answers, name);
}

bool holds_han(const std::string& text) {
  // Every CJK ideograph (U+4E00-U+9FFF) is three bytes led by 0xE4-0xE9.
  return std::any_of(text.begin(), text.end(), [](char c) {
    const auto b = static_cast<unsigned char>(c);
    return b >= 0xE4 && b <= 0xE9;
  });
}

// The English lead-ins of the quiz's messages; none may reach a Chinese sheet.
const char* const kEnglishLeadIns[] = {"your answer", "the right one", "the right ones", "why:", "revisit:",
                                       "see it:", "not answered", "is not right", "is not a whole number",
                                       "answer with", "give one letter", "cannot read", "there is no question",
                                       "answered twice"};

}  // namespace

TEST_CASE("the Chinese quiz sheet asks the English sheet's questions: same numbers, same choice letters, in Chinese") {
  const std::string en = read(fs::path(source_dir()) / "labs/quiz/answers.txt");
  const std::string zh = read(fs::path(source_dir()) / "labs/quiz/answers.zh.txt");
  const auto a = shape_of(en), b = shape_of(zh);
  CHECK(a.size() >= 24);
  CHECK(a == b);
  CHECK(zh.find("的") != std::string::npos);
  CHECK(zh.find("--impl labs/quiz/answers.zh.txt") != std::string::npos);
}

TEST_CASE("the grader grades the Chinese sheet with the quiz's key: empty 0, the key's answers full marks") {
  const GraderRun empty = run_grader("--lab quiz --impl " + source_dir() + "/labs/quiz/answers.zh.txt");
  CHECK(empty.status == 1);
  CHECK(empty.out.find("Score: 0/24") != std::string::npos);
  const fs::path key = fs::path(source_dir()) / "solutions/quiz/answers.txt";
  if (!fs::exists(key)) return;  // the student kit has no solutions/
  const fs::path sheet = chinese_sheet_with(key, "answers.zh.filled.txt");
  const GraderRun full = run_grader("--lab quiz --impl " + sheet.string());
  INFO(full.out << full.err);
  CHECK(full.status == 0);
  CHECK(full.out.find("Score: 24/24") != std::string::npos);
}

TEST_CASE("a wrong answer on the Chinese sheet is told in Chinese: the answer, why, the banksim command's lead-in") {
  // The instructor's tree (the key): "你的答案：X；正确答案：Y" and the Chinese explanation.
  const fs::path sheet =
      chinese_sheet_with(fs::path(source_dir()) / "tests/grader/quiz/wrong_answers.txt", "wrong_answers.zh.txt");
  const GraderRun r = run_grader("--lab quiz --impl " + sheet.string() + " --format json");
  INFO(r.out << r.err);
  REQUIRE(r.status == 1);
  const auto report = nlohmann::json::parse(r.out);
  CHECK(report["score"] == 0);
  REQUIRE(report["checks"].size() == 24);
  for (const auto& check : report["checks"]) {
    const std::string output = check["output"];
    INFO(check["name"].get<std::string>() << ": " << output);
    CHECK(check["status"] == "fail");
    CHECK(output.find("你的答案：") != std::string::npos);
    const bool keyed = output.find("正确答案：") != std::string::npos;
    const bool kit = output.find(" 不对\n复习：") != std::string::npos;
    CHECK((keyed || kit));
    if (keyed) {
      const auto why = output.find("原因：");
      REQUIRE(why != std::string::npos);
      CHECK(holds_han(output.substr(why + std::string("原因：").size())));
    }
    for (const char* english : kEnglishLeadIns) CHECK(output.find(english) == std::string::npos);
  }
  // The numeric questions show banksim's command under a Chinese lead-in; the names stay the English ones.
  const GraderRun text = run_grader("--lab quiz --impl " + sheet.string());
  CHECK(text.out.find("Q9 column of a 32x32 tile: FAIL\n    你的答案：1；") != std::string::npos);
  CHECK(text.out.find("    用 banksim 查看：banksim --width 4 --stride 32\n") != std::string::npos);
  CHECK(text.out.find("see it:") == std::string::npos);
}

TEST_CASE("the Chinese sheet is known by its Chinese comments under any name, and by a .zh.txt name without them") {
  const fs::path wrong = fs::path(source_dir()) / "tests/grader/quiz/wrong_answers.txt";
  // The Chinese sheet saved as some/other.txt.
  const fs::path renamed = chinese_sheet_with(wrong, "my_quiz.txt");
  const GraderRun r = run_grader("--lab quiz --impl " + renamed.string());
  CHECK(r.out.find("你的答案：") != std::string::npos);
  CHECK(r.out.find("your answer") == std::string::npos);
  // Bare answer lines, no comments: the name decides.
  const fs::path bare = fs::path(BANKLAB_TEST_TMP) / "bare.zh.txt";
  std::ofstream(bare) << "3: 12\n";
  const GraderRun named = run_grader("--lab quiz --impl " + bare.string());
  CHECK(named.out.find("Q3 the bank of byte 180: FAIL\n    你的答案：12") != std::string::npos);
  CHECK(named.out.find("Q1 banks of shared memory: FAIL\n    未作答：请在“1:”后面写上你的答案") != std::string::npos);
  CHECK(named.out.find("your answer") == std::string::npos);
  // The same lines under an English name stay English.
  const fs::path plain = fs::path(BANKLAB_TEST_TMP) / "bare.txt";
  std::ofstream(plain) << "3: 12\n";
  const GraderRun english = run_grader("--lab quiz --impl " + plain.string());
  CHECK(english.out.find("Q3 the bank of byte 180: FAIL\n    your answer: 12; the right one: ") != std::string::npos);
  CHECK_FALSE(holds_han(english.out));
}

TEST_CASE("answers of the wrong kind and unreadable lines of the Chinese sheet are told in Chinese, with the line") {
  const fs::path kinds = with_lines("1: c a\n3: thirteen\n18: a e\n2: x\n", "kinds.zh.sheet.txt");
  const GraderRun k = run_grader("--lab quiz --impl " + kinds.string());
  INFO(k.out << k.err);
  CHECK(k.out.find("“c a”：这道题只有一个正确答案，请只写一个字母") != std::string::npos);
  CHECK(k.out.find("“thirteen”不是整数：请写一个整数") != std::string::npos);
  CHECK(k.out.find("“a e”：请写字母 a 到 d，字母之间用空格分隔") != std::string::npos);
  CHECK(k.out.find("“x”：请写一个字母，a 到 d") != std::string::npos);
  CHECK(k.out.find("未作答：请在“4:”后面写上你的答案") != std::string::npos);
  for (const char* english : kEnglishLeadIns) CHECK(k.out.find(english) == std::string::npos);
  // The line number of a line of a sheet.
  const auto line_of = [](const fs::path& sheet, const std::string& text) {
    std::istringstream in(read(sheet));
    int n = 1;
    for (std::string line; std::getline(in, line); ++n) {
      if (line == text) return n;
    }
    return 0;
  };
  // An unreadable line: the 2: line replaced by a sentence.
  const fs::path malformed = with_lines("2: b\n", "malformed.zh.sheet.txt");
  {
    std::string text = read(malformed);
    text.replace(text.find("\n2: b\n"), 6, "\nthe answer to 2 is a\n");
    std::ofstream(malformed) << text;
  }
  const int bad_line = line_of(malformed, "the answer to 2 is a");
  REQUIRE(bad_line > 0);
  const GraderRun m = run_grader("--lab quiz --impl " + malformed.string());
  CHECK(m.status == 2);
  CHECK(m.err.find(malformed.string() + ":" + std::to_string(bad_line) +
                   ": 无法读取“the answer to 2 is a”：请写题号、英文冒号和答案，例如“3: 13”") != std::string::npos);
  // A question answered twice, and one that does not exist.
  const fs::path twice = with_lines("3: 13\n", "twice.zh.sheet.txt");
  std::ofstream(twice, std::ios::app) << "3: 12\n25: 4\n";
  const GraderRun t = run_grader("--lab quiz --impl " + twice.string());
  CHECK(t.status == 2);
  const std::string first = std::to_string(line_of(twice, "3: 13"));
  CHECK(t.err.find("第 3 题答了两次（另一次在第 " + first + " 行）：只保留一个答案") != std::string::npos);
  const fs::path unknown = with_lines("", "unknown.zh.sheet.txt");
  std::ofstream(unknown, std::ios::app) << "25: 4\n";
  const GraderRun u = run_grader("--lab quiz --impl " + unknown.string());
  CHECK(u.status == 2);
  CHECK(u.err.find("没有第 25 题（测验只有第 1 到第 24 题）") != std::string::npos);
  const std::string nowhere = std::string(BANKLAB_TEST_TMP) + "/no/such/answers.zh.txt";
  const GraderRun missing = run_grader("--lab quiz --impl " + nowhere);
  CHECK(missing.status == 2);
  CHECK(missing.err.find("无法读取答卷文件（路径对吗？）") != std::string::npos);
  for (const GraderRun* run : {&m, &t, &u, &missing}) {
    INFO(run->err);
    for (const char* english : kEnglishLeadIns) CHECK(run->err.find(english) == std::string::npos);
  }
}

// The quiz as the student kit builds it (no_key.cpp, no key.cpp): the key
// file still scores 24/24 through the salted hashes alone, and a wrong answer
// is told what to revisit and the banksim command, never the right answer;
// on the Chinese sheet, in Chinese, in the terms of handouts/zh/glossary.md.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "quiz.hpp"

namespace quiz = banklab::grader::quiz;

namespace {

std::string source(const std::string& relative) { return std::string(BANKLAB_SOURCE_DIR) + "/" + relative; }

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// labs/quiz/answers.zh.txt with the answers of tests/grader/quiz/wrong_answers.txt,
// under a name that does not say zh (the sheet's Chinese comments must).
std::string chinese_wrong_sheet() {
  const auto wrong = quiz::read_answers(source("tests/grader/quiz/wrong_answers.txt"));
  std::istringstream in(read(source("labs/quiz/answers.zh.txt")));
  std::string filled;
  const std::regex blank(R"((\d+):\s*)");
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (std::regex_match(line, m, blank)) line = m[1].str() + ": " + wrong.at(std::stoi(m[1]));
    filled += line + "\n";
  }
  const std::string path = (std::filesystem::temp_directory_path() / "banklab_quiz_kit_wrong_sheet.txt").string();
  std::ofstream(path) << filled;
  return path;
}

bool is_han_lead(char c) {
  // Every CJK ideograph (U+4E00-U+9FFF) is three bytes led by 0xE4-0xE9.
  const auto b = static_cast<unsigned char>(c);
  return b >= 0xE4 && b <= 0xE9;
}
bool holds_han(const std::string& text) { return std::any_of(text.begin(), text.end(), is_han_lead); }

std::string without_space(std::string text) {
  text.erase(std::remove_if(text.begin(), text.end(), [](char c) { return c == ' ' || c == '\n'; }), text.end());
  return text;
}

std::set<std::string> numbers_in(const std::string& text) {
  std::set<std::string> found;
  const std::regex digits(R"(\d+)");
  for (std::sregex_iterator it(text.begin(), text.end(), digits), end; it != end; ++it) found.insert(it->str());
  return found;
}

// The glossary's rows: English term -> Chinese term ("warp / lane" gives two;
// "16 字节段（段）" is "16 字节段").
std::vector<std::pair<std::string, std::string>> glossary() {
  std::vector<std::pair<std::string, std::string>> terms;
  std::istringstream in(read(source("handouts/zh/glossary.md")));
  const std::regex row(R"(\| ([^|]+) \| ([^|]+) \| [^|]*\|)");
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (!std::regex_match(line, m, row) || m[1] == "English" || m[1].str().rfind("---", 0) == 0) continue;
    std::string en = m[1], zh = m[2];
    const auto paren = zh.find("（");
    if (paren != std::string::npos) zh = zh.substr(0, paren);
    const auto en_slash = en.find(" / "), zh_slash = zh.find(" / ");
    if (en_slash != std::string::npos && zh_slash != std::string::npos) {
      terms.emplace_back(en.substr(0, en_slash), zh.substr(0, zh_slash));
      terms.emplace_back(en.substr(en_slash + 3), zh.substr(zh_slash + 3));
    } else {
      terms.emplace_back(en, zh);
    }
  }
  return terms;
}

}  // namespace

TEST_CASE("without the key, the quiz grades the key file 24/24 and a wrong file 0/24") {
  REQUIRE(quiz::key().empty());
  const banklab::grader::Rubric rubric = quiz::rubric();
  const auto right = quiz::grade(rubric, quiz::read_answers(source("solutions/quiz/answers.txt")), "answers.txt");
  CHECK(right.score == 24);
  CHECK(right.max_score == 24);
  const auto wrong =
      quiz::grade(rubric, quiz::read_answers(source("tests/grader/quiz/wrong_answers.txt")), "wrong_answers.txt");
  CHECK(wrong.score == 0);
  const auto key = quiz::read_answers(source("solutions/quiz/answers.txt"));
  for (std::size_t i = 0; i < wrong.results.size(); ++i) {
    const quiz::Question& q = quiz::questions()[i];
    const std::string& output = wrong.results[i].outcome.reason;
    INFO("question " << q.number << ": " << output);
    CHECK(output.find(" is not right\nrevisit: ") != std::string::npos);
    CHECK(output.find("the right one") == std::string::npos);
    CHECK(output.find("why: ") == std::string::npos);
    if (q.kind == quiz::Kind::kNumber) CHECK(output.find("see it: " + quiz::banksim_command(q)) != std::string::npos);
  }
}

TEST_CASE("without the key, a wrong answer on the Chinese sheet is told the concept in Chinese and banksim") {
  REQUIRE(quiz::key().empty());
  const banklab::grader::Rubric rubric = quiz::rubric();
  const std::string sheet = chinese_wrong_sheet();
  const auto wrong = quiz::grade(rubric, quiz::read_answers(sheet), sheet);
  CHECK(wrong.score == 0);
  const auto terms = glossary();
  REQUIRE(terms.size() >= 20);
  for (std::size_t i = 0; i < wrong.results.size(); ++i) {
    const quiz::Question& q = quiz::questions()[i];
    const std::string& output = wrong.results[i].outcome.reason;
    INFO("question " << q.number << ": " << output);
    REQUIRE(output.rfind("你的答案：", 0) == 0);
    const auto lead = output.find(" 不对\n复习：");
    REQUIRE(lead != std::string::npos);
    const auto see = output.find("用 banksim 查看：");
    CHECK((see != std::string::npos) == (q.kind == quiz::Kind::kNumber));
    if (see != std::string::npos) CHECK(output.substr(see) == "用 banksim 查看：" + quiz::banksim_command(q) + "\n");
    for (const char* english : {"your answer", "is not right", "revisit", "see it", "the right one", "why:"}) {
      CHECK(output.find(english) == std::string::npos);
    }
    // The concept, its wrapped lines joined.
    const std::size_t start = lead + std::string(" 不对\n复习：").size();
    std::string text = output.substr(start, see == std::string::npos ? std::string::npos : see - start);
    std::replace(text.begin(), text.end(), '\n', ' ');
    CHECK(holds_han(text));
    // Faithful to the English: the same numbers (no answer slipped in, none left out) ...
    CHECK(numbers_in(text) == numbers_in(q.concept_text));
    // ... the Chinese handouts ...
    const std::regex page(R"(handouts/[A-Za-z0-9_./-]*)");
    int pages = 0;
    for (std::sregex_iterator it(text.begin(), text.end(), page), end; it != end; ++it, ++pages) {
      CHECK(it->str().rfind("handouts/zh/", 0) == 0);
    }
    CHECK(pages >= 1);
    // ... no sentence or clause left in English: each with a word has a Chinese character ...
    const std::string bare = std::regex_replace(text, page, "");
    std::string sentence;
    for (std::size_t at = 0; at <= bare.size(); ++at) {
      bool end = at == bare.size();
      for (const char* stop : {"。", "？", "；", "：", "，"}) end = end || bare.compare(at, 3, stop) == 0;
      if (!end) {
        sentence += bare[at];
        continue;
      }
      const bool has_word = std::regex_search(sentence, std::regex("[A-Za-z]{2,}"));
      INFO("sentence: " << sentence);
      CHECK((!has_word || holds_han(sentence)));
      sentence.clear();
      at += 2;
    }
    CHECK_FALSE(std::regex_search(text, std::regex("([A-Za-z]{2,} ){3}[A-Za-z]{2,}")));
    // ... and the glossary's one term per concept, never a bare 块.
    const std::string english = std::regex_replace(q.concept_text, page, "");  // not "stride" of 02-stride-gcd.md
    for (const auto& [en, zh] : terms) {
      if (!std::regex_search(english, std::regex("\\b" + en, std::regex::icase))) continue;
      INFO("glossary: " << en << " is " << zh);
      CHECK(without_space(text).find(without_space(zh)) != std::string::npos);
    }
    for (auto at = text.find("块"); at != std::string::npos; at = text.find("块", at + 3)) {
      CHECK((at >= 6 && text.compare(at - 6, 9, "线程块") == 0));
    }
  }
}

TEST_CASE("without the key, the English sheet's feedback has no Chinese") {
  const banklab::grader::Rubric rubric = quiz::rubric();
  const auto wrong =
      quiz::grade(rubric, quiz::read_answers(source("tests/grader/quiz/wrong_answers.txt")), "wrong_answers.txt");
  for (const auto& r : wrong.results) CHECK_FALSE(holds_han(r.outcome.reason));
}

TEST_CASE("--lab all grades the Chinese sheet when it holds answers and the English one none") {
  const std::filesystem::path root = std::filesystem::temp_directory_path() / "banklab_quiz_kit_sheets";
  std::filesystem::create_directories(root / "labs/quiz");
  const std::string english = (root / "labs/quiz/answers.txt").string();
  const std::string chinese = (root / "labs/quiz/answers.zh.txt").string();
  const auto write = [](const std::string& path, const std::string& text) { std::ofstream(path) << text; };
  write(english, read(source("labs/quiz/answers.txt")));
  write(chinese, read(source("labs/quiz/answers.zh.txt")));
  CHECK(quiz::sheet_to_grade(root.string(), false) == english);  // neither answered
  CHECK(quiz::sheet_to_grade(root.string(), true) == root.string() + "/solutions/quiz/answers.txt");
  write(chinese, read(source("labs/quiz/answers.zh.txt")) + "3: 13\n");
  CHECK(quiz::sheet_to_grade(root.string(), false) == chinese);
  write(english, read(source("labs/quiz/answers.txt")) + "3: 13\n");
  CHECK(quiz::sheet_to_grade(root.string(), false) == english);  // both: the English one, as before
  write(english, read(source("labs/quiz/answers.txt")));
  write(chinese, "3 is 13\n");  // unreadable: graded, so that its error is said
  CHECK(quiz::sheet_to_grade(root.string(), false) == chinese);
  std::filesystem::remove(chinese);
  CHECK(quiz::sheet_to_grade(root.string(), false) == english);
  std::filesystem::remove_all(root);
}

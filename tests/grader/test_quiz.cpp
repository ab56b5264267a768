// The quiz: every numeric answer is the bank model's and banksim's, every
// answer of the key has its salted hash (and no other answer does), the
// handed-out file is the quiz's template, the key scores full marks, and
// every known-wrong answer fails with its explanation.
#include <doctest/doctest.h>

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "grader_test.hpp"
#include "quiz.hpp"
#include "sha256.hpp"
#include "run_command.hpp"

using banklab::test::run_command;
namespace quiz = banklab::grader::quiz;

namespace {

std::string source(const std::string& relative) { return std::string(BANKLAB_SOURCE_DIR) + "/" + relative; }

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

banklab::test::CommandResult grader(const std::string& args) {
  return run_command(std::string(GRADER_PATH) + " --lab quiz " + args + " 2>&1");
}

// What banksim prints for a question's command: its wavefronts, or the bank
// of the one lane it shows.
int banksim_answer(const quiz::Question& q) {
  const std::string command = quiz::banksim_command(q);
  REQUIRE(command.rfind("banksim ", 0) == 0);
  const auto r = run_command(std::string(BANKSIM_PATH) + command.substr(7));
  INFO(command << "\n" << r.out);
  REQUIRE(r.status == 0);
  std::smatch m;
  if (q.measure == quiz::Measure::kWavefronts) {
    REQUIRE(std::regex_search(r.out, m, std::regex("wavefronts: (\\d+)")));
    return std::stoi(m[1]);
  }
  // "    bank   0   1 ..." then "  wf  0    .   .  0 ...": the column of the lane.
  std::istringstream lines(r.out);
  std::string line, header;
  while (std::getline(lines, line)) {
    if (line.find("    bank ") == 0) header = line;
    if (line.find("  wf  0") == 0) {
      std::istringstream cells(line.substr(7));
      std::string cell;
      for (int bank = 0; cells >> cell; ++bank) {
        if (cell != ".") return bank;
      }
    }
  }
  FAIL("no bank map in banksim's output");
  return -1;
}

}  // namespace

TEST_CASE("every numeric quiz answer is the bank model's, and the banksim command shown prints it") {
  int numeric = 0;
  for (const quiz::Question& q : quiz::questions()) {
    if (q.kind != quiz::Kind::kNumber) continue;
    ++numeric;
    INFO("question " << q.number << ": " << q.text);
    const std::string answer = quiz::key().at(q.number).answer;
    CHECK(std::to_string(quiz::model_answer(q)) == answer);
    CHECK(banksim_answer(q) == std::stoi(answer));
  }
  CHECK(numeric >= 10);
}

TEST_CASE("the quiz asks at least two questions of every stage, numbered in order") {
  std::map<std::string, int> per_part;
  int expected = 1;
  for (const quiz::Question& q : quiz::questions()) {
    CHECK(q.number == expected++);
    ++per_part[q.part];
    if (q.kind != quiz::Kind::kNumber) {
      CHECK(q.choices.size() == 4);
      for (char letter : quiz::key().at(q.number).answer) CHECK((letter == ' ' || (letter >= 'a' && letter <= 'd')));
    }
  }
  for (const char* stage : {"stage 1: bank mapping", "stage 2: stride and gcd", "stage 3: padded transpose",
                            "stage 4: XOR swizzle", "stage 5: broadcast and wide types", "stage 6: the capstone"}) {
    INFO(stage);
    CHECK(per_part[stage] >= 2);
  }
}

TEST_CASE("labs/quiz/answers.txt is the quiz's template, and the key answers every question as the quiz does") {
  CHECK(read(source("labs/quiz/answers.txt")) == quiz::answers_template());
  CHECK(grader("--template").out == quiz::answers_template());
  const auto key = quiz::read_answers(source("solutions/quiz/answers.txt"));
  for (const quiz::Question& q : quiz::questions()) {
    INFO("question " << q.number);
    REQUIRE(key.count(q.number) == 1);
    CHECK(key.at(q.number) == quiz::key().at(q.number).answer);
  }
}

TEST_CASE("grader --lab quiz: the key scores full marks, the untouched file nothing") {
  const auto solved = grader("--solutions");
  INFO(solved.out);
  CHECK(solved.status == 0);
  CHECK(solved.out.find("Score: 24/24") != std::string::npos);
  const auto untouched = grader("");
  CHECK(untouched.status == 1);
  CHECK(untouched.out.find("Score: 0/24") != std::string::npos);
  CHECK(untouched.out.find("Q3 the bank of byte 180: FAIL\n    not answered: write your answer after \"3:\"") !=
        std::string::npos);
}

TEST_CASE("known-wrong quiz answers: every question fails, says why, and numeric ones show the banksim command") {
  const auto r = grader("--impl " + source("tests/grader/quiz/wrong_answers.txt") + " --format json");
  INFO(r.out);
  CHECK(r.status == 1);
  const auto report = nlohmann::json::parse(r.out);
  CHECK(report["lab"] == "quiz");
  CHECK(report["score"] == 0);
  CHECK(report["checks"].size() == quiz::questions().size());
  for (std::size_t i = 0; i < quiz::questions().size(); ++i) {
    const quiz::Question& q = quiz::questions()[i];
    const auto& check = report["checks"][i];
    const std::string output = check["output"];
    INFO("question " << q.number << ": " << output);
    CHECK(check["status"] == "fail");
    CHECK(output.find("the right one") != std::string::npos);
    CHECK(output.find("why: ") != std::string::npos);
    if (q.kind == quiz::Kind::kNumber) CHECK(output.find("see it: " + quiz::banksim_command(q)) != std::string::npos);
  }
  const auto text = grader("--impl " + source("tests/grader/quiz/wrong_answers.txt"));
  CHECK(text.out.find("Q9 column of a 32x32 tile: FAIL\n    your answer: 1; the right one: 32\n    why: Row t starts") !=
        std::string::npos);
  CHECK(text.out.find("see it: banksim --width 4 --stride 32\n") != std::string::npos);
  // Gradescope's results.json and JUnit name the quiz.
  const auto gradescope = nlohmann::json::parse(
      grader("--impl " + source("tests/grader/quiz/wrong_answers.txt") + " --format gradescope").out);
  CHECK(gradescope["score"] == 0);
  CHECK(gradescope["tests"][0]["name"] == "quiz: Q1 banks of shared memory");
  CHECK(grader("--impl " + source("tests/grader/quiz/wrong_answers.txt") + " --format junit")
            .out.find("<testsuite name=\"quiz\" tests=\"24\" failures=\"24\"") != std::string::npos);
}

TEST_CASE("quiz answers of the wrong kind fail with what to write, and an unreadable file is a usage error") {
  const auto kinds = grader("--impl " + source("tests/grader/quiz/wrong_kinds.txt"));
  CHECK(kinds.out.find("\"c a\": this question has one right answer; give one letter") != std::string::npos);
  CHECK(kinds.out.find("\"thirteen\" is not a whole number") != std::string::npos);
  CHECK(kinds.out.find("\"a e\": answer with letters a to d") != std::string::npos);
  const auto malformed = grader("--impl " + source("tests/grader/quiz/malformed_line.txt"));
  CHECK(malformed.status == 2);
  CHECK(malformed.out.find("malformed_line.txt:2: cannot read \"the answer to 2 is a\"") != std::string::npos);
  const auto unknown = grader("--impl " + source("tests/grader/quiz/unknown_question.txt"));
  CHECK(unknown.status == 2);
  CHECK(unknown.out.find("unknown_question.txt:2: there is no question 25 (the quiz has questions 1 to 24)") !=
        std::string::npos);
  const auto twice = grader("--impl " + source("tests/grader/quiz/answered_twice.txt"));
  CHECK(twice.status == 2);
  CHECK(twice.out.find("answered_twice.txt:2: question 3 is answered twice (also on line 1)") != std::string::npos);
  CHECK(grader("--impl /no/such/answers.txt").status == 2);
}

TEST_CASE("sha256_hex is SHA-256 (FIPS 180-4 test vectors)") {
  CHECK(quiz::sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(quiz::sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(quiz::sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST_CASE("every answer of the key has its salted hash, and no other answer of its kind does") {
  REQUIRE(quiz::key().size() == quiz::questions().size());
  for (const quiz::Question& q : quiz::questions()) {
    const std::string answer = quiz::key().at(q.number).answer;
    INFO("question " << q.number << ": if the answer changed, its row in quiz.cpp's kSealed is {" << q.number
                     << ", \"" << q.salt << "\", \""
                     << quiz::sha256_hex(q.salt + ":" + std::to_string(q.number) + ":" + answer) << "\"}");
    CHECK(q.salt.size() == 16);
    CHECK(quiz::normalised(q, answer) == answer);
    CHECK(quiz::is_answer(q, answer));
    int right = 0;
    if (q.kind == quiz::Kind::kNumber) {
      for (int n = 0; n <= 1024; ++n) right += quiz::is_answer(q, std::to_string(n)) ? 1 : 0;
    } else {
      for (int set = 1; set < 16; ++set) {
        std::string letters;
        for (int i = 0; i < 4; ++i) {
          if (set & (1 << i)) letters += (letters.empty() ? "" : " ") + std::string(1, static_cast<char>('a' + i));
        }
        right += quiz::is_answer(q, letters) ? 1 : 0;
      }
    }
    CHECK(right == 1);
  }
}

TEST_CASE("question 18: timing the whole kernel does not show conflicts, as the course teaches") {
  const quiz::Question& q = quiz::questions().at(17);
  REQUIRE(q.number == 18);
  CHECK(q.choices[1].find("timing the whole kernel") != std::string::npos);
  CHECK(quiz::is_answer(q, "a c"));
  CHECK_FALSE(quiz::is_answer(q, "a b c"));
  CHECK(quiz::key().at(18).why.find("Timing the whole kernel does not") != std::string::npos);
}

TEST_CASE("every explanation of the key has its Chinese one, with the same numbers, for the Chinese sheet") {
  const auto numbers = [](const std::string& text) {
    std::set<std::string> found;
    const std::regex digits(R"(\d+)");
    for (std::sregex_iterator it(text.begin(), text.end(), digits), end; it != end; ++it) found.insert(it->str());
    return found;
  };
  for (const auto& [number, entry] : quiz::key()) {
    INFO("question " << number << ": " << entry.why_zh);
    // A CJK ideograph (U+4E00-U+9FFF) is led by a byte 0xE4-0xE9.
    CHECK(std::any_of(entry.why_zh.begin(), entry.why_zh.end(), [](char c) {
      return static_cast<unsigned char>(c) >= 0xE4 && static_cast<unsigned char>(c) <= 0xE9;
    }));
    CHECK(numbers(entry.why_zh) == numbers(entry.why));
    CHECK_FALSE(std::regex_search(entry.why_zh, std::regex("([A-Za-z]{2,} ){3}[A-Za-z]{2,}")));
  }
}

TEST_CASE("a question number too long for an int is no question of the quiz, said with file and line") {
  // std::stoi would throw, and the grader say only "error: stoi".
  const std::string path = (std::filesystem::temp_directory_path() / "banklab_quiz_big_number.txt").string();
  std::ofstream(path) << "1: c\n99999999999: 1\n";
  const auto r = grader("--impl " + path);
  CHECK(r.status == 2);
  CHECK(r.out.find(path + ":2: there is no question 99999999999 (the quiz has questions 1 to 24)") !=
        std::string::npos);
}

TEST_CASE("the key written another way scores full marks: small q labels, several letters in any order") {
  // "q3: 13" for "3: 13", and the multiple-choice answers of several letters
  // reversed ("c a" for "a c"): the same answers.
  std::istringstream key(read(source("solutions/quiz/answers.txt")));
  std::ostringstream other;
  int reversed = 0;
  for (std::string line; std::getline(key, line);) {
    const auto colon = line.find(':');
    if (line.empty() || line[0] == '#' || colon == std::string::npos) {
      other << line << "\n";
      continue;
    }
    std::istringstream words(line.substr(colon + 1));
    std::vector<std::string> letters;
    for (std::string w; words >> w;) letters.push_back(w);
    if (letters.size() > 1) ++reversed;
    std::reverse(letters.begin(), letters.end());
    other << "q" << line.substr(0, colon) << ":";
    for (const auto& w : letters) other << " " << w;
    other << "\n";
  }
  REQUIRE(reversed >= 2);
  const std::string path = (std::filesystem::temp_directory_path() / ("banklab_quiz_other_way_" +
                                                                       std::to_string(getpid()) + ".txt")).string();
  std::ofstream(path) << other.str();
  const auto r = grader("--impl " + path);
  INFO(other.str() << r.out);
  CHECK(r.status == 0);
  CHECK(r.out.find("Score: 24/24") != std::string::npos);
  std::filesystem::remove(path);
}

TEST_CASE("an English sheet with Chinese in an answer line is graded in English") {
  std::string sheet = read(source("solutions/quiz/answers.txt"));
  const std::size_t at = sheet.find("\n1: c\n");
  REQUIRE(at != std::string::npos);
  sheet.replace(at, 6, "\n1: \xe4\xb8\x89\xe5\x8d\x81\xe4\xba\x8c\n");  // "1: 三十二"
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("banklab_quiz_han_answer_" + std::to_string(getpid()) + ".txt")).string();
  std::ofstream(path, std::ios::binary) << sheet;
  const auto r = grader("--impl " + path);
  INFO(r.out);
  CHECK(r.status == 1);
  CHECK(r.out.find("Q1 banks of shared memory: FAIL\n    \"\xe4\xb8\x89\xe5\x8d\x81\xe4\xba\x8c\": answer with one "
                   "letter, a to d\n") != std::string::npos);
  CHECK(r.out.find("Score: 23/24") != std::string::npos);
  std::filesystem::remove(path);
}

TEST_CASE("the key saved on Windows scores full marks: CRLF line endings, a UTF-8 byte order mark, tabs") {
  const std::string key = read(source("solutions/quiz/answers.txt"));
  std::string windows = "\xEF\xBB\xBF";  // Notepad's byte order mark
  for (const char c : key) {
    if (c == '\n') windows += " \t\r";  // trailing blanks too
    windows += c;
  }
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("banklab_quiz_windows_" + std::to_string(getpid()) + ".txt")).string();
  std::ofstream(path, std::ios::binary) << windows;
  const auto r = grader("--impl " + path);
  INFO(r.out);
  CHECK(r.status == 0);
  CHECK(r.out.find("Score: 24/24") != std::string::npos);
  std::filesystem::remove(path);
}

TEST_CASE("a letter written twice counts once, letters may be split by commas, and a number with a word after it is "
          "not a whole number") {
  // The key with every letter answer's letters comma-separated and the first
  // repeated ("c, c", "a, c, a") still
  // scores full marks; with " wavefronts" after every number, each numeric
  // question fails, saying what it could not read.
  std::istringstream key(read(source("solutions/quiz/answers.txt")));
  std::ostringstream repeated, worded;
  int letter_answers = 0, number_answers = 0;
  for (std::string line; std::getline(key, line);) {
    const auto colon = line.find(':');
    if (line.empty() || line[0] == '#' || colon == std::string::npos) {
      repeated << line << "\n";
      worded << line << "\n";
      continue;
    }
    std::istringstream words(line.substr(colon + 1));
    std::vector<std::string> answer;
    for (std::string w; words >> w;) answer.push_back(w);
    REQUIRE(!answer.empty());
    const bool number = std::isdigit(static_cast<unsigned char>(answer[0][0])) != 0;
    repeated << line.substr(0, colon + 1);
    for (std::size_t k = 0; k < answer.size(); ++k) repeated << (k > 0 && !number ? ", " : " ") << answer[k];
    if (!number) {
      ++letter_answers;
      repeated << " " << answer[0];  // the first letter again
    }
    repeated << "\n";
    worded << line;
    if (number) {
      ++number_answers;
      worded << " wavefronts";
    }
    worded << "\n";
  }
  REQUIRE(letter_answers >= 5);
  REQUIRE(number_answers >= 5);
  const std::string base = (std::filesystem::temp_directory_path() / ("banklab_quiz_" + std::to_string(getpid()))).string();
  std::ofstream(base + "_repeated.txt") << repeated.str();
  std::ofstream(base + "_worded.txt") << worded.str();
  const auto r = grader("--impl " + base + "_repeated.txt");
  INFO(repeated.str() << r.out);
  CHECK(r.status == 0);
  CHECK(r.out.find("Score: 24/24") != std::string::npos);
  const auto w = grader("--impl " + base + "_worded.txt");
  INFO(worded.str() << w.out);
  CHECK(w.status == 1);
  CHECK(w.out.find("Score: " + std::to_string(24 - number_answers) + "/24") != std::string::npos);
  CHECK(w.out.find(" wavefronts\" is not a whole number") != std::string::npos);
  std::filesystem::remove(base + "_repeated.txt");
  std::filesystem::remove(base + "_worded.txt");
}

TEST_CASE("every kept answer sheet, the key and the untouched templates give their whole golden report, text and JSON") {
  // Each question's status, points and whole message (the banksim command,
  // the explanation kept back, what to write), as a student reads them.
  const std::vector<std::pair<std::string, std::string>> sheets = {
      {"key", "--solutions"},
      {"untouched", "--impl " + source("labs/quiz/answers.txt")},
      {"untouched.zh", "--impl " + source("labs/quiz/answers.zh.txt")},
      {"wrong_answers", "--impl " + source("tests/grader/quiz/wrong_answers.txt")},
      {"wrong_kinds", "--impl " + source("tests/grader/quiz/wrong_kinds.txt")},
  };
  for (const auto& [name, args] : sheets) {
    CAPTURE(name);
    const auto text = run_command(std::string(GRADER_PATH) + " --lab quiz " + args + " 2>/dev/null");
    CHECK((text.status == 0 || text.status == 1));
    banklab::test::check_golden("quiz/" + name + ".txt", banklab::test::machine_neutral(text.out));
    const auto json = run_command(std::string(GRADER_PATH) + " --lab quiz " + args + " --format json 2>/dev/null");
    CHECK(json.status == text.status);
    banklab::test::check_golden("quiz/" + name + ".json.txt",
                                banklab::test::report_text(json.status, nlohmann::json::parse(json.out)));
  }
  // The sheets the quiz refuses: the message, and exit status 2.
  for (const std::string name : {"answered_twice", "malformed_line", "unknown_question"}) {
    CAPTURE(name);
    const auto r = grader("--impl " + source("tests/grader/quiz/" + name + ".txt"));
    CHECK(r.status == 2);
    banklab::test::check_golden("quiz/" + name + ".txt", banklab::test::machine_neutral(r.out));
  }
}

// The quiz as the student kit builds it (no_key.cpp, no key.cpp): the key
// file still scores 21/21 through the salted hashes alone, and a wrong answer
// is told what to revisit and the banksim command, never the right answer.
#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "quiz.hpp"

namespace quiz = banklab::grader::quiz;

namespace {

std::string source(const std::string& relative) { return std::string(BANKLAB_SOURCE_DIR) + "/" + relative; }

}  // namespace

TEST_CASE("without the key, the quiz grades the key file 21/21 and a wrong file 0/21") {
  REQUIRE(quiz::key().empty());
  const banklab::grader::Rubric rubric = quiz::rubric();
  const auto right = quiz::grade(rubric, quiz::read_answers(source("solutions/quiz/answers.txt")), "answers.txt");
  CHECK(right.score == 21);
  CHECK(right.max_score == 21);
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

// The quiz (grader --lab quiz), a self-check: questions for every stage, the
// answers file a student fills in (labs/quiz/answers.txt), and its grading.
// Answers are checked against salted SHA-256 hashes, so the student kit can
// grade without holding the key; the instructor's tree also builds the key
// (key.cpp: answers and full explanations), the kit builds no_key.cpp.
// Numeric answers are costs of one warp access: each such question holds the
// access, the bank model must give its answer (tests/grader/test_quiz.cpp),
// and a wrong answer is told the banksim command that works it out.
// Feedback comes in the sheet's language: English for labs/quiz/answers.txt,
// Chinese for labs/quiz/answers.zh.txt (see sheet_language()).
#pragma once

#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "banklab/bank_model.hpp"
#include "rubric.hpp"

namespace banklab::grader::quiz {

enum class Kind {
  kChoice,   ///< one letter
  kChoices,  ///< every right letter, no wrong one
  kNumber,   ///< a whole number
};

/// What a numeric question asks of its access.
enum class Measure {
  kWavefronts,  ///< the wavefronts of the warp instruction
  kBankOfLane0, ///< the bank lane 0's word is in
};

struct Question {
  int number = 0;
  std::string part;   ///< the stage it tests ("stage 1: bank mapping", ...)
  std::string title;  ///< a few words: the check's name
  std::string text;   ///< the question, as the answers file shows it
  Kind kind = Kind::kChoice;
  std::vector<std::string> choices;  ///< "a) ...", in order
  /// Shown after a wrong answer: the idea to revisit, never the answer.
  std::string concept_text;
  /// concept_text in Chinese (the terms of handouts/zh/glossary.md), for the Chinese sheet.
  std::string concept_text_zh;
  /// The answer, sealed: sha256_hex(salt + ":" + number + ":" + answer),
  /// the answer written as normalised() writes it ("c", "a b d", "13").
  std::string salt;
  std::string hash;
  // kNumber only: the access and what is asked of it.
  WarpAccess access{};
  Measure measure = Measure::kWavefronts;
};

/// Every question, in order (numbered from 1).
const std::vector<Question>& questions();

/// A question's answer in the clear and its full explanation.
struct KeyEntry {
  std::string answer;  ///< as normalised() writes it
  std::string why;
  std::string why_zh;  ///< why, in Chinese
};
/// The key, by question number: empty in the student kit (no_key.cpp).
const std::map<int, KeyEntry>& key();

/// The language a sheet's feedback is written in.
enum class Language {
  kEnglish,
  kChinese,
};

/// The language of the answers file at `path`: Chinese when its name ends in
/// ".zh.txt" or one of its comment lines holds a Chinese character (the
/// Chinese sheet's questions are Chinese comments, so a copy under another
/// name keeps its language), else English (also for a file that cannot be read).
Language sheet_language(const std::string& path);

/// What `given` says as an answer to `q`, written the one way the hash is
/// taken ("a, C" -> "a c"; "013" -> "13"); "" if it is not an answer of
/// that kind.
std::string normalised(const Question& q, const std::string& given);
/// Whether `answer` (normalised) is q's answer: its salted hash matches.
bool is_answer(const Question& q, const std::string& answer);

/// The number the bank model gives for a numeric question.
int model_answer(const Question& q);

/// The banksim command that shows a numeric question's answer.
std::string banksim_command(const Question& q);

/// The answers file as handed out: every question, an empty answer line each.
std::string answers_template();

/// An answers file that cannot be read: "FILE:LINE: what, and how to write it".
struct AnswersError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// The answers of a file: question number -> what was written (trimmed, may be
/// empty). Throws AnswersError for a line that is not `N: ANSWER`, a question
/// that does not exist, or a question answered twice, in the sheet's language.
std::map<int, std::string> read_answers(const std::string& path);

/// The sheet under `source_dir` that --lab all grades: the key
/// (solutions/quiz/answers.txt) with `solutions`, else labs/quiz/answers.txt,
/// or labs/quiz/answers.zh.txt when that one holds an answer and the English
/// one none. A sheet that cannot be read counts as answered, so that its error
/// is the one reported.
std::string sheet_to_grade(const std::string& source_dir, bool solutions);

/// The quiz as a rubric (one check per question, one part per stage) and its
/// grading of `answers`, its feedback in `language`; the rubric must outlive
/// the result. Check names and parts stay English in both languages: they are
/// the checks' identity in Gradescope, JUnit, --list, --visibility and the
/// class report, which must add up English and Chinese sheets alike.
Rubric rubric();
GradeResult grade(const Rubric& rubric, const std::map<int, std::string>& answers, const std::string& path,
                  Language language);
/// grade() in the language of the sheet at `path` (sheet_language()).
GradeResult grade(const Rubric& rubric, const std::map<int, std::string>& answers, const std::string& path);

}  // namespace banklab::grader::quiz

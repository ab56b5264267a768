// Grading a folder of submissions (the instructor's batch): each submission
// is graded by a child grader process, several at once, into a gradebook
// (CSV and JSON). A submission that crashes, hangs or does not build is a
// row with its status; it never stops the batch. A rerun keeps the rows of
// unchanged submissions unless asked to grade everything again.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "config.hpp"

#include <nlohmann/json.hpp>

namespace banklab::grader {

/// The K-th of N shares of a class (grader --shard K/N; 1 <= index <= count).
struct Shard {
  int index = 1;
  int count = 1;
};

struct BatchOptions {
  int lab = 0;
  std::string folder;     ///< one file or one folder per student
  std::string gradebook;  ///< path without extension: PATH.csv and PATH.json
  int jobs = 1;
  bool regrade = false;
  /// Passed on to every child grader.
  std::string backend = "cpu";
  /// The batch's one seed (every student the same inputs); without one, the
  /// earlier gradebook's, else a random one.
  std::optional<std::uint64_t> seed;
  double time_limit = 60;
  double memory_limit_gib = 4;
  double build_time_limit = 300;
  /// The points a submission can get on this backend (the row of one that
  /// does not build shows 0 of these).
  double max_score = 0;
  /// Grade only this share of the class (shard.hpp).
  std::optional<Shard> shard;
  /// Grade each student on the variant of their name (variant.hpp), with
  /// this course salt; the gradebook records each student's variant.
  bool variants = false;
  std::string variant_salt;
};

/// One student's submission file ("" with `problem` set when there is none).
struct Submission {
  std::string student;
  std::string file;
  std::string problem;
};

/// The submissions of `folder` for a lab whose file is `lab_file`
/// (transpose.cu): FOLDER/NAME.cu is student NAME; FOLDER/NAME/ holds
/// `lab_file` or a single .cu file. Sorted by student.
std::vector<Submission> find_submissions(const std::string& folder, const std::string& lab_file);

/// Writes the gradebook PATH.json and PATH.csv of these rows (null rows are
/// left out) and PATH-changes.csv of `changes` (what reruns changed), each
/// through a temporary file and a rename.
void write_gradebook(const std::vector<nlohmann::json>& rows, const std::string& path, int lab, std::uint64_t seed,
                     const std::string& backend, const nlohmann::json& changes);

/// Grades every submission and writes the gradebook; returns the exit
/// status (0: every submission graded or reported, 2: bad usage).
int grade_submissions(const Config& config, const BatchOptions& options);

}  // namespace banklab::grader

// The class report (grader --report GRADEBOOK): one static HTML page, with
// SVG charts drawn by the kit's own SVG writer, of a gradebook that
// --submissions wrote: the score histogram, the pass rate per check, the
// most common failure messages per check, and the submissions flagged as
// identical or near-identical (similarity.hpp).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "config.hpp"

namespace banklab::grader {

struct ReportOptions {
  std::string gradebook;  ///< PATH.json, PATH.csv or PATH (either)
  std::string output;     ///< the HTML page ("": beside the gradebook, PATH.html)
  double similarity_threshold = 0.7;
};

/// The gradebook at `path` as JSON (a CSV gradebook is read into the same
/// form: rows with their check scores, no files or messages); throws
/// std::runtime_error naming the file and what is wrong.
nlohmann::json read_gradebook(const std::string& path);

/// Writes the page (and its charts as PATH-scores.svg and PATH-checks.svg
/// beside it); returns the exit status (0, or 2 with a message on stderr).
int write_class_report(const Config& config, const ReportOptions& options);

}  // namespace banklab::grader

// Text, JSON, Gradescope and JUnit renderings of a graded rubric.
#include "output.hpp"

#include "checks.hpp"
#include "ast_verdicts.hpp"
#include "sandbox.hpp"

#include <iomanip>
#include <sstream>

namespace banklab::grader {

namespace {

std::string points(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

std::string xml_escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t') {
          out += ' ';
        } else {
          out += c;
        }
    }
  }
  return out;
}

std::string score_line(const GradeResult& r) {
  std::string line = "Score: " + points(r.score) + "/" + points(r.max_score);
  if (r.skipped_points > 0) {
    double gpu = 0;
    for (const CheckResult& c : r.results) {
      if (c.outcome.status == Status::kSkip && c.check->gpu_only) gpu += c.check->points;
    }
    const double other = r.skipped_points - gpu;
    line += " (out of the " + points(r.max_score) + " points checked on the " + r.backend + " backend; ";
    if (gpu > 0) line += points(gpu) + " points of GPU checks" + (other > 0 ? " and " : "");
    if (other > 0) line += points(other) + " points of checks that do not apply to this file";
    line += " skipped)";
  }
  return line;
}

// "lab 3", or "quiz" for the quiz (which has no lab number, backend or seed).
std::string label(const GradeResult& r) {
  return r.rubric->lab == 0 ? r.rubric->title : "lab " + std::to_string(r.rubric->lab);
}

}  // namespace

std::string format_text(const GradeResult& r, bool verbose) {
  std::ostringstream out;
  if (r.rubric->lab == 0) {
    out << "BankLab grader: " << label(r) << ", " << r.implementation << "\n";
  } else {
    out << "BankLab grader: lab " << r.rubric->lab << " (" << r.rubric->title << "), " << r.implementation << "\n";
    out << "backend: " << r.backend << " (" << r.backend_reason << "); seed " << r.seed << " (rerun with --seed "
        << r.seed << ")\n";
    out << "sandbox: " << sandbox_description() << "\n";
    const std::string source_check = source_check_description(r.implementation);
    if (!source_check.empty()) out << "source check: " << source_check << "\n";
  }
  for (const std::string& part : r.rubric->parts) {
    double part_score = 0, part_max = 0;
    bool any = false;
    for (const CheckResult& c : r.results) {
      if (c.check->part != part) continue;
      if (!any) out << "== " << part << " ==\n";
      any = true;
      out << c.check->name << ": " << to_string(c.outcome.status);
      if (c.outcome.status != Status::kSkip && r.rubric->lab != 0)
        out << " (" << std::fixed << std::setprecision(1) << c.seconds << "s)";
      out << std::defaultfloat << "\n";
      if (!c.outcome.reason.empty() && (c.outcome.status != Status::kPass || verbose)) {
        out << indent(c.outcome.reason, "    ");
      }
      if (c.outcome.status != Status::kSkip) {
        part_score += c.score;
        part_max += c.check->points;
      }
    }
    if (any) out << part << ": " << points(part_score) << "/" << points(part_max) << "\n";
  }
  out << score_line(r) << "\n";
  return out.str();
}

nlohmann::json format_json(const GradeResult& r) {
  nlohmann::json checks = nlohmann::json::array();
  nlohmann::json parts = nlohmann::json::array();
  for (const std::string& part : r.rubric->parts) {
    double score = 0, max = 0;
    for (const CheckResult& c : r.results) {
      if (c.check->part == part && c.outcome.status != Status::kSkip) {
        score += c.score;
        max += c.check->points;
      }
    }
    parts.push_back({{"name", part}, {"score", score}, {"max_score", max}});
  }
  for (const CheckResult& c : r.results) {
    const char* status = c.outcome.status == Status::kPass   ? "pass"
                         : c.outcome.status == Status::kFail ? "fail"
                                                             : "skip";
    checks.push_back({{"name", c.check->name},
                      {"part", c.check->part},
                      {"status", status},
                      {"score", c.score},
                      {"max_score", c.check->points},
                      {"seconds", c.seconds},
                      {"output", c.outcome.reason}});
  }
  if (r.rubric->lab == 0) {
    return {{"lab", label(r)}, {"implementation", r.implementation}, {"score", r.score}, {"max_score", r.max_score},
            {"parts", parts}, {"checks", checks}};
  }
  return {{"lab", r.rubric->lab},
          {"title", r.rubric->title},
          {"implementation", r.implementation},
          {"backend", r.backend},
          {"backend_reason", r.backend_reason},
          {"seed", r.seed},
          {"sandbox", sandbox_description()},
          {"source_check", source_check_description(r.implementation)},
          {"score", r.score},
          {"max_score", r.max_score},
          {"skipped_points", r.skipped_points},
          {"parts", parts},
          {"checks", checks}};
}

nlohmann::json format_gradescope(const std::vector<GradeResult>& results) {
  nlohmann::json tests = nlohmann::json::array();
  double score = 0;
  std::string summary;
  for (const GradeResult& r : results) {
    score += r.score;
    summary += label(r) + ": " + score_line(r) +
               (r.rubric->lab == 0 ? "" : "; backend " + r.backend + ", seed " + std::to_string(r.seed)) + "\n";
    for (const CheckResult& c : r.results) {
      const bool skipped = c.outcome.status == Status::kSkip;
      nlohmann::json test = {{"name", label(r) + ": " + c.check->name},
                             {"score", c.score},
                             {"max_score", skipped ? 0.0 : c.check->points},
                             {"status", c.outcome.status == Status::kFail ? "failed" : "passed"},
                             {"output", skipped ? "skipped: " + c.outcome.reason : c.outcome.reason},
                             {"visibility", "visible"}};
      tests.push_back(test);
    }
  }
  if (!results.empty()) summary += "Your code ran in a sandbox: " + sandbox_description() + "\n";
  return {{"score", score}, {"output", summary}, {"tests", tests}};
}

std::string format_junit(const std::vector<GradeResult>& results) {
  std::ostringstream out;
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n";
  for (const GradeResult& r : results) {
    int failures = 0, skipped = 0;
    double seconds = 0;
    for (const CheckResult& c : r.results) {
      failures += c.outcome.status == Status::kFail;
      skipped += c.outcome.status == Status::kSkip;
      seconds += c.seconds;
    }
    out << "  <testsuite name=\"" << xml_escape(r.rubric->lab == 0 ? label(r) : label(r) + " (" + r.rubric->title + ")")
        << "\" tests=\""
        << r.results.size() << "\" failures=\"" << failures << "\" skipped=\"" << skipped << "\" time=\"" << seconds
        << "\">\n";
    for (const CheckResult& c : r.results) {
      out << "    <testcase classname=\"" << (r.rubric->lab == 0 ? r.rubric->title : "lab" + std::to_string(r.rubric->lab))
          << "." << xml_escape(c.check->part) << "\" name=\""
          << xml_escape(c.check->name) << "\" time=\"" << c.seconds << "\"";
      if (c.outcome.status == Status::kPass) {
        out << "/>\n";
        continue;
      }
      out << ">\n";
      const char* tag = c.outcome.status == Status::kFail ? "failure" : "skipped";
      const std::string first_line = c.outcome.reason.substr(0, c.outcome.reason.find('\n'));
      out << "      <" << tag << " message=\"" << xml_escape(first_line) << "\">" << xml_escape(c.outcome.reason)
          << "</" << tag << ">\n    </testcase>\n";
    }
    out << "  </testsuite>\n";
  }
  out << "</testsuites>\n";
  return out.str();
}

std::string json_text(const nlohmann::json& value, int indent) {
  return value.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace banklab::grader

// Text, JSON, Gradescope and JUnit renderings of a graded rubric.
#include "output.hpp"

#include "checks.hpp"
#include "ast_verdicts.hpp"
#include "sandbox.hpp"

#include "banklab/bank_model.hpp"
#include "banklab/bank_svg.hpp"

#include <cstdio>
#include <iomanip>
#include <optional>
#include <sstream>

namespace banklab::grader {

namespace {

std::string points(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

// Seconds as a plain decimal ("0.000006", never "6.089e-06"): JUnit's schema
// types `time` as xs:decimal, which has no exponent.
std::string decimal_seconds(double seconds) {
  if (!(seconds >= 0) || seconds > 1e9) seconds = 0;  // NaN or nonsense: nothing measured
  char text[64];
  std::snprintf(text, sizeof text, "%.6f", seconds);
  return text;
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
    if (!r.build_error.empty()) gpu = r.skipped_points;  // nothing ran: only GPU checks were left out
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

// The one test of a file that did not build (or, for the quiz, could not be read).
std::string build_test_name(const GradeResult& r) {
  return r.rubric->lab == 0 ? "the answers file can be read" : "the file builds";
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
    if (!r.rubric->variant_text.empty()) {
      out << "variant: " << r.rubric->variant_text << " (of " << r.rubric->variant.value("from", std::string()) << ")\n";
    }
    out << "sandbox: " << sandbox_description() << "\n";
    const std::string source_check = source_check_description(r.implementation);
    if (!source_check.empty()) out << "source check: " << source_check << "\n";
  }
  if (!r.build_error.empty()) {
    out << (r.rubric->lab == 0 ? "the answers file cannot be read:\n" : "the file does not build:\n")
        << indent(r.build_error, "    ");
    out << score_line(r) << "\n";
    return out.str();
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
  const char* status = r.build_error.empty() ? "graded" : "does not build";
  if (r.rubric->lab == 0) {
    nlohmann::json quiz = {{"lab", label(r)}, {"implementation", r.implementation}, {"status", status},
                           {"score", r.score}, {"max_score", r.max_score}, {"parts", parts}, {"checks", checks}};
    if (!r.build_error.empty()) quiz["message"] = r.build_error;
    return quiz;
  }
  nlohmann::json report = {{"lab", r.rubric->lab},
          {"title", r.rubric->title},
          {"implementation", r.implementation},
          {"backend", r.backend},
          {"backend_reason", r.backend_reason},
          {"seed", r.seed},
          {"sandbox", sandbox_description()},
          {"source_check", source_check_description(r.implementation)},
          {"status", status},
          {"score", r.score},
          {"max_score", r.max_score},
          {"skipped_points", r.skipped_points},
          {"parts", parts},
          {"checks", checks}};
  if (!r.build_error.empty()) report["message"] = r.build_error;
  if (!r.rubric->variant.is_null()) report["variant"] = r.rubric->variant;
  return report;
}

nlohmann::json format_json(const std::vector<GradeResult>& results) {
  if (results.size() == 1) return format_json(results[0]);
  nlohmann::json all = nlohmann::json::array();
  double score = 0, max_score = 0, skipped = 0;
  for (const GradeResult& r : results) {
    all.push_back(format_json(r));
    score += r.score;
    max_score += r.max_score;
    skipped += r.skipped_points;
  }
  return {{"score", score},
          {"max_score", max_score},
          {"skipped_points", skipped},
          {"total", {{"score", score}, {"max_score", max_score}}},
          {"labs", all}};
}

GradeResult unbuilt_result(const Rubric& rubric, const std::string& implementation, const std::string& backend,
                           const std::string& backend_reason, std::uint64_t seed, const std::string& message) {
  GradeResult r;
  r.rubric = &rubric;
  r.implementation = implementation;
  r.backend = backend;
  r.backend_reason = backend_reason;
  r.seed = seed;
  for (const Check& c : rubric.checks) {
    (c.gpu_only && backend != "gpu" ? r.skipped_points : r.max_score) += c.points;
  }
  r.build_error = message.empty() ? "the file was refused before the build (no message)" : message;
  return r;
}

nlohmann::json format_gradescope(const std::vector<GradeResult>& results) {
  nlohmann::json tests = nlohmann::json::array();
  double score = 0;
  std::string summary;
  for (const GradeResult& r : results) {
    score += r.score;
    summary += label(r) + ": " + score_line(r) +
               (r.rubric->lab == 0 ? "" : "; backend " + r.backend + ", seed " + std::to_string(r.seed)) + "\n";
    if (!r.build_error.empty()) {
      // One failed test carries the compiler's message: the student sees it
      // where the checks would have been.
      summary += r.build_error + "\n";
      tests.push_back({{"name", label(r) + ": " + build_test_name(r)},
                       {"score", 0},
                       {"max_score", r.max_score},
                       {"status", "failed"},
                       {"output", r.build_error},
                       {"visibility", "visible"}});
      continue;
    }
    for (const CheckResult& c : r.results) {
      const bool skipped = c.outcome.status == Status::kSkip;
      const std::string visibility = visibility_of(*r.rubric, *c.check);
      // A skipped check (a GPU check on the CPU emulator) counts nothing and
      // asks for what a Gradescope student cannot do: hidden from students,
      // kept for the instructor.
      nlohmann::json test = {{"name", label(r) + ": " + c.check->name},
                             {"score", c.score},
                             {"max_score", skipped ? 0.0 : c.check->points},
                             {"output", skipped ? "skipped: " + c.outcome.reason : c.outcome.reason},
                             {"visibility", skipped ? std::string("hidden") : visibility}};
      if (!skipped) test["status"] = c.outcome.status == Status::kFail ? "failed" : "passed";
      tests.push_back(test);
    }
  }
  if (!results.empty()) summary += "Your code ran in a sandbox: " + sandbox_description() + "\n";
  return {{"score", score}, {"output", summary}, {"tests", tests}};
}

std::string format_junit(const std::vector<GradeResult>& results) {
  std::ostringstream suites;
  int all_tests = 0, all_failures = 0;
  double all_seconds = 0;
  for (const GradeResult& r : results) {
    const std::string suite = r.rubric->lab == 0 ? label(r) : label(r) + " (" + r.rubric->title + ")";
    const std::string classname = r.rubric->lab == 0 ? r.rubric->title : "lab" + std::to_string(r.rubric->lab);
    if (!r.build_error.empty()) {
      // One failed test, "builds", with the compiler's message: a CI job
      // shows why instead of an empty document.
      ++all_tests;
      ++all_failures;
      const std::string first_line = r.build_error.substr(0, r.build_error.find('\n'));
      suites << "  <testsuite name=\"" << xml_escape(suite) << "\" tests=\"1\" failures=\"1\" errors=\"0\" "
             << "skipped=\"0\" time=\"" << decimal_seconds(0) << "\">\n"
             << "    <testcase classname=\"" << xml_escape(classname) << ".build\" name=\"" << build_test_name(r) << "\" time=\""
             << decimal_seconds(0) << "\">\n"
             << "      <failure message=\"" << xml_escape(first_line) << "\" type=\"does not build\">"
             << xml_escape(r.build_error) << "</failure>\n    </testcase>\n  </testsuite>\n";
      continue;
    }
    int failures = 0, skipped = 0;
    double seconds = 0;
    for (const CheckResult& c : r.results) {
      failures += c.outcome.status == Status::kFail;
      skipped += c.outcome.status == Status::kSkip;
      seconds += c.seconds;
    }
    all_tests += static_cast<int>(r.results.size());
    all_failures += failures;
    all_seconds += seconds;
    suites << "  <testsuite name=\"" << xml_escape(suite) << "\" tests=\"" << r.results.size() << "\" failures=\""
           << failures << "\" errors=\"0\" skipped=\"" << skipped << "\" time=\"" << decimal_seconds(seconds)
           << "\">\n";
    for (const CheckResult& c : r.results) {
      suites << "    <testcase classname=\"" << xml_escape(classname) << "." << xml_escape(c.check->part)
             << "\" name=\"" << xml_escape(c.check->name) << "\" time=\"" << decimal_seconds(c.seconds) << "\"";
      if (c.outcome.status == Status::kPass) {
        suites << "/>\n";
        continue;
      }
      suites << ">\n";
      const char* tag = c.outcome.status == Status::kFail ? "failure" : "skipped";
      const std::string first_line = c.outcome.reason.substr(0, c.outcome.reason.find('\n'));
      suites << "      <" << tag << " message=\"" << xml_escape(first_line) << "\">" << xml_escape(c.outcome.reason)
             << "</" << tag << ">\n    </testcase>\n";
    }
    suites << "  </testsuite>\n";
  }
  std::ostringstream out;
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"BankLab\" tests=\"" << all_tests
      << "\" failures=\"" << all_failures << "\" errors=\"0\" time=\"" << decimal_seconds(all_seconds) << "\">\n"
      << suites.str() << "</testsuites>\n";
  return out.str();
}

namespace {

std::string base64(const std::string& bytes) {
  static const char* digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  std::size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const unsigned v = static_cast<unsigned char>(bytes[i]) << 16 | static_cast<unsigned char>(bytes[i + 1]) << 8 |
                       static_cast<unsigned char>(bytes[i + 2]);
    out += {digits[v >> 18 & 63], digits[v >> 12 & 63], digits[v >> 6 & 63], digits[v & 63]};
  }
  if (i + 1 == bytes.size()) {
    const unsigned v = static_cast<unsigned char>(bytes[i]) << 16;
    out += {digits[v >> 18 & 63], digits[v >> 12 & 63], '=', '='};
  } else if (i + 2 == bytes.size()) {
    const unsigned v = static_cast<unsigned char>(bytes[i]) << 16 | static_cast<unsigned char>(bytes[i + 1]) << 8;
    out += {digits[v >> 18 & 63], digits[v >> 12 & 63], digits[v >> 6 & 63], '='};
  }
  return out;
}

// The warp access of a `banksim ...` command as checks.cpp writes it
// (banksim_command): --width W [--op st] and --stride S [--base B]
// [--lanes 0-L] or --offsets "o o - o ...". Empty when `line` is not one.
std::optional<WarpAccess> access_of_command(const std::string& line) {
  const auto at = line.find("banksim --width ");
  if (at == std::string::npos) return std::nullopt;
  std::istringstream words(line.substr(at + 8));
  std::string word;
  int width = 4;
  MemOp op = MemOp::kLoad;
  std::int64_t stride = 0, base = 0;
  int last = kWarpSize - 1;
  bool strided = false;
  std::vector<std::int64_t> offsets;
  try {
    while (words >> word) {
      if (word == "--width" && words >> word) {
        width = std::stoi(word);
      } else if (word == "--op" && words >> word) {
        op = word == "st" ? MemOp::kStore : MemOp::kLoad;
      } else if (word == "--stride" && words >> word) {
        strided = true;
        stride = std::stoll(word);
      } else if (word == "--base" && words >> word) {
        base = std::stoll(word);
      } else if (word == "--lanes" && words >> word) {
        last = std::stoi(word.substr(word.find('-') + 1));
      } else if (word == "--offsets") {
        std::string list;
        std::getline(words, list, '"');
        std::getline(words, list, '"');
        std::istringstream items(list);
        for (std::string item; items >> item;) offsets.push_back(item == "-" ? kInactive : std::stoll(item));
      } else {
        break;  // the end of the command
      }
    }
    if (strided) {
      const LaneMask lanes = last >= kWarpSize - 1 ? 0xffffffffu : ((LaneMask{1} << (last + 1)) - 1);
      return strided_access(width, op, stride, base, lanes);
    }
    if (offsets.size() == kWarpSize) return WarpAccess::make(width, op, offsets);
  } catch (const std::exception&) {
    // not a command this kit wrote: no drawing
  }
  return std::nullopt;
}

// PrairieLearn images of a check's message: the bank map of each access it
// names with a banksim command, drawn as SVG, as a data URL.
nlohmann::json bank_map_images(const std::string& message) {
  nlohmann::json images = nlohmann::json::array();
  std::istringstream lines(message);
  for (std::string line; std::getline(lines, line);) {
    const std::optional<WarpAccess> access = access_of_command(line);
    if (!access || images.size() >= 4) continue;
    const AccessCost cost = price(*access);
    const std::string title = "bank map: " + std::to_string(cost.wavefronts) + " wavefronts";
    images.push_back({{"label", title},
                      {"url", "data:image/svg+xml;base64," + base64(format_svg(cost, title))}});
  }
  return images;
}

}  // namespace

nlohmann::json format_prairielearn(const std::vector<GradeResult>& results) {
  nlohmann::json tests = nlohmann::json::array();
  nlohmann::json images = nlohmann::json::array();
  double score = 0, max_score = 0;
  bool gradable = true;
  std::string message;
  for (const GradeResult& r : results) {
    score += r.score;
    max_score += r.max_score;
    message += label(r) + ": " + score_line(r) + "\n";
    if (!r.build_error.empty()) {
      // As PrairieLearn's own C grader does: a file that does not compile is
      // not gradable (no attempt lost), and the message says why.
      gradable = false;
      message += r.build_error + "\n";
      tests.push_back({{"name", label(r) + ": " + build_test_name(r)},
                       {"points", 0},
                       {"max_points", r.max_score},
                       {"message", r.build_error}});
      continue;
    }
    for (const CheckResult& c : r.results) {
      if (c.outcome.status == Status::kSkip) continue;  // counts nothing; a PrairieLearn student cannot act on it
      nlohmann::json test = {{"name", label(r) + ": " + c.check->name},
                             {"description", c.check->part},
                             {"points", c.score},
                             {"max_points", c.check->points},
                             {"message", c.outcome.status == Status::kPass ? std::string("OK") : c.outcome.reason}};
      if (c.outcome.status == Status::kFail) {
        nlohmann::json drawn = bank_map_images(c.outcome.reason);
        if (!drawn.empty()) {
          test["images"] = drawn;
          if (images.empty()) images.push_back(drawn[0]);  // the first one, beside the score
        }
      }
      tests.push_back(test);
    }
  }
  nlohmann::json out = {{"gradable", gradable},
                        {"score", max_score > 0 ? score / max_score : 0.0},
                        {"message", message},
                        {"tests", tests}};
  if (!images.empty()) out["images"] = images;
  return out;
}

std::string format_autolab(const std::vector<GradeResult>& results) {
  std::ostringstream out;
  nlohmann::json scores = nlohmann::json::object();
  double score = 0, max_score = 0;
  for (const GradeResult& r : results) {
    out << format_text(r, false);
    score += r.score;
    max_score += r.max_score;
    // One Autolab problem per part of each lab ("lab3 correctness"): the
    // names to give the assessment's problems.
    const std::string prefix = r.rubric->lab == 0 ? "quiz" : "lab" + std::to_string(r.rubric->lab);
    // A part none of whose checks ran here (the GPU's, on the CPU emulator)
    // is left out rather than scored 0; a file that does not build is 0 in
    // every part it could have scored in.
    for (const std::string& part : r.rubric->parts) {
      double points = 0;
      bool ran = false;
      for (const CheckResult& c : r.results) {
        if (c.check->part != part) continue;
        points += c.score;
        ran = ran || c.outcome.status != Status::kSkip;
      }
      if (!r.build_error.empty()) {
        for (const Check& c : r.rubric->checks) ran = ran || (c.part == part && (!c.gpu_only || r.backend == "gpu"));
      }
      if (ran) scores[prefix + " " + part] = points;
    }
  }
  // The last line, which Autolab reads: the scores and the scoreboard's
  // columns (total, out of).
  out << json_text(nlohmann::json{{"scores", scores}, {"scoreboard", {score, max_score}}}, -1) << "\n";
  return out.str();
}

std::string json_text(const nlohmann::json& value, int indent) {
  return value.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace banklab::grader

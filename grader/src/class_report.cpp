// The class report's page and charts (class_report.hpp).
#include "class_report.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <regex>
#include <sstream>

#include "banklab/bank_svg.hpp"
#include "batch.hpp"
#include "output.hpp"
#include "rubric.hpp"
#include "similarity.hpp"

namespace banklab::grader {

namespace fs = std::filesystem;

namespace {

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string html(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string number(double v, int decimals = 1) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(decimals) << v;
  std::string s = out.str();
  if (s.find('.') != std::string::npos) {
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
  }
  return s;
}

// One CSV record from `in` (quoted fields may hold commas, quotes and newlines).
bool csv_record(std::istream& in, std::vector<std::string>& fields) {
  fields.clear();
  if (in.peek() == EOF) return false;
  std::string field;
  bool quoted = false;
  for (int c = in.get(); c != EOF; c = in.get()) {
    if (quoted) {
      if (c == '"' && in.peek() == '"') {
        field += '"';
        in.get();
      } else if (c == '"') {
        quoted = false;
      } else {
        field += static_cast<char>(c);
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.push_back(field);
      field.clear();
    } else if (c == '\n') {
      break;
    } else if (c != '\r') {
      field += static_cast<char>(c);
    }
  }
  fields.push_back(field);
  return true;
}

nlohmann::json read_csv_gradebook(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<std::string> header, fields;
  if (!csv_record(in, header) || header.size() < 4 || header[0] != "student" || header[1] != "score") {
    throw std::runtime_error(path + ": line 1 is not a gradebook's header (student,score,max_score,status,...)");
  }
  // Columns after the fixed ones are checks; a column whose name ends in
  // "message" is the message of the check before it.
  std::size_t first_check = 4;
  for (std::size_t i = 0; i < header.size(); ++i) {
    if (header[i] == "seed") first_check = i + 1;
  }
  nlohmann::json rows = nlohmann::json::array();
  int line = 1;
  while (csv_record(in, fields)) {
    ++line;
    if (fields.size() == 1 && fields[0].empty()) continue;
    if (fields.size() != header.size()) {
      throw std::runtime_error(path + ":" + std::to_string(line) + ": " + std::to_string(fields.size()) +
                               " fields, the header has " + std::to_string(header.size()));
    }
    nlohmann::json row = {{"student", fields[0]}, {"status", fields[3]}};
    try {
      row["score"] = std::stod(fields[1]);
      row["max_score"] = std::stod(fields[2]);
    } catch (const std::exception&) {
      throw std::runtime_error(path + ":" + std::to_string(line) + ": score or max_score is not a number");
    }
    nlohmann::json checks = nlohmann::json::array();
    for (std::size_t i = first_check; i < header.size(); ++i) {
      const std::string& name = header[i];
      if (name.size() >= 7 && name.compare(name.size() - 7, 7, "message") == 0) {
        if (!checks.empty() && !fields[i].empty()) checks.back()["message"] = fields[i];
        continue;
      }
      nlohmann::json check = {{"name", name}, {"score", nullptr}};
      try {
        std::size_t used = 0;
        const double v = std::stod(fields[i], &used);
        if (used == fields[i].size()) check["score"] = v;
      } catch (const std::exception&) {
        // empty or "skip": not graded here
      }
      checks.push_back(check);
    }
    if (row["status"] == "graded") row["checks"] = checks;
    rows.push_back(row);
  }
  return {{"submissions", rows}};
}

struct CheckStats {
  std::string name;
  double points = 0;
  int graded = 0, passed = 0;
  bool has_messages = false;
  // normalised message -> (count, an example, students)
  std::map<std::string, std::tuple<int, std::string, std::vector<std::string>>> messages = {};
};

// A failure message as it is grouped: its first line, file paths reduced to
// the file's name and numbers to '#', so that "got 32 at alice/transpose.cu:41"
// and "got 16 at bob/transpose.cu:40" count as one message.
std::string message_key(const std::string& message) {
  std::string first = message.substr(0, message.find('\n'));
  static const std::regex path(R"([^\s:'"`()]*/([^\s/:'"`()]+))");
  first = std::regex_replace(first, path, "$1");
  static const std::regex digits(R"(\d+(\.\d+)?)");
  first = std::regex_replace(first, digits, "#");
  return first;
}

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

// A check's score in a gradebook row: a number, or none (skipped: null, "" or "skip").
std::optional<double> check_score(const nlohmann::json& c) {
  if (c.contains("status") && c["status"].is_string() && c["status"] == "skip") return std::nullopt;
  if (!c.contains("score") || !c["score"].is_number()) return std::nullopt;
  return c["score"].get<double>();
}

std::string check_message(const nlohmann::json& c) {
  for (const char* key : {"message", "output", "reason"}) {
    if (c.contains(key) && c[key].is_string() && !c[key].get<std::string>().empty()) return c[key].get<std::string>();
  }
  return "";
}

constexpr const char* kBar = "#4f7fbf";

std::string histogram_svg(const std::vector<double>& fractions, int excluded) {
  // Bins of 10 points per hundred, and full marks on its own.
  std::vector<int> bins(11, 0);
  for (double f : fractions) {
    const int b = f >= 1.0 ? 10 : std::clamp(static_cast<int>(std::floor(f * 10)), 0, 9);
    ++bins[static_cast<std::size_t>(b)];
  }
  // Whole-number ticks: a step of ceil(most / 4).
  const int step = std::max(1, (*std::max_element(bins.begin(), bins.end()) + 3) / 4);
  const int most = 4 * step;
  Svg svg;
  const int left = 50, top = 40, bar = 48, height = 220;
  svg.width = left + 11 * bar + 20;
  svg.height = top + height + 70;
  svg.text(svg.width / 2.0, 20, "Scores (" + std::to_string(fractions.size()) + " submissions" +
                                    (excluded > 0 ? ", " + std::to_string(excluded) + " without a score left out" : "") +
                                    ")",
           13, "middle", true);
  for (int t = 0; t <= 4; ++t) {
    const double y = top + height - height * t / 4.0;
    svg.rect(left, y, 11 * bar, 0.5, "#cccccc", "none", 0);
    svg.text(left - 6, y + 4, std::to_string(step * t), 10, "end");
  }
  for (int b = 0; b < 11; ++b) {
    const double h = static_cast<double>(height) * bins[static_cast<std::size_t>(b)] / most;
    const double x = left + b * bar;
    svg.rect(x + 4, top + height - h, bar - 8, h, b == 10 ? "#3f9f5f" : kBar, "none", 0);
    if (bins[static_cast<std::size_t>(b)] > 0)
      svg.text(x + bar / 2.0, top + height - h - 4, std::to_string(bins[static_cast<std::size_t>(b)]), 11);
    svg.text(x + bar / 2.0, top + height + 16, b == 10 ? "100" : std::to_string(b * 10) + "-" + std::to_string(b * 10 + 9),
             10);
  }
  svg.text(left + 11 * bar / 2.0, top + height + 40, "percent of the points (the last bar: full marks)", 11);
  svg.text(4, top - 12, "submissions", 10, "start");
  return svg.str();
}

std::string pass_rate_svg(const std::vector<CheckStats>& checks) {
  Svg svg;
  std::size_t longest = 10;
  for (const CheckStats& c : checks) longest = std::max(longest, c.name.size());
  const int label = static_cast<int>(std::min<std::size_t>(longest, 70) * 7) + 20, row = 24, top = 40, width = 360;
  svg.width = label + width + 120;
  svg.height = top + static_cast<int>(checks.size()) * row + 30;
  svg.text(svg.width / 2.0, 20, "Pass rate per check (full points on it, of the submissions it ran on)", 13,
           "middle", true);
  int i = 0;
  for (const CheckStats& c : checks) {
    const double y = top + i++ * row;
    std::string name = c.name.size() > 70 ? c.name.substr(0, 67) + "..." : c.name;
    svg.text(label - 8, y + 15, name, 11, "end");
    svg.rect(label, y + 3, width, row - 6, "#eeeeee", "none", 0);
    if (c.graded == 0) {
      svg.text(label + 6, y + 15, "not run (skipped everywhere)", 10, "start");
      continue;
    }
    const double rate = static_cast<double>(c.passed) / c.graded;
    svg.rect(label, y + 3, width * rate, row - 6, rate >= 0.75 ? "#3f9f5f" : rate >= 0.4 ? "#d9a53f" : "#c8553d",
             "none", 0);
    svg.text(label + width + 8, y + 15,
             number(100 * rate, 0) + "% (" + std::to_string(c.passed) + "/" + std::to_string(c.graded) + ")", 11,
             "start");
  }
  for (int t = 0; t <= 4; ++t) {
    svg.text(label + width * t / 4.0, top + static_cast<double>(checks.size()) * row + 16, std::to_string(25 * t) + "%",
             10);
  }
  return svg.str();
}

void write_file(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.flush();
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

}  // namespace

nlohmann::json read_gradebook(const std::string& given) {
  fs::path path(given);
  if (fs::is_directory(path)) path /= "gradebook";
  const std::string ext = path.extension().string();
  fs::path json_path = ext == ".json" ? path : ext == ".csv" ? fs::path(path).replace_extension(".json")
                                                             : fs::path(path.string() + ".json");
  fs::path csv_path = ext == ".csv" ? path : ext == ".json" ? fs::path() : fs::path(path.string() + ".csv");
  // The JSON has what the CSV has and more (files, messages): read it where
  // it is.
  if (fs::is_regular_file(json_path)) {
    nlohmann::json book;
    try {
      book = nlohmann::json::parse(read_text(json_path));
    } catch (const nlohmann::json::exception& error) {
      throw std::runtime_error(json_path.string() + ": not JSON (" + error.what() + ")");
    }
    if (!book.is_object() || !book.contains("submissions") || !book["submissions"].is_array()) {
      throw std::runtime_error(json_path.string() +
                               ": not a gradebook (no \"submissions\" list); make one with grader --submissions");
    }
    book["path"] = json_path.string();
    return book;
  }
  if (!csv_path.empty() && fs::is_regular_file(csv_path)) {
    nlohmann::json book = read_csv_gradebook(csv_path.string());
    book["path"] = csv_path.string();
    return book;
  }
  throw std::runtime_error(given + ": no such gradebook (give the PATH.json or PATH.csv that grader --submissions wrote)");
}

namespace {

int write_report_of(const Config& config, const ReportOptions& o, const nlohmann::json& book);

}  // namespace

int write_class_report(const Config& config, const ReportOptions& o) {
  nlohmann::json book;
  try {
    book = read_gradebook(o.gradebook);
  } catch (const std::exception& error) {
    std::cerr << "grader: error: --report " << error.what() << "\n";
    return 2;
  }
  try {
    return write_report_of(config, o, book);
  } catch (const nlohmann::json::exception& error) {
    // A field of the wrong type (a hand-edited gradebook): name the file.
    std::cerr << "grader: error: --report " << book["path"].get<std::string>()
              << ": a row does not have the form --submissions writes (" << error.what() << ")\n";
    return 2;
  }
}

namespace {

int write_report_of(const Config& config, const ReportOptions& o, const nlohmann::json& book) {
  const fs::path book_path = book["path"].get<std::string>();
  const int lab = book.value("lab", 0);
  std::optional<Rubric> rubric;
  try {
    if (lab != 0) rubric = rubric_for(lab);
  } catch (const std::exception&) {
    // a lab this grader does not know: the checks come from the gradebook alone
  }
  const nlohmann::json& rows = book["submissions"];

  // Scores.
  std::vector<double> fractions;
  std::map<std::string, int> statuses;
  int excluded = 0;
  for (const auto& row : rows) {
    const std::string status = row.value("status", std::string("?"));
    ++statuses[status];
    const double max = row.contains("max_score") && row["max_score"].is_number() ? row["max_score"].get<double>() : 0;
    if ((status == "graded" || status == "does not build") && max > 0 && row.contains("score") &&
        row["score"].is_number()) {
      fractions.push_back(row["score"].get<double>() / max);
    } else {
      ++excluded;
    }
  }

  // Checks: the rubric's order and points, else the gradebook's.
  std::vector<CheckStats> checks;
  auto find_check = [&](const std::string& name) -> CheckStats& {
    for (CheckStats& c : checks)
      if (c.name == name) return c;
    checks.push_back({name});
    return checks.back();
  };
  // GPU checks on a CPU gradebook were skipped, whatever points the
  // gradebook shows for them (older graders wrote 0).
  std::vector<std::string> skipped_here;
  const bool cpu_book = book.value("backend", std::string("")) == "cpu";
  if (rubric) {
    for (const Check& c : rubric->checks) {
      if (c.gpu_only && cpu_book) {
        skipped_here.push_back(c.name);
        continue;
      }
      find_check(c.name).points = c.points;
    }
  }
  auto skipped = [&](const std::string& name) {
    return std::find(skipped_here.begin(), skipped_here.end(), name) != skipped_here.end();
  };
  bool any_check_messages = false;
  for (const auto& row : rows) {
    if (!row.contains("checks") || !row["checks"].is_array()) continue;
    for (const auto& c : row["checks"]) {
      if (!c.contains("name") || !c["name"].is_string() || skipped(c["name"].get<std::string>())) continue;
      CheckStats& stats = find_check(c["name"].get<std::string>());
      const std::optional<double> score = check_score(c);
      if (c.contains("max_score") && c["max_score"].is_number()) stats.points = c["max_score"].get<double>();
      if (!score) continue;
      if (!rubric && !c.contains("max_score")) stats.points = std::max(stats.points, *score);
      ++stats.graded;
      const bool passed = *score >= stats.points - 1e-9;
      stats.passed += passed;
      const std::string message = check_message(c);
      if (!message.empty()) stats.has_messages = any_check_messages = true;
      if (passed || message.empty()) continue;
      auto& [count, example, students] = stats.messages[message_key(message)];
      if (count++ == 0) example = first_line(message);
      students.push_back(row.value("student", std::string("?")));
    }
  }
  // A check whose points the gradebook alone gave (no rubric) counts a score
  // below the best seen as a failure: recount with the final points.
  if (!rubric) {
    for (CheckStats& c : checks) c.passed = 0;
    for (const auto& row : rows) {
      if (!row.contains("checks") || !row["checks"].is_array()) continue;
      for (const auto& c : row["checks"]) {
        const std::optional<double> score = check_score(c);
        if (score && c.contains("name") && c["name"].is_string())
          find_check(c["name"].get<std::string>()).passed += *score >= find_check(c["name"].get<std::string>()).points - 1e-9;
      }
    }
  }
  // Build failures and other rows without checks: their own messages.
  std::map<std::string, std::tuple<int, std::string, std::vector<std::string>>> row_messages;
  for (const auto& row : rows) {
    const std::string status = row.value("status", std::string(""));
    if (status == "graded" || !row.contains("message") || !row["message"].is_string()) continue;
    const std::string message = row["message"].get<std::string>();
    auto& [count, example, students] = row_messages[status + ": " + message_key(message)];
    if (count++ == 0) example = status + ": " + first_line(message);
    students.push_back(row.value("student", std::string("?")));
  }

  // Similarity: each row's file (as the batch found it, or found again in
  // the gradebook's folder), against the stage's skeleton as the base.
  std::vector<similarity::Source> sources;
  std::vector<std::string> unreadable;
  std::string base;
  const LabFiles* lab_files = config.labs.count(lab) ? &config.labs.at(lab) : nullptr;
  if (lab_files != nullptr) base = read_text(config.lab_file(*lab_files, false));
  std::map<std::string, std::string> found_again;
  if (lab_files != nullptr && fs::is_directory(book_path.parent_path().empty() ? "." : book_path.parent_path())) {
    try {
      for (const Submission& s :
           find_submissions(book_path.parent_path().empty() ? "." : book_path.parent_path().string(), lab_files->file))
        if (!s.file.empty()) found_again[s.student] = s.file;
    } catch (const std::exception&) {
      // an unreadable folder: only the rows' own paths
    }
  }
  for (const auto& row : rows) {
    const std::string student = row.value("student", std::string("?"));
    std::string file = row.contains("file") && row["file"].is_string() ? row["file"].get<std::string>() : "";
    if (file.empty() || !fs::is_regular_file(file)) {
      const auto again = found_again.find(student);
      file = again == found_again.end() ? "" : again->second;
    }
    if (file.empty()) {
      if (row.value("status", std::string("")) != "no submission") unreadable.push_back(student);
      continue;
    }
    std::error_code error;
    if (fs::file_size(file, error) > (std::uintmax_t{1} << 20) || error) continue;  // not a lab file
    sources.push_back({student, read_text(file)});
  }
  similarity::Options similarity_options;
  similarity_options.threshold = o.similarity_threshold;
  const similarity::Result similar = similarity::compare(sources, base, similarity_options);

  // The page.
  const fs::path out_path =
      !o.output.empty() ? fs::path(o.output) : fs::path(book_path).replace_extension(".html");
  const std::string stem = fs::path(out_path).replace_extension("").string();
  const std::string scores_svg = histogram_svg(fractions, excluded);
  const std::string checks_svg = pass_rate_svg(checks);
  std::ostringstream page;
  const std::string title = "BankLab class report: " + (lab != 0 ? "lab " + std::to_string(lab) : "a gradebook") +
                            (rubric ? " (" + rubric->title + ")" : "");
  page << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" << html(title)
       << "</title>\n<style>\n"
          "body { font-family: 'DejaVu Sans', sans-serif; margin: 2em auto; max-width: 72em; color: #222; }\n"
          "h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 2em; border-bottom: 1px solid #ccc; }\n"
          "table { border-collapse: collapse; margin: 0.5em 0; } td, th { border: 1px solid #ccc; padding: 0.2em "
          "0.5em; text-align: left; vertical-align: top; }\n"
          "th { background: #f2f2f2; } td.n { text-align: right; } .note { color: #555; }\n"
          "code { font-family: 'DejaVu Sans Mono', monospace; font-size: 0.9em; }\n"
          ".flag { background: #fde8e4; }\n</style>\n</head>\n<body>\n";
  page << "<h1>" << html(title) << "</h1>\n<p>Gradebook <code>" << html(book_path.string()) << "</code>: "
       << rows.size() << " submissions";
  for (const auto& [status, count] : statuses) page << ", " << count << " " << html(status);
  page << ". Backend " << html(book.value("backend", std::string("?"))) << ", seed "
       << html(book.contains("seed") ? book["seed"].dump() : std::string("?")) << ".</p>\n";
  if (!fractions.empty()) {
    std::vector<double> sorted = fractions;
    std::sort(sorted.begin(), sorted.end());
    double sum = 0;
    for (double f : sorted) sum += f;
    const double median = sorted.size() % 2 ? sorted[sorted.size() / 2]
                                            : (sorted[sorted.size() / 2 - 1] + sorted[sorted.size() / 2]) / 2;
    const auto full = std::count_if(sorted.begin(), sorted.end(), [](double f) { return f >= 1.0; });
    page << "<p>Mean " << number(100 * sum / static_cast<double>(sorted.size())) << "%, median "
         << number(100 * median) << "%, " << full << " at full marks.</p>\n";
  }
  page << "<h2>Score histogram</h2>\n" << scores_svg;
  page << "<h2>Pass rate per check</h2>\n" << checks_svg;
  if (!skipped_here.empty()) {
    page << "<p class=\"note\">Not run on the cpu backend (GPU checks):";
    for (std::size_t i = 0; i < skipped_here.size(); ++i) page << (i ? "; " : " ") << html(skipped_here[i]);
    page << ".</p>\n";
  }

  page << "<h2>Most common failure messages per check</h2>\n";
  if (!any_check_messages) {
    page << "<p class=\"note\">This gradebook has no per-check messages (written by a grader that kept only "
            "points); the table shows the checks' failure counts, and the messages of submissions that did not "
            "build. Grade again with a grader that records messages to see why each check failed.</p>\n";
  }
  page << "<table>\n<tr><th>check</th><th>failed</th><th>message (first line; numbers and paths grouped)</th>"
          "<th>times</th><th>students</th></tr>\n";
  auto students_cell = [](const std::vector<std::string>& names) {
    std::string cell;
    for (std::size_t i = 0; i < names.size() && i < 6; ++i) cell += (i ? ", " : "") + html(names[i]);
    if (names.size() > 6) cell += ", ... (" + std::to_string(names.size() - 6) + " more)";
    return cell;
  };
  for (const CheckStats& c : checks) {
    std::vector<std::tuple<int, std::string, std::vector<std::string>>> top;
    for (const auto& [key, entry] : c.messages) top.push_back(entry);
    std::stable_sort(top.begin(), top.end(), [](const auto& x, const auto& y) { return std::get<0>(x) > std::get<0>(y); });
    const int failed = c.graded - c.passed;
    const std::size_t shown = std::min<std::size_t>(top.size(), 3);
    const std::size_t span = std::max<std::size_t>(1, shown);
    page << "<tr><td rowspan=\"" << span << "\">" << html(c.name) << "</td><td class=\"n\" rowspan=\"" << span << "\">"
         << failed << "/" << c.graded << "</td>";
    if (shown == 0) {
      page << "<td colspan=\"3\" class=\"note\">"
           << (failed == 0 ? "" : c.has_messages || any_check_messages ? "no message recorded" : "no messages in this gradebook")
           << "</td></tr>\n";
      continue;
    }
    for (std::size_t i = 0; i < shown; ++i) {
      const auto& [count, example, students] = top[i];
      page << (i ? "<tr>" : "") << "<td><code>" << html(example) << "</code></td><td class=\"n\">" << count
           << "</td><td>" << students_cell(students) << "</td></tr>\n";
    }
  }
  page << "</table>\n";
  if (!row_messages.empty()) {
    page << "<p>Submissions without check results:</p>\n<table>\n<tr><th>message (first line)</th><th>times</th>"
            "<th>students</th></tr>\n";
    std::vector<std::tuple<int, std::string, std::vector<std::string>>> top;
    for (const auto& [key, entry] : row_messages) top.push_back(entry);
    std::stable_sort(top.begin(), top.end(), [](const auto& x, const auto& y) { return std::get<0>(x) > std::get<0>(y); });
    for (const auto& [count, example, students] : top) {
      page << "<tr><td><code>" << html(example) << "</code></td><td class=\"n\">" << count << "</td><td>"
           << students_cell(students) << "</td></tr>\n";
    }
    page << "</table>\n";
  }

  page << "<h2>Identical and near-identical submissions</h2>\n<p class=\"note\">" << sources.size()
       << " files compared as normalised tokens (comments, layout and #include lines dropped, every name that is "
          "not a keyword or a CUDA name renamed), by "
       << similarity_options.k << "-token fingerprints (winnowing, window " << similarity_options.window
       << "), with the stage's skeleton as the base: what every student was given is not counted. A pair is "
          "flagged at "
       << number(100 * similarity_options.threshold, 0)
       << "% of shared fingerprints or more. A flag is a reason to read the two files, not a verdict: short "
          "kernels written from the same handout can look alike.";
  if (!unreadable.empty()) page << " Not found, so not compared: " << students_cell(unreadable) << ".";
  page << "</p>\n";
  if (similar.pairs.empty()) {
    page << "<p>No pair flagged.</p>\n";
  } else {
    page << "<table>\n<tr><th>group</th><th>submissions</th></tr>\n";
    int g = 0;
    for (const auto& group : similar.groups) {
      std::vector<std::string> names;
      for (std::size_t i : group) names.push_back(sources[i].name);
      std::string cell;
      for (std::size_t i = 0; i < names.size(); ++i) cell += (i ? ", " : "") + html(names[i]);
      page << "<tr class=\"flag\"><td class=\"n\">" << ++g << "</td><td>" << cell << " (" << names.size()
           << ")</td></tr>\n";
    }
    page << "</table>\n<table>\n<tr><th>submission</th><th>submission</th><th>similarity</th><th>shared "
            "fingerprints</th><th>lines in common</th></tr>\n";
    auto lines_cell = [](const std::vector<int>& lines) {
      std::string cell;
      for (std::size_t i = 0; i < lines.size();) {
        std::size_t j = i;
        while (j + 1 < lines.size() && lines[j + 1] == lines[j] + 1) ++j;
        cell += (cell.empty() ? "" : ", ") + std::to_string(lines[i]) + (j > i ? "-" + std::to_string(lines[j]) : "");
        i = j + 1;
      }
      return cell;
    };
    for (const auto& p : similar.pairs) {
      page << "<tr class=\"flag\"><td>" << html(sources[p.a].name) << "</td><td>" << html(sources[p.b].name)
           << "</td><td class=\"n\">"
           << (p.identical ? "identical tokens" : number(100 * p.similarity, 0) + "%") << "</td><td class=\"n\">"
           << p.shared << "</td><td>" << lines_cell(p.lines_a) << " / " << lines_cell(p.lines_b) << "</td></tr>\n";
    }
    page << "</table>\n";
  }

  page << "<h2>Submissions</h2>\n<table>\n<tr><th>student</th><th>score</th><th>status</th></tr>\n";
  for (const auto& row : rows) {
    page << "<tr><td>" << html(row.value("student", std::string("?"))) << "</td><td class=\"n\">"
         << html(row.contains("score") ? row["score"].dump() : "") << "/"
         << html(row.contains("max_score") ? row["max_score"].dump() : "") << "</td><td>"
         << html(row.value("status", std::string(""))) << "</td></tr>\n";
  }
  page << "</table>\n</body>\n</html>\n";
  try {
    write_file(out_path, page.str());
    write_file(stem + "-scores.svg", scores_svg);
    write_file(stem + "-checks.svg", checks_svg);
  } catch (const std::exception& error) {
    std::cerr << "grader: error: --report: " << error.what() << "\n";
    return 2;
  }
  std::cout << "class report: " << out_path.string() << " (charts " << stem << "-scores.svg, " << stem
            << "-checks.svg); " << similar.pairs.size() << " pairs flagged as similar in " << similar.groups.size()
            << " groups\n";
  return 0;
}

}  // namespace

}  // namespace banklab::grader

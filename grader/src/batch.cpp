// The instructor's batch (batch.hpp).
#include "batch.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <random>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <thread>

#include "output.hpp"
#include "gpu_lock.hpp"
#include "process.hpp"
#include "shard.hpp"
#include "variant.hpp"

namespace banklab::grader {

namespace fs = std::filesystem;

namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// FNV-1a of a file's bytes: whether a submission changed since it was graded.
std::string content_hash(const std::string& path) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : read_file(path)) {
    h ^= c;
    h *= 1099511628211ull;
  }
  std::ostringstream out;
  out << std::hex << h;
  return out.str();
}

// Text as it can go in a gradebook: bytes that are not UTF-8 (a compiler
// echoing a binary file, an odd file name) become U+FFFD.
std::string clean(const std::string& text) {
  return nlohmann::json::parse(json_text(nlohmann::json(text), -1)).get<std::string>();
}

bool printable_utf8(const std::string& text) {
  if (clean(text) != text) return false;
  return std::none_of(text.begin(), text.end(), [](unsigned char c) { return c < 0x20 || c == 0x7f; });
}

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string first_lines(const std::string& text, int lines) {
  std::istringstream in(text);
  std::string line, out;
  for (int i = 0; i < lines && std::getline(in, line); ++i) out += (out.empty() ? "" : "\n") + line;
  return out;
}

std::string self_path() {
  char buffer[4096];
  const ssize_t n = readlink("/proc/self/exe", buffer, sizeof buffer - 1);
  return n > 0 ? std::string(buffer, static_cast<std::size_t>(n)) : std::string("grader");
}

// A student's report files: NAME.txt and NAME.json in the reports folder,
// NAME the student's name with every byte but letters, digits, '-', '_' and
// '.' (and a leading '.') written as %XX, its hex: one name, one file, and
// two names never share one ('ann lee' is ann%20lee, 'ann_lee' ann_lee). A
// name whose NAME would pass 200 bytes keeps its first 180 and a 64-bit hash
// of the whole name (a file name has at most 255).
std::string report_name(const std::string& student) {
  static const char* const kHex = "0123456789ABCDEF";
  std::string name;
  for (std::size_t i = 0; i < student.size(); ++i) {
    const auto c = static_cast<unsigned char>(student[i]);
    const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
                      c == '_' || (c == '.' && i > 0);  // ASCII only, whatever the locale
    if (keep) {
      name += static_cast<char>(c);
    } else {
      name += '%';
      name += kHex[c >> 4];
      name += kHex[c & 15];
    }
  }
  if (name.empty()) return "%";  // no encoded name is a lone '%'
  if (name.size() > 200) {
    char hash[24];
    std::snprintf(hash, sizeof hash, "%016llx",
                  static_cast<unsigned long long>(std::hash<std::string>{}(student)));
    name = name.substr(0, 180) + "-" + hash;
  }
  return name;
}

// A reports folder holds this file, so that a batch run over the same
// folder (another shard of an array job, a later run) never takes a reports
// folder for a student's submission.
constexpr const char* kReportsMarker = ".banklab-reports";

bool is_reports_folder(const fs::path& folder) {
  std::error_code error;
  return fs::is_regular_file(folder / kReportsMarker, error);
}

// Makes the reports folder with its marker already inside: built under a
// hidden name (which find_submissions skips) and renamed into place, so no
// other batch ever sees it without the marker. An existing folder gains the
// marker. Returns "" or what went wrong.
std::string make_reports_folder(const fs::path& reports) {
  std::error_code error;
  if (fs::is_directory(reports, error)) {
    std::ofstream marker(reports / kReportsMarker, std::ios::binary | std::ios::trunc);
    marker << "reports of a BankLab gradebook; grader --submissions skips this folder\n";
    return marker ? "" : "cannot write " + (reports / kReportsMarker).string();
  }
  const fs::path parent = reports.has_parent_path() ? reports.parent_path() : fs::path(".");
  std::string temp = (parent / ("." + reports.filename().string() + ".tmp-XXXXXX")).string();
  if (mkdtemp(temp.data()) == nullptr) return std::strerror(errno);
  {
    std::ofstream marker(fs::path(temp) / kReportsMarker, std::ios::binary | std::ios::trunc);
    marker << "reports of a BankLab gradebook; grader --submissions skips this folder\n";
  }
  fs::rename(temp, reports, error);
  if (error) {
    std::error_code ignored;
    fs::remove_all(temp, ignored);
    // Another batch made it first: theirs has the marker.
    if (fs::is_directory(reports, ignored)) return "";
    return error.message();
  }
  return "";
}

// Writes the text and JSON reports of a student ("" leaves that one out).
void write_student_reports(const fs::path& stem, const std::string& text, const std::string& json) {
  if (!text.empty()) std::ofstream(stem.string() + ".txt", std::ios::binary | std::ios::trunc) << text;
  if (!json.empty()) std::ofstream(stem.string() + ".json", std::ios::binary | std::ios::trunc) << json;
}

// A gradebook row's checks from a child's report: the score (null when the
// check was skipped: it is not a 0), the status, and the message of every
// check that lost points.
nlohmann::json gradebook_checks(const nlohmann::json& report_checks) {
  nlohmann::json checks = nlohmann::json::array();  // in the rubric's order
  for (const auto& c : report_checks) {
    const std::string status = c.value("status", "pass");
    nlohmann::json check = {{"name", c.at("name")}, {"status", status}};
    check["score"] = status == "skip" ? nlohmann::json(nullptr) : c.at("score");
    if (status == "fail") check["message"] = c.value("output", "");
    checks.push_back(check);
  }
  return checks;
}

// The CSV's message column, one line (a row per line, as spreadsheets and
// `wc -l` expect): the row's message (why it does not build), or, for each
// check that lost points, its name and the first line of its message, " | "
// between them. The JSON gradebook and the student's reports have them whole.
std::string lost_points_summary(const nlohmann::json& row) {
  std::string out;
  if (!row.contains("checks")) {
    out = row.value("message", "");
  } else {
    for (const auto& c : row["checks"]) {
      if (c.value("status", "") != "fail") continue;
      const std::string message = c.value("message", "");
      out += (out.empty() ? "" : " | ") + c["name"].get<std::string>() + ": " + message.substr(0, message.find('\n'));
    }
  }
  std::replace(out.begin(), out.end(), '\n', ' ');
  std::replace(out.begin(), out.end(), '\r', ' ');
  return out;
}

// The variant a student of this batch is graded on (null without variants).
nlohmann::json expected_variant(const BatchOptions& o, const std::string& student) {
  const VariantSpace* space = variant_space_for(o.lab);
  if (!o.variants || space == nullptr) return nullptr;
  try {
    return variant_json(*space, derive_variant(*space, student, o.variant_salt));
  } catch (const std::invalid_argument&) {
    return nullptr;  // a name of spaces only: the child grader says so
  }
}

// Grades one submission in a child grader; the gradebook row. `scratch` is a
// folder of the batch's own, for a file whose path is not printable text.
nlohmann::json grade_one(const Submission& s, const BatchOptions& o, std::uint64_t seed, const std::string& grader,
                         const fs::path& scratch, const std::string& lab_file, const ProcessOptions& child,
                         const fs::path& reports) {
  nlohmann::json row = {
      {"student", clean(s.student)}, {"file", clean(s.file)}, {"score", 0}, {"max_score", o.max_score}};
  const fs::path report_stem = reports / report_name(s.student);
  // Reports of an earlier run must not stand for this one.
  std::error_code stale;
  fs::remove(report_stem.string() + ".txt", stale);
  fs::remove(report_stem.string() + ".json", stale);
  if (o.variants) row["variant"] = expected_variant(o, s.student);
  if (!s.problem.empty()) {
    row["status"] = "no submission";
    row["message"] = clean(s.problem);
    write_student_reports(report_stem, clean(s.problem) + "\n", row.dump(2) + "\n");  // the row is the report
    return row;
  }
  row["sha"] = content_hash(s.file);
  // Reports name the file (in findings, in per-line costs) and must be text:
  // a path with control characters or bytes that are not UTF-8 is graded
  // through a copy with the lab file's own name.
  std::string file = s.file;
  if (!printable_utf8(fs::absolute(s.file).string())) {
    const fs::path copy = scratch / std::to_string(std::hash<std::string>{}(s.file)) / lab_file;
    std::error_code error;
    fs::create_directories(copy.parent_path(), error);
    fs::copy_file(s.file, copy, fs::copy_options::overwrite_existing, error);
    if (error) {
      row["status"] = "grader failed";
      row["message"] = "could not copy " + clean(s.file) + " to " + copy.string() + ": " + error.message();
      write_student_reports(report_stem, row["message"].get<std::string>() + "\n", row.dump(2) + "\n");
      return row;
    }
    file = copy.string();
  }
  char number[64];
  auto text = [&](double v) {
    std::snprintf(number, sizeof number, "%g", v);
    return std::string(number);
  };
  std::vector<std::string> argv = {grader,         "--lab",          std::to_string(o.lab), "--impl",
                                         file,           "--format",       "json",                "--backend",
                                         o.backend,      "--seed",         std::to_string(seed), "--time-limit",
                                         text(o.time_limit), "--memory-limit", text(o.memory_limit_gib),
                                         "--build-time-limit", text(o.build_time_limit), "--text-report",
                                         report_stem.string() + ".txt",
                                         // Several workers share the cores: each runs its runs one at a time.
                                         "--runner-jobs", o.jobs > 1 ? "1" : "0"};
  if (o.variants) {
    // The salt goes through the environment (BANKLAB_VARIANT_SALT, set by
    // the worker), not the command line that every process can read.
    argv.insert(argv.end(), {"--variant-from", s.student});
  }
  // Every check may take its time limit; the build its own; some slack.
  const double limit = o.build_time_limit * 2 + o.time_limit * 40 + 60;
  const ProcessResult r = run_process(argv, limit, child);
  if (r.exited && (r.exit_code == 0 || r.exit_code == 1 || r.exit_code == 2)) {
    // The child's JSON report (also for a file that does not build) is the student's.
    write_student_reports(report_stem, "", r.out);
  }
  if (r.exited && (r.exit_code == 0 || r.exit_code == 1)) {
    try {
      const nlohmann::json report = nlohmann::json::parse(r.out);
      row["status"] = "graded";
      row["score"] = report.at("score");
      row["max_score"] = report.at("max_score");
      row["skipped_points"] = report.at("skipped_points");
      row["backend"] = report.at("backend");
      row["seed"] = report.at("seed");
      row["checks"] = gradebook_checks(report.at("checks"));
      return row;
    } catch (const nlohmann::json::exception&) {
      row["status"] = "grader failed";
      row["message"] = clean("unreadable report: " + first_lines(r.out + r.err, 10));
      return row;
    }
  }
  if (r.exited && r.exit_code == 2) {
    row["status"] = "does not build";
    // What the compiler said, without the grader's progress line and the
    // build command (which name no error).
    std::istringstream lines(r.err);
    std::string line, said;
    while (std::getline(lines, line)) {
      if (line.rfind("grader: building ", 0) == 0 || line.rfind("$ ", 0) == 0) continue;
      said += line + "\n";
    }
    std::string message = first_lines(said, 20);
    if (message.empty()) message = "the grader refused the file and said nothing (exit status 2)";
    row["message"] = clean(message);
    if (!fs::exists(report_stem.string() + ".txt")) write_student_reports(report_stem, row["message"].get<std::string>() + "\n", "");
    return row;
  }
  row["status"] = "grader failed";
  row["message"] = clean("the grader " + r.describe(limit) + "\n" + first_lines(r.err, 10));
  write_student_reports(report_stem, row["message"].get<std::string>() + "\n", row.dump(2) + "\n");
  return row;
}

// A variant as a gradebook cell: "block_rows=4 p1_row=48 p2_row=34".
std::string variant_cell(const nlohmann::json& variant) {
  std::string cell;
  if (!variant.is_object()) return cell;
  for (const auto& [axis, value] : variant.items()) {
    if (axis == "from") continue;
    cell += (cell.empty() ? "" : " ") + axis + "=" + value.dump();
  }
  return cell;
}

// A changed score as text: "10", "7.5", "skip", "does not build".
std::string change_text(const nlohmann::json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (!value.is_number()) return value.dump();
  char text[32];
  std::snprintf(text, sizeof text, "%g", value.get<double>());
  return text;
}

// Writes `text` to `path` through a temporary file in the same folder and a
// rename: a reader (or a rerun after a crash) sees the old file or the new
// one, never half of one.
void write_atomically(const std::string& path, const std::string& text) {
  const std::string temporary = path + ".tmp" + std::to_string(getpid());
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << text;
    out.flush();
    if (!out) throw std::runtime_error("cannot write " + temporary);
  }
  std::error_code error;
  fs::rename(temporary, path, error);
  if (error) throw std::runtime_error("cannot rename " + temporary + " to " + path + ": " + error.message());
}

}  // namespace

// The gradebook of the rows graded so far (null rows are not graded yet).
void write_gradebook(const std::vector<nlohmann::json>& all_rows, const std::string& path, int lab,
                     std::uint64_t seed, const std::string& backend, const nlohmann::json& changes) {
  std::vector<nlohmann::json> rows;
  for (const auto& row : all_rows) {
    if (!row.is_null()) rows.push_back(row);
  }
  std::vector<std::string> check_names;  // the rubric's order, from the first graded row
  for (const auto& row : rows) {
    if (!row.contains("checks")) continue;
    for (const auto& c : row["checks"]) {
      const std::string name = c["name"].get<std::string>();
      if (std::find(check_names.begin(), check_names.end(), name) == check_names.end()) check_names.push_back(name);
    }
  }
  // A batch with variants has a variant column (before the seed: readers
  // take the columns after "seed" for the checks).
  const bool with_variants =
      std::any_of(rows.begin(), rows.end(), [](const nlohmann::json& row) { return row.contains("variant"); });
  std::ostringstream csv;
  csv << "student,score,max_score,status,backend" << (with_variants ? ",variant" : "") << ",seed";
  for (const auto& name : check_names) csv << ',' << csv_field(name);
  csv << ",message\n";
  for (const auto& row : rows) {
    csv << csv_field(row["student"].get<std::string>()) << ',' << row["score"].dump() << ','
        << row["max_score"].dump() << ',' << csv_field(row["status"].get<std::string>()) << ','
        << (row.contains("backend") ? row["backend"].get<std::string>() : "") << ',';
    if (with_variants) csv << csv_field(variant_cell(row.value("variant", nlohmann::json()))) << ',';
    csv << (row.contains("seed") ? row["seed"].dump() : "");
    for (const auto& name : check_names) {
      csv << ',';
      if (!row.contains("checks")) continue;
      for (const auto& c : row["checks"]) {
        // A skipped check reads "skip", not 0 (an older gradebook's rows have no status).
        if (c["name"] == name) csv << (c.value("status", "") == "skip" || c["score"].is_null() ? "skip" : c["score"].dump());
      }
    }
    csv << ',' << csv_field(lost_points_summary(row)) << '\n';
  }
  // JSON first: it is what a rerun reads (the seed, the rows done).
  write_atomically(path + ".json", json_text(nlohmann::json{{"lab", lab},
                                                            {"seed", seed},
                                                            {"backend", backend},
                                                            {"submissions", rows},
                                                            {"changes", changes}}) +
                                       "\n");
  write_atomically(path + ".csv", csv.str());
  std::ostringstream changes_csv;
  changes_csv << "student,check,old,new,seed\n";
  for (const auto& c : changes) {
    changes_csv << csv_field(c["student"].get<std::string>()) << ',' << csv_field(c["check"].get<std::string>()) << ','
                << csv_field(change_text(c["old"])) << ',' << csv_field(change_text(c["new"])) << ','
                << c["seed"].dump() << '\n';
  }
  write_atomically(path + "-changes.csv", changes_csv.str());
}

// A score as the change list shows it: a number, "skip", or the status of a
// row without one ("does not build").
nlohmann::json shown_score(const nlohmann::json& row, const nlohmann::json* check) {
  if (check == nullptr) return row.value("status", "") == "graded" ? row["score"] : nlohmann::json(row.value("status", ""));
  return (*check)["score"].is_null() || check->value("status", "") == "skip" ? nlohmann::json("skip") : (*check)["score"];
}

// What changed between a student's earlier row and the new one: the total
// (check "total") and every check whose score changed, in the rubric's order.
std::vector<nlohmann::json> changes_between(const nlohmann::json& before, const nlohmann::json& after,
                                            std::uint64_t seed) {
  std::vector<nlohmann::json> out;
  const std::string student = after["student"].get<std::string>();
  const nlohmann::json old_total = shown_score(before, nullptr), new_total = shown_score(after, nullptr);
  if (old_total != new_total) {
    out.push_back({{"student", student}, {"check", "total"}, {"old", old_total}, {"new", new_total}, {"seed", seed}});
  }
  if (!after.contains("checks")) return out;
  for (const auto& c : after["checks"]) {
    const nlohmann::json* earlier = nullptr;
    if (before.contains("checks")) {
      for (const auto& b : before["checks"]) {
        if (b["name"] == c["name"]) earlier = &b;
      }
    }
    if (earlier == nullptr) continue;  // a check the earlier grader did not have
    const nlohmann::json old_score = shown_score(before, earlier), new_score = shown_score(after, &c);
    if (old_score != new_score) {
      out.push_back({{"student", student}, {"check", c["name"]}, {"old", old_score}, {"new", new_score}, {"seed", seed}});
    }
  }
  return out;
}

std::vector<Submission> find_submissions(const std::string& folder, const std::string& lab_file) {
  std::vector<Submission> found;
  for (const auto& entry : fs::directory_iterator(folder)) {
    const std::string name = entry.path().filename().string();
    if (name.empty() || name[0] == '.') continue;
    if (entry.is_regular_file()) {
      if (entry.path().extension() == ".cu") found.push_back({entry.path().stem().string(), entry.path().string(), ""});
      continue;
    }
    if (!entry.is_directory()) continue;
    if (is_reports_folder(entry.path())) continue;  // a gradebook's reports, not a student
    Submission s{name, "", ""};
    if (fs::is_regular_file(entry.path() / lab_file)) {
      s.file = (entry.path() / lab_file).string();
    } else {
      std::vector<std::string> cu;
      for (const auto& inner : fs::directory_iterator(entry.path())) {
        if (inner.is_regular_file() && inner.path().extension() == ".cu") cu.push_back(inner.path().string());
      }
      if (cu.size() == 1) {
        s.file = cu[0];
      } else {
        s.problem = cu.empty() ? "no .cu file in " + entry.path().string()
                               : "several .cu files in " + entry.path().string() + " and none named " + lab_file;
      }
    }
    found.push_back(s);
  }
  std::sort(found.begin(), found.end(), [](const Submission& a, const Submission& b) { return a.student < b.student; });
  return found;
}

int grade_submissions(const Config& config, const BatchOptions& o) {
  if (!fs::is_directory(o.folder)) {
    std::cerr << "grader: error: --submissions " << o.folder << ": not a folder\n";
    return 2;
  }
  const std::string lab_file = config.labs.at(o.lab).file;
  // The students' reports, beside the gradebook: GRADEBOOK-reports/.
  const fs::path reports = o.gradebook + "-reports";
  std::vector<Submission> all = find_submissions(o.folder, lab_file);
  std::error_code same_error;
  all.erase(std::remove_if(all.begin(), all.end(),
                           [&](const Submission& s) {
                             return fs::equivalent(fs::path(o.folder) / s.student, reports, same_error);
                           }),
            all.end());
  all = shard_of(all, o.shard);
  if (all.empty()) {
    std::cerr << "grader: error: --submissions " << o.folder << ": no submissions (NAME.cu files or NAME/ folders)"
              << (o.shard ? " in shard " + std::to_string(o.shard->index) + "/" + std::to_string(o.shard->count) : "")
              << "\n";
    return 2;
  }
  // The earlier gradebook: its seed, and its rows of unchanged files unless --regrade.
  std::map<std::string, nlohmann::json> earlier;
  std::map<std::string, nlohmann::json> previous;  // every earlier row, for what changed
  nlohmann::json changes = nlohmann::json::array();  // the earlier runs' changes, then this run's
  std::optional<std::uint64_t> earlier_seed;
  if (fs::exists(o.gradebook + ".json")) {
    try {
      const auto old = nlohmann::json::parse(read_file(o.gradebook + ".json"));
      if (old.contains("lab") && old["lab"] != o.lab) {
        std::cerr << "grader: " << o.gradebook << ".json is a gradebook of lab " << old["lab"].dump()
                  << ", not lab " << o.lab << ": grading everything again\n";
      } else {
        if (old.contains("seed") && old["seed"].is_number_unsigned()) earlier_seed = old["seed"].get<std::uint64_t>();
        for (const auto& row : old.at("submissions")) {
          // a gradebook of an older grader has its seed in the rows only
          if (!earlier_seed && row.contains("seed") && row["seed"].is_number_unsigned())
            earlier_seed = row["seed"].get<std::uint64_t>();
          if (!o.regrade) earlier[row.at("student").get<std::string>()] = row;
          previous[row.at("student").get<std::string>()] = row;
        }
        if (old.contains("changes") && old["changes"].is_array()) changes = old["changes"];
      }
    } catch (const nlohmann::json::exception&) {
      std::cerr << "grader: " << o.gradebook << ".json is not a gradebook; grading everything again\n";
      earlier.clear();
      previous.clear();
      changes = nlohmann::json::array();
      earlier_seed.reset();
    }
  }
  // One seed for the whole batch (every student the same inputs): the one
  // asked for, else the earlier gradebook's, else a new one.
  const std::uint64_t seed = o.seed ? *o.seed : earlier_seed ? *earlier_seed : std::random_device{}() % 1000000000u;
  std::vector<nlohmann::json> rows(all.size());  // null: not graded yet
  std::vector<std::size_t> todo;
  for (std::size_t i = 0; i < all.size(); ++i) {
    const auto found = earlier.find(clean(all[i].student));
    const nlohmann::json* row = found == earlier.end() ? nullptr : &found->second;
    if (row != nullptr && !all[i].file.empty() && row->value("status", "") == "graded" &&
        row->value("sha", "") == content_hash(all[i].file) && row->contains("seed") && (*row)["seed"] == seed &&
        row->value("backend", "") == o.backend &&
        row->value("variant", nlohmann::json()) == expected_variant(o, all[i].student)) {
      rows[i] = *row;
    } else {
      todo.push_back(i);
    }
  }
  std::cerr << "grader: " << all.size() << " submissions in " << o.folder << ", " << todo.size() << " to grade ("
            << all.size() - todo.size() << " unchanged since the last run; --regrade grades them again), "
            << o.jobs << " at a time, seed " << seed << " (rerun with --seed " << seed << ")\n";
  const std::string grader = self_path();
  const bool tty = isatty(2) != 0;
  std::mutex lock;
  // The temporary files of a batch killed between a write and its rename.
  {
    const fs::path book(o.gradebook);
    const fs::path folder = book.has_parent_path() ? book.parent_path() : fs::path(".");
    const std::string stem = book.filename().string();
    std::error_code error;
    for (fs::directory_iterator it(folder, error), end; !error && it != end; it.increment(error)) {
      const std::string name = it->path().filename().string();
      if (name.rfind(stem + ".json.tmp", 0) == 0 || name.rfind(stem + ".csv.tmp", 0) == 0) {
        std::error_code ignored;
        fs::remove(it->path(), ignored);
      }
    }
  }
  // The gradebook exists from the start (with its seed) and gains a row as
  // each submission is graded: a batch stopped midway keeps what it graded.
  write_gradebook(rows, o.gradebook, o.lab, seed, o.backend, changes);
  if (const std::string problem = make_reports_folder(reports); !problem.empty()) {
    std::cerr << "grader: error: cannot create " << reports.string() << " for the students' reports: " << problem
              << "\n";
    return 2;
  }
  std::size_t changed_rows = 0;
  std::string scratch_template = (fs::temp_directory_path() / "banklab-batch-XXXXXX").string();
  const char* made = mkdtemp(scratch_template.data());
  const fs::path scratch = made != nullptr ? fs::path(made) : fs::temp_directory_path();
  // Readable by the sandbox's own user, whose builds read the copies made here.
  std::error_code chmod_error;
  if (made != nullptr) fs::permissions(scratch, fs::perms(0755), chmod_error);
  std::atomic<std::size_t> next{0};
  std::size_t done = 0;
  std::string failure;  // a gradebook that could not be written
  // On the GPU backend each worker has one GPU of the node (round robin),
  // named in its child graders' CUDA_VISIBLE_DEVICES; workers that share a
  // GPU take turns on it through its lock (gpu_lock.hpp).
  const std::vector<std::string> gpus = o.backend == "gpu" ? node_gpus() : std::vector<std::string>{};
  if (!gpus.empty()) {
    std::cerr << "grader: " << gpus.size() << " GPU" << (gpus.size() == 1 ? "" : "s") << " for " << o.jobs
              << " workers, one timed run per GPU at a time\n";
  }
  auto worker = [&](int index) {
    ProcessOptions child;
    if (!gpus.empty())
      child.environment = {"CUDA_VISIBLE_DEVICES=" + gpus[static_cast<std::size_t>(index) % gpus.size()]};
    if (o.variants) child.environment.push_back("BANKLAB_VARIANT_SALT=" + o.variant_salt);
    for (std::size_t k = next++; k < todo.size(); k = next++) {
      const std::size_t i = todo[k];
      nlohmann::json row = grade_one(all[i], o, seed, grader, scratch, lab_file, child, reports);
      const std::lock_guard<std::mutex> guard(lock);
      rows[i] = std::move(row);
      // A rerun says what changed for this student (and the gradebook keeps it).
      std::vector<nlohmann::json> changed;
      const auto before = previous.find(rows[i]["student"].get<std::string>());
      if (before != previous.end()) changed = changes_between(before->second, rows[i], seed);
      for (const auto& c : changed) changes.push_back(c);
      changed_rows += changed.empty() ? 0 : 1;
      try {
        write_gradebook(rows, o.gradebook, o.lab, seed, o.backend, changes);
      } catch (const std::exception& error) {
        failure = error.what();
      }
      std::cerr << "grader: [" << ++done << "/" << todo.size() << "] " << rows[i]["student"].get<std::string>()
                << ": " << rows[i]["score"].dump() << "/" << rows[i]["max_score"].dump() << " ("
                << rows[i]["status"].get<std::string>() << ")" << (tty ? "\x1b[K\n" : "\n");
      for (const auto& c : changed) {
        std::cerr << "grader:   changed: " << c["student"].get<std::string>() << ", " << c["check"].get<std::string>()
                  << ": " << change_text(c["old"]) << " -> " << change_text(c["new"]) << "\n";
      }
      std::cerr << std::flush;
    }
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < std::max(1, o.jobs); ++t) threads.emplace_back(worker, t);
  for (auto& t : threads) t.join();
  if (made != nullptr) {
    std::error_code ignored;
    fs::remove_all(scratch, ignored);
  }
  if (!failure.empty()) {
    std::cerr << "grader: error: the gradebook could not be written: " << failure << "\n";
    return 2;
  }
  std::cout << "gradebook: " << o.gradebook << ".csv and " << o.gradebook << ".json (" << all.size()
            << " submissions); the students' reports: " << reports.string() << "/NAME.txt and .json\n";
  if (changed_rows > 0) {
    std::cout << "changed since the last run: " << changed_rows << " submission" << (changed_rows == 1 ? "" : "s")
              << " (listed above; all changes: " << o.gradebook << "-changes.csv)\n";
  }
  return 0;
}

}  // namespace banklab::grader

// The instructor's batch (batch.hpp).
#include "batch.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <random>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "process.hpp"

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

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
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

// Grades one submission in a child grader; the gradebook row.
nlohmann::json grade_one(const Submission& s, const BatchOptions& o, std::uint64_t seed, const std::string& grader) {
  nlohmann::json row = {{"student", s.student}, {"file", s.file}, {"score", 0}, {"max_score", o.max_score}};
  if (!s.problem.empty()) {
    row["status"] = "no submission";
    row["message"] = s.problem;
    return row;
  }
  row["sha"] = content_hash(s.file);
  char number[64];
  auto text = [&](double v) {
    std::snprintf(number, sizeof number, "%g", v);
    return std::string(number);
  };
  const std::vector<std::string> argv = {grader,         "--lab",          std::to_string(o.lab), "--impl",
                                         s.file,         "--format",       "json",                "--backend",
                                         o.backend,      "--seed",         std::to_string(seed), "--time-limit",
                                         text(o.time_limit), "--memory-limit", text(o.memory_limit_gib),
                                         "--build-time-limit", text(o.build_time_limit)};
  // Every check may take its time limit; the build its own; some slack.
  const double limit = o.build_time_limit * 2 + o.time_limit * 40 + 60;
  const ProcessResult r = run_process(argv, limit);
  if (r.exited && (r.exit_code == 0 || r.exit_code == 1)) {
    try {
      const nlohmann::json report = nlohmann::json::parse(r.out);
      row["status"] = "graded";
      row["score"] = report["score"];
      row["max_score"] = report["max_score"];
      row["skipped_points"] = report["skipped_points"];
      row["backend"] = report["backend"];
      row["seed"] = report["seed"];
      nlohmann::json checks = nlohmann::json::array();  // in the rubric's order
      for (const auto& c : report["checks"]) checks.push_back({{"name", c["name"]}, {"score", c["score"]}});
      row["checks"] = checks;
      return row;
    } catch (const nlohmann::json::exception&) {
      row["status"] = "grader failed";
      row["message"] = "unreadable report: " + first_lines(r.out + r.err, 10);
      return row;
    }
  }
  if (r.exited && r.exit_code == 2) {
    row["status"] = "does not build";
    row["message"] = first_lines(r.err, 20);
    return row;
  }
  row["status"] = "grader failed";
  row["message"] = "the grader " + r.describe(limit) + "\n" + first_lines(r.err, 10);
  return row;
}

void write_gradebook(const std::vector<nlohmann::json>& rows, const std::string& path) {
  std::vector<std::string> check_names;  // the rubric's order, from the first graded row
  for (const auto& row : rows) {
    if (!row.contains("checks")) continue;
    for (const auto& c : row["checks"]) {
      const std::string name = c["name"].get<std::string>();
      if (std::find(check_names.begin(), check_names.end(), name) == check_names.end()) check_names.push_back(name);
    }
  }
  std::ofstream csv(path + ".csv");
  csv << "student,score,max_score,status,backend,seed";
  for (const auto& name : check_names) csv << ',' << csv_field(name);
  csv << '\n';
  for (const auto& row : rows) {
    csv << csv_field(row["student"].get<std::string>()) << ',' << row["score"].dump() << ','
        << row["max_score"].dump() << ',' << csv_field(row["status"].get<std::string>()) << ','
        << (row.contains("backend") ? row["backend"].get<std::string>() : "") << ','
        << (row.contains("seed") ? row["seed"].dump() : "");
    for (const auto& name : check_names) {
      csv << ',';
      if (!row.contains("checks")) continue;
      for (const auto& c : row["checks"]) {
        if (c["name"] == name) csv << c["score"].dump();
      }
    }
    csv << '\n';
  }
  std::ofstream json(path + ".json");
  json << nlohmann::json{{"submissions", rows}}.dump(2) << '\n';
}

}  // namespace

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
  const std::vector<Submission> all = find_submissions(o.folder, config.labs.at(o.lab).file);
  if (all.empty()) {
    std::cerr << "grader: error: --submissions " << o.folder << ": no submissions (NAME.cu files or NAME/ folders)\n";
    return 2;
  }
  // Rows of an earlier run, kept for unchanged files unless --regrade.
  std::map<std::string, nlohmann::json> earlier;
  if (!o.regrade && fs::exists(o.gradebook + ".json")) {
    try {
      const auto old = nlohmann::json::parse(read_file(o.gradebook + ".json"));
      for (const auto& row : old["submissions"]) earlier[row["student"].get<std::string>()] = row;
    } catch (const nlohmann::json::exception&) {
      std::cerr << "grader: " << o.gradebook << ".json is not a gradebook; grading everything again\n";
    }
  }
  std::uint64_t seed = std::random_device{}() % 1000000000u;
  if (o.seed) {
    seed = *o.seed;
  } else {
    for (const auto& [student, row] : earlier) {
      if (row.contains("seed") && row["seed"].is_number()) seed = row["seed"].get<std::uint64_t>();
    }
  }
  std::vector<nlohmann::json> rows(all.size());
  std::vector<std::size_t> todo;
  for (std::size_t i = 0; i < all.size(); ++i) {
    const auto found = earlier.find(all[i].student);
    if (found != earlier.end() && !all[i].file.empty() && found->second.contains("sha") &&
        found->second["sha"] == content_hash(all[i].file) && found->second.contains("seed") &&
        found->second["seed"] == seed && found->second["status"] == "graded") {
      rows[i] = found->second;
    } else {
      todo.push_back(i);
    }
  }
  std::cerr << "grader: " << all.size() << " submissions in " << o.folder << ", " << todo.size() << " to grade ("
            << all.size() - todo.size() << " unchanged since the last run; --regrade grades them again), "
            << o.jobs << " at a time, seed " << seed << " (rerun with --seed " << seed << ")\n";
  const std::string grader = self_path();
  const bool tty = isatty(2) != 0;
  std::atomic<std::size_t> next{0}, done{0};
  std::mutex print;
  auto worker = [&] {
    for (std::size_t k = next++; k < todo.size(); k = next++) {
      const std::size_t i = todo[k];
      rows[i] = grade_one(all[i], o, seed, grader);
      const std::lock_guard<std::mutex> lock(print);
      std::cerr << "grader: [" << ++done << "/" << todo.size() << "] " << all[i].student << ": "
                << rows[i]["score"].dump() << "/" << rows[i]["max_score"].dump() << " ("
                << rows[i]["status"].get<std::string>() << ")" << (tty ? "\x1b[K\n" : "\n") << std::flush;
    }
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < std::max(1, o.jobs); ++t) threads.emplace_back(worker);
  for (auto& t : threads) t.join();
  write_gradebook(rows, o.gradebook);
  std::cout << "gradebook: " << o.gradebook << ".csv and " << o.gradebook << ".json (" << all.size()
            << " submissions)\n";
  return 0;
}

}  // namespace banklab::grader

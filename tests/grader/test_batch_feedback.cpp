// Feedback per student from --submissions: each student's text and JSON
// report beside the gradebook, the message of every check that lost points
// in the gradebook, skipped checks as "skip" (not 0), and a rerun that says
// and records what changed (student, check, old, new).
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "grader_test.hpp"

namespace {

namespace fs = std::filesystem;
using banklab::test::GraderRun;
using banklab::test::run_grader;
using banklab::test::source_dir;

std::string text_of(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::map<std::string, nlohmann::json> rows_of(const fs::path& book) {
  std::map<std::string, nlohmann::json> rows;
  const nlohmann::json parsed = nlohmann::json::parse(text_of(book));
  for (const auto& row : parsed["submissions"]) rows[row["student"].get<std::string>()] = row;
  return rows;
}

const nlohmann::json& check_of(const nlohmann::json& row, const std::string& name) {
  for (const auto& c : row["checks"]) {
    if (c["name"] == name) return c;
  }
  FAIL("no check " << name);
  static const nlohmann::json none;
  return none;
}

const std::string kRead = "tile read costs 1 wavefront per warp instruction";
const std::string kFaster = "at least 1.2x faster than the conflicted tile";

}  // namespace

TEST_CASE(
    "students whose names differ only in a space, '_' or '%' each get their own report files, and a folder of two "
    "files none") {
  const fs::path dir = fs::path(BANKLAB_TEST_TMP) / "class_names";
  fs::remove_all(dir);
  fs::create_directories(dir);
  // Files that do not build (graded in seconds), each naming its own identifier.
  const std::map<std::string, std::string> students = {
      {"ann lee", "ann_space"}, {"ann_lee", "ann_underscore"}, {"ann%20lee", "ann_percent"}, {"zo\xc3\xab", "zoe"}};
  for (const auto& [student, word] : students)
    std::ofstream(dir / (student + ".cu")) << "void f() { " << word << "_oops; }\n";
  // A folder of two .cu files, neither named transpose.cu: which one is the
  // submission is not the grader's guess.
  fs::create_directories(dir / "two_files");
  fs::copy_file(source_dir() + "/solutions/03-padded-transpose/transpose.cu", dir / "two_files" / "mine.cu");
  fs::copy_file(source_dir() + "/labs/03-padded-transpose/transpose.cu", dir / "two_files" / "old.cu");
  const GraderRun run = run_grader("--lab 3 --backend cpu --seed 3 -j 2 --submissions " + dir.string());
  INFO(run.out << run.err);
  REQUIRE(run.status == 0);
  const auto rows = rows_of(dir / "gradebook.json");
  CHECK(rows.size() == students.size() + 1);
  REQUIRE(rows.count("two_files") == 1);
  CHECK(rows.at("two_files")["status"] == "no submission");
  CHECK(rows.at("two_files")["score"] == 0);
  CHECK(rows.at("two_files")["message"].get<std::string>().find("several .cu files in") != std::string::npos);
  CHECK(rows.at("two_files")["message"].get<std::string>().find("and none named transpose.cu") != std::string::npos);
  // Its reports say so too, the JSON one as its gradebook row.
  CHECK(text_of(dir / "gradebook-reports" / "two_files.txt").find("several .cu files in") != std::string::npos);
  CHECK(nlohmann::json::parse(text_of(dir / "gradebook-reports" / "two_files.json"))["status"] == "no submission");
  std::set<std::string> files;
  for (const auto& entry : fs::directory_iterator(dir / "gradebook-reports"))
    files.insert(entry.path().filename().string());
  const std::set<std::string> expected = {".banklab-reports", "ann%20lee.txt",   "ann%20lee.json",   "ann_lee.txt",
                                          "ann_lee.json",     "ann%2520lee.txt", "ann%2520lee.json", "zo%C3%AB.txt",
                                          "zo%C3%AB.json",    "two_files.txt",   "two_files.json"};
  CHECK(files == expected);
  const std::map<std::string, std::string> report_of = {
      {"ann lee", "ann%20lee"}, {"ann_lee", "ann_lee"}, {"ann%20lee", "ann%2520lee"}, {"zo\xc3\xab", "zo%C3%AB"}};
  for (const auto& [student, word] : students) {
    INFO(student);
    const fs::path stem = dir / "gradebook-reports" / report_of.at(student);
    CHECK(text_of(fs::path(stem.string() + ".txt")).find(word + "_oops") != std::string::npos);
    const nlohmann::json report = nlohmann::json::parse(text_of(fs::path(stem.string() + ".json")));
    CHECK(report["status"] == "does not build");
    for (const auto& [other, other_word] : students) {
      if (other != student)
        CHECK(text_of(fs::path(stem.string() + ".txt")).find(other_word + "_oops") == std::string::npos);
    }
  }
}

TEST_CASE("--submissions writes every student's reports, the messages of lost points, skip for skipped checks") {
  const fs::path dir = fs::path(BANKLAB_TEST_TMP) / "class";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path solution = source_dir() + "/solutions/03-padded-transpose/transpose.cu";
  const fs::path conflicted = source_dir() + "/tests/grader/lab03/wrong/conflicted_tile.cu";
  fs::copy_file(solution, dir / "ada.cu");
  fs::copy_file(conflicted, dir / "bob.cu");
  std::ofstream(dir / "cy.cu")
      << "__global__ void transpose_padded(float* o, const float* i, int w, int h) { oops; }\n";
  const std::string args = "--lab 3 --backend cpu --seed 3 --time-limit 10 -j 2 --submissions " + dir.string();
  const GraderRun first = run_grader(args);
  INFO(first.out << first.err);
  REQUIRE(first.status == 0);
  CHECK(first.out.find("the students' reports: " + (dir / "gradebook-reports").string()) != std::string::npos);

  // Each student's full report, text and JSON, beside the gradebook.
  const fs::path reports = dir / "gradebook-reports";
  CHECK(text_of(reports / "ada.txt").find("Score: 90/90") != std::string::npos);
  CHECK(nlohmann::json::parse(text_of(reports / "ada.json"))["score"] == 90);
  const std::string bob = text_of(reports / "bob.txt");
  CHECK(bob.find(kRead + ": FAIL") != std::string::npos);
  CHECK(bob.find("banksim --width 4") != std::string::npos);  // the whole message, the bank map's command too
  CHECK(nlohmann::json::parse(text_of(reports / "bob.json"))["status"] == "graded");
  CHECK(text_of(reports / "cy.txt").find("was not declared") != std::string::npos);
  CHECK(nlohmann::json::parse(text_of(reports / "cy.json"))["status"] == "does not build");
  // The reports folder is not taken for a student on the rerun.
  auto rows = rows_of(dir / "gradebook.json");
  CHECK(rows.size() == 3);

  // The gradebook: the message of each check that lost points; skipped is not 0.
  const nlohmann::json& read = check_of(rows["bob"], kRead);
  CHECK(read["status"] == "fail");
  CHECK(read["score"] == 0);
  CHECK(read["message"].get<std::string>().find("32 wavefronts") != std::string::npos);
  CHECK(!check_of(rows["ada"], kRead).contains("message"));
  CHECK(check_of(rows["ada"], kFaster)["status"] == "skip");
  CHECK(check_of(rows["ada"], kFaster)["score"].is_null());
  CHECK(rows["cy"]["message"].get<std::string>().find("was not declared") != std::string::npos);
  const std::string csv = text_of(dir / "gradebook.csv");
  std::istringstream lines(csv);
  std::string header, line;
  std::getline(lines, header);
  CHECK(header.size() > 8);
  CHECK(header.substr(header.size() - 8) == ",message");
  std::map<std::string, std::string> csv_rows;
  int count = 0;
  while (std::getline(lines, line)) {
    csv_rows[line.substr(0, line.find(','))] = line;
    ++count;
  }
  CHECK(count == 3);                                                     // one line per student, messages and all
  CHECK(csv_rows["ada"].find(",skip,skip,skip,") != std::string::npos);  // the three GPU checks
  CHECK(csv_rows["ada"].find(",0,") == std::string::npos);
  CHECK(csv_rows["bob"].find(kRead + ": bob.cu:") != std::string::npos);  // the line it names
  CHECK(csv_rows["cy"].find("was not declared") != std::string::npos);

  // A rerun after bob fixed his tile and ada broke hers: printed, and recorded.
  fs::copy_file(solution, dir / "bob.cu", fs::copy_options::overwrite_existing);
  fs::copy_file(conflicted, dir / "ada.cu", fs::copy_options::overwrite_existing);
  const GraderRun second = run_grader(args);
  INFO(second.out << second.err);
  REQUIRE(second.status == 0);
  CHECK(second.err.find("3 to grade") != std::string::npos);  // cy did not build: graded again, unchanged
  CHECK(second.err.find("changed: ada, total: 90 -> ") != std::string::npos);
  CHECK(second.err.find("changed: ada, " + kRead + ": 10 -> 0") != std::string::npos);
  CHECK(second.err.find("changed: bob, " + kRead + ": 0 -> 10") != std::string::npos);
  CHECK(second.err.find("changed: cy") == std::string::npos);
  CHECK(second.out.find("changed since the last run: 2 submissions") != std::string::npos);
  const auto book = nlohmann::json::parse(text_of(dir / "gradebook.json"));
  bool recorded = false;
  for (const auto& c : book["changes"]) {
    if (c["student"] == "bob" && c["check"] == kRead && c["old"] == 0 && c["new"] == 10 && c["seed"] == 3)
      recorded = true;
  }
  CHECK(recorded);
  const std::string changes = text_of(dir / "gradebook-changes.csv");
  CHECK(changes.rfind("student,check,old,new,seed\n", 0) == 0);
  CHECK(changes.find("bob," + kRead + ",0,10,3") != std::string::npos);
  CHECK(text_of(reports / "ada.txt").find(kRead + ": FAIL") != std::string::npos);  // the report follows the file
  // A third run with nothing changed: nothing to say.
  const GraderRun third = run_grader(args);
  CHECK(third.out.find("changed since the last run") == std::string::npos);

  // A fourth after bob's file stopped building and cy's started: the total
  // of a row without a score is its status, both ways.
  std::ofstream(dir / "bob.cu", std::ios::trunc) << "__global__ void transpose_padded(float* o) { oops; }\n";
  fs::copy_file(solution, dir / "cy.cu", fs::copy_options::overwrite_existing);
  const GraderRun fourth = run_grader(args);
  INFO(fourth.out << fourth.err);
  REQUIRE(fourth.status == 0);
  CHECK(fourth.err.find("changed: bob, total: 90 -> does not build") != std::string::npos);
  CHECK(fourth.err.find("changed: cy, total: does not build -> 90") != std::string::npos);
  const std::string changed = text_of(dir / "gradebook-changes.csv");
  CHECK(changed.find("bob,total,90,does not build,3") != std::string::npos);
  CHECK(changed.find("cy,total,does not build,90,3") != std::string::npos);
}

TEST_CASE("--submissions never takes another gradebook's reports folder for a student (shards of an array job)") {
  // Two shards grade the same folder at once: each writes its reports into
  // the folder the other lists. A reports folder holds a marker and is made
  // under a hidden name first, so a listing never counts it.
  const fs::path dir = fs::path(BANKLAB_TEST_TMP) / "class_shards";
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "zed.cu") << "__global__ void transpose_padded(float* o) { zed; }\n";
  std::ofstream(dir / "zoe.cu") << "__global__ void transpose_padded(float* o) { zoe; }\n";
  const std::string args = "--lab 3 --backend cpu --seed 5 --time-limit 10 --submissions " + dir.string();
  const GraderRun one = run_grader(args + " --shard 1/2 --gradebook " + (dir / "book-1").string());
  INFO(one.out << one.err);
  REQUIRE(one.status == 0);
  CHECK(fs::is_regular_file(dir / "book-1-reports" / ".banklab-reports"));
  const GraderRun two = run_grader(args + " --shard 2/2 --gradebook " + (dir / "book-2").string());
  INFO(two.out << two.err);
  REQUIRE(two.status == 0);
  const auto first = rows_of(dir / "book-1.json"), second = rows_of(dir / "book-2.json");
  CHECK(first.size() == 1);
  CHECK(first.count("zed") == 1);
  CHECK(second.size() == 1);  // zoe alone: book-1-reports (listed first) is no submission
  CHECK(second.count("zoe") == 1);
  // A reports folder made by an older grader (no marker) gains it on the next run.
  fs::remove(dir / "book-1-reports" / ".banklab-reports");
  REQUIRE(run_grader(args + " --shard 1/2 --gradebook " + (dir / "book-1").string()).status == 0);
  CHECK(fs::is_regular_file(dir / "book-1-reports" / ".banklab-reports"));
}

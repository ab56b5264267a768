// The instructor's batch (grader --submissions) against hostile folders: any
// bytes in any file give that row "does not build" with a message and the
// gradebook still parses; a batch killed midway keeps its rows, and a rerun
// takes the gradebook's seed and grades only what was not graded.
#include <doctest/doctest.h>

#include <algorithm>

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <regex>
#include <sstream>
#include <thread>

#include "run_command.hpp"

extern char** environ;

namespace {

namespace fs = std::filesystem;

const std::string kSource = BANKLAB_SOURCE_DIR;
const fs::path kSolution = kSource + "/solutions/03-padded-transpose/transpose.cu";

struct Result {
  int status = -1;
  std::string out;
  std::string err;
  double seconds = 0;
};

std::string text_of(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

Result run(const std::string& args) {
  fs::create_directories(BANKLAB_TEST_TMP);
  const std::string err_file = std::string(BANKLAB_TEST_TMP) + "/grader_stderr.txt";
  const auto start = std::chrono::steady_clock::now();
  const auto r = banklab::test::run_command(std::string(GRADER_PATH) + " " + args + " 2>" + err_file);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return {r.status, r.out, text_of(err_file), seconds};
}

void write_bytes(const fs::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

std::string random_bytes(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::string bytes(n, '\0');
  for (char& c : bytes) c = static_cast<char>(rng() & 0xff);
  return bytes;
}

// The gradebook's rows by student; the JSON parser refuses invalid UTF-8, so
// parsing is itself the check that the file is valid JSON text.
std::map<std::string, nlohmann::json> rows_of(const nlohmann::json& book) {
  std::map<std::string, nlohmann::json> rows;
  for (const auto& row : book["submissions"]) rows[row["student"].get<std::string>()] = row;
  return rows;
}

}  // namespace

TEST_CASE("a folder of random bytes, NUL bytes, invalid UTF-8 and odd names: every row, the bad ones do not build") {
  const fs::path dir = fs::path(BANKLAB_TEST_TMP) / "hostile_bytes";
  fs::remove_all(dir);
  fs::create_directories(dir);
  write_bytes(dir / "random.cu", random_bytes(4000, 1));
  // GCC reports every token of a file that is not C++: without an error
  // limit this one alone keeps it busy for minutes.
  write_bytes(dir / "large_random.cu", random_bytes(900000, 2));
  write_bytes(dir / "huge.cu", random_bytes(3000000, 3));
  write_bytes(dir / "nul.cu", std::string("int x = 1;\n") + std::string(64, '\0') + "\nint y = ;\n");
  // The compiler echoes the offending line, bytes that are not UTF-8 included.
  write_bytes(dir / "latin1.cu", "// caf\xe9\n__global__ void k() { \xff\xfe oops; }\n");
  fs::copy_file(kSolution, dir / "good.cu");
  fs::copy_file(kSource + "/tests/grader/lab03/right/printf_braces.cu", dir / "printf_braces.cu");
  fs::copy_file(kSource + "/tests/grader/lab03/wrong/no_sync.cu", dir / "no_sync.cu");
  const std::string odd = "odd\xff name,\n\"quoted\"";
  fs::copy_file(kSolution, dir / (odd + ".cu"));
  // Not UTF-8, but nothing else odd in it (no control character, no comma).
  fs::copy_file(kSolution, dir / "caf\xe9.cu");

  const Result r = run("--lab 3 --backend cpu --seed 11 --time-limit 30 -j 2 --submissions " + dir.string());
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  const std::string json_text = text_of(dir / "gradebook.json");
  nlohmann::json book;
  REQUIRE_NOTHROW(book = nlohmann::json::parse(json_text));
  CHECK(book["seed"] == 11);
  CHECK(book["lab"] == 3);
  auto rows = rows_of(book);
  CHECK(rows.size() == 10);
  for (const char* bad : {"random", "large_random", "huge", "nul", "latin1"}) {
    INFO(bad);
    REQUIRE(rows.count(bad) == 1);
    CHECK(rows[bad]["status"] == "does not build");
    CHECK(rows[bad]["score"] == 0);
    CHECK(rows[bad]["max_score"] == 90);
    // The message says what is wrong, naming the file.
    CHECK(rows[bad]["message"].get<std::string>().find(std::string(bad) + ".cu") != std::string::npos);
  }
  CHECK(rows["huge"]["message"].get<std::string>().find("huge.cu is 3000000 bytes: a lab file may be at most 1 MiB") !=
        std::string::npos);
  // The compiler's own words, its echo of the bad bytes replaced by U+FFFD.
  const std::string latin1 = rows["latin1"]["message"].get<std::string>();
  CHECK(latin1.find("error:") != std::string::npos);
  CHECK(latin1.find("\xef\xbf\xbd") != std::string::npos);
  CHECK(rows["good"]["score"] == 90);
  CHECK(rows["printf_braces"]["score"] == 80);  // right, and has no predictions (10 points)
  CHECK(rows["no_sync"]["status"] == "graded");
  CHECK(rows["no_sync"]["score"] == 20);
  // The odd name is graded (through a copy with a clean name) and shown with U+FFFD.
  const std::string shown = "odd\xef\xbf\xbd name,\n\"quoted\"";
  REQUIRE(rows.count(shown) == 1);
  CHECK(rows[shown]["score"] == 90);
  // So is a Latin-1 name: graded through a clean copy, not under its own path.
  REQUIRE(rows.count("caf\xef\xbf\xbd") == 1);
  CHECK(rows["caf\xef\xbf\xbd"]["status"] == "graded");
  CHECK(rows["caf\xef\xbf\xbd"]["score"] == 90);
  // The CSV quotes the name (comma, newline, quotes) and has one record per student.
  const std::string csv = text_of(dir / "gradebook.csv");
  CHECK(csv.find("\"odd\xef\xbf\xbd name,\n\"\"quoted\"\"\",90") != std::string::npos);
  std::size_t records = 0;
  bool quoted = false;
  for (char c : csv) {
    if (c == '"') quoted = !quoted;
    if (c == '\n' && !quoted) ++records;
  }
  CHECK(records == 11);  // the header and 10 students
  // No temporary file is left next to the gradebook.
  for (const auto& entry : fs::directory_iterator(dir)) CHECK(entry.path().string().find(".tmp") == std::string::npos);
}

TEST_CASE("files that are not C++ fail fast: five hostile files in seconds each, not at the build time limit") {
  const fs::path dir = fs::path(BANKLAB_TEST_TMP) / "fail_fast";
  fs::remove_all(dir);
  fs::create_directories(dir);
  write_bytes(dir / "random.cu", random_bytes(4000, 4));
  write_bytes(dir / "large_random.cu", random_bytes(900000, 5));
  write_bytes(dir / "huge.cu", random_bytes(8000000, 6));
  write_bytes(dir / "nul.cu", std::string(100000, '\0'));
  write_bytes(dir / "latin1.cu", "__global__ void k() { \xe9\xe8 }\n");
  const Result r = run("--lab 3 --backend cpu --seed 3 -j 1 --submissions " + dir.string());
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  // Before: GCC on the 8 MB file alone ran past the 300 s build time limit
  // (a 3 MB one takes it 10 minutes); each file now fails in seconds.
  CHECK(r.seconds < 120);
  MESSAGE("5 hostile files graded in " << r.seconds << " s");
  const auto rows = rows_of(nlohmann::json::parse(text_of(dir / "gradebook.json")));
  CHECK(rows.size() == 5);
  for (const auto& [student, row] : rows) {
    INFO(student);
    // NUL bytes are blanks to GCC: an empty file, which links against the
    // contract's fallbacks and is graded (every check fails, naming the
    // missing declarations); the others do not build.
    if (student == "nul" && row["status"] == "graded") {
      CHECK(row["score"] == 0);
    } else {
      CHECK(row["status"] == "does not build");
    }
  }
}

TEST_CASE("a file with many compiler errors keeps the first 20 lines of the message in its gradebook row") {
  const fs::path dir = fs::path(BANKLAB_TEST_TMP) / "many_errors";
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::string code = "__global__ void k(float* p) {\n";
  for (int i = 0; i < 30; ++i) code += "  p[" + std::to_string(i) + "] = undeclared_" + std::to_string(i) + ";\n";
  write_bytes(dir / "many_errors.cu", code + "}\n");
  const Result r = run("--lab 3 --backend cpu --seed 3 -j 1 --submissions " + dir.string());
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  const auto rows = rows_of(nlohmann::json::parse(text_of(dir / "gradebook.json")));
  REQUIRE(rows.count("many_errors") == 1);
  const nlohmann::json& row = rows.at("many_errors");
  CHECK(row["status"] == "does not build");
  // 30 errors of 3 lines each: the first 20 lines, from the first error on.
  const std::string message = row["message"].get<std::string>();
  CHECK(std::count(message.begin(), message.end(), '\n') == 19);
  CHECK(message.find("undeclared_0") != std::string::npos);
  CHECK(message.find("was not declared") != std::string::npos);
  CHECK(message.find("undeclared_5") != std::string::npos);
  CHECK(message.find("undeclared_6") == std::string::npos);
}

TEST_CASE("a single file of bad bytes gets a Gradescope results.json that parses, with the compiler's message") {
  const fs::path dir = fs::path(BANKLAB_TEST_TMP) / "single";
  fs::create_directories(dir);
  write_bytes(dir / "transpose.cu", "// caf\xe9\n__global__ void k() { \xff\xfe oops; }\n");
  const Result r = run("--lab 3 --backend cpu --format gradescope --impl " + (dir / "transpose.cu").string());
  INFO(r.out << r.err);
  CHECK(r.status == 2);
  nlohmann::json report;
  REQUIRE_NOTHROW(report = nlohmann::json::parse(r.out));
  CHECK(report["score"] == 0);
  const std::string output = report["output"].get<std::string>();
  // (nvcc's words where nvcc is installed, GCC's elsewhere)
  CHECK(output.find("transpose.cu") != std::string::npos);
  CHECK(output.find("does not build") != std::string::npos);
  CHECK(output.find("\xef\xbf\xbd") != std::string::npos);
}

namespace {

// Starts the grader in the background with stderr to `err_file`; its pid.
pid_t start_grader(const std::string& args, const std::string& err_file) {
  const std::string command = "exec " + std::string(GRADER_PATH) + " " + args + " 2>" + err_file + " >/dev/null";
  const char* argv[] = {"sh", "-c", command.c_str(), nullptr};
  pid_t pid = -1;
  REQUIRE(posix_spawn(&pid, "/bin/sh", nullptr, nullptr, const_cast<char**>(argv), environ) == 0);
  return pid;
}

std::size_t rows_written(const fs::path& book) {
  try {
    return nlohmann::json::parse(text_of(book))["submissions"].size();
  } catch (const nlohmann::json::exception&) {
    return 0;  // not there yet
  }
}

}  // namespace

TEST_CASE("a batch killed midway keeps its rows, and the rerun takes its seed and grades only the rest") {
  const fs::path dir = fs::path(BANKLAB_TEST_TMP) / "killed";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const int count = 6;
  for (int i = 0; i < count; ++i) fs::copy_file(kSolution, dir / ("student" + std::to_string(i) + ".cu"));
  const fs::path book = dir / "gradebook.json";
  // No --seed: the batch draws one, and the rerun must find it in the gradebook.
  const std::string args = "--lab 3 --backend cpu --time-limit 30 -j 1 --submissions " + dir.string();
  const std::string err_file = std::string(BANKLAB_TEST_TMP) + "/killed_stderr.txt";
  const pid_t pid = start_grader(args, err_file);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(5);
  while (rows_written(book) < 2 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  const std::string first_err = text_of(err_file);
  INFO(first_err);
  REQUIRE(WIFSIGNALED(status));
  const auto before = nlohmann::json::parse(text_of(book));
  const std::size_t done = before["submissions"].size();
  REQUIRE(done >= 2);
  REQUIRE(done < static_cast<std::size_t>(count));
  std::smatch m;
  REQUIRE(std::regex_search(first_err, m, std::regex(R"(seed (\d+) \(rerun)")));
  const std::string seed = m[1];
  CHECK(before["seed"].dump() == seed);
  for (const auto& row : before["submissions"]) {
    CHECK(row["status"] == "graded");
    CHECK(row["score"] == 90);
  }

  // As if killed between a write and its rename: the rerun removes the leftover.
  std::ofstream(dir / "gradebook.json.tmp99999") << "{\"half";
  const Result again = run(args);
  INFO(again.out << again.err);
  CHECK_FALSE(fs::exists(dir / "gradebook.json.tmp99999"));
  CHECK(again.status == 0);
  CHECK(again.err.find(std::to_string(count - done) + " to grade (" + std::to_string(done) + " unchanged") !=
        std::string::npos);
  CHECK(again.err.find("seed " + seed + " (rerun") != std::string::npos);
  const auto after = nlohmann::json::parse(text_of(book));
  CHECK(after["seed"].dump() == seed);
  auto rows = rows_of(after);
  CHECK(rows.size() == static_cast<std::size_t>(count));
  for (const auto& [student, row] : rows) {
    CHECK(row["seed"].dump() == seed);
    CHECK(row["score"] == 90);
  }
  // The rows graded before the kill are kept as they were.
  for (const auto& row : before["submissions"]) CHECK(rows[row["student"].get<std::string>()] == row);

  // A rerun with another seed grades everything again: no row of the old seed stays.
  const Result other = run("--seed 12345 " + args);
  CHECK(other.err.find(std::to_string(count) + " to grade (0 unchanged") != std::string::npos);
  for (const auto& [student, row] : rows_of(nlohmann::json::parse(text_of(book)))) CHECK(row["seed"] == 12345);
}

// A gradebook in `dir` whose one row, for student.cu (the reference), would
// be kept by a rerun of lab 3 on the CPU with seed 4: same file, seed and
// backend, unless `lab` or `backend` say otherwise.
void write_kept_book(const fs::path& dir, int lab, const std::string& backend = "cpu") {
  std::uint64_t h = 1469598103934665603ull;  // the gradebook's FNV-1a of the file
  for (unsigned char c : text_of(kSolution)) {
    h ^= c;
    h *= 1099511628211ull;
  }
  std::ostringstream sha;
  sha << std::hex << h;
  std::ofstream(dir / "gradebook.json") << nlohmann::json{
      {"lab", lab},
      {"seed", 4},
      {"backend", backend},
      {"submissions",
       {{{"student", "student"}, {"status", "graded"}, {"score", 90}, {"max_score", 90}, {"seed", 4},
         {"backend", backend}, {"sha", sha.str()}}}}};
}

TEST_CASE("a rerun for another lab does not keep the rows of this one") {
  const fs::path dir = fs::path(BANKLAB_TEST_TMP) / "other_lab";
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::copy_file(kSolution, dir / "student.cu");
  // A row that would be kept (same file, seed and backend) but for its lab.
  auto book = [&](int lab) { write_kept_book(dir, lab); };
  book(3);
  const Result same = run("--lab 3 --backend cpu --time-limit 30 --submissions " + dir.string());
  CHECK(same.err.find("0 to grade (1 unchanged") != std::string::npos);
  CHECK(same.err.find("seed 4 (rerun") != std::string::npos);
  book(2);
  const Result r = run("--lab 3 --backend cpu --time-limit 30 --submissions " + dir.string());
  INFO(r.err);
  CHECK(r.err.find("gradebook of lab 2, not lab 3: grading everything again") != std::string::npos);
  CHECK(r.err.find("1 to grade (0 unchanged") != std::string::npos);
}

TEST_CASE("a rerun on another backend grades again: a GPU row is not a CPU grade") {
  const fs::path dir = fs::path(BANKLAB_TEST_TMP) / "other_backend";
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::copy_file(kSolution, dir / "student.cu");
  write_kept_book(dir, 3, "gpu");  // its score counts GPU checks a CPU run skips
  const Result r = run("--lab 3 --backend cpu --time-limit 30 --submissions " + dir.string());
  INFO(r.err);
  CHECK(r.status == 0);
  CHECK(r.err.find("1 to grade (0 unchanged") != std::string::npos);
  const auto rows = rows_of(nlohmann::json::parse(text_of(dir / "gradebook.json")));
  REQUIRE(rows.count("student") == 1);
  CHECK(rows.at("student")["backend"] == "cpu");
  CHECK(rows.at("student")["seed"] == 4);  // the gradebook's seed is still kept
}

TEST_CASE("hidden entries of a submissions folder (.git/, .old.cu, .DS_Store) are not students") {
  const fs::path dir = fs::path(BANKLAB_TEST_TMP) / "hidden_entries";
  fs::remove_all(dir);
  fs::create_directories(dir / ".git");
  fs::copy_file(kSolution, dir / "student.cu");
  fs::copy_file(kSolution, dir / ".old.cu");  // an editor's backup
  fs::copy_file(kSolution, dir / ".git" / "transpose.cu");
  write_bytes(dir / ".DS_Store", random_bytes(64, 7));
  write_kept_book(dir, 3);  // student.cu's row is kept: nothing is built
  const Result r = run("--lab 3 --backend cpu --time-limit 30 --submissions " + dir.string());
  INFO(r.err);
  CHECK(r.status == 0);
  CHECK(r.err.find("grader: 1 submissions in " + dir.string() + ", 0 to grade (1 unchanged") != std::string::npos);
  const auto rows = rows_of(nlohmann::json::parse(text_of(dir / "gradebook.json")));
  CHECK(rows.size() == 1);
  CHECK(rows.count("student") == 1);
  // The CSV too: a header and one student.
  std::ifstream csv(dir / "gradebook.csv");
  int lines = 0;
  for (std::string line; std::getline(csv, line);) ++lines;
  CHECK(lines == 2);
}

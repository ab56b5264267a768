// The student kit cites only what it ships: the kit is made with
// common/scripts/make_student_kit.sh, and every relative link and every
// repository path named in its Markdown, its lab files and the grader's
// messages (string literals of its sources) must exist in that kit, unless
// the paragraph says it is instructor material (or the page says its tests/
// paths are the instructor's). It also holds no quiz answer in the clear.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "../common/run_command.hpp"

namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

const fs::path& kit() {
  static const fs::path dir = [] {
    const fs::path out = fs::path(BANKLAB_TEST_TMP) / "student-kit-refs";
    fs::remove_all(out);
    const auto r = banklab::test::run_command("sh '" + std::string(BANKLAB_SOURCE_DIR) +
                                              "/common/scripts/make_student_kit.sh' '" + out.string() + "' 2>&1");
    INFO(r.out);
    REQUIRE(r.status == 0);
    return out;
  }();
  return dir;
}

// A repository path: starts with a top-level folder of the kit.
const std::regex kPath(R"((?:^|[^\w/.\-])((?:handouts|labs|grader|common|tests|solutions|docs)/[A-Za-z0-9_.\-/]*[A-Za-z0-9_/])(\*?))");
const std::regex kLink(R"(\]\(([^)#\s]+)(#[^)]*)?\))");

bool says_instructor(const std::string& text) {
  return text.find("instructor") != std::string::npos || text.find("教师") != std::string::npos;
}

// Whether `path` (relative to the kit's root) is there; "PREFIX*" matches
// any file that starts with PREFIX.
bool in_kit(const std::string& path, bool glob) {
  if (!glob) return fs::exists(kit() / path);
  const fs::path prefix = kit() / path;
  if (!fs::is_directory(prefix.parent_path())) return false;
  for (const auto& entry : fs::directory_iterator(prefix.parent_path())) {
    if (entry.path().filename().string().rfind(prefix.filename().string(), 0) == 0) return true;
  }
  return false;
}

bool placeholder(const std::string& path) {
  return path.find("NN") != std::string::npos || path.find("labN/") != std::string::npos;
}

// The paragraphs of a Markdown page (blocks between blank lines), with the
// line each starts on.
std::vector<std::pair<int, std::string>> paragraphs(const std::string& text) {
  std::vector<std::pair<int, std::string>> out;
  std::istringstream in(text);
  std::string line, block;
  int n = 0, start = 1;
  while (std::getline(in, line)) {
    ++n;
    if (line.find_first_not_of(" \t") == std::string::npos) {
      if (!block.empty()) out.emplace_back(start, block);
      block.clear();
      start = n + 1;
    } else {
      block += line + "\n";
    }
  }
  if (!block.empty()) out.emplace_back(start, block);
  return out;
}

}  // namespace

TEST_CASE("every link and repository path in the student kit's Markdown and lab files exists in the kit") {
  int links = 0, paths = 0;
  for (const auto& entry : fs::recursive_directory_iterator(kit())) {
    const fs::path& file = entry.path();
    const bool markdown = file.extension() == ".md";
    const bool lab_file = file.extension() == ".cu" && fs::relative(file, kit()).string().rfind("labs/", 0) == 0;
    if (!entry.is_regular_file() || (!markdown && !lab_file)) continue;
    const std::string text = slurp(file);
    const bool page_tests_are_instructors = text.find("name the instructor's test suites") != std::string::npos;
    for (const auto& [line, block] : paragraphs(text)) {
      const std::string where = fs::relative(file, kit()).string() + " (paragraph at line " + std::to_string(line) + ")";
      for (std::sregex_iterator it(block.begin(), block.end(), kLink), end; it != end; ++it) {
        const std::string target = (*it)[1];
        if (target.find("://") != std::string::npos || target.rfind("mailto:", 0) == 0) continue;
        INFO(where << ": link " << (*it)[0]);
        CHECK_MESSAGE(fs::exists(file.parent_path() / target), "a link to a file the kit does not ship");
        ++links;
      }
      for (std::sregex_iterator it(block.begin(), block.end(), kPath), end; it != end; ++it) {
        const std::string path = (*it)[1];
        if (placeholder(path)) continue;
        ++paths;
        if (in_kit(path, (*it)[2].length() > 0) || says_instructor(block)) continue;
        if (page_tests_are_instructors && path.rfind("tests/", 0) == 0) continue;
        INFO(where << ": " << path);
        CHECK_MESSAGE(false, "names a path the kit does not ship: ship it, or say it is instructor material");
      }
    }
  }
  CHECK(links >= 50);
  CHECK(paths >= 50);
}

TEST_CASE("every repository path in the student kit's grader messages exists in the kit") {
  const std::regex literal(R"re("((?:[^"\\\n]|\\.)*)")re");
  int paths = 0;
  for (const auto& entry : fs::recursive_directory_iterator(kit() / "grader")) {
    const std::string ext = entry.path().extension().string();
    if (!entry.is_regular_file() || (ext != ".cpp" && ext != ".hpp" && ext != ".cu" && ext != ".cuh")) continue;
    const std::string text = slurp(entry.path());
    for (std::sregex_iterator s(text.begin(), text.end(), literal), end; s != end; ++s) {
      const std::string message = (*s)[1];
      for (std::sregex_iterator it(message.begin(), message.end(), kPath); it != end; ++it) {
        const std::string path = (*it)[1];
        if (placeholder(path)) continue;
        ++paths;
        INFO(fs::relative(entry.path(), kit()).string() << ": \"" << message << "\"");
        CHECK_MESSAGE((in_kit(path, (*it)[2].length() > 0) || says_instructor(message)),
                      "a grader message names " << path << ", which the kit does not ship");
      }
    }
  }
  CHECK(paths >= 5);
}

TEST_CASE("the student kit holds the evidence the reading cites, and no quiz key") {
  for (const char* shipped : {"tests/data/h200_shared_access.csv", "tests/data/gpu/h200_cycle_probe.txt",
                              "tests/grader/lab03/wrong/conflicted_tile.cu",
                              "grader/labs/lab03/results/h200_transpose_ladder.txt", "grader/quiz/no_key.cpp"}) {
    INFO(shipped);
    CHECK(fs::exists(kit() / shipped));
  }
  for (const char* gone : {"solutions", "grader/quiz/key.cpp", "tests/CMakeLists.txt", "tests/grader/golden",
                           "grader/labs/lab03/results/h200_gpu_backend.txt", "grader/README.md"}) {
    INFO(gone);
    CHECK_FALSE(fs::exists(kit() / gone));
  }
  // No answer in the clear: neither the key file's lines ("18: a c") nor any
  // of the key's explanations appears in any file of the kit.
  std::vector<std::string> secrets;
  {
    std::istringstream key(slurp(fs::path(BANKLAB_SOURCE_DIR) / "solutions/quiz/answers.txt"));
    std::string line;
    while (std::getline(key, line)) {
      if (!line.empty() && line[0] != '#' && line.find(':') != std::string::npos) secrets.push_back(line);
    }
  }
  CHECK(secrets.size() == 24);
  const std::string key_source = slurp(fs::path(BANKLAB_SOURCE_DIR) / "grader/quiz/key.cpp");
  const std::regex literal(R"re("((?:[^"\\\n]|\\.){30,})")re");
  int explanations = 0;
  for (std::sregex_iterator s(key_source.begin(), key_source.end(), literal), end; s != end; ++s) {
    secrets.push_back((*s)[1]);
    ++explanations;
  }
  CHECK(explanations >= 24);
  for (const auto& entry : fs::recursive_directory_iterator(kit())) {
    if (!entry.is_regular_file()) continue;
    const std::string text = slurp(entry.path());
    for (const std::string& secret : secrets) {
      const bool key_line = secret.size() < 12;  // "18: a c": a whole line of the key file
      bool found = false;
      if (key_line) {
        std::istringstream lines(text);
        std::string line;
        while (std::getline(lines, line)) found = found || line == secret;
      } else {
        found = text.find(secret) != std::string::npos;
      }
      INFO(fs::relative(entry.path(), kit()).string() << " holds \"" << secret << "\"");
      CHECK_FALSE(found);
    }
  }
}

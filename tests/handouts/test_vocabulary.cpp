// The course speaks its own words to readers: no private vocabulary of the
// material it was written from ("seed 002", "the seed reading", "the source
// articles", misconception ids E1-E14) in any page, README, lab file, grader
// message or site page source a student or instructor reads.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

// Every file whose text reaches a reader: the Markdown pages, the lab files
// and quiz, and the sources of the grader's messages, the site and the explorer.
std::vector<fs::path> reader_files() {
  const fs::path root = BANKLAB_SOURCE_DIR;
  std::vector<fs::path> files;
  const auto add_tree = [&](const fs::path& dir, const std::vector<std::string>& extensions) {
    if (!fs::exists(dir)) return;
    for (const auto& entry : fs::recursive_directory_iterator(dir)) {
      if (!entry.is_regular_file()) continue;
      for (const auto& ext : extensions) {
        if (entry.path().extension() == ext) files.push_back(entry.path());
      }
    }
  };
  for (const char* page : {"README.md", "grader/README.md", "common/scripts/student_kit/README.md",
                           "common/banksim/README.md", "common/emulator/README.md"}) {
    if (fs::exists(root / page)) files.push_back(root / page);
  }
  add_tree(root / "handouts", {".md", ".cu"});
  add_tree(root / "labs", {".md", ".cu", ".txt"});
  add_tree(root / "grader" / "src", {".cpp", ".hpp"});
  add_tree(root / "grader" / "labs", {".cpp", ".hpp", ".cu", ".cuh", ".md"});
  add_tree(root / "grader" / "quiz", {".cpp", ".hpp", ".inc"});
  add_tree(root / "common" / "docs", {".cpp", ".md", ".html"});
  add_tree(root / "common" / "explorer", {".html", ".js", ".md"});
  return files;
}

}  // namespace

TEST_CASE("no reader-facing file uses the private vocabulary (seed NNN, the seed reading, source articles, E1-E14)") {
  const std::vector<std::pair<std::regex, std::string>> banned = {
      {std::regex(R"((^|[^-\w])[Ss]eeds? [0-9]{3}\b)"), "a \"seed NNN\" reference"},
      {std::regex(R"(\b[Ss]eed (reading|material|text|article)s?\b)"), "\"the seed reading\""},
      {std::regex(R"(\b[Ss]ource (article|text|material)s?\b)"), "\"the source articles\""},
      {std::regex(R"(\bE(1[0-4]|[1-9])\b)"), "a misconception id (E1-E14)"},
      {std::regex(R"(种子 ?[0-9]|种子材料|原始文章|源文章)"), "a \"seed\" or \"source article\" reference (zh)"},
  };
  const auto files = reader_files();
  CHECK(files.size() >= 40);
  for (const auto& file : files) {
    std::ifstream in(file);
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
      for (const auto& [pattern, what] : banned) {
        INFO(fs::relative(file, BANKLAB_SOURCE_DIR).string() << ":" << n << ": " << line);
        CHECK_MESSAGE(!std::regex_search(line, pattern),
                      what << ": say it in the course's own words (a corrected claim is \"a common claim: ...\")");
      }
    }
  }
}

TEST_CASE("the vocabulary check finds what it bans") {
  // The same patterns on lines that must be caught and lines that must not.
  const std::regex seed(R"((^|[^-\w])[Ss]eeds? [0-9]{3}\b)"), id(R"(\bE(1[0-4]|[1-9])\b)");
  CHECK(std::regex_search("*Correction (seed 002: +2)*", seed));
  CHECK(std::regex_search("Seeds 000, 001", seed));
  CHECK_FALSE(std::regex_search("grader --seed 12345", seed));
  CHECK(std::regex_search("## E14: 30 people", id));
  CHECK(std::regex_search("(E2's command)", id));
  CHECK_FALSE(std::regex_search("1E9 and 0xE1 and E15", id));
}

// The course site as built by the `docs` target (build/docs/html): every page
// it must have is there, Doxygen found every snippet, page reference and
// figure, and every relative link of every page resolves.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

const fs::path kHtml = BANKLAB_SITE_HTML;
const fs::path kSource = BANKLAB_SOURCE_DIR;

// The page Doxygen made of a repository Markdown page (its first heading's id).
fs::path page_of(const std::string& repo_path) {
  std::string id;
  for (char c : fs::path(repo_path).replace_extension().string()) id += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return kHtml / ("page_" + id + ".html");
}

}  // namespace

TEST_CASE("the site has the overview, a page per stage with its handout and lab README in both languages, and the manuals") {
  REQUIRE(fs::exists(kHtml / "index.html"));
  const std::string index = slurp(kHtml / "index.html");
  int stages = 0;
  for (const auto& entry : fs::directory_iterator(kSource / "labs")) {
    const std::string name = entry.path().filename().string();
    if (!entry.is_directory() || !std::isdigit(static_cast<unsigned char>(name[0]))) continue;
    ++stages;
    INFO("stage " << name);
    const fs::path stage = kHtml / ("stage_" + name.substr(0, 2) + ".html");
    REQUIRE(fs::exists(stage));
    CHECK(index.find("stage_" + name.substr(0, 2) + ".html") != std::string::npos);  // the overview links it
    const std::string text = slurp(stage);
    for (const std::string& page : {"handouts/" + name + ".md", "handouts/zh/" + name + ".md",
                                    "labs/" + name + "/README.md", "labs/" + name + "/README.zh.md"}) {
      INFO(page);
      CHECK(fs::exists(page_of(page)));
      CHECK(text.find(page_of(page).filename().string()) != std::string::npos);
    }
    // The student's file, browsable; the solution in the instructor build.
    CHECK(text.find("The student's file") != std::string::npos);
    if (BANKLAB_SITE_SOLUTIONS) CHECK(text.find("The reference solution") != std::string::npos);
  }
  CHECK(stages >= 5);
  for (const char* manual : {"grader/README.md", "common/banksim/README.md", "common/emulator/README.md", "README.md"}) {
    INFO(manual);
    CHECK(fs::exists(page_of(manual)));
  }
}

TEST_CASE("Doxygen found every snippet, page reference and figure of the site's pages") {
  std::istringstream log(slurp(BANKLAB_SITE_WARNINGS));
  std::string line;
  int problems = 0;
  while (std::getline(log, line)) {
    // Warnings about the pages (a snippet, a reference, an image, markup);
    // the code reference's parsing hiccups are not the course's.
    const bool page = line.find(".md:") != std::string::npos;
    const bool missing = line.find("snippet") != std::string::npos || line.find("unable to resolve") != std::string::npos ||
                         line.find("image") != std::string::npos || line.find("could not") != std::string::npos;
    if (page || missing) {
      ++problems;
      MESSAGE(line);
    }
  }
  CHECK(problems == 0);
}

TEST_CASE("every relative link and image of every page of the site resolves") {
  const std::regex reference(R"((?:href|src)="([^"#]+)(?:#[^"]*)?")");
  int links = 0, pages = 0;
  for (const auto& entry : fs::directory_iterator(kHtml)) {
    if (entry.path().extension() != ".html") continue;
    ++pages;
    const std::string text = slurp(entry.path());
    for (std::sregex_iterator it(text.begin(), text.end(), reference), end; it != end; ++it) {
      const std::string target = (*it)[1];
      if (target.find(':') != std::string::npos) continue;  // http:, https:, javascript:
      if (!BANKLAB_SITE_EXPLORER && target.rfind("explorer/", 0) == 0) continue;  // not built here (no Emscripten)
      ++links;
      INFO(entry.path().filename().string() << " links to " << target);
      CHECK(fs::exists(entry.path().parent_path() / target));
    }
  }
  CHECK(pages >= 50);
  CHECK(links >= 1000);
}

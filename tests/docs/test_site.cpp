// The course site as built by the `docs` target (build/docs/html): every page
// it must have is there, each stage's page shows the stage, the navigation
// has one entry per page under distinct titles, Doxygen found every snippet,
// page reference and figure, every relative link of every page resolves, no
// page holds the build machine's paths, no emphasis marker is left literal,
// and the students' site (the default) holds no solution.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

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
    const fs::path stage_zh = kHtml / ("stage_" + name.substr(0, 2) + "_zh.html");
    REQUIRE(fs::exists(stage_zh));
    for (const std::string& page : {"handouts/zh/" + name + ".md", "labs/" + name + "/README.zh.md"}) {
      INFO(page);
      CHECK(fs::exists(page_of(page)));
      CHECK(slurp(stage_zh).find(page_of(page).filename().string()) != std::string::npos);
    }
    for (const std::string& page : {"handouts/" + name + ".md", "labs/" + name + "/README.md"}) {
      INFO(page);
      CHECK(fs::exists(page_of(page)));
      CHECK(text.find(page_of(page).filename().string()) != std::string::npos);
    }
    // The student's file, browsable; the solution in the instructor's site only.
    CHECK(text.find("The file you edit") != std::string::npos);
    CHECK((text.find("The reference solution") != std::string::npos) == bool(BANKLAB_SITE_SOLUTIONS));
  }
  CHECK(stages >= 5);
  for (const char* manual : {"grader/README.md", "common/banksim/README.md", "common/emulator/README.md", "README.md"}) {
    INFO(manual);
    CHECK(fs::exists(page_of(manual)));
  }
}

// The page's text: tags, scripts, code blocks and code spans dropped.
std::string prose_of(std::string html) {
  const auto begin = html.find("<div class=\"contents\">");
  html = html.substr(begin == std::string::npos ? 0 : begin);
  for (const char* code : {R"(<div class="fragment">[\s\S]*?</div><!-- fragment -->)", R"(<pre[\s\S]*?</pre>)",
                           R"(<code>[\s\S]*?</code>)", R"(<script[\s\S]*?</script>)", R"(<[^>]*>)"}) {
    html = std::regex_replace(html, std::regex(code), " ");
  }
  return html;
}

// The page's text with its tags dropped.
std::string text_of(const std::string& html) { return std::regex_replace(html, std::regex("<[^>]*>"), ""); }

TEST_CASE("each stage's page shows the stage: its goal, its points from the rubric, the grader command and its pages") {
  for (const auto& entry : fs::directory_iterator(kSource / "labs")) {
    const std::string name = entry.path().filename().string();
    if (!entry.is_directory() || !std::isdigit(static_cast<unsigned char>(name[0]))) continue;
    const int number = std::stoi(name.substr(0, 2));
    for (const bool zh : {false, true}) {
      const fs::path stage = kHtml / ("stage_" + name.substr(0, 2) + (zh ? "_zh" : "") + ".html");
      INFO(stage.filename().string());
      REQUIRE(fs::exists(stage));
      const std::string text = slurp(stage);
      const std::string readme = slurp(kSource / "labs" / name / (zh ? "README.zh.md" : "README.md"));
      // The goal, as the lab README states it (its first line's start).
      const auto goal = readme.find(zh ? "## 目标\n\n" : "## Goal\n\n");
      REQUIRE(goal != std::string::npos);
      std::string start = readme.substr(goal + (zh ? 12 : 9));
      start = std::regex_replace(start.substr(0, start.find('\n')), std::regex("`"), "");
      std::size_t cut = std::min<std::size_t>(start.size(), 16);
      while (cut < start.size() && (static_cast<unsigned char>(start[cut]) & 0xC0) == 0x80) ++cut;  // a whole character
      start = start.substr(0, cut);
      CHECK_MESSAGE(text_of(text).find(start) != std::string::npos, "the goal's start: " << start);
      CHECK(text.find(zh ? "目标" : "Goal") != std::string::npos);
      // The points: the table's total is the rubric's (grader --list's last line).
      std::smatch m;
      CHECK(std::regex_search(text, m, std::regex(zh ? "合计</b>\\s*</td><td[^>]*><b>(\\d+)</b>" : "in all</b>\\s*</td><td[^>]*><b>(\\d+)</b>")));
      if (!m.empty()) CHECK(std::stoi(m[1]) >= 90);
      CHECK(text.find("build/grader/grader --lab " + std::to_string(number)) != std::string::npos);
      CHECK(text.find("--list") != std::string::npos);
    }
  }
}

TEST_CASE("the navigation has one entry per page, and no two pages share a title") {
  // navtreedata.js and the files its subtrees are in: [ "title", "page.html...", ... ].
  const std::regex entry(R"re(\[ "((?:[^"\\]|\\.)*)", "([^"#]*)(#[^"]*)?")re");
  std::map<std::string, std::vector<std::string>> titles;  // title -> the pages under it
  std::map<std::string, int> entries;                      // page -> its entries
  for (const auto& file : fs::directory_iterator(kHtml)) {
    const std::string name = file.path().filename().string();
    if (file.path().extension() != ".js" || (name.rfind("nav", 0) == 0 && name != "navtreedata.js")) continue;
    const std::string text = slurp(file.path());
    if (text.find("var ") == std::string::npos) continue;
    bool root = name == "navtreedata.js";  // its first entry is the tree's root, the project's name
    for (std::sregex_iterator it(text.begin(), text.end(), entry), end; it != end; ++it) {
      if ((*it)[3].matched) continue;  // a section of a page
      const std::string page = (*it)[2];
      if (std::exchange(root, false)) continue;
      if (page.rfind("page_", 0) != 0 && page.rfind("stage_", 0) != 0 && page != "index.html") continue;
      ++entries[page];
      titles[(*it)[1]].push_back(page);
    }
  }
  CHECK(entries.size() >= 30);
  for (const auto& [page, count] : entries) {
    INFO(page);
    CHECK(count == 1);
  }
  for (const auto& [title, pages] : titles) {
    std::set<std::string> distinct(pages.begin(), pages.end());
    INFO("title \"" << title << "\" names " << distinct.size() << " pages");
    CHECK(distinct.size() == 1);
  }
  for (const std::string stage : {"stage_01.html", "stage_05.html", "stage_03_zh.html"}) {
    INFO(stage);
    CHECK(entries.count(stage) == 1);
  }
}

TEST_CASE("no page of the site holds an absolute path of the build machine") {
  const std::string source = fs::canonical(kSource).string(), html = fs::canonical(kHtml).string();
  const std::string build = fs::canonical(kHtml).parent_path().parent_path().string();
  int files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(kHtml)) {
    const std::string extension = entry.path().extension().string();
    if (!entry.is_regular_file() || (extension != ".html" && extension != ".js" && extension != ".md" && extension != ".svg"))
      continue;
    ++files;
    const std::string text = slurp(entry.path());
    INFO(fs::relative(entry.path(), kHtml).string());
    for (const std::string& path : {source, build, html}) {
      const auto at = text.find(path + "/");
      CHECK_MESSAGE(at == std::string::npos, "it holds " << path << ": ..." << text.substr(at == std::string::npos ? 0 : at, 120));
    }
  }
  CHECK(files >= 100);
}

TEST_CASE("no literal emphasis marker is left in the text of a page, Chinese pages included") {
  // Doxygen's Markdown closes `**x**` only before a space or ASCII
  // punctuation: next to Chinese text the asterisks stayed on the page.
  int pages = 0, chinese = 0;
  for (const auto& entry : fs::directory_iterator(kHtml)) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() != ".html" || (name.rfind("page_", 0) != 0 && name.rfind("stage_", 0) != 0 && name != "index.html"))
      continue;
    ++pages;
    const std::string text = prose_of(slurp(entry.path()));
    if (text.find("的") != std::string::npos) ++chinese;
    std::smatch m;
    // A `*` or `_` that opens or closes emphasis: next to a letter, a digit or
    // a Chinese character on one side and not a word character on the other.
    const std::regex marker(R"((\*\*?|(?:^|[\s(（，。：])_)[^\s*_][^*\n]{0,40})");
    std::string shown;
    int markers = 0;
    for (std::sregex_iterator it(text.begin(), text.end(), marker), end; it != end; ++it) {
      const std::string hit = (*it)[0];
      // Arithmetic ("2 * l", "a*b") and pointer types are not emphasis.
      const auto at = (*it).position(0);
      if (hit[0] == '*' && at > 0 && std::isalnum(static_cast<unsigned char>(text[at - 1]))) continue;
      ++markers;
      if (shown.size() < 400) shown += "[" + hit + "] ";
    }
    INFO(name << ": " << shown);
    CHECK(markers == 0);
  }
  CHECK(pages >= 30);
  CHECK(chinese >= 12);
}

TEST_CASE("the students' site (the default) links and copies no reference solution") {
  if (BANKLAB_SITE_SOLUTIONS) return;  // an instructor's build (-DBANKLAB_DOCS_SOLUTIONS=ON)
  int files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(kHtml)) {
    if (!entry.is_regular_file()) continue;
    ++files;
    const std::string name = entry.path().filename().string();
    INFO(fs::relative(entry.path(), kHtml).string());
    CHECK(name.find("solutions") == std::string::npos);
    CHECK(fs::relative(entry.path(), kHtml).string().find("solutions/") == std::string::npos);
    if (entry.path().extension() != ".html") continue;
    const std::string text = slurp(entry.path());  // the prose may name solutions/; no link may lead there
    CHECK(!std::regex_search(text, std::regex(R"((href|src)="[^"]*solutions)")));
  }
  CHECK(files >= 100);
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

TEST_CASE("every relative link and image of every page of the site resolves, pages in its folders included") {
  const std::regex reference(R"((?:href|src)="([^"#]+)(?:#[^"]*)?")");
  int links = 0, pages = 0;
  for (const auto& entry : fs::recursive_directory_iterator(kHtml)) {
    if (entry.path().extension() != ".html") continue;
    ++pages;
    const std::string text = slurp(entry.path());
    for (std::sregex_iterator it(text.begin(), text.end(), reference), end; it != end; ++it) {
      const std::string target = (*it)[1];
      if (target.find(':') != std::string::npos) continue;  // http:, https:, javascript:
      if (!BANKLAB_SITE_EXPLORER && target.find("explorer/") != std::string::npos) continue;  // not built here (no Emscripten)
      ++links;
      INFO(entry.path().filename().string() << " links to " << target);
      CHECK(fs::exists(entry.path().parent_path() / target));
    }
  }
  CHECK(pages >= 50);
  CHECK(links >= 1000);
}

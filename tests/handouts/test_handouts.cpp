// Handouts show code and tool output the kit really compiles and prints:
//   <!-- snippet: FILE NAME -->  the next code block is the region of FILE
//                                between the lines "//! [NAME]" (indentation aside);
//   <!-- output: banksim ARGS --> every line of the next code block, except
//                                "...", appears in banksim's output, in order;
//   <!-- output: banklab run FILE --> the same, for what `banklab run` prints
//                                of a worked example (run from the source tree).
// And no handout prints a graded answer: no code block holds a line that a
// stage's reference solution has and its skeleton does not.
#include <doctest/doctest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "../common/run_command.hpp"

namespace {

std::vector<std::string> read_lines(std::istream& in) {
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(in, line)) {
    while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) line.pop_back();
    lines.push_back(line);
  }
  return lines;
}

std::vector<std::string> dedent(std::vector<std::string> lines) {
  std::size_t common = std::string::npos;
  for (const auto& l : lines) {
    if (!l.empty()) common = std::min(common, l.find_first_not_of(' '));
  }
  for (auto& l : lines) l = l.size() >= common ? l.substr(common) : l;
  return lines;
}

std::vector<std::string> region(const std::string& file, const std::string& name) {
  std::ifstream in(std::string(BANKLAB_SOURCE_DIR) + "/" + file);
  REQUIRE_MESSAGE(in.good(), "cannot open " << file);
  std::vector<std::string> out;
  bool inside = false, found = false;
  for (const auto& l : read_lines(in)) {
    if (l.find("//! [" + name + "]") != std::string::npos) {
      found = true;
      inside = !inside;
      continue;
    }
    if (inside) out.push_back(l);
  }
  REQUIRE_MESSAGE(found, "no //! [" << name << "] markers in " << file);
  return dedent(out);
}

// The output of a marker's command: banksim ARGS, or banklab run FILE ARGS
// (a worked example under handouts/examples, run from the source tree).
std::vector<std::string> tool_output(const std::string& command) {
  std::string shell;
  if (command.rfind("banksim ", 0) == 0) {
    shell = std::string(BANKSIM_PATH) + " " + command.substr(8);
  } else if (command.rfind("banklab run ", 0) == 0) {
    shell = std::string("cd '") + BANKLAB_SOURCE_DIR + "' && BANKLAB_CACHE_DIR='" + BANKLAB_TEST_TMP + "/cache' " +
            BANKLAB_PATH + " run " + command.substr(12) + " 2>&1";
  } else {
    FAIL("an output marker runs banksim or banklab run, not: " << command);
  }
  const auto result = banklab::test::run_command(shell);
  INFO(result.out);
  REQUIRE(result.status == 0);
  std::istringstream in(result.out);
  return read_lines(in);
}

}  // namespace

TEST_CASE("handout code snippets and tool outputs match what the kit compiles and prints") {
  int checked = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(std::string(BANKLAB_SOURCE_DIR) + "/handouts")) {
    if (entry.path().extension() != ".md") continue;
    std::ifstream in(entry.path());
    const auto lines = read_lines(in);
    const std::regex marker(R"(<!-- (snippet|output): (.*) -->)");
    for (std::size_t i = 0; i < lines.size(); ++i) {
      std::smatch m;
      if (!std::regex_match(lines[i], m, marker)) continue;
      INFO(entry.path().filename().string() << ":" << i + 1 << ": " << lines[i]);
      REQUIRE(i + 1 < lines.size());
      REQUIRE(lines[i + 1].rfind("```", 0) == 0);
      std::vector<std::string> block;
      std::size_t j = i + 2;
      for (; j < lines.size() && lines[j] != "```"; ++j) block.push_back(lines[j]);
      REQUIRE(j < lines.size());
      if (m[1] == "snippet") {
        const std::string spec = m[2];
        const auto space = spec.find(' ');
        CHECK(dedent(block) == region(spec.substr(0, space), spec.substr(space + 1)));
      } else {
        const std::string command = m[2];
        const auto output = tool_output(command);
        std::size_t at = 0;
        for (const auto& want : block) {
          if (want == "...") continue;
          while (at < output.size() && output[at] != want) ++at;
          CHECK_MESSAGE(at < output.size(), "not in the output of " << command << " (in order): " << want);
          if (at < output.size()) ++at;
        }
      }
      ++checked;
    }
  }
  CHECK(checked >= 3);
}

TEST_CASE("handout figures are the ones banklab_figures draws from the bank model, and every image link resolves") {
  const std::filesystem::path fresh = std::filesystem::path(BANKLAB_TEST_TMP) / "figures";
  std::filesystem::remove_all(fresh);
  const auto result = banklab::test::run_command(std::string(BANKLAB_FIGURES_PATH) + " " + fresh.string());
  REQUIRE(result.status == 0);
  const std::filesystem::path committed = std::string(BANKLAB_SOURCE_DIR) + "/handouts/figures";
  int figures = 0;
  for (const auto& entry : std::filesystem::directory_iterator(fresh)) {
    INFO(entry.path().filename().string() << " (regenerate: build/common/figures/banklab_figures handouts/figures)");
    std::ifstream a(entry.path()), b(committed / entry.path().filename());
    REQUIRE(b.good());
    std::stringstream x, y;
    x << a.rdbuf();
    y << b.rdbuf();
    CHECK(x.str() == y.str());
    ++figures;
  }
  CHECK(figures >= 12);
  // Every stage's handout shows at least one of them.
  for (const auto& entry : std::filesystem::directory_iterator(std::string(BANKLAB_SOURCE_DIR) + "/handouts")) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() != ".md" || !std::isdigit(static_cast<unsigned char>(name[0]))) continue;
    std::ifstream in(entry.path());
    std::stringstream text;
    text << in.rdbuf();
    INFO(name);
    CHECK(text.str().find("](figures/") != std::string::npos);
  }
  // Every ![...](figures/NAME.svg) in a handout names a committed figure.
  for (const auto& entry : std::filesystem::recursive_directory_iterator(std::string(BANKLAB_SOURCE_DIR) + "/handouts")) {
    if (entry.path().extension() != ".md") continue;
    std::ifstream in(entry.path());
    std::stringstream text;
    text << in.rdbuf();
    const std::string s = text.str();
    const std::regex image(R"(!\[[^\]]*\]\(((\.\./)?figures/[^)]+)\))");
    for (std::sregex_iterator it(s.begin(), s.end(), image), end; it != end; ++it) {
      INFO(entry.path().filename().string() << ": " << (*it)[0]);
      CHECK(std::filesystem::exists(entry.path().parent_path() / (*it)[1].str()));
    }
  }
}

namespace {

std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// What a translation must keep: the heading levels in order, the snippet and
// output markers, the figures, and the text of every code block that follows
// a marker (tool output and code are not translated).
struct PageShape {
  std::vector<int> headings;
  std::vector<std::string> markers;
  std::vector<std::string> figures;
};

PageShape shape_of(const std::string& text) {
  PageShape shape;
  std::istringstream in(text);
  bool fenced = false;
  for (const auto& line : read_lines(in)) {
    if (line.rfind("```", 0) == 0) fenced = !fenced;
    if (fenced) continue;
    if (!line.empty() && line[0] == '#') shape.headings.push_back(static_cast<int>(line.find_first_not_of('#')));
    std::smatch m;
    if (std::regex_match(line, m, std::regex(R"(<!-- (snippet|output): (.*) -->)"))) shape.markers.push_back(m[0]);
  }
  const std::regex image(R"(!\[[^\]]*\]\((?:\.\./)*(figures/[^)]+)\))");
  for (std::sregex_iterator it(text.begin(), text.end(), image), end; it != end; ++it) shape.figures.push_back((*it)[1]);
  return shape;
}

// Every page that has a Chinese translation: (English, Chinese).
std::vector<std::pair<std::filesystem::path, std::filesystem::path>> translated_pages() {
  const std::filesystem::path root = BANKLAB_SOURCE_DIR;
  std::vector<std::pair<std::filesystem::path, std::filesystem::path>> pages;
  for (const auto& entry : std::filesystem::directory_iterator(root / "handouts")) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() == ".md" && name != "README.md") {
      pages.emplace_back(entry.path(), root / "handouts" / "zh" / name);
    }
  }
  for (const auto& entry : std::filesystem::directory_iterator(root / "labs")) {
    if (entry.is_directory() && std::filesystem::exists(entry.path() / "README.md") &&
        std::isdigit(static_cast<unsigned char>(entry.path().filename().string()[0]))) {
      pages.emplace_back(entry.path() / "README.md", entry.path() / "README.zh.md");
    }
  }
  std::sort(pages.begin(), pages.end());
  return pages;
}

}  // namespace

TEST_CASE("every handout and stage README has its Chinese translation: same headings, markers and figures, linked both ways") {
  const auto pages = translated_pages();
  CHECK(pages.size() >= 10);  // five handouts, five stage READMEs
  for (const auto& [english, chinese] : pages) {
    INFO(english.string() << " and " << chinese.string());
    REQUIRE(std::filesystem::exists(chinese));
    const std::string en = slurp(english), zh = slurp(chinese);
    const PageShape a = shape_of(en), b = shape_of(zh);
    CHECK(a.headings == b.headings);
    CHECK(a.markers == b.markers);
    CHECK(a.figures == b.figures);
    // Linked both ways, by relative links that resolve.
    const std::string to_zh = std::filesystem::relative(chinese, english.parent_path()).string();
    const std::string to_en = std::filesystem::relative(english, chinese.parent_path()).string();
    CHECK(en.find("(" + to_zh + ")") != std::string::npos);
    CHECK(zh.find("(" + to_en + ")") != std::string::npos);
  }
}

TEST_CASE("every relative Markdown link of the course pages resolves") {
  const std::filesystem::path root = BANKLAB_SOURCE_DIR;
  std::vector<std::filesystem::path> files = {root / "README.md", root / "labs" / "README.md",
                                              root / "grader" / "README.md"};
  for (const char* dir : {"handouts", "labs"}) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(root / dir)) {
      if (entry.path().extension() == ".md") files.push_back(entry.path());
    }
  }
  int links = 0;
  const std::regex link(R"(\]\(([^)#\s]+)(#[^)]*)?\))");
  for (const auto& file : files) {
    const std::string text = slurp(file);
    for (std::sregex_iterator it(text.begin(), text.end(), link), end; it != end; ++it) {
      const std::string target = (*it)[1];
      if (target.find("://") != std::string::npos || target.rfind("mailto:", 0) == 0) continue;
      INFO(file.string() << ": " << (*it)[0]);
      CHECK(std::filesystem::exists(file.parent_path() / target));
      ++links;
    }
  }
  CHECK(links >= 20);
}

namespace {

std::string trimmed(const std::string& line) {
  const auto begin = line.find_first_not_of(" \t");
  if (begin == std::string::npos) return "";
  const auto end = line.find_last_not_of(" \t");
  return line.substr(begin, end - begin + 1);
}

// Every trimmed line of the files students get (labs/): not an answer.
std::set<std::string> skeleton_lines(const std::filesystem::path& labs) {
  std::set<std::string> given;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(labs)) {
    if (!entry.is_regular_file()) continue;
    std::istringstream in(slurp(entry.path()));
    for (const auto& line : read_lines(in)) given.insert(trimmed(line));
  }
  return given;
}

// The lines of a stage's answer: trimmed code lines (comments and short
// lines such as "}" aside) of its reference solution's files that no
// skeleton has.
std::set<std::string> answer_lines(const std::filesystem::path& solution, const std::set<std::string>& given) {
  std::set<std::string> answer;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(solution)) {
    if (!entry.is_regular_file() || entry.path().extension() == ".md") continue;
    std::istringstream in(slurp(entry.path()));
    for (const auto& raw : read_lines(in)) {
      const std::string line = trimmed(raw);
      if (line.size() < 12 || line.rfind("//", 0) == 0 || given.count(line) != 0) continue;
      answer.insert(line);
    }
  }
  return answer;
}

}  // namespace

TEST_CASE("no handout prints a graded answer: no code block line comes from a solution and not its skeleton") {
  const std::filesystem::path root = BANKLAB_SOURCE_DIR;
  const auto given = skeleton_lines(root / "labs");
  std::set<std::string> answers;
  int stages = 0;
  for (const auto& entry : std::filesystem::directory_iterator(root / "solutions")) {
    const auto skeleton = root / "labs" / entry.path().filename();
    if (!entry.is_directory() || !std::filesystem::is_directory(skeleton)) continue;
    const auto lines = answer_lines(entry.path(), given);
    answers.insert(lines.begin(), lines.end());
    ++stages;
  }
  CHECK(stages >= 5);
  CHECK(answers.size() >= 20);
  int blocks = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root / "handouts")) {
    if (entry.path().extension() != ".md") continue;
    std::istringstream in(slurp(entry.path()));
    const auto lines = read_lines(in);
    bool fenced = false;
    for (std::size_t i = 0; i < lines.size(); ++i) {
      INFO(std::filesystem::relative(entry.path(), root).string() << ":" << i + 1 << ": " << lines[i]);
      CHECK_MESSAGE(lines[i].find("snippet: solutions/") == std::string::npos,
                    "a handout's snippets come from handouts/examples or the skeleton, never from solutions/");
      if (lines[i].rfind("```", 0) == 0) {
        fenced = !fenced;
        blocks += fenced ? 1 : 0;
        continue;
      }
      if (fenced) CHECK_MESSAGE(answers.count(trimmed(lines[i])) == 0, "this line is a graded answer of a stage's solution");
    }
  }
  CHECK(blocks >= 20);
}

namespace {

// Whitespace removed, so that "chunk ^ (row % 8)" and "chunk^(row%8)" match.
std::string squeezed(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c != ' ' && c != '\t' && c != '\n' && c != '`') out += c;
  }
  return out;
}

}  // namespace

TEST_CASE("no handout, stage README, hint or misconceptions page states a task's answer (its key expressions)") {
  const std::filesystem::path root = BANKLAB_SOURCE_DIR;
  // The answers' key numbers and expressions, as the reference solutions
  // (solutions/) and their predictions have them: stage 2's task-4 layout,
  // stage 3's padded float tile and predictions, stage 4's two maps, stage
  // 5's paddings and predictions. (A padded tile of another element type,
  // float4 tile[32][33] say, is a worked example, not an answer.)
  const std::vector<std::string> answers = {
      "32-floatrowpaddedby2", "[TILE16/2][2*TILE16+2]", "[8][34]", "pairsofrowsasone",  // stage 2, task 4
      "floattile[32][33]", "float[32][33]", "floatm[32][33]", "33floats", "33-float", "33个float",
      "predicted_wavefronts[2]={32,1}", "={32,1}",  // stage 3
      "col^row", "col^(row%32)", "c^r", "chunk^(row%8)", "chunk^(row%CHUNKS)", "^(r%8)", "^(row&7)",
      "Swizzle<3,4,3>",  // stage 4
      "double[32][33]", "doubletile[32][33]", "[TILE_DIM][TILE_DIM+1]", "half[64][66]", "halftile[64][66]",
      "[64][66]", "[HALF_TILE][HALF_TILE+2]", "half[64][65]", "{1,2,2,4,2,4,32,1,1,2}",  // stage 5
  };
  // Most expressions are the reference solutions' own (so the list follows
  // the key); the others write the same answers with the constants out.
  std::string solutions;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root / "solutions")) {
    if (entry.is_regular_file()) solutions += squeezed(slurp(entry.path()));
  }
  int in_key = 0;
  for (const auto& a : answers) in_key += solutions.find(a) != std::string::npos ? 1 : 0;
  CHECK(in_key >= 7);  // the rest: the same answers with the constants written out
  // Every page of handouts/ (English and Chinese, the worked examples'
  // sources among them), every README of labs/, the two top-level READMEs
  // (the repository's and the student kit's), and the hints.
  std::vector<std::filesystem::path> files = {root / "grader" / "src" / "hints.cpp", root / "README.md",
                                              root / "common" / "scripts" / "student_kit" / "README.md"};
  for (const char* dir : {"handouts", "labs"}) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(root / dir)) {
      const auto ext = entry.path().extension();
      if (ext == ".md" || (std::string(dir) == "handouts" && ext == ".cu")) files.push_back(entry.path());
    }
  }
  CHECK(files.size() >= 30);
  for (const auto& file : files) {
    const std::string text = squeezed(slurp(file));
    for (const auto& a : answers) {
      INFO(std::filesystem::relative(file, root).string() << " states \"" << a << "\"");
      CHECK(text.find(a) == std::string::npos);
    }
  }
  // Stage 3's pages and stage 5's handout do not even name their padded
  // tile without the type (stage 5's README uses float4[32][33] as a worked
  // example of another element size).
  for (const auto& file : {root / "handouts" / "03-padded-transpose.md", root / "handouts" / "zh" / "03-padded-transpose.md",
                           root / "labs" / "03-padded-transpose" / "README.md",
                           root / "labs" / "03-padded-transpose" / "README.zh.md",
                           root / "handouts" / "05-wide-types.md", root / "handouts" / "zh" / "05-wide-types.md"}) {
    INFO(std::filesystem::relative(file, root).string() << " names the padded tile [32][33]");
    CHECK(squeezed(slurp(file)).find("[32][33]") == std::string::npos);
  }
}

TEST_CASE("no handout or stage README shows banksim's output or cost for a prediction's own access") {
  // The accesses that stage 3's and stage 5's predictions ask about, as
  // banksim arguments (labs/*/README and the skeletons name some of these
  // commands, for the student to run; the reading must not print the result).
  const std::vector<std::string> predictions = {
      "--width 4 --stride 32", "--width 4 --stride 33",  // stage 3
      "--width 8 --stride 0", "--width 16 --stride 0", "--width 8 --stride 0 --op st",
      "--width 16 --stride 0 --op st", "--width 8 --stride 1", "--width 16 --stride 1", "--width 8 --stride 16",
      "--width 8 --stride 1 --lanes 0-7", "--width 2 --stride 65",  // stage 5
  };
  const std::filesystem::path root = BANKLAB_SOURCE_DIR;
  std::vector<std::filesystem::path> files = {root / "README.md", root / "common" / "scripts" / "student_kit" / "README.md"};
  for (const char* dir : {"handouts", "labs"}) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(root / dir)) {
      if (entry.path().extension() == ".md") files.push_back(entry.path());
    }
  }
  const std::regex output_marker(R"(<!-- output: banksim (.*) -->)");
  int markers = 0;
  for (const auto& file : files) {
    std::istringstream in(slurp(file));
    const auto lines = read_lines(in);
    for (std::size_t i = 0; i < lines.size(); ++i) {
      INFO(std::filesystem::relative(file, root).string() << ":" << i + 1 << ": " << lines[i]);
      std::smatch m;
      if (std::regex_match(lines[i], m, output_marker)) {
        ++markers;
        for (const auto& p : predictions) CHECK_MESSAGE(m[1] != p, "the output of a prediction's access");
      }
      // A command line whose comment prices it ("banksim ARGS   # 32-way").
      for (const auto& p : predictions) {
        const auto at = lines[i].find("banksim " + p);
        if (at == std::string::npos) continue;
        const std::string rest = trimmed(lines[i].substr(at + 8 + p.size()));
        CHECK_MESSAGE(!(rest.rfind("#", 0) == 0 && rest.find_first_of("0123456789") != std::string::npos),
                      "a command line's comment prices a prediction's access");
      }
      // A table row that gives a prediction's command gives its number too.
      if (lines[i].rfind("|", 0) == 0) {
        for (const auto& p : predictions) {
          CHECK_MESSAGE(lines[i].find("`" + p + "`") == std::string::npos, "a table row prices a prediction's access");
          CHECK_MESSAGE(lines[i].find("`banksim " + p + "`") == std::string::npos,
                        "a table row prices a prediction's access");
        }
      }
    }
  }
  CHECK(markers >= 15);
}

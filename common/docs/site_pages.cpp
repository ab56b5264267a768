// banklab_site_pages: the input of the course site (Doxygen, the `docs`
// target). Copies the kit's Markdown pages and code into OUT_DIR, in the same
// layout, and makes them Doxygen's:
//   - a `<!-- snippet: FILE NAME -->` marker and the code block after it
//     become `\snippet FILE NAME` (the code comes from the compiled file);
//   - a link to a source file becomes a link to its page in the site, a link
//     to any other file (a results log, a CSV) a link to a copy of it under
//     html/repo/ (FILES.txt lists them for the build to copy); without
//     --solutions nothing under solutions/ is linked or copied;
//   - images link to the figures by name (IMAGE_PATH), headings lose their
//     backticks (Doxygen shows them literally), and each page gets an id;
//     emphasis next to Chinese text becomes HTML (Doxygen's Markdown only
//     closes `*x*` before a space or ASCII punctuation);
//   - two pages per stage (0-stages/NN.md in English, 0-stages/NN.zh.md in
//     Chinese), found from labs/NN-name/: the stage's goal and tasks (from
//     its lab README), its points (from `grader --lab N --list`, with
//     --grader), the command that grades it, and its pages as subpages (the
//     handout and the lab README, titled apart: "Stage 1 handout: ..."), the
//     student's file and, with --solutions, the reference solution; the
//     course overview (handouts/README.md) links them in order.
//   banklab_site_pages SOURCE_DIR OUT_DIR [--solutions] [--grader GRADER]
#include <algorithm>
#include <array>
#include <cstdio>
#include <map>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

struct Site {
  fs::path source, out;
  bool solutions = false;
  std::string grader;           // the grader, for each stage's points (--grader); "" for none
  std::set<std::string> pages;  // repository paths of the Markdown pages
  std::set<std::string> code;   // repository paths of the code files in the site
  std::set<std::string> files;  // other files linked from a page (copied to html/repo/)
};

std::string read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

bool is_code(const fs::path& path) {
  static const std::set<std::string> extensions = {".cu", ".cuh", ".cpp", ".hpp", ".h"};
  return extensions.count(path.extension().string()) != 0;
}

// "labs/03-padded-transpose/README.zh.md" -> "labs_03_padded_transpose_README_zh"
std::string page_id(const std::string& repo_path) {
  std::string id;
  for (char c : fs::path(repo_path).replace_extension().string()) id += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return "page_" + id;
}

// `path` (relative to the page's folder) as a repository path, or "" when it
// leaves the repository.
std::string repo_path(const std::string& page, const std::string& target) {
  const fs::path resolved = (fs::path(page).parent_path() / target).lexically_normal();
  const std::string text = resolved.generic_string();
  return text.rfind("..", 0) == 0 ? "" : text;
}

std::string strip_backticks(std::string heading) {
  heading.erase(std::remove(heading.begin(), heading.end(), '`'), heading.end());
  return heading;
}

// Bold and italics outside code spans as HTML: Doxygen's Markdown closes
// `**x**` and `*x*` only before a space or ASCII punctuation, so emphasis
// next to Chinese text ("**难度：**入门") stayed literal asterisks.
std::string emphasis_to_html(const std::string& line) {
  static const std::regex bold(R"(\*\*([^\s*](?:[^*]*[^\s*])?)\*\*)");
  static const std::regex italic(R"((^|[^\w*\\])\*([^\s*](?:[^*]*[^\s*])?)\*(?!\*))");
  // Code spans stand aside as \x01N\x02 while the emphasis is matched (an
  // italic may hold a code span; a `*` inside one is code).
  std::vector<std::string> spans;
  std::string text;
  for (std::size_t at = 0; at < line.size();) {
    const std::size_t tick = line.find('`', at);
    const std::size_t close = tick == std::string::npos ? tick : line.find('`', tick + 1);
    if (close == std::string::npos) {
      text += line.substr(at);
      break;
    }
    text += line.substr(at, tick - at) + "\x01" + std::to_string(spans.size()) + "\x02";
    spans.push_back(line.substr(tick, close - tick + 1));
    at = close + 1;
  }
  text = std::regex_replace(std::regex_replace(text, bold, "<b>$1</b>"), italic, "$1<em>$2</em>");
  std::string out;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t open = text.find('\x01', at);
    if (open == std::string::npos) {
      out += text.substr(at);
      break;
    }
    const std::size_t close = text.find('\x02', open);
    out += text.substr(at, open - at) + spans[std::stoul(text.substr(open + 1, close - open - 1))];
    at = close + 1;
  }
  return out;
}

// One Markdown page made the site's (id: the id its first heading gets, "" for none).
std::string convert(Site& site, const std::string& page, const std::string& text, const std::string& id) {
  std::istringstream in(text);
  std::ostringstream out;
  std::string line;
  bool first_heading = true, fenced = false;
  const std::regex snippet_marker(R"(<!-- snippet: (\S+) (.+) -->)");
  // [label](target) and ![alt](image); a label may hold brackets ("tile[32][33]").
  const std::regex link(R"((!?)\[((?:[^\[\]]|\[[^\]]*\])*)\]\(([^)\s]+)\))");
  while (std::getline(in, line)) {
    std::smatch m;
    if (!fenced && std::regex_match(line, m, snippet_marker) && fs::exists(site.source / m[1].str())) {
      // The marker and its code block become the snippet itself.
      out << "\\snippet " << m[1].str() << " " << m[2].str() << "\n";
      std::string skipped;
      std::getline(in, skipped);  // the opening fence
      while (std::getline(in, skipped) && skipped.rfind("```", 0) != 0) {
      }
      continue;
    }
    if (line.rfind("```", 0) == 0) fenced = !fenced;
    if (fenced) {
      out << line << "\n";
      continue;
    }
    if (!line.empty() && line[0] == '#') {
      line = strip_backticks(line);
      if (first_heading && !id.empty()) line += " {#" + id + "}";
      first_heading = false;
    }
    line = emphasis_to_html(line);
    // Doxygen only opens a code span after a space or ASCII punctuation: a
    // backtick next to Chinese punctuation ("：`x`") gets a space between.
    for (std::size_t i = 0; i < line.size(); ++i) {
      if (line[i] != '`') continue;
      if (i > 0 && static_cast<unsigned char>(line[i - 1]) >= 0x80) line.insert(i++, " ");
      if (i + 1 < line.size() && static_cast<unsigned char>(line[i + 1]) >= 0x80) line.insert(i + 1, " ");
    }
    std::string converted;
    auto begin = line.cbegin();
    for (std::sregex_iterator it(line.begin(), line.end(), link), end; it != end; ++it) {
      const std::smatch& l = *it;
      converted.append(begin, l[0].first);
      begin = l[0].second;
      const std::string image = l[1], label = l[2], target = l[3];
      if (target.find("://") != std::string::npos || target.rfind("mailto:", 0) == 0 || target[0] == '#') {
        converted += l[0].str();
        continue;
      }
      if (!image.empty()) {  // figures by name, from IMAGE_PATH
        converted += "![" + label + "](" + fs::path(target).filename().string() + ")";
        continue;
      }
      const std::string anchor = target.find('#') == std::string::npos ? "" : target.substr(target.find('#'));
      const std::string path = repo_path(page, target.substr(0, target.find('#')));
      std::string text_label = strip_backticks(label);
      text_label.erase(std::remove(text_label.begin(), text_label.end(), '"'), text_label.end());
      if (site.pages.count(path)) {
        // (Doxygen 1.9 resolves a Markdown link against its working folder,
        // not the page's: name the page instead.)
        converted += "\\ref " + (path == "handouts/README.md" ? std::string("index") : page_id(path)) + " \"" +
                     text_label + "\"";
      } else if (site.code.count(path)) {
        converted += "\\ref " + path + " \"" + text_label + "\"";
      } else if (path.rfind("common/explorer/", 0) == 0) {
        // The bank explorer: the docs target puts the built page at html/explorer/.
        converted += "<a href=\"explorer/" + fs::path(path).filename().string() + anchor + "\">" + text_label + "</a>";
      } else if (path.rfind("solutions/", 0) == 0 && !site.solutions) {
        converted += text_label + " (in the instructor's kit)";  // the students' site has no solutions
      } else if (!path.empty() && fs::is_regular_file(site.source / path)) {
        site.files.insert(path);
        converted += "<a href=\"repo/" + path + anchor + "\">" + text_label + "</a>";
      } else {
        converted += l[0].str();  // a folder or a missing file: the site check reports it
      }
    }
    converted.append(begin, line.cend());
    out << converted << "\n";
  }
  return out.str();
}

std::string first_heading(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("# ", 0) == 0) return strip_backticks(line.substr(2));
  }
  return "";
}

// The page's text with its first heading's title replaced (the navigation
// shows one entry per page: a stage's handout and its lab README, both
// "Stage 1: bank mapping" in the kit, need titles of their own).
std::string retitle(const std::string& text, const std::string& title) {
  const auto at = text.rfind("# ", 0) == 0 ? 0 : text.find("\n# ");
  if (at == std::string::npos) return text;
  const auto begin = at == 0 ? 2 : at + 3;
  const auto end = text.find('\n', begin);
  return text.substr(0, begin) + title + (end == std::string::npos ? "" : text.substr(end));
}

// "Stage 1: bank mapping" -> "Stage 1 handout: bank mapping" ("第 1 阶段：..."
// -> "第 1 阶段讲义：..."); a title of another form gets the role after it.
std::string role_title(const std::string& title, const std::string& role) {
  for (const std::string colon : {":", "："}) {
    const auto at = title.find(colon);
    if (at != std::string::npos && at < 20) {
      const bool zh = colon != ":";
      return title.substr(0, at) + (zh ? "" : " ") + role + title.substr(at);
    }
  }
  return title + " (" + role + ")";
}

// The part of a Markdown page under "## HEADING" (up to the next "## "), "" if none.
std::string section(const std::string& text, const std::string& heading) {
  const std::string start = "\n## " + heading + "\n";
  const auto at = text.find(start);
  if (at == std::string::npos) return "";
  const auto body = at + start.size();
  const auto next = text.find("\n## ", body);
  return text.substr(body, next == std::string::npos ? std::string::npos : next - body);
}

// The lines between the title and the first section that are not a link to
// the other language ("**Difficulty:** ... **Time:** ...").
std::string preamble(const std::string& text) {
  std::istringstream in(text);
  std::string line, out;
  bool titled = false;
  while (std::getline(in, line)) {
    if (line.rfind("## ", 0) == 0) break;
    if (line.rfind("# ", 0) == 0) {
      titled = true;
      continue;
    }
    if (titled && line.rfind("[", 0) != 0) out += line + "\n";
  }
  return out;
}

struct Part {
  std::string name;
  int points = 0, gpu_points = 0, checks = 0;
};

// The stage's parts and their points, from `grader --lab N --list` (the
// rubric itself: "== part ==" and "  P points  title  [GPU only]" lines).
std::vector<Part> points_of(const std::string& grader, int stage) {
  std::vector<Part> parts;
  if (grader.empty()) return parts;
  const std::string command = "'" + grader + "' --lab " + std::to_string(stage) + " --list 2>/dev/null";
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return parts;
  std::string listing;
  std::array<char, 4096> buffer{};
  for (std::size_t n; (n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0;) listing.append(buffer.data(), n);
  if (pclose(pipe) != 0) return {};
  std::istringstream in(listing);
  std::string line;
  const std::regex part(R"(== (.+) ==)"), check(R"(\s+(\d+) points?\s+(.*))");
  while (std::getline(in, line)) {
    std::smatch m;
    if (std::regex_match(line, m, part)) {
      parts.push_back({m[1].str()});
    } else if (std::regex_match(line, m, check) && !parts.empty()) {
      const int points = std::stoi(m[1].str());
      (m[2].str().find("[GPU only]") != std::string::npos ? parts.back().gpu_points : parts.back().points) += points;
      ++parts.back().checks;
    }
  }
  return parts;
}

// Words of a stage page, in English or in Chinese.
struct Words {
  std::string goal_heading, tasks_heading, goal, tasks, points, points_column, part, checks, on_gpu, total, without_gpu, grade, grade_text,
      verbose, list, pages, handout, lab, other, student_file, solution, no_points;
};

const Words kEnglish = {
    "Goal", "Tasks", "Goal", "Tasks", "Points", "points", "part", "checks", "on a GPU", "in all", "without a GPU",
    "Grade it", "From the kit's root, after the set-up of its README:", "also the details of the passing checks",
    "every check and its points", "Read, then work", "the handout", "the lab README (files, build and run, hints, grading)",
    "本阶段（中文）", "The file you edit", "The reference solution (instructor's site)",
    "(the grader was not built: `grader --lab N --list` shows the points)"};
const Words kChinese = {
    "目标", "任务", "目标", "任务", "分值", "分值", "部分", "检查项", "GPU 上", "合计", "无 GPU 时",
    "评分", "在实验包根目录下（先按 README 完成安装）：", "同时显示通过的检查的细节",
    "列出每个检查项及其分值", "阅读与动手", "讲义", "实验说明（文件、构建与运行、提示、评分）",
    "This stage in English", "要修改的文件", "参考答案（教师版站点）",
    "（未构建评分程序：`grader --lab N --list` 列出分值）"};

// "Stage 1: bank mapping": the title of the stage's handout, or its folder's name.
std::string stage_title(const Site& site, const std::string& name, bool zh = false) {
  const std::string handout = zh ? "handouts/zh/" + name + ".md" : "handouts/" + name + ".md";
  return site.pages.count(handout) ? first_heading(read(site.source / handout)) : name;
}

// A stage's page in one language: its goal, tasks, points and grader command,
// and its pages as subpages.
std::string stage_page(Site& site, const std::string& name, bool zh, const std::vector<Part>& parts) {
  const Words& w = zh ? kChinese : kEnglish;
  const std::string number = std::to_string(std::stoi(name.substr(0, 2)));
  const std::string id = "stage_" + name.substr(0, 2) + (zh ? "_zh" : "");
  const std::string readme = "labs/" + name + (zh ? "/README.zh.md" : "/README.md");
  const std::string handout = zh ? "handouts/zh/" + name + ".md" : "handouts/" + name + ".md";
  const std::string readme_text = site.pages.count(readme) ? read(site.source / readme) : "";
  const std::string title = stage_title(site, name, zh);
  std::ostringstream page;
  page << "# " << title << " {#" << id << "}\n\n";
  if (!readme_text.empty()) page << convert(site, readme, preamble(readme_text), "") << "\n";
  for (const auto& [heading, shown] : {std::pair{w.goal_heading, w.goal}, std::pair{w.tasks_heading, w.tasks}}) {
    const std::string body = section(readme_text, heading);
    if (!body.empty()) page << "## " << shown << "\n" << convert(site, readme, body, "") << "\n";
  }
  page << "## " << w.points << "\n\n";
  if (parts.empty()) {
    page << w.no_points << "\n\n";
  } else {
    int all = 0, gpu = 0;
    page << "| " << w.part << " | " << w.points_column << " | " << w.checks << " |\n|---|---:|---:|\n";
    for (const Part& p : parts) {
      page << "| " << p.name << " | ";
      if (p.points || !p.gpu_points) page << p.points;
      if (p.gpu_points) page << (p.points ? " + " : "") << p.gpu_points << " (" << w.on_gpu << ")";
      page << " | " << p.checks << " |\n";
      all += p.points + p.gpu_points;
      gpu += p.gpu_points;
    }
    page << "| <b>" << w.total << "</b> | <b>" << all << "</b>";
    if (gpu) page << " (" << w.without_gpu << " " << all - gpu << ")";
    page << " | |\n\n";
  }
  page << "## " << w.grade << "\n\n" << w.grade_text << "\n\n"
       << "    build/grader/grader --lab " << number << "\n"
       << "    build/grader/grader --lab " << number << " --verbose    # " << w.verbose << "\n"
       << "    build/grader/grader --lab " << number << " --list       # " << w.list << "\n\n";
  page << "## " << w.pages << "\n\n";
  if (site.pages.count(handout)) page << "- \\subpage " << page_id(handout) << " \"" << w.handout << "\"\n";
  if (site.pages.count(readme)) page << "- \\subpage " << page_id(readme) << " \"" << w.lab << "\"\n";
  for (const std::string& code : site.code) {
    if (code.rfind("labs/" + name + "/", 0) == 0) page << "- " << w.student_file << ": \\ref " << code << "\n";
    if (code.rfind("solutions/" + name + "/", 0) == 0) page << "- " << w.solution << ": \\ref " << code << "\n";
  }
  if (zh && site.pages.count("handouts/zh/glossary.md")) page << "- 术语表（每个概念一个译名）：\\ref " << page_id("handouts/zh/glossary.md") << "\n";
  page << "- " << w.other << ": \\ref stage_" << name.substr(0, 2) << (zh ? "" : "_zh") << "\n";
  return page.str();
}

}  // namespace

int main(int argc, char** argv) {
  Site site;
  std::vector<std::string> args(argv + 1, argv + argc);
  bool usage = args.size() < 2;
  for (std::size_t i = 2; i < args.size() && !usage; ++i) {
    if (args[i] == "--solutions") {
      site.solutions = true;
    } else if (args[i] == "--grader" && i + 1 < args.size()) {
      site.grader = args[++i];
    } else {
      usage = true;
    }
  }
  if (usage) {
    std::cerr << "usage: banklab_site_pages SOURCE_DIR OUT_DIR [--solutions] [--grader GRADER]\n";
    return 2;
  }
  site.source = fs::absolute(args[0]);
  site.out = fs::absolute(args[1]);
  site.solutions = site.solutions && fs::exists(site.source / "solutions");
  if (!fs::exists(site.source / "handouts" / "README.md")) {
    std::cerr << "banklab_site_pages: " << site.source << " is not the BankLab kit (no handouts/README.md)\n";
    return 2;
  }
  fs::remove_all(site.out);
  // The pages: the kit's README, the handouts, the labs' and the tools' READMEs.
  std::vector<std::string> roots = {"handouts", "labs", "grader", "common"};
  site.pages.insert("README.md");
  for (const auto& root : roots) {
    for (const auto& entry : fs::recursive_directory_iterator(site.source / root)) {
      const std::string path = fs::relative(entry.path(), site.source).generic_string();
      if (entry.path().extension() == ".md" && path.find("/results/") == std::string::npos) site.pages.insert(path);
      const bool code_dir = path.rfind("labs/", 0) == 0 || path.rfind("common/", 0) == 0;
      if (entry.is_regular_file() && is_code(entry.path()) && code_dir) site.code.insert(path);
    }
  }
  if (site.solutions) {
    for (const auto& entry : fs::recursive_directory_iterator(site.source / "solutions")) {
      if (entry.is_regular_file() && is_code(entry.path())) {
        site.code.insert(fs::relative(entry.path(), site.source).generic_string());
      }
    }
  }
  // Two pages per stage (English, Chinese), in order; each holds its
  // handout and lab README as subpages, which get titles of their own.
  std::vector<fs::path> stages;
  for (const auto& entry : fs::directory_iterator(site.source / "labs")) {
    const std::string name = entry.path().filename().string();
    if (entry.is_directory() && name.size() > 3 && std::isdigit(static_cast<unsigned char>(name[0])) && name[2] == '-')
      stages.push_back(entry.path());
  }
  std::sort(stages.begin(), stages.end());
  std::map<std::string, std::string> titles;  // page -> its title in the site
  std::ostringstream stage_list;
  for (const fs::path& lab : stages) {
    const std::string name = lab.filename().string();
    const auto parts = points_of(site.grader, std::stoi(name.substr(0, 2)));
    if (!site.grader.empty() && parts.empty()) {
      std::cerr << "banklab_site_pages: `" << site.grader << " --lab " << std::stoi(name.substr(0, 2))
                << " --list` listed no checks: the stage page of " << name << " would have no points\n";
      return 1;
    }
    for (const bool zh : {false, true}) {
      const std::string handout = zh ? "handouts/zh/" + name + ".md" : "handouts/" + name + ".md";
      const std::string readme = "labs/" + name + (zh ? "/README.zh.md" : "/README.md");
      for (const auto& [page, role] : {std::pair{handout, zh ? "讲义" : "handout"}, std::pair{readme, zh ? "实验说明" : "lab"}}) {
        if (site.pages.count(page)) titles[page] = role_title(first_heading(read(site.source / page)), role);
      }
      const std::string stage = "0-stages/" + name + (zh ? ".zh.md" : ".md");  // "0-": first in the navigation
      write(site.out / stage, stage_page(site, name, zh, parts));
      site.pages.insert(stage);
    }
    stage_list << "- \\ref stage_" << name.substr(0, 2) << " \"" << stage_title(site, name)
               << "\" · \\ref stage_" << name.substr(0, 2) << "_zh \"中文\"\n";
  }
  // The kit's README is "BankLab", the project's name, which the navigation's root shows.
  titles["README.md"] = "BankLab: set-up and the kit's layout (README)";
  // The pages themselves; the overview (handouts/README.md) gets the stages.
  for (const std::string& page : site.pages) {
    if (page.rfind("0-stages/", 0) == 0) continue;
    std::string text = convert(site, page, read(site.source / page), page_id(page));
    if (titles.count(page)) text = retitle(text, titles[page] + " {#" + page_id(page) + "}");
    if (page == "handouts/README.md") text += "\n## The stages, one page each\n\n" + stage_list.str();
    write(site.out / page, text);
  }
  for (const std::string& code : site.code) {
    fs::create_directories((site.out / code).parent_path());
    fs::copy_file(site.source / code, site.out / code, fs::copy_options::overwrite_existing);
  }
  std::ostringstream files;
  for (const std::string& file : site.files) files << file << "\n";
  write(site.out / "FILES.txt", files.str());
  std::cout << "banklab_site_pages: " << site.pages.size() << " pages, " << site.code.size() << " code files, "
            << site.files.size() << " linked files in " << site.out.string() << "\n";
  return 0;
}

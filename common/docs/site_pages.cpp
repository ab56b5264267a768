// banklab_site_pages: the input of the course site (Doxygen, the `docs`
// target). Copies the kit's Markdown pages and code into OUT_DIR, in the same
// layout, and makes them Doxygen's:
//   - a `<!-- snippet: FILE NAME -->` marker and the code block after it
//     become `\snippet FILE NAME` (the code comes from the compiled file);
//   - a link to a source file becomes a link to its page in the site, a link
//     to any other file (a results log, a CSV) a link to a copy of it under
//     html/repo/ (FILES.txt lists them for the build to copy);
//   - images link to the figures by name (IMAGE_PATH), headings lose their
//     backticks (Doxygen shows them literally), and each page gets an id;
//   - one page per stage (stages/NN.md), found from labs/NN-name/: its
//     handout, its lab README, in both languages, the student's file and,
//     with --solutions, the reference solution; the course overview
//     (handouts/README.md) links them in order.
//   banklab_site_pages SOURCE_DIR OUT_DIR [--solutions]
#include <algorithm>
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

// One Markdown page made the site's.
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
      if (first_heading) line += " {#" + id + "}";
      first_heading = false;
    }
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

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3 || argc > 4 || (argc == 4 && std::string(argv[3]) != "--solutions")) {
    std::cerr << "usage: banklab_site_pages SOURCE_DIR OUT_DIR [--solutions]\n";
    return 2;
  }
  Site site;
  site.source = fs::absolute(argv[1]);
  site.out = fs::absolute(argv[2]);
  site.solutions = argc == 4 && fs::exists(site.source / "solutions");
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
  // One page per stage, in order.
  std::ostringstream stage_list;
  std::vector<fs::path> stages;
  for (const auto& entry : fs::directory_iterator(site.source / "labs")) {
    const std::string name = entry.path().filename().string();
    if (entry.is_directory() && name.size() > 3 && std::isdigit(static_cast<unsigned char>(name[0])) && name[2] == '-')
      stages.push_back(entry.path());
  }
  std::sort(stages.begin(), stages.end());
  for (const fs::path& lab : stages) {
    const std::string name = lab.filename().string();
    const std::string handout = "handouts/" + name + ".md";
    const std::string title = site.pages.count(handout) ? first_heading(read(site.source / handout)) : name;
    std::ostringstream page;
    page << "# " << title << " {#stage_" << name.substr(0, 2) << "}\n\n";
    auto item = [&](const std::string& label, const std::string& path) {
      if (site.pages.count(path)) page << "- " << label << ": \\ref " << page_id(path) << " \"" << path << "\"\n";
    };
    item("Handout", handout);
    item("讲义（中文）", "handouts/zh/" + name + ".md");
    item("Lab README", "labs/" + name + "/README.md");
    item("实验说明（中文）", "labs/" + name + "/README.zh.md");
    for (const std::string& code : site.code) {
      if (code.rfind("labs/" + name + "/", 0) == 0) page << "- The student's file: \\ref " << code << "\n";
      if (code.rfind("solutions/" + name + "/", 0) == 0)
        page << "- The reference solution (instructor build): \\ref " << code << "\n";
    }
    write(site.out / "stages" / (name + ".md"), page.str());
    site.pages.insert("stages/" + name + ".md");
    stage_list << "- \\subpage stage_" << name.substr(0, 2) << "\n";
  }
  // The pages themselves; the overview (handouts/README.md) gets the stages.
  for (const std::string& page : site.pages) {
    if (page.rfind("stages/", 0) == 0) continue;
    std::string text = convert(site, page, read(site.source / page), page_id(page));
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

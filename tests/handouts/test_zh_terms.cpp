// The Chinese pages (handouts/zh/, labs/*/README.zh.md) use one term per
// concept, the one handouts/zh/glossary.md gives: no bare "块" (it stood for
// tile, thread block and 16-byte chunk in neighbouring sentences), and every
// figure caption is in Chinese.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<fs::path> chinese_pages() {
  const fs::path root = BANKLAB_SOURCE_DIR;
  std::vector<fs::path> pages;
  for (const auto& entry : fs::directory_iterator(root / "handouts" / "zh")) {
    if (entry.path().extension() == ".md") pages.push_back(entry.path());
  }
  for (const auto& entry : fs::directory_iterator(root / "labs")) {
    if (fs::exists(entry.path() / "README.zh.md")) pages.push_back(entry.path() / "README.zh.md");
  }
  return pages;
}

}  // namespace

TEST_CASE("the Chinese pages never use a bare 块: a tile is tile, a thread block 线程块, a 16-byte chunk 段") {
  const std::string block = "块", thread_block = "线程块", quoted = "\"块\"";
  int pages = 0;
  for (const fs::path& page : chinese_pages()) {
    ++pages;
    std::istringstream in(slurp(page));
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
      for (auto at = line.find(block); at != std::string::npos; at = line.find(block, at + block.size())) {
        const bool in_thread_block = at >= 6 && line.compare(at - 6, thread_block.size(), thread_block) == 0;
        const bool named = at >= 1 && line.compare(at - 1, quoted.size(), quoted) == 0;  // the glossary naming the word
        INFO(page.filename().string() << ":" << n << ": ..." << line.substr(at >= 30 ? at - 30 : 0, 60));
        CHECK((in_thread_block || named));
      }
    }
  }
  CHECK(pages >= 12);
  const std::string glossary = slurp(fs::path(BANKLAB_SOURCE_DIR) / "handouts" / "zh" / "glossary.md");
  for (const char* term : {"| thread block | 线程块 |", "| tile | tile |", "| 16-byte chunk | 16 字节段"}) {
    INFO(term);
    CHECK(glossary.find(term) != std::string::npos);
  }
}

TEST_CASE("every figure caption of the Chinese handouts is in Chinese") {
  const std::regex figure(R"(!\[((?:[^\[\]]|\[[^\]]*\])*)\]\([^)]*\.svg\))");
  int captions = 0;
  for (const fs::path& page : chinese_pages()) {
    const std::string text = slurp(page);
    for (std::sregex_iterator it(text.begin(), text.end(), figure), end; it != end; ++it) {
      ++captions;
      const std::string caption = (*it)[1];
      const bool chinese = std::any_of(caption.begin(), caption.end(), [](char c) { return static_cast<unsigned char>(c) >= 0xE4; });
      INFO(page.filename().string() << ": " << caption);
      CHECK(chinese);
    }
  }
  CHECK(captions >= 12);
}

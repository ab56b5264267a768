// The course site in a real browser (headless Chromium, 1280 pixels wide):
// the handouts' and lab READMEs' code blocks keep their lines (a 32-column
// bank map scrolls inside its box instead of wrapping), every figure fits the
// page, and a Chinese page draws its characters with a font that has them
// (no boxes), with a screenshot kept in build/tests/docs/zh_handout.png for a
// person to look at.
#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "run_command.hpp"

namespace fs = std::filesystem;
using banklab::test::run_command;

namespace {

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

const fs::path kHtml = BANKLAB_SITE_HTML;

std::string chromium(const std::string& args, const fs::path& page) {
  return std::string(BANKLAB_CHROMIUM) +
         " --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --virtual-time-budget=120000 " + args + " 'file://" +
         page.string() + "' 2>/dev/null";
}

// Each page with a probe script before </body>, beside it as NAME.probe.htm
// (same folder, so that its style sheets and figures load; .htm so that the
// site's link check, which reads .html pages, never sees it), loaded one after
// another in a frame WIDTH pixels wide of one browser (a browser's start takes
// seconds); each probe posts one line to the frame's parent, which lists them
// in <pre id="probe">. Returns the lines, "PAGE: LINE" each.
std::vector<std::string> probe(const std::vector<std::string>& pages, const std::string& script, int width = 1280) {
  // Named for this process: ctest runs this file's cases side by side, and
  // two probes sharing a file read each other's lines.
  const std::string mine = "." + std::to_string(getpid());
  std::string list;
  for (const std::string& page : pages) {
    std::string html = slurp(kHtml / page);
    const auto at = html.rfind("</body>");
    REQUIRE(at != std::string::npos);
    html.insert(at, "<script>addEventListener('load', () => setTimeout(() => { parent.postMessage('" + page +
                        ": ' + (() => {" + script + "})(), '*'); }, 100));</script>\n");
    std::ofstream(kHtml / (page + mine + ".probe.htm"), std::ios::binary) << html;
    list += "'" + page + mine + ".probe.htm',";
  }
  const fs::path driver = kHtml / ("site_probe" + mine + ".htm");
  std::ofstream(driver) << "<!DOCTYPE html><html><body style=\"margin:0\"><iframe id=\"frame\" width=\"" << width
                        << "\" height=\"900\" style=\"border:0\"></iframe><script>"
                           "const pages = [" << list << "]; const lines = []; let next = 0;"
                           "function load() { if (next < pages.length) { document.getElementById('frame').src = pages[next++]; return; }"
                           " const out = document.createElement('pre'); out.id = 'probe'; out.textContent = lines.join('\\n');"
                           " document.body.appendChild(out); }"
                           "addEventListener('message', (e) => { lines.push(e.data); load(); }); load();"
                           "</script></body></html>\n";
  const auto dom = run_command(chromium("--window-size=" + std::to_string(width + 40) + ",1000 --dump-dom", driver));
  for (const std::string& page : pages) fs::remove(kHtml / (page + mine + ".probe.htm"));
  fs::remove(driver);
  std::smatch m;
  REQUIRE_MESSAGE(std::regex_search(dom.out, m, std::regex(R"(<pre id="probe">([^<]*)</pre>)")),
                  "the probes wrote nothing: " << dom.out.substr(0, 400));
  std::vector<std::string> lines;
  std::istringstream in(m[1].str());
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The pages of the handouts and the lab READMEs, both languages.
std::vector<std::string> reading_pages() {
  std::vector<std::string> pages;
  for (const auto& entry : fs::directory_iterator(kHtml)) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() == ".html" && (name.rfind("page_handouts_", 0) == 0 || name.rfind("page_labs_", 0) == 0))
      pages.push_back(name);
  }
  std::sort(pages.begin(), pages.end());
  return pages;
}

}  // namespace

TEST_CASE("at 1280 pixels the site's code blocks keep their lines and scroll, and every figure fits") {
  // A code line taller than one and a half of the shortest has wrapped; a
  // figure whose right edge passes the content area's is cut off.
  const std::string script =
      "const lines = [...document.querySelectorAll('div.fragment div.line')];"
      "const heights = lines.map((l) => l.getBoundingClientRect().height).filter((h) => h > 0);"
      "const one = Math.min(...heights);"
      "const wrapped = lines.filter((l) => l.getBoundingClientRect().height > 1.5 * one).length;"
      "const scrolling = [...document.querySelectorAll('div.fragment')].filter((f) => f.scrollWidth > f.clientWidth + 1).length;"
      "const area = (document.getElementById('doc-content') || document.body).getBoundingClientRect();"
      "const images = [...document.querySelectorAll('div.contents img, div.contents object')];"
      "const cut = images.filter((i) => i.getBoundingClientRect().right > area.right + 1 || i.getBoundingClientRect().width < 50)"
      "  .map((i) => (i.src || i.data).split('/').pop());"
      "return `lines ${lines.length} wrapped ${wrapped} scrolling ${scrolling} images ${images.length} cut [${cut.join(',')}]`;";
  int pages = 0, lines = 0, scrolling = 0, images = 0;
  for (const std::string& line : probe(reading_pages(), script)) {
    INFO(line);
    std::smatch m;
    REQUIRE(std::regex_match(line, m, std::regex(R"(\S+: lines (\d+) wrapped (\d+) scrolling (\d+) images (\d+) cut \[([^\]]*)\])")));
    CHECK(std::stoi(m[2]) == 0);
    CHECK(m[5].str().empty());
    ++pages;
    lines += std::stoi(m[1]);
    scrolling += std::stoi(m[3]);
    images += std::stoi(m[4]);
  }
  CHECK(pages >= 20);
  CHECK(lines >= 300);
  CHECK(scrolling >= 4);  // the 32-column bank maps of stages 3 and 4, in both languages, are wider than the page
  CHECK(images >= 20);
}

TEST_CASE("the Chinese pages draw every Chinese character with a font that has it (no boxes), with a screenshot kept") {
  // Each distinct Chinese character of the page's text drawn on a canvas in
  // the page's own font, against a character no font has (U+10FFFD, drawn as
  // the fallback box) and against nothing: a character drawn like either is
  // a box (tofu) or missing. Without a CJK font (Debian: fonts-noto-cjk,
  // installed by common/scripts/setup.sh) every one of them is.
  const std::string script =
      "const text = document.querySelector('div.contents').textContent;"
      "const font = getComputedStyle(document.querySelector('div.contents p') || document.body).fontFamily;"
      "const chars = [...new Set([...text].filter((c) => /[\\u4e00-\\u9fff\\u3000-\\u303f\\uff00-\\uffef]/.test(c)))];"
      "const canvas = document.createElement('canvas'); canvas.width = 40; canvas.height = 40;"
      "const g = canvas.getContext('2d', {willReadFrequently: true});"
      "const draw = (c) => { g.clearRect(0, 0, 40, 40); g.font = `32px ${font}`; g.fillText(c, 2, 34);"
      "  return g.getImageData(0, 0, 40, 40).data.join(','); };"
      "const box = draw('\\u{10FFFD}'), blank = draw('');"
      "const boxes = chars.filter((c) => !/[\\u3000\\uff00\\u3000]/.test(c) && (draw(c) === box || draw(c) === blank));"
      "return `chars ${chars.length} boxes ${boxes.length} [${boxes.slice(0, 12).join('')}]`;";
  std::vector<std::string> pages;
  for (const std::string& page : reading_pages()) {
    if (page.find("_zh") != std::string::npos) pages.push_back(page);
  }
  for (const auto& entry : fs::directory_iterator(kHtml)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("stage_", 0) == 0 && name.find("_zh.html") != std::string::npos) pages.push_back(name);
  }
  int checked = 0, chars = 0;
  for (const std::string& line : probe(pages, script)) {
    INFO(line);
    std::smatch m;
    REQUIRE(std::regex_match(line, m, std::regex(R"(\S+: chars (\d+) boxes (\d+) \[(.*)\])")));
    CHECK(std::stoi(m[2]) == 0);
    chars += std::stoi(m[1]);
    ++checked;
  }
  CHECK(checked >= 12);
  CHECK(chars >= 2000);
  // For a person to look at: a Chinese handout as a reader sees it.
  const fs::path shot = fs::path(BANKLAB_TEST_TMP) / "zh_handout.png";
  fs::remove(shot);
  run_command(chromium("--window-size=1280,1000 --screenshot=" + shot.string(), kHtml / "page_handouts_zh_03_padded_transpose.html"));
  CHECK(fs::exists(shot));
}

// The bank explorer in a real browser (headless Chromium): every calibration
// row of tests/data (measured on an H200), the extra patterns and a few
// hundred random accesses are entered through the page's own controls, and
// the numbers the page shows must equal banksim --batch's; every preset
// shows what its banksim command prints, every preset a handout links
// exists, and a screenshot of the default view is kept (build/tests/explorer/explorer.png).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
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

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(line);
  }
  return lines;
}

struct Row {
  std::string name, op, offsets;
  int width = 4;
};

// Rows name,width_bytes,op,lane_byte_offsets[,...] of a CSV file.
std::vector<Row> read_rows(const fs::path& path) {
  std::vector<Row> rows;
  const auto lines = lines_of(slurp(path));
  for (std::size_t i = 1; i < lines.size(); ++i) {
    std::vector<std::string> cells;
    std::istringstream in(lines[i]);
    std::string cell;
    while (std::getline(in, cell, ',')) cells.push_back(cell);
    if (cells.size() < 4) continue;
    rows.push_back({cells[0], cells[2], cells[3], std::stoi(cells[1])});
  }
  return rows;
}

// Random accesses: every width, loads and stores, aligned offsets below
// 4 KiB, some lanes inactive, some sharing a word (seeded: the same each run).
std::vector<Row> random_rows(int count) {
  std::uint64_t state = 12345;
  auto next = [&state](std::uint64_t bound) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return (state >> 33) % bound;
  };
  std::vector<Row> rows;
  const int widths[] = {1, 2, 4, 8, 16};
  for (int i = 0; i < count; ++i) {
    Row r;
    r.name = "random" + std::to_string(i);
    r.width = widths[next(5)];
    r.op = next(3) == 0 ? "st" : "ld";
    const std::uint64_t span = next(2) == 0 ? 256 : 4096;  // small spans make broadcasts and conflicts
    for (int lane = 0; lane < 32; ++lane) {
      const bool inactive = next(10) == 0;
      r.offsets += (lane ? " " : "") + (inactive ? std::string("-1") : std::to_string(next(span / r.width) * r.width));
    }
    rows.push_back(r);
  }
  return rows;
}

const fs::path kExplorer = BANKLAB_EXPLORER_DIR;
const fs::path kSource = BANKLAB_SOURCE_DIR;

std::string chromium(const std::string& args, const std::string& page) {
  return std::string(BANKLAB_CHROMIUM) + " --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --virtual-time-budget=60000 " + args +
         " 'file://" + page + "' 2>/dev/null";
}

// What the page shows in its numbers panel (for a failure's message).
std::string numbers_of(const std::string& dom) {
  const auto at = dom.find("id=\"numbers\"");
  return at == std::string::npos ? "(no numbers panel: " + dom.substr(0, 600) + ")" : dom.substr(at, 600);
}

}  // namespace

TEST_CASE("the explorer shows banksim's numbers for every calibration row, extra pattern and random access, and for every preset") {
  std::vector<Row> rows = read_rows(kSource / "tests/data/h200_shared_access.csv");
  REQUIRE(rows.size() == 388);
  for (const Row& r : read_rows(kSource / "tests/data/h200_extra_patterns.csv")) rows.push_back(r);
  for (const Row& r : random_rows(300)) rows.push_back(r);
  // banksim's answers.
  const fs::path csv = fs::path(BANKLAB_TEST_TMP) / "explorer_rows.csv";
  {
    std::ofstream out(csv);
    out << "name,width_bytes,op,lane_byte_offsets\n";
    for (const Row& r : rows) out << r.name << "," << r.width << "," << r.op << "," << r.offsets << "\n";
  }
  const auto expected = run_command(std::string(BANKSIM_PATH) + " --batch " + csv.string());
  REQUIRE(expected.status == 0);
  // The page, with the rows to enter: explorer.html with one more script.
  std::string page = slurp(kExplorer / "explorer.html");
  std::string data = "<script>window.BANKLAB_CHECK = [";
  for (const Row& r : rows) {
    data += "{name:\"" + r.name + "\",width:" + std::to_string(r.width) + ",op:\"" + r.op + "\",offsets:\"" +
            std::regex_replace(r.offsets, std::regex("-1"), "-") + "\"},";
  }
  data += "];</script>\n";
  const auto at = page.find("<script src=\"bank_model.js\">");
  REQUIRE(at != std::string::npos);
  page.insert(at, data);
  const fs::path check = kExplorer / "explorer_check.html";
  std::ofstream(check) << page;
  const auto shown = run_command(chromium("--dump-dom", check.string()));
  REQUIRE(shown.status == 0);
  const auto begin = shown.out.find("<pre id=\"check-result\">");
  REQUIRE_MESSAGE(begin != std::string::npos, "the page wrote no result: " << shown.out.substr(0, 2000));
  const auto end = shown.out.find("</pre>", begin);
  const auto results = lines_of(shown.out.substr(begin + 23, end - begin - 23));
  const auto wanted = lines_of(expected.out);
  REQUIRE(results.size() > rows.size());
  int compared = 0;
  for (std::size_t i = 0; i <= rows.size(); ++i) {  // the header, then one line per row
    INFO("row " << i);
    CHECK(results[i] == wanted[i]);
    ++compared;
  }
  CHECK(compared >= 689);
  // The presets: what each shows is what its banksim command prints.
  std::set<std::string> presets;
  for (std::size_t i = rows.size() + 1; i < results.size(); ++i) {
    std::smatch m;
    const std::string line = std::regex_replace(results[i], std::regex("&quot;"), "\"");
    REQUIRE(std::regex_match(line, m, std::regex(R"(preset (\w+),(\d+),(\d+),banksim (.*))")));
    presets.insert(m[1]);
    INFO("preset " << m[1] << ": banksim " << m[4]);
    const auto b = run_command(std::string(BANKSIM_PATH) + " " + m[4].str());
    std::smatch n;
    REQUIRE(std::regex_search(b.out, n, std::regex(R"(wavefronts: (\d+)   ideal: \d+   bank conflicts: (\d+))")));
    CHECK(n[1] == m[2]);
    CHECK(n[2] == m[3]);
  }
  CHECK(presets.size() >= 10);
  // Every example a handout links to is a preset.
  for (const auto& entry : fs::recursive_directory_iterator(kSource / "handouts")) {
    if (entry.path().extension() != ".md") continue;
    const std::string text = slurp(entry.path());
    const std::regex link(R"(explorer\.html#preset=(\w+))");
    for (std::sregex_iterator it(text.begin(), text.end(), link), e; it != e; ++it) {
      INFO(entry.path().filename().string() << " links to preset " << (*it)[1]);
      CHECK(presets.count((*it)[1]) == 1);
    }
  }
}

TEST_CASE("the explorer opens from file:// with a preset in its link, and a screenshot of the default view is kept") {
  const auto dom = run_command(chromium("--dump-dom", (kExplorer / "explorer.html").string() + "#preset=column33"));
  INFO("the page shows: " << numbers_of(dom.out));
  CHECK(dom.out.find("<strong id=\"wf\">1</strong> wavefront,") != std::string::npos);
  CHECK(dom.out.find("class=\"read\"") != std::string::npos);  // the tile view frames the lanes' cells
  const auto custom = run_command(chromium("--dump-dom", (kExplorer / "explorer.html").string() + "#w=8&op=ld&mode=stride&stride=34&base=0&lanes=all"));
  INFO("the page shows: " << numbers_of(custom.out));
  CHECK(custom.out.find("<strong id=\"wf\">4</strong> wavefronts, ideal <span id=\"ideal\">2</span>") != std::string::npos);
  const auto bad = run_command(chromium("--dump-dom", (kExplorer / "explorer.html").string() + "#w=4&mode=stride&stride=1&lanes=40"));
  CHECK(bad.out.find("class=\"error\"") != std::string::npos);
  const fs::path shot = fs::path(BANKLAB_TEST_TMP) / "explorer.png";
  fs::remove(shot);
  run_command(chromium("--window-size=1280,1100 --screenshot=" + shot.string(), (kExplorer / "explorer.html").string()));
  REQUIRE(fs::exists(shot));
  CHECK(fs::file_size(shot) > 20000);
}

TEST_CASE("the explorer fits a phone's width and every control has a label, for keyboard and screen-reader use") {
  // The page with one more script, run after explorer.js once the default
  // access is drawn: the page's width against its viewport's, and the form
  // controls without a label. Inside a frame it posts the line to the frame's
  // parent (a headless window is never narrower than 500 pixels, so a phone's
  // 360-pixel viewport is a frame of that width).
  std::string page = slurp(kExplorer / "explorer.html");
  const std::string probe =
      "<script>(function () {"
      " const unlabelled = [...document.querySelectorAll('input, select, textarea, button')]"
      "   .filter((e) => !e.closest('label') && !e.getAttribute('aria-label') && !(e.tagName === 'BUTTON' && e.textContent.trim()))"
      "   .map((e) => e.id);"
      " const line = 'scroll ' + document.documentElement.scrollWidth + ' viewport ' +"
      "   document.documentElement.clientWidth + ' unlabelled [' + unlabelled.join(',') + ']';"
      " if (window.parent !== window) { window.parent.postMessage(line, '*'); return; }"
      " const pre = document.createElement('pre'); pre.id = 'layout-check'; pre.textContent = line;"
      " document.body.appendChild(pre);"
      "})();</script>\n";
  const auto at = page.find("</body>");
  REQUIRE(at != std::string::npos);
  page.insert(at, probe);
  std::ofstream(kExplorer / "explorer_layout.html") << page;
  std::ofstream(kExplorer / "explorer_phone.html")
      << "<!DOCTYPE html><html><body style=\"margin:0\">"
         "<iframe src=\"explorer_layout.html#preset=column33\" width=\"360\" height=\"780\" style=\"border:0\"></iframe>"
         "<script>addEventListener('message', (e) => { const p = document.createElement('pre');"
         " p.id = 'layout-check'; p.textContent = e.data; document.body.appendChild(p); });</script></body></html>\n";
  for (const char* frame : {"explorer_phone.html", "explorer_layout.html#preset=column33"}) {
    INFO(std::string(frame));
    const auto dom = run_command(chromium("--window-size=1280,1100 --dump-dom", (kExplorer / frame).string()));
    std::smatch m;
    REQUIRE(std::regex_search(dom.out, m, std::regex(R"(scroll (\d+) viewport (\d+) unlabelled \[([^\]]*)\])")));
    CHECK(std::stoi(m[1]) <= std::stoi(m[2]));  // no sideways scrolling of the page (wide views scroll in their panel)
    CHECK(m[3].str().empty());
    if (std::string(frame) == "explorer_phone.html") CHECK(std::stoi(m[2]) <= 360);
  }
  const fs::path shot = fs::path(BANKLAB_TEST_TMP) / "explorer_phone.png";
  fs::remove(shot);
  run_command(chromium("--window-size=380,800 --screenshot=" + shot.string(), (kExplorer / "explorer_phone.html").string()));
  CHECK(fs::exists(shot));
}

TEST_CASE("the explorer's swizzle says what it computes: column ^ (row % columns), and a tile taller than wide follows it") {
  const std::string html = slurp(kExplorer / "explorer.html");
  CHECK(html.find("column ^ (row % columns)") != std::string::npos);
  CHECK(html.find("(column ^ row)") == std::string::npos);
  CHECK(slurp(kExplorer / "explorer.js").find("chunk ^ row,") == std::string::npos);
  // 32 rows of 8 float4 chunks, swizzled, a column: lane l reads chunk
  // 0 ^ (l % 8) of row l, 4 wavefronts (quarter-warps on 8 distinct chunk
  // columns); "column ^ row" would put rows 8-31 outside the row.
  const auto dom = run_command(chromium("--dump-dom", (kExplorer / "explorer.html").string() +
                                                          "#w=16&op=ld&mode=tile&rows=32&cols=8&pad=0&swz=1&read=col&index=0"));
  INFO("the page shows: " << numbers_of(dom.out));
  std::string offsets;
  for (int l = 0; l < 32; ++l) offsets += (l ? " " : "") + std::to_string((l * 8 + (0 ^ (l % 8))) * 16);
  const auto b = run_command(std::string(BANKSIM_PATH) + " --width 16 --offsets \"" + offsets + "\"");
  std::smatch n;
  REQUIRE(std::regex_search(b.out, n, std::regex(R"(wavefronts: (\d+))")));
  CHECK(dom.out.find("<strong id=\"wf\">" + n[1].str() + "</strong>") != std::string::npos);
  CHECK(dom.out.find(offsets) != std::string::npos);  // the banksim command the page shows
}

TEST_CASE("the explorer switches to Chinese: every label, the presets and the numbers, the same numbers as in English") {
  const auto en = run_command(chromium("--dump-dom", (kExplorer / "explorer.html").string() + "#preset=column32"));
  const auto zh = run_command(chromium("--dump-dom", (kExplorer / "explorer.html").string() + "#preset=column32&lang=zh"));
  INFO("the page shows: " << numbers_of(zh.out));
  CHECK(zh.out.find("lang=\"zh-CN\"") != std::string::npos);
  CHECK(zh.out.find("<strong id=\"wf\">32</strong> 个 wavefront") != std::string::npos);
  CHECK(en.out.find("<strong id=\"wf\">32</strong> wavefronts") != std::string::npos);
  CHECK(zh.out.find("32 路冲突") != std::string::npos);  // the preset's name
  // No English label is left in the Chinese view: every data-i18n element
  // shows Chinese (a CJK character), and no element of the English view is missing.
  const std::regex labelled(R"re(data-i18n="(\w+)"[^>]*>([^<]*)<)re");
  std::set<std::string> keys_en, keys_zh;
  for (std::sregex_iterator it(en.out.begin(), en.out.end(), labelled), end; it != end; ++it) keys_en.insert((*it)[1]);
  int english = 0;
  for (std::sregex_iterator it(zh.out.begin(), zh.out.end(), labelled), end; it != end; ++it) {
    keys_zh.insert((*it)[1]);
    const std::string text = (*it)[2];
    const bool chinese = std::any_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) >= 0xE3; });
    if (!chinese && (*it)[1] != "title") {  // "BankLab bank 探索器" is Chinese; a tile's "tile" is the course's word
      INFO("label " << (*it)[1] << " shows " << text);
      CHECK((text == "tile" || text == "English"));
      ++english;
    }
  }
  CHECK(keys_en.size() >= 30);
  CHECK(keys_zh == keys_en);
  CHECK(english <= 1);
}

TEST_CASE("the explorer in Chinese draws every Chinese character with a font that has it (no boxes)") {
  // Each distinct Chinese character the page shows, drawn on a canvas in the
  // page's font, against a character no font has (U+10FFFD, the fallback
  // box) and against nothing: without a CJK font (fonts-noto-cjk, installed
  // by common/scripts/setup.sh) every one of them is a box.
  std::string page = slurp(kExplorer / "explorer.html");
  const std::string probe =
      "<script>(function () {"
      " const chars = [...new Set([...document.body.innerText].filter((c) => /[\\u4e00-\\u9fff]/.test(c)))];"
      " const font = getComputedStyle(document.body).fontFamily;"
      " const canvas = document.createElement('canvas'); canvas.width = 40; canvas.height = 40;"
      " const g = canvas.getContext('2d', {willReadFrequently: true});"
      " const draw = (c) => { g.clearRect(0, 0, 40, 40); g.font = `32px ${font}`; g.fillText(c, 2, 34);"
      "   return g.getImageData(0, 0, 40, 40).data.join(','); };"
      " const box = draw('\\u{10FFFD}'), blank = draw('');"
      " const boxes = chars.filter((c) => draw(c) === box || draw(c) === blank);"
      " const pre = document.createElement('pre'); pre.id = 'glyphs';"
      " pre.textContent = `chars ${chars.length} boxes ${boxes.length} [${boxes.slice(0, 12).join('')}]`;"
      " document.body.appendChild(pre);"
      "})();</script>\n";
  const auto at = page.find("</body>");
  REQUIRE(at != std::string::npos);
  page.insert(at, probe);
  std::ofstream(kExplorer / "explorer_glyphs.html") << page;
  const auto dom = run_command(chromium("--dump-dom", (kExplorer / "explorer_glyphs.html").string() + "#preset=column32&lang=zh"));
  std::smatch m;
  REQUIRE(std::regex_search(dom.out, m, std::regex(R"(<pre id="glyphs">chars (\d+) boxes (\d+) \[([^\]]*)\]</pre>)")));
  INFO("boxes: " << m[3]);
  CHECK(std::stoi(m[1]) >= 100);
  CHECK(std::stoi(m[2]) == 0);
}

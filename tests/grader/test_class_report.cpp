// grader --report: the class report of a gradebook (its charts, pass rates,
// grouped failure messages, similarity flags), read from JSON or CSV, with
// student names as hostile text; and --shard/--merge of a small class.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "grader_test.hpp"

namespace {

namespace fs = std::filesystem;
using banklab::test::run_grader;
using banklab::test::source_dir;

std::string text_of(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void write_text(const fs::path& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

fs::path fresh_dir(const std::string& name) {
  const fs::path dir = fs::path(BANKLAB_TEST_TMP) / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// A gradebook row as --submissions writes it (checks of lab 3 by name).
nlohmann::json row(const std::string& student, const fs::path& file, double score,
                   const std::vector<std::tuple<std::string, double, std::string>>& checks) {
  nlohmann::json c = nlohmann::json::array();
  for (const auto& [name, points, message] : checks) {
    nlohmann::json check = {{"name", name}, {"score", points}};
    if (!message.empty()) check["message"] = message;
    c.push_back(check);
  }
  return {{"student", student}, {"file", file.string()}, {"score", score}, {"max_score", 90},
          {"status", "graded"}, {"backend", "cpu"}, {"seed", 5}, {"checks", c}};
}

// The lab-3 checks, in the rubric's order, with their points (grader --list).
std::vector<std::pair<std::string, double>> lab3_checks() {
  const auto r = run_grader("--lab 3 --list");
  REQUIRE(r.status == 0);
  std::vector<std::pair<std::string, double>> checks;
  std::istringstream lines(r.out);
  const std::regex line(R"(^\s+(\d+(\.\d+)?) points?\s+(.*?)(\s+\[GPU only\])?(\s+\(needs: .*\))?$)");
  for (std::string l; std::getline(lines, l);) {
    std::smatch m;
    if (std::regex_match(l, m, line) && !m[4].matched) checks.push_back({m[3], std::stod(m[1])});
  }
  REQUIRE(checks.size() >= 3);
  return checks;
}

}  // namespace

TEST_CASE("the class report of a gradebook: histogram, pass rate per check, grouped messages, the six copies flagged") {
  const fs::path dir = fresh_dir("class_report");
  const auto checks = lab3_checks();
  const std::string original = text_of(source_dir() + "/tests/grader/similarity/copied_original.cu");
  nlohmann::json rows = nlohmann::json::array();
  // Six copies: names renamed, comments rewritten; full marks.
  const std::vector<std::pair<std::string, std::string>> renames = {
      {"buffer", "tile"}, {"column", "x"}, {"step", "j"}, {"value", "v"}, {"row_base", "y0"}, {"out_row", "oy"}};
  for (int i = 0; i < 6; ++i) {
    std::string copy = original;
    for (int r = 0; r < i; ++r)
      copy = std::regex_replace(copy, std::regex("\\b" + renames[r].first + "\\b"), renames[r].second);
    copy = std::regex_replace(copy, std::regex("//[^\n]*"), "// written by student " + std::to_string(i));
    const fs::path file = dir / ("copy" + std::to_string(i) + ".cu");
    write_text(file, copy);
    std::vector<std::tuple<std::string, double, std::string>> c;
    for (const auto& [name, points] : checks) c.push_back({name, points, ""});
    rows.push_back(row("copy" + std::to_string(i), file, 90, c));
  }
  // Three correct solutions written independently, and the reference.
  for (const std::string name : {"different_swizzle", "different_unrolled", "different_linear"}) {
    std::vector<std::tuple<std::string, double, std::string>> c;
    for (const auto& [check, points] : checks) c.push_back({check, points, ""});
    rows.push_back(row(name, source_dir() + "/tests/grader/similarity/" + name + ".cu", 90, c));
  }
  // Two that fail the first check with messages that differ only in
  // numbers and paths, one with another message; a hostile name.
  const std::vector<std::string> messages = {"out[3] is 0, expected 7 at /home/a/transpose.cu:41",
                                             "out[12] is 0, expected 9 at /srv/b/transpose.cu:40",
                                             "the kernel wrote nothing"};
  const std::vector<std::string> failing = {"<script>alert(1)</script>", "wrong2", "wrong3"};
  for (std::size_t i = 0; i < failing.size(); ++i) {
    std::vector<std::tuple<std::string, double, std::string>> c;
    for (std::size_t k = 0; k < checks.size(); ++k)
      c.push_back({checks[k].first, k == 0 ? 0.0 : checks[k].second, k == 0 ? messages[i] : ""});
    // Their files are gone since: listed as not compared.
    rows.push_back(row(failing[i], dir / ("gone" + std::to_string(i) + ".cu"), 90 - checks[0].second, c));
  }
  rows.push_back({{"student", "broken"}, {"score", 0}, {"max_score", 90}, {"status", "does not build"},
                  {"message", "broken.cu:3:1: error: expected ';'"}});
  const fs::path book = dir / "gradebook.json";
  write_text(book, nlohmann::json{{"lab", 3}, {"seed", 5}, {"backend", "cpu"}, {"submissions", rows}}.dump(2));

  const auto r = run_grader("--report " + book.string() + " -o " + (dir / "report.html").string());
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out.find("15 pairs flagged as similar in 1 groups") != std::string::npos);
  const std::string page = text_of(dir / "report.html");
  CHECK(page.find("<svg") != std::string::npos);
  CHECK(fs::exists(dir / "report-scores.svg"));
  CHECK(fs::exists(dir / "report-checks.svg"));
  // The group: the six copies, and none of the others.
  CHECK(page.find("copy0, copy1, copy2, copy3, copy4, copy5 (6)") != std::string::npos);
  const std::size_t flagged_from = page.find("Identical and near-identical");
  const std::string flagged = page.substr(flagged_from, page.find("<h2>Submissions") - flagged_from);
  for (const std::string name : {"different_swizzle", "different_unrolled", "different_linear"})
    CHECK(flagged.find(name) == std::string::npos);
  CHECK(flagged.find("Not found, so not compared: &lt;script&gt;alert(1)&lt;/script&gt;, wrong2, wrong3") !=
        std::string::npos);
  // The first check: 3 of 12 failed; the two messages that differ in numbers and paths count as one.
  CHECK(page.find("3/12") != std::string::npos);
  CHECK(page.find("<code>out[3] is 0, expected 7 at /home/a/transpose.cu:41</code></td><td class=\"n\">2<") !=
        std::string::npos);
  CHECK(page.find("the kernel wrote nothing</code></td><td class=\"n\">1<") != std::string::npos);
  CHECK(page.find("does not build: broken.cu:3:1: error: expected &#39;;&#39;") != std::string::npos);
  // Student names are text, never markup.
  CHECK(page.find("<script>") == std::string::npos);
  CHECK(page.find("&lt;script&gt;alert(1)&lt;/script&gt;") != std::string::npos);
  // 9 at full marks of 13 scored rows.
  CHECK(page.find("9 at full marks") != std::string::npos);
  // The whole page, the two charts and what the grader printed, as an instructor gets them.
  banklab::test::check_golden("class_report/report.html", banklab::test::machine_neutral(page));
  banklab::test::check_golden("class_report/report-scores.svg",
                              banklab::test::machine_neutral(text_of(dir / "report-scores.svg")));
  banklab::test::check_golden("class_report/report-checks.svg",
                              banklab::test::machine_neutral(text_of(dir / "report-checks.svg")));
  banklab::test::check_golden("class_report/printed.txt", banklab::test::machine_neutral(r.out));
}

TEST_CASE("the class report lists a check's three most common failure messages, most common first, and no fourth") {
  const fs::path dir = fresh_dir("class_report_top3");
  const auto checks = lab3_checks();
  // The first check fails 7 times: "a" 3 times, "b" twice, then "c" and "d" once each (c first in the gradebook).
  const std::vector<std::string> messages = {"message a: tile not written", "message b: wrong column",
                                             "message a: tile not written", "message c: output untouched",
                                             "message b: wrong column",     "message a: tile not written",
                                             "message d: kernel too slow"};
  nlohmann::json rows = nlohmann::json::array();
  for (std::size_t i = 0; i < messages.size(); ++i) {
    std::vector<std::tuple<std::string, double, std::string>> c;
    for (std::size_t k = 0; k < checks.size(); ++k)
      c.push_back({checks[k].first, k == 0 ? 0.0 : checks[k].second, k == 0 ? messages[i] : ""});
    rows.push_back(row("s" + std::to_string(i), dir / ("s" + std::to_string(i) + ".cu"), 90 - checks[0].second, c));
  }
  const fs::path book = dir / "gradebook.json";
  write_text(book, nlohmann::json{{"lab", 3}, {"seed", 5}, {"backend", "cpu"}, {"submissions", rows}}.dump(2));
  const auto r = run_grader("--report " + book.string() + " -o " + (dir / "report.html").string());
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  const std::string page = text_of(dir / "report.html");
  const std::size_t a = page.find("<code>message a: tile not written</code></td><td class=\"n\">3<");
  const std::size_t b = page.find("<code>message b: wrong column</code></td><td class=\"n\">2<");
  const std::size_t c = page.find("<code>message c: output untouched</code></td><td class=\"n\">1<");
  CHECK(a != std::string::npos);
  CHECK(b != std::string::npos);
  CHECK(c != std::string::npos);
  CHECK(a < b);
  CHECK(b < c);
  CHECK(page.find("message d: kernel too slow") == std::string::npos);
  CHECK(page.find("7/7") != std::string::npos);
  // The check's name cell spans its three message rows.
  CHECK(page.find("<tr><td rowspan=\"3\">" + checks[0].first + "</td>") != std::string::npos);
}

TEST_CASE("the class report names the first six students of a failure message, and counts the rest") {
  const fs::path dir = fresh_dir("class_report_names");
  const auto checks = lab3_checks();
  // The first check fails with one message for 7 students, another for 6.
  nlohmann::json rows = nlohmann::json::array();
  for (int i = 0; i < 13; ++i) {
    const std::string message = i < 7 ? "message a: tile not written" : "message b: wrong column";
    std::vector<std::tuple<std::string, double, std::string>> c;
    for (std::size_t k = 0; k < checks.size(); ++k)
      c.push_back({checks[k].first, k == 0 ? 0.0 : checks[k].second, k == 0 ? message : ""});
    const std::string name = "s" + std::to_string(10 + i);
    rows.push_back(row(name, dir / (name + ".cu"), 90 - checks[0].second, c));
  }
  const fs::path book = dir / "gradebook.json";
  write_text(book, nlohmann::json{{"lab", 3}, {"seed", 5}, {"backend", "cpu"}, {"submissions", rows}}.dump(2));
  const auto r = run_grader("--report " + book.string() + " -o " + (dir / "report.html").string());
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  const std::string page = text_of(dir / "report.html");
  CHECK(page.find("<td>s10, s11, s12, s13, s14, s15, ... (1 more)</td>") != std::string::npos);
  CHECK(page.find("<td>s17, s18, s19, s20, s21, s22</td>") != std::string::npos);
}

TEST_CASE("the class report's mean and median: an even count takes the mean of the two middle scores") {
  const fs::path dir = fresh_dir("class_report_median");
  // Scores given out of order; the median is of the sorted scores.
  const std::vector<std::pair<std::vector<double>, std::string>> cases = {
      {{90, 0, 45, 90}, "Mean 62.5%, median 75%, 2 at full marks."},  // middle: 45 and 90
      {{90, 0, 45}, "Mean 50%, median 50%, 1 at full marks."},
      {{9, 0}, "Mean 5%, median 5%, 0 at full marks."},
      {{90}, "Mean 100%, median 100%, 1 at full marks."},
      {{27, 90, 0, 36, 81, 18}, "Mean 46.7%, median 35%, 1 at full marks."}};  // middle: 27 and 36
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const auto& [scores, summary] = cases[i];
    nlohmann::json rows = nlohmann::json::array();
    for (std::size_t k = 0; k < scores.size(); ++k)
      rows.push_back(row("s" + std::to_string(k), dir / "gone.cu", scores[k], {}));
    const fs::path book = dir / ("gradebook" + std::to_string(i) + ".json");
    write_text(book, nlohmann::json{{"lab", 3}, {"seed", 5}, {"backend", "cpu"}, {"submissions", rows}}.dump(2));
    const fs::path page = dir / ("report" + std::to_string(i) + ".html");
    const auto r = run_grader("--report " + book.string() + " -o " + page.string());
    INFO(r.out << r.err);
    REQUIRE(r.status == 0);
    CHECK(text_of(page).find("<p>" + summary + "</p>") != std::string::npos);
  }
}

TEST_CASE("the class report counts a submission that does not build as its score, and leaves out rows without one") {
  const fs::path dir = fresh_dir("class_report_statuses");
  nlohmann::json rows = nlohmann::json::array();
  rows.push_back(row("ann", dir / "ann.cu", 90, {}));
  rows.push_back(row("bo", dir / "bo.cu", 90, {}));
  nlohmann::json broken = row("cy", dir / "cy.cu", 0, {});
  broken["status"] = "does not build";
  rows.push_back(broken);
  nlohmann::json missing = {{"student", "dee"}, {"status", "no submission"}, {"backend", "cpu"}, {"seed", 5}};
  rows.push_back(missing);
  const fs::path book = dir / "gradebook.json";
  write_text(book, nlohmann::json{{"lab", 3}, {"seed", 5}, {"backend", "cpu"}, {"submissions", rows}}.dump(2));
  const fs::path page = dir / "report.html";
  const auto r = run_grader("--report " + book.string() + " -o " + page.string());
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  const std::string html = text_of(page);
  // 90, 90 and 0 out of 90: the one that does not build pulls the mean down.
  CHECK(html.find("<p>Mean 66.7%, median 100%, 2 at full marks.</p>") != std::string::npos);
  CHECK(html.find("Scores (3 submissions, 1 without a score left out)") != std::string::npos);
  // The similarity section names the files it could not find (none of these
  // rows' files exist), not a student who submitted nothing.
  CHECK(html.find("Not found, so not compared: ann, bo, cy.") != std::string::npos);
}

TEST_CASE("the class report reads a CSV gradebook, and says what is wrong with a missing or broken one") {
  const fs::path dir = fresh_dir("class_report_csv");
  write_text(dir / "book.csv",
             "student,score,max_score,status,backend,seed,first check,second check\n"
             "ann,10,20,graded,cpu,5,10,0\n"
             "bo,20,20,graded,cpu,5,10,10\n"
             "\"c, d\",0,20,does not build,cpu,5,,\n");
  auto r = run_grader("--report " + (dir / "book.csv").string());
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  const std::string page = text_of(dir / "book.html");
  CHECK(page.find("no per-check messages") != std::string::npos);
  CHECK(page.find("c, d") != std::string::npos);
  CHECK(page.find("50% (1/2)") != std::string::npos);  // second check: bo only
  // The checks are the columns after "seed", in order, and nothing else: the
  // seed, the score and the status are not checks with a pass rate.
  std::vector<std::string> charted;
  const std::string chart = text_of(dir / "book-checks.svg");
  const std::regex label(R"re(<text [^>]*text-anchor="end">([^<]*)</text>)re");
  for (auto it = std::sregex_iterator(chart.begin(), chart.end(), label); it != std::sregex_iterator(); ++it) {
    charted.push_back((*it)[1]);
  }
  CHECK(charted == std::vector<std::string>{"first check", "second check"});
  std::vector<std::string> tabled;
  const std::regex first_cell(R"re(<tr><td rowspan="\d+">([^<]*)</td>)re");
  for (auto it = std::sregex_iterator(page.begin(), page.end(), first_cell); it != std::sregex_iterator(); ++it) {
    tabled.push_back((*it)[1]);
  }
  CHECK(tabled == std::vector<std::string>{"first check", "second check"});

  r = run_grader("--report " + (dir / "nothing.json").string());
  CHECK(r.status == 2);
  CHECK(r.err.find("nothing.json: no such gradebook") != std::string::npos);
  write_text(dir / "bad.json", "{\"lab\": 3}");
  r = run_grader("--report " + (dir / "bad.json").string());
  CHECK(r.status == 2);
  CHECK(r.err.find("bad.json: not a gradebook") != std::string::npos);
  write_text(dir / "short.csv", "student,score,max_score,status,backend,seed\nann,1\n");
  r = run_grader("--report " + (dir / "short.csv").string());
  CHECK(r.status == 2);
  CHECK(r.err.find("short.csv:2: 2 fields, the header has 6") != std::string::npos);
  r = run_grader("--report " + (dir / "book.csv").string() + " --lab 3");
  CHECK(r.status == 2);
  CHECK(r.err.find("leave out --lab") != std::string::npos);
}

TEST_CASE("--merge joins shards into one gradebook and refuses shards of another seed or a student graded twice") {
  const fs::path dir = fresh_dir("merge");
  auto book = [&](const std::string& name, int seed, const std::vector<std::pair<std::string, double>>& students) {
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& [student, score] : students)
      rows.push_back({{"student", student}, {"file", student + ".cu"}, {"sha", "s" + student}, {"score", score},
                      {"max_score", 90}, {"status", "graded"}, {"backend", "cpu"}, {"seed", seed},
                      {"checks", nlohmann::json::array({{{"name", "first"}, {"score", score}}})}});
    write_text(dir / (name + ".json"),
               nlohmann::json{{"lab", 3}, {"seed", seed}, {"backend", "cpu"}, {"submissions", rows}}.dump());
    return (dir / (name + ".json")).string();
  };
  const std::string one = book("one", 4, {{"cat", 90}, {"ann", 10}});
  const std::string two = book("two", 4, {{"bob", 50}});
  auto r = run_grader("--merge " + one + " " + two + " -o " + (dir / "all").string());
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  const auto merged = nlohmann::json::parse(text_of(dir / "all.json"));
  CHECK(merged["seed"] == 4);
  CHECK(merged["lab"] == 3);
  REQUIRE(merged["submissions"].size() == 3);
  CHECK(merged["submissions"][0]["student"] == "ann");  // sorted by student, as a batch writes
  CHECK(merged["submissions"][2]["student"] == "cat");
  CHECK(text_of(dir / "all.csv").find("bob,50") != std::string::npos);
  // The same shard twice is the same rows: merged once.
  r = run_grader("--merge " + one + " " + one + " " + two + " -o " + (dir / "again").string());
  CHECK(r.status == 0);
  CHECK(nlohmann::json::parse(text_of(dir / "again.json"))["submissions"].size() == 3);

  const std::string other_seed = book("other_seed", 5, {{"dan", 1}});
  r = run_grader("--merge " + one + " " + other_seed + " -o " + (dir / "bad").string());
  CHECK(r.status == 2);
  CHECK(r.err.find("other_seed.json has seed 5 but") != std::string::npos);
  CHECK(!fs::exists(dir / "bad.json"));
  const std::string regraded = book("regraded", 4, {{"ann", 80}});
  r = run_grader("--merge " + one + " " + regraded + " -o " + (dir / "bad").string());
  CHECK(r.status == 2);
  CHECK(r.err.find("student ann is in") != std::string::npos);
  r = run_grader("--merge " + one + " " + two);
  CHECK(r.status == 2);
  CHECK(r.err.find("--merge needs -o PATH") != std::string::npos);
}

TEST_CASE("--shard takes K/N with 1 <= K <= N and says what is wrong otherwise") {
  const fs::path dir = fresh_dir("shard_args");
  for (const std::string bad : {"3/2", "0/2", "2", "a/b", "1/0", "-1/2"}) {
    const auto r = run_grader("--lab 3 --submissions " + dir.string() + " --shard " + bad + " --backend cpu");
    INFO(bad << ": " << r.err);
    CHECK(r.status == 2);
    CHECK(r.err.find("--shard " + bad + ": ") != std::string::npos);
  }
  const auto r = run_grader("--lab 3 --shard 1/2");
  CHECK(r.status == 2);
  CHECK(r.err.find("--shard requires --submissions") != std::string::npos);
}

TEST_CASE("a gradebook whose rows have fields of the wrong type is refused with the file's name, not a crash") {
  const fs::path dir = fresh_dir("class_report_types");
  write_text(dir / "book.json",
             R"({"lab": 3, "seed": 1, "backend": "cpu", "submissions": [{"student": 7, "status": ["graded"]}]})");
  const auto r = run_grader("--report " + (dir / "book.json").string());
  CHECK(r.status == 2);
  CHECK(r.err.find("book.json: a row does not have the form --submissions writes") != std::string::npos);
}

TEST_CASE("the class report's histogram: full marks on a bar of its own, every other score in its tenth") {
  // Scores of 90: 90 (twice), 89, 81, 45, 0: bars 100 (2), 90-99 (1), 90-99 also
  // for 81/90 = 90%, 50-59 (1), 0-9 (1). Each bar's count is written above it,
  // centred on the bar: x = 50 + 48 * bar + 24.
  const fs::path dir = fresh_dir("class_report_histogram");
  nlohmann::json rows = nlohmann::json::array();
  const std::vector<double> scores = {90, 89, 81, 45, 0, 90};
  for (std::size_t k = 0; k < scores.size(); ++k) rows.push_back(row("s" + std::to_string(k), dir / "gone.cu", scores[k], {}));
  const fs::path book = dir / "gradebook.json";
  write_text(book, nlohmann::json{{"lab", 3}, {"seed", 5}, {"backend", "cpu"}, {"submissions", rows}}.dump(2));
  const auto r = run_grader("--report " + book.string() + " -o " + (dir / "report.html").string());
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  const std::string svg = text_of(dir / "report-scores.svg");
  INFO(svg);
  const auto count_at = [&](int bar) -> std::string {
    const std::string at = "<text x=\"" + std::to_string(50 + 48 * bar + 24) + "\" y=\"";
    for (std::size_t from = svg.find(at); from != std::string::npos; from = svg.find(at, from + 1)) {
      const std::size_t open = svg.find('>', from), close = svg.find("</text>", from);
      const std::string text = svg.substr(open + 1, close - open - 1);
      if (text.find('-') == std::string::npos && text != "100") return text;  // not the bar's label
    }
    return "";
  };
  CHECK(count_at(10) == "2");
  CHECK(count_at(9) == "2");
  CHECK(count_at(5) == "1");
  CHECK(count_at(0) == "1");
  for (const int empty : {1, 2, 3, 4, 6, 7, 8}) CHECK(count_at(empty).empty());
}

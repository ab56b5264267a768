// Laws of the grader that the second blind set of mutations
// (tests/mutation/grader_mutants_blind2.py) went unseen by: each test asserts
// the points and message a check gives on a known-wrong submission, or, where
// no submission can make the case (a runner answer short of runs), what the
// check function says on an answer built by hand.
#include <doctest/doctest.h>

#include <unistd.h>

#include <cstdlib>
#include <set>
#include <string>

#include "../../grader/labs/common/raw_data.hpp"
#include "checks.hpp"
#include "grader_test.hpp"
#include "process.hpp"
#include "raw_answers.hpp"

namespace {

using banklab::test::check_output;
using banklab::test::failing_checks;
using banklab::test::grade_report;
using banklab::test::run_grader;
using banklab::test::test_submission;
using nlohmann::json;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The points a check of a report is worth.
double points_of(const json& report, const std::string& check) {
  for (const auto& c : report["checks"]) {
    if (c["name"] == check) return c["max_score"].get<double>();
  }
  FAIL("no check named " << check);
  return 0;
}

}  // namespace

TEST_CASE("stage 2: a conflict_degree wrong only with 32 active lanes loses its check, 10 points, naming the case") {
  const std::string degree = "conflict_degree on every stride 0-1024 and 1-32 active lanes";
  const auto report = grade_report(test_submission(2, "wrong", "degree_lane_count_mod_32.cu"), 1, 2);
  CHECK(failing_checks(report) == std::set<std::string>{degree});
  CHECK(points_of(report, degree) == 10);
  CHECK(report["score"] == 80);
  const std::string out = check_output(report, degree);
  // Every stride but 0 (a broadcast) is wrong at 32 lanes, and only there.
  CHECK(contains(out, "1024 of 32800 cases wrong"));
  CHECK(contains(out, "conflict_degree(1, 32) = 0, expected 1"));
  CHECK(contains(out, "conflict_degree(2, 32) = 0, expected 2"));
  CHECK(!contains(out, ", 31) ="));
}

TEST_CASE("stage 2: a row_sums staging one element past its tile loses the findings check, 2 points, nothing else") {
  // The store past the tile lands on no data the sums read: the outputs are
  // right, the runs finish, and only the findings check can see it.
  const auto report = grade_report(test_submission(2, "wrong", "rows_stage_one_past.cu"), 1, 2);
  const std::string findings = "row_sums: no race, barrier divergence, uninitialised read or out-of-bounds access";
  CHECK(failing_checks(report) == std::set<std::string>{findings});
  CHECK(points_of(report, findings) == 2);
  CHECK(report["score"] == 88);
  const std::string out = check_output(report, findings);
  CHECK(contains(out, "on 256, 300, "));  // 1, 127 and 128 rows have no row after the block's last
  CHECK(contains(out, "out-of-bounds shared access at rows_stage_one_past.cu:84"));
  CHECK(contains(out, "the first byte after the end of 'block_rows'"));
}

TEST_CASE("stage 3: a tile read one step past the padded tile fails 'no out-of-bounds memory access' at its line") {
  const std::string oob = "no out-of-bounds memory access";
  const auto report = grade_report(test_submission(3, "wrong", "read_one_step_past.cu"), 1, 3);
  // The extra step also reads the tile's padding column, which nothing wrote.
  CHECK(failing_checks(report) == std::set<std::string>{oob, "no uninitialised shared read"});
  CHECK(points_of(report, oob) == 5);
  CHECK(report["score"] == 80);
  const std::string out = check_output(report, oob);
  CHECK(contains(out, "out-of-bounds shared access at read_one_step_past.cu:73"));
  CHECK(contains(out, "the first byte after the end of 'tile'"));
  CHECK(contains(out, "outside this kernel's __shared__ variables"));
  CHECK(!contains(out, "out-of-bounds global access"));  // the global bounds test holds
}

namespace {

// A raw report line: `count` warp loads of a padded tile's column (conflict-free).
json padded_column_line(int count) {
  json offsets = json::array();
  for (int lane = 0; lane < 32; ++lane) offsets.push_back(4 * 33 * lane);
  return {{"file", "transpose.cu"}, {"line", 12},
          {"patterns", {{{"width", 4}, {"op", "ld"}, {"offsets", offsets}, {"shift", 0}, {"count", count},
                         {"first", "block (0,0,0) warp 0"}}}},
          {"unrecorded_loads", 0}, {"unrecorded_stores", 0}};
}

// A runner answer of one completed run whose report has `line`, priced by the grader.
std::vector<banklab::grader::LabelledReport> priced_reports(const json& line) {
  const json answer = {{"backend", "cpu"},
                       {"runs", {{{"shape", "32x32"}, {"report", {{"completed", true}, {"lines", {line}}}}}}}};
  return banklab::grader::reports_of(banklab::grader::parse_runner_answer(answer.dump()));
}

}  // namespace

TEST_CASE("a shared line whose priced instructions are ideal but some could not be priced fails the cost check") {
  using banklab::grader::check_line_costs;
  using banklab::grader::LineKind;
  using banklab::grader::Status;
  // Priced alone, the line passes: the test below differs only by the unpriced ones.
  CHECK(check_line_costs(priced_reports(padded_column_line(4)), LineKind::kLoads, false, "none", "hint").status ==
        Status::kPass);
  json line = padded_column_line(4);
  line["unrecorded_loads"] = 5;  // past the emulator's cap of distinct patterns per line
  const auto outcome = check_line_costs(priced_reports(line), LineKind::kLoads, false, "none", "hint");
  CHECK(outcome.status == Status::kFail);
  CHECK(contains(outcome.reason, "transpose.cu:12"));
  CHECK(contains(outcome.reason, "could not price 5 more warp instructions"));
  CHECK(contains(outcome.reason, "what cannot be priced does not pass"));
}

namespace {

json transpose_run(int width, int height, bool completed) {
  return {{"width", width}, {"height", height}, {"report", {{"completed", completed}, {"lines", json::array()}}}};
}

}  // namespace

TEST_CASE("a runner answer with fewer runs than the shapes asked for is refused, unless its last run stopped") {
  using banklab::grader::runs_mismatch;
  const std::string shapes = "32x32,31x33,33x31";
  const json all = {{"runs", {transpose_run(32, 32, true), transpose_run(31, 33, true), transpose_run(33, 31, true)}}};
  CHECK(runs_mismatch(all, shapes).empty());
  // Two finished runs for three shapes: the runner left one out.
  const json short_of_one = {{"runs", {transpose_run(32, 32, true), transpose_run(31, 33, true)}}};
  CHECK(runs_mismatch(short_of_one, shapes) ==
        "the runner's answer does not match the request: 2 runs for 3 shapes (32x32,31x33,33x31)");
  const json one = {{"runs", {transpose_run(32, 32, true)}}};
  // (Not "1 runs": the count's noun is the grader's wording, free to change.)
  CHECK(contains(runs_mismatch(one, shapes), "does not match the request: 1 "));
  CHECK(contains(runs_mismatch(one, shapes), "for 3 shapes"));
  CHECK(contains(runs_mismatch(json{{"runs", json::array()}}, shapes), "does not match the request: 0 "));
  // A run that did not finish ends the answer: the correctness checks say why.
  const json stopped = {{"runs", {transpose_run(32, 32, true), transpose_run(31, 33, false)}}};
  CHECK(runs_mismatch(stopped, shapes).empty());
}

TEST_CASE("a run whose raw output is longer than the reference's is refused, not judged on its first bytes") {
  using banklab::grader::judge_output;
  std::vector<unsigned char> expected(40);
  for (std::size_t i = 0; i < expected.size(); ++i) expected[i] = static_cast<unsigned char>(3 * i + 1);
  json run = {{"output", harness::base64_encode(expected.data(), expected.size())}};
  CHECK(judge_output(run, expected, 4)["mismatches"] == 0);
  std::vector<unsigned char> longer = expected;
  longer.insert(longer.end(), {9, 9, 9, 9});  // the same 40 bytes and one element more
  run["output"] = harness::base64_encode(longer.data(), longer.size());
  const json verdict = judge_output(run, expected, 4);
  CHECK(!verdict.contains("mismatches"));
  CHECK(verdict.value("error", "") == "the runner returned 44 bytes of output, the grader expected 40");
  run["output"] = harness::base64_encode(expected.data(), 36);
  CHECK(judge_output(run, expected, 4).value("error", "") ==
        "the runner returned 36 bytes of output, the grader expected 40");
}

TEST_CASE("a cast of a small integer, (float*)16, to a pointer is refused at its line before the build") {
  const auto r = run_grader("--lab 3 --backend cpu " + test_submission(3, "hostile", "small_address.cu"));
  CHECK(r.status == 2);
  CHECK(contains(r.err, "small_address.cu:72: a cast from an integer to a pointer"));
}

TEST_CASE("a runner may have 32 processes: 24 children run to the end, 40 stop it as too many") {
  // The limit GradeContext::call gives every runner; the children live 2
  // seconds together, long enough for the process count to see them.
  banklab::grader::ProcessOptions options;
  options.max_processes = 32;
  auto children = [&](int n) {
    return banklab::grader::run_process({SANDBOX_PROBE_PATH, "fork", std::to_string(n)}, 20, options);
  };
  const auto few = children(24);
  INFO(few.out << few.err);
  CHECK(!few.too_many_processes);
  CHECK(contains(few.out, "ok fork 24"));
  const auto many = children(40);  // 41 processes with the probe itself
  INFO(many.out << many.err);
  CHECK(many.too_many_processes);
  CHECK(!contains(many.out, "ok fork"));
  CHECK(contains(many.describe(20), "32"));
}

TEST_CASE("a lab file defining a C library function (extern \"C\" __device__ getpid) is refused by the link check") {
  const auto r = run_grader("--lab 3 --backend cpu " + test_submission(3, "hostile", "defines_getpid.cu"));
  CHECK(r.status == 2);
  CHECK(contains(r.err, "defines_getpid.cu for the CPU emulator is refused: "
                        "defines_getpid.cu: defines `getpid`, a name of the C library"));
}

TEST_CASE("a lab file kept in /tmp grades as anywhere else: the sandbox's own /tmp is not where its folder is shown") {
  // Its folder (/tmp itself) is shown read-only to the compile steps; with
  // TMPDIR=/tmp inside bubblewrap that covered the private /tmp, and nvcc
  // could not write its temporary files ("Could not open output file").
  const std::string file = "/tmp/banklab-lab-in-tmp-" + std::to_string(getpid()) + ".cu";
  std::filesystem::copy_file(banklab::test::source_dir() + "/solutions/03-padded-transpose/transpose.cu", file,
                             std::filesystem::copy_options::overwrite_existing);
  const auto run = run_grader("--lab 3 --backend cpu --seed 3 --impl " + file);
  INFO(run.out << run.err);
  CHECK(run.status == 0);
  CHECK(run.out.find("Score: 90/90") != std::string::npos);
  std::filesystem::remove(file);
}

// The grader graded: the reference gets full marks, the skeleton loses only
// the conflict points, every known-wrong submission loses the right checks
// with the right message, every output format parses, and the text and JSON
// reports match golden files (seed fixed, times and paths masked).
#include <doctest/doctest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <regex>
#include <signal.h>
#include <set>
#include <sstream>

#include "grader_test.hpp"
#include "run_command.hpp"

namespace {

using banklab::test::check_golden;
using banklab::test::check_output;
using banklab::test::failing_checks;
using banklab::test::grade_report;
using banklab::test::GraderRun;
using banklab::test::run_grader;
using banklab::test::test_submission;

const std::string kSource = BANKLAB_SOURCE_DIR;

std::string wrong(const std::string& file) { return "--impl " + kSource + "/tests/grader/lab03/wrong/" + file; }

const std::string kSquare = "transpose of a 32x32 matrix";
const std::string kPartial = "transpose of partial tiles: 1x1, 31x33, 33x31";
const std::string kLarge = "transpose of 1024x2048 and 2048x1024";
const std::string kRandom = "transpose of two random shapes, odd and even";
const std::string kBounds = "no out-of-bounds memory access";
const std::string kDivergence = "no barrier divergence";
const std::string kRace = "no shared-memory race";
const std::string kUninit = "no uninitialised shared read";
const std::string kWrite = "tile write costs 1 wavefront per warp instruction";
const std::string kRead = "tile read costs 1 wavefront per warp instruction";
const std::string kSize = "shared memory no more than a 32x33 float tile";
const std::string kPredict1 = "prediction P1: the column read of float tile[32][32]";
const std::string kPredict2 = "prediction P2: the column read of float tile[32][33]";

// Times, the seed-independent paths and durations change from run to run.
std::string mask(std::string text) {
  text = std::regex_replace(text, std::regex(R"(\(\d+\.\ds\))"), "(T)");
  text = std::regex_replace(text, std::regex(R"("seconds": [0-9.e+-]+)"), "\"seconds\": T");
  // The confinement depends on the machine (bubblewrap or the fallback).
  text = std::regex_replace(text, std::regex(R"(\nsandbox: [^\n]*)"), "\nsandbox: S");
  text = std::regex_replace(text, std::regex(R"(\nsource check: [^\n]*)"), "");  // libclang's version
  text = std::regex_replace(text, std::regex(R"("sandbox": "[^"]*")"), "\"sandbox\": S");
  text = std::regex_replace(text, std::regex(R"(\n *"source_check": "[^"]*",)"), "");
  size_t at = 0;
  while ((at = text.find(kSource, at)) != std::string::npos) text.replace(at, kSource.size(), "<src>");
  return text;
}

}  // namespace

TEST_CASE("the reference solution gets full marks on the CPU backend, GPU checks skipped") {
  const auto report = grade_report("--solutions", 0, 3);
  CHECK(report["score"] == 90);
  CHECK(report["max_score"] == 90);
  CHECK(report["skipped_points"] == 20);
  CHECK(failing_checks(report).empty());
}

TEST_CASE("the untouched skeleton, a correct transpose without a shared tile, loses the tile and prediction points") {
  const auto report = grade_report("", 1, 3);
  CHECK(report["score"] == 60);
  CHECK(failing_checks(report) == std::set<std::string>{kWrite, kRead, kPredict1, kPredict2});
  CHECK(check_output(report, kWrite).find("no shared-memory store found: the kernel must stage the tile in shared "
                                       "memory") != std::string::npos);
  // An unanswered prediction does not give the answer away.
  CHECK(check_output(report, kPredict1).find("not answered yet (0)") != std::string::npos);
  CHECK(check_output(report, kPredict1).find("32") == std::string::npos);
}

TEST_CASE("known wrong: the staged tile without padding (the old skeleton) loses the tile-read conflict points") {
  const auto report = grade_report(wrong("conflicted_tile.cu"), 1, 3);
  CHECK(report["score"] == 80);
  CHECK(failing_checks(report) == std::set<std::string>{kRead});
  const std::string why = check_output(report, kRead);
  CHECK(why.find("conflicted_tile.cu:") != std::string::npos);
  CHECK(why.find("yours: 32 wavefronts, expected: 1") != std::string::npos);
  CHECK(why.find("bank 0 must deliver 32 different words") != std::string::npos);
  CHECK(why.find("wf 31") != std::string::npos);  // the bank map
}

TEST_CASE("known wrong: the tile read back by rows, not columns, copies instead of transposing") {
  const auto report = grade_report(wrong("reads_rows.cu"), 1, 3);
  // (on partial tiles it also reads tile elements nothing wrote)
  CHECK(failing_checks(report) == std::set<std::string>{kSquare, kPartial, kLarge, kRandom, kUninit, kWrite, kRead, kSize});
  CHECK(check_output(report, kSquare).find("yours vs expected: out[1][0]") != std::string::npos);
}

TEST_CASE("known wrong: block offsets not swapped for the write are right only on square grids") {
  const auto report = grade_report(wrong("offsets_not_swapped.cu"), 1, 3);
  CHECK(failing_checks(report).count(kLarge) == 1);
  CHECK(failing_checks(report).count(kSquare) == 0);
  CHECK(failing_checks(report).count(kWrite) == 0);
}

TEST_CASE("known wrong: a 32x65 tile is conflict-free but twice the shared memory allowed") {
  const auto report = grade_report(wrong("tile_too_big.cu"), 1, 3);
  CHECK(failing_checks(report) == std::set<std::string>{kSize});
  CHECK(check_output(report, kSize).find("8320") != std::string::npos);
}

TEST_CASE("known wrong: predictions swapped are explained with the banksim command, the answer kept back") {
  const auto report = grade_report(wrong("predictions_swapped.cu"), 1, 3);
  CHECK(failing_checks(report) == std::set<std::string>{kPredict1, kPredict2});
  CHECK(check_output(report, kPredict1).find("banksim --width 4 --stride 32") != std::string::npos);
}

TEST_CASE("a file written before the predictions (no predicted_wavefronts) still builds and grades: 80 of 90") {
  const auto report = grade_report("--impl " + kSource + "/tests/grader/lab03/right/printf_braces.cu", 1, 3);
  CHECK(report["score"] == 80);
  CHECK(failing_checks(report) == std::set<std::string>{kPredict1, kPredict2});
  // The stage's contract, checked from the source: the declaration to add.
  CHECK(check_output(report, kPredict1).find(
            "the file has no array `predicted_wavefronts`: declare `int predicted_wavefronts[2]` at file scope") !=
        std::string::npos);
}

TEST_CASE("known wrong: padding on the wrong dimension loses the tile-read points") {
  const auto report = grade_report(wrong("pad_wrong_dim.cu"), 1, 3);
  CHECK(failing_checks(report) == std::set<std::string>{kRead});
  CHECK(check_output(report, kRead).find("yours: 32 wavefronts, expected: 1") != std::string::npos);
}

TEST_CASE("known wrong: __syncthreads() inside the bounds check is barrier divergence") {
  const auto report = grade_report(wrong("sync_inside_bounds.cu"), 1, 3);
  CHECK(failing_checks(report) == std::set<std::string>{kPartial, kRandom, kDivergence, kRace, kUninit});
  const std::string why = check_output(report, kDivergence);
  CHECK(why.find("barrier divergence at sync_inside_bounds.cu:48") != std::string::npos);
  CHECK(why.find("keep it outside any if, and do not return before it") != std::string::npos);
}

TEST_CASE("known wrong: a __syncwarp() inside the bounds check deadlocks on partial tiles, a barrier check's failure") {
  const auto report = grade_report(wrong("syncwarp_in_bounds.cu"), 1, 3);
  CHECK(failing_checks(report) == std::set<std::string>{kPartial, kRandom, kDivergence});
  CHECK(report["score"] == 65);
  const std::string why = check_output(report, kDivergence);
  CHECK(why.find("on 31x33: deadlock at syncwarp_in_bounds.cu:67") != std::string::npos);
  CHECK(why.find("a warp collective (__syncwarp or __shfl/__ballot) waits for lanes that wait elsewhere") !=
        std::string::npos);
}

TEST_CASE("known wrong: no __syncthreads() is a race and reads of unwritten shared memory") {
  const auto report = grade_report(wrong("no_sync.cu"), 1, 3);
  CHECK(failing_checks(report) ==
        std::set<std::string>{kSquare, kPartial, kLarge, kRandom, kRace, kUninit, kWrite, kRead, kSize});
  CHECK(check_output(report, kRace).find("no __syncthreads() between") != std::string::npos);
  CHECK(check_output(report, kWrite).find("not checked: needs") != std::string::npos);
  // The read is one line the compiler unrolls into four instructions: one finding, not four.
  const std::string uninit = check_output(report, kUninit);
  const std::string at = "uninitialised shared read at no_sync.cu:";
  CHECK(uninit.find(at) != std::string::npos);
  CHECK(uninit.find(at, uninit.find(at) + 1) == std::string::npos);
}

TEST_CASE("known wrong: bounds checks removed fails odd sizes and is out of bounds") {
  const auto report = grade_report(wrong("no_bounds.cu"), 1, 3);
  // On 31x33 the write past the end reaches the guard page and the kernel
  // crashes: that fails correctness and the out-of-bounds check, and nothing
  // else (the other findings checks vouch for what ran before the crash).
  CHECK(failing_checks(report) == std::set<std::string>{kPartial, kRandom, kBounds});
  CHECK(check_output(report, kBounds).find("out-of-bounds global write") != std::string::npos);
  CHECK(check_output(report, kRace).find("up to where the kernel stopped on 31x33") != std::string::npos);
}

TEST_CASE("known wrong: a kernel that writes nothing leaves the poison in place") {
  const auto report = grade_report(wrong("writes_nothing.cu"), 1, 3);
  CHECK(failing_checks(report) == std::set<std::string>{kSquare, kPartial, kLarge, kRandom, kWrite, kRead, kSize});
  CHECK(check_output(report, kSquare).find("1024 of 1024 elements wrong") != std::string::npos);
  CHECK(check_output(report, kSquare).find("NaN (never written)") != std::string::npos);
}

TEST_CASE("known wrong: copying instead of transposing is wrong, with yours and expected side by side") {
  const auto report = grade_report(wrong("copies.cu"), 1, 3);
  CHECK(failing_checks(report) == std::set<std::string>{kSquare, kPartial, kLarge, kRandom, kWrite, kRead, kSize});
  CHECK(check_output(report, kSquare).find("yours vs expected: out[1][0]") != std::string::npos);
}

TEST_CASE("known wrong: an off-by-one write bound writes out of bounds") {
  const auto report = grade_report(wrong("oob_write.cu"), 1, 3);
  CHECK(failing_checks(report) == std::set<std::string>{kPartial, kRandom, kBounds, kUninit});
  CHECK(check_output(report, kBounds).find("out-of-bounds global write") != std::string::npos);
  CHECK(check_output(report, kBounds).find("oob_write.cu:52") != std::string::npos);
}

TEST_CASE("known wrong: an infinite loop fails correctness and what needs it, with the loop's line, and the grader finishes") {
  const auto report = grade_report(wrong("infinite_loop.cu"), 1, 3);
  CHECK(failing_checks(report) == std::set<std::string>{kSquare, kPartial, kLarge, kRandom, kWrite, kRead, kSize});
  CHECK(report["score"] == 30);  // the four findings checks, up to where the kernel stopped, and the predictions
  // Stopped at one block's share of the time limit, in the block and at the line that loops.
  CHECK(check_output(report, kSquare).find("block (0,0,0) ran past the time limit of") != std::string::npos);
  CHECK(check_output(report, kSquare).find("s for one block (an endless loop?)") != std::string::npos);
  CHECK(check_output(report, kSquare).find("look for a loop whose exit condition never comes true here") !=
        std::string::npos);
  CHECK(check_output(report, kSquare).find("infinite_loop.cu:52") != std::string::npos);
  CHECK(check_output(report, kRace).find("up to where the kernel stopped") != std::string::npos);
}

TEST_CASE("an implementation that does not compile is exit status 2 with the compiler's message") {
  const std::string bad = std::string(BANKLAB_TEST_TMP) + "/does_not_compile.cu";
  std::ofstream(bad) << "__global__ void transpose_padded(float* out, const float* in, int w, int h) { oops; }\n";
  const GraderRun r = run_grader("--lab 3 --backend cpu --impl " + bad);
  CHECK(r.status == 2);
  CHECK(r.err.find("does not build") != std::string::npos);
  CHECK(r.err.find("oops") != std::string::npos);
  CHECK(r.err.find("was not declared") != std::string::npos);
}

TEST_CASE("usage errors are one line and exit status 2") {
  for (const char* args : {"--lab 9", "--lab three", "--lab 3 --impl /nonexistent/transpose.cu --backend cpu",
                           "--lab 3 --format xml", "--lab 3 --solutions --impl x.cu", "", "--lab all --impl x.cu"}) {
    const GraderRun r = run_grader(args);
    INFO("grader " << args << "\n" << r.out << r.err);
    CHECK(r.status == 2);
    CHECK(r.err.rfind("grader: ", 0) == 0);
  }
}

TEST_CASE("--backend gpu on a machine without a usable GPU says why and exits 2") {
  const GraderRun probe = run_grader("--lab 3 --solutions --format json --seed 1 --time-limit 30");
  const auto report = nlohmann::json::parse(probe.out);
  if (report["backend"] == "gpu") return;  // this machine has a GPU: nothing to refuse
  const GraderRun r = run_grader("--lab 3 --solutions --backend gpu");
  CHECK(r.status == 2);
  CHECK(r.err.find("--backend gpu:") != std::string::npos);
  CHECK(r.err.find("use --backend cpu") != std::string::npos);
  const std::string reason = report["backend_reason"].get<std::string>();
  CHECK(reason.find("so the CPU emulator") != std::string::npos);
  // Why: no nvcc in this build, or nvcc but no GPU (CUDA's own words).
  CHECK(reason.find(BANKLAB_TEST_HAVE_NVCC ? "no usable GPU: CUDA says" : "this build has no CUDA compiler") !=
        std::string::npos);
  CHECK(r.status == 2);
  CHECK(r.out.empty());  // nothing graded
}

TEST_CASE("--list names every check with its points") {
  const GraderRun r = run_grader("--lab 3 --list");
  CHECK(r.status == 0);
  CHECK(r.out.find("10 points  " + kRead) != std::string::npos);
  CHECK(r.out.find("[GPU only]") != std::string::npos);
}

TEST_CASE("--format gradescope writes results.json that Gradescope accepts") {
  const GraderRun r = run_grader("--lab 3 --backend cpu --seed 1 --format gradescope");
  CHECK(r.status == 1);
  const auto json = nlohmann::json::parse(r.out);
  CHECK(json["score"].is_number());
  CHECK(json["score"] == 60);
  REQUIRE(json["tests"].is_array());
  CHECK(json["tests"].size() == 16);
  double max_score = 0;
  int skipped = 0;
  for (const auto& t : json["tests"]) {
    CHECK(t["name"].is_string());
    CHECK(t["score"].is_number());
    CHECK(t["max_score"].is_number());
    CHECK(t["output"].is_string());
    // Visibility from the rubric; a skipped check is hidden and has no status (test_formats.cpp).
    if (t["visibility"] != "hidden") CHECK((t["status"] == "passed" || t["status"] == "failed"));
    CHECK((t["visibility"] == "visible" || t["visibility"] == "after_due_date" || t["visibility"] == "hidden"));
    max_score += t["max_score"].get<double>();
    if (t["output"].get<std::string>().find("needs a GPU") != std::string::npos) {
      // A skipped GPU check counts nothing: the student sees 60/90, as the grader says.
      CHECK(t["max_score"] == 0);
      CHECK(t["score"] == 0);
      ++skipped;
    }
  }
  CHECK(max_score == 90);
  CHECK(skipped == 3);
}

TEST_CASE("--lab all --format gradescope covers every stage, each test named after its stage") {
  const GraderRun r = run_grader("--lab all --backend cpu --seed 1 --format gradescope --time-limit 10");
  CHECK(r.status == 1);
  const auto json = nlohmann::json::parse(r.out);
  REQUIRE(json["tests"].is_array());
  std::set<std::string> stages;
  double score = 0, max_score = 0;
  for (const auto& t : json["tests"]) {
    const std::string name = t["name"].get<std::string>();
    stages.insert(name.substr(0, name.find(':')));
    score += t["score"].get<double>();
    max_score += t["max_score"].get<double>();
  }
  INFO(r.out.substr(0, 2000));
  CHECK(stages.size() == 7);  // six stages and the quiz
  CHECK(stages.count("quiz") == 1);
  CHECK(json["score"].get<double>() == doctest::Approx(score));
  // Skeleton CPU scores: stage 1 0/90, 2 36/90, 3 60/90, 4 70/90, 5 44/90, 6 40/90, the untouched quiz 0/24.
  CHECK(score == doctest::Approx(0 + 36 + 60 + 70 + 44 + 40));
  CHECK(max_score == doctest::Approx(90 + 90 + 90 + 90 + 90 + 90 + 24));  // GPU checks skipped on the CPU backend
}

TEST_CASE("--format junit writes XML that a standard parser accepts") {
  const GraderRun r = run_grader("--lab all --backend cpu --seed 1 --format junit");
  CHECK(r.status == 1);
  const std::string path = std::string(BANKLAB_TEST_TMP) + "/junit.xml";
  std::ofstream(path) << r.out;
  CHECK(std::system(("xmllint --noout " + path).c_str()) == 0);
  CHECK(r.out.find("<failure message=") != std::string::npos);
  CHECK(r.out.find("<skipped message=\"needs a GPU") != std::string::npos);
  // The counts: the stage-3 skeleton fails the tile's two cost checks and the
  // two predictions, and skips the three GPU checks.
  CHECK(r.out.find("name=\"lab 3 (padded transpose)\" tests=\"16\" failures=\"4\" errors=\"0\" skipped=\"3\"") !=
        std::string::npos);
}

TEST_CASE("text and JSON reports of the skeleton match their golden files") {
  const GraderRun text = run_grader("--lab 3 --backend cpu --seed 1");
  CHECK(text.status == 1);
  check_golden("lab03_skeleton.txt", mask(text.out));
  const GraderRun json = run_grader("--lab 3 --backend cpu --seed 1 --format json");
  CHECK(json.status == 1);
  check_golden("lab03_skeleton.json", mask(json.out));
}

TEST_CASE("--build-only builds the runners (GPU too where nvcc is) and grades nothing") {
  const GraderRun r = run_grader("--lab 3 --solutions --build-only");
  CHECK(r.status == 0);
  CHECK(r.out.find("Score") == std::string::npos);
  // Each runner's path is printed, and it is a program that answers.
  auto runner_path = [&](const std::string& what) {
    const auto at = r.out.find("lab 3 " + what + " runner: ");
    if (at == std::string::npos) return std::string();
    const auto start = at + what.size() + 15;
    return r.out.substr(start, r.out.find('\n', start) - start);
  };
  const std::string cpu = runner_path("CPU");
  REQUIRE(!cpu.empty());
  const auto cpu_answer = banklab::test::run_command(cpu + " run --shapes 32x32 --seed 1");
  CHECK(cpu_answer.status == 0);
  // Raw data: the output itself (the grader compares it), never a verdict.
  const auto cpu_run = nlohmann::json::parse(cpu_answer.out)["runs"][0];
  CHECK(cpu_run["output"].is_string());
  CHECK(!cpu_run.contains("mismatches"));
  const std::string gpu = runner_path("GPU");
  if (!BANKLAB_TEST_HAVE_NVCC) {
    CHECK(gpu.empty());  // no nvcc: no GPU runner, and no claim of one
    return;
  }
  REQUIRE(!gpu.empty());
  // Without a GPU the runner still starts and answers with CUDA's error; with one, it grades.
  const auto gpu_answer = banklab::test::run_command(gpu + " run --shapes 32x32 --seed 1");
  const auto answer = nlohmann::json::parse(gpu_answer.out);
  CHECK(answer["backend"] == "gpu");
  CHECK((answer.contains("error") || answer["runs"][0]["output"].is_string()));
}

// ---- stages 1 and 2 ---------------------------------------------------------

TEST_CASE("stage 1: the reference gets full marks and the skeleton loses every point") {
  const auto reference = grade_report("--solutions", 0, 1);
  CHECK(reference["score"] == 90);
  CHECK(reference["skipped_points"] == 10);
  const auto skeleton = grade_report("", 1, 1);
  CHECK(skeleton["score"] == 0);
  CHECK(check_output(skeleton, "puzzle 1, conflict free: 1 wavefront").find("not done yet") != std::string::npos);
  // An unanswered prediction does not give the answer away.
  const std::string p2 = check_output(skeleton, "prediction P2: float tile[32][32]; lane l reads tile[l][0] (words 0, 32, 64, 96, ...)");
  CHECK(p2.find("not answered yet") != std::string::npos);
  CHECK(p2.find("32") == std::string::npos);
}

TEST_CASE("stage 1: a correct submission written differently gets full marks") {
  CHECK(grade_report(test_submission(1, "right", "alternative.cu"), 0, 1)["score"] == 90);
}

TEST_CASE("stage 1: a puzzle function that gives the kernel other offsets than the host loses that puzzle") {
  const auto report = grade_report(test_submission(1, "hostile", "puzzle_counts_calls.cu"), 1, 1);
  CHECK(report["score"] == 86);
  const std::string puzzle = "puzzle 1, conflict free: 1 wavefront";
  CHECK(failing_checks(report) == std::set<std::string>{puzzle});
  CHECK(check_output(report, puzzle).find("your function gives other offsets in the kernel than on the host: lane 1 "
                                          "returned 8 on the host, and its load in the harness kernel read byte 4") !=
        std::string::npos);
}

TEST_CASE("stage 1 known wrong: bank_of on bytes fails with the first wrong offset") {
  const auto report = grade_report(test_submission(1, "wrong", "bank_of_bytes.cu"), 1, 1);
  CHECK(report["score"] == 80);
  CHECK(failing_checks(report) == std::set<std::string>{"bank_of on every byte offset"});
  CHECK(check_output(report, "bank_of on every byte offset").find("bank_of(1) = 1, expected 0") != std::string::npos);
}

TEST_CASE("stage 1 known wrong: word_of / 32 and bank_of & 31 both fail") {
  const auto report = grade_report(test_submission(1, "wrong", "word_div_32.cu"), 1, 1);
  CHECK(failing_checks(report) == std::set<std::string>{"word_of on every byte offset", "bank_of on every byte offset"});
  CHECK(check_output(report, "word_of on every byte offset").find("word_of(4) = 0, expected 1") != std::string::npos);
  CHECK(check_output(report, "bank_of on every byte offset").find("229140 of 236544 byte offsets wrong") != std::string::npos);
}

TEST_CASE("stage 1 known wrong: every puzzle and every prediction fails for its own reason") {
  const auto report = grade_report(test_submission(1, "wrong", "puzzles_wrong.cu"), 1, 1);
  CHECK(report["score"] == 20);
  CHECK(failing_checks(report).size() == 20);
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"puzzle 1, conflict free: 1 wavefront", "yours: 2 wavefronts, expected: 1"},
      {"puzzle 2, broadcast: 1 wavefront", "yours: 32 wavefronts, expected: 1"},
      {"puzzle 3, multicast: 1 wavefront", "between 2 and 16 different words wanted; yours touch 1"},
      {"puzzle 4, two way: 2 wavefronts", "yours: 4 wavefronts, expected: 2"},
      {"puzzle 5, four way: 4 wavefronts", "yours: 2 wavefronts, expected: 4"},
      {"puzzle 6, thirty two way: 32 wavefronts", "yours: 16 wavefronts, expected: 32"},
      {"puzzle 7, one bank four words: 4 wavefronts", "exactly 4 different words wanted; yours touch 8"},
      {"puzzle 8, bytes: 1 wavefront", "fewer than 32 different words wanted"},
      {"puzzle 9, halves: 1 wavefront", "lane 0: offset 1 is not a multiple of the load's width"},
      {"puzzle 10, partial warp: 8 wavefronts", "active lanes: yours 0-31, expected 0-7"},
      {"prediction P1: float s[]; lane l reads s[l]", "yours: 32, expected: 1 wavefront"},
      {"prediction P10: 4-byte loads; lanes 0-15 read byte offset 52, lanes 16-31 byte offset 180",
       "yours: 1, expected: 2 wavefronts"},
  };
  for (const auto& [check, text] : expected) {
    INFO(check);
    CHECK(check_output(report, check).find(text) != std::string::npos);
  }
  // A wrong cost shows the banksim command and the bank map that explain it.
  const std::string why = check_output(report, "puzzle 4, two way: 2 wavefronts");
  CHECK(why.find("banksim --width 4 --stride 4") != std::string::npos);
  CHECK(why.find("wf  3") != std::string::npos);
  CHECK(check_output(report, "prediction P1: float s[]; lane l reads s[l]").find("banksim --width 4 --stride 1") !=
        std::string::npos);
}

TEST_CASE("stage 2: the reference gets full marks, a different correct submission too, the skeleton 36") {
  CHECK(grade_report("--solutions", 0, 2)["score"] == 90);
  CHECK(grade_report(test_submission(2, "right", "alternative.cu"), 0, 2)["score"] == 90);
  const auto skeleton = grade_report("", 1, 2);
  CHECK(skeleton["score"] == 36);
  const std::string read = check_output(skeleton, "transpose16: every shared access at its ideal wavefronts");
  CHECK(read.find("yours: 8 wavefronts, expected: 1") != std::string::npos);
  CHECK(check_output(skeleton, "row_sums: every shared access at its ideal wavefronts")
            .find("yours: 32 wavefronts, expected: 1") != std::string::npos);
  CHECK(check_output(skeleton, "neighbour_distances: every shared access at its ideal wavefronts")
            .find("yours: 4 wavefronts, expected: 1") != std::string::npos);
}

TEST_CASE("stage 2 known wrong submissions each lose exactly their checks") {
  const std::string degree = "conflict_degree on every stride 0-1024 and 1-32 active lanes";
  struct Case {
    const char* file;
    std::set<std::string> fails;
    std::string check, text;
  };
  const std::vector<Case> cases = {
      {"degree_no_broadcast.cu", {degree}, degree, "conflict_degree(0, 2) = 2, expected 1"},
      {"degree_full_warp.cu", {degree}, degree, "conflict_degree(2, 1) = 2, expected 1"},
      {"rows_pitch_66.cu",
       {"row_sums: every shared access at its ideal wavefronts", "row_sums: shared memory no more than 128 rows of 65 floats"},
       "row_sums: every shared access at its ideal wavefronts", "yours: 2 wavefronts, expected: 1"},
      {"rows_pitch_97.cu", {"row_sums: shared memory no more than 128 rows of 65 floats"},
       "row_sums: shared memory no more than 128 rows of 65 floats", "yours: 49664 bytes"},
      {"rows_no_bounds.cu", {"row_sums: no race, barrier divergence, uninitialised read or out-of-bounds access"},
       "row_sums: no race, barrier divergence, uninitialised read or out-of-bounds access", "out-of-bounds global"},
      // Just over each bound, so that a bound loosened by a little fails too.
      {"rows_pitch_67.cu", {"row_sums: shared memory no more than 128 rows of 65 floats"},
       "row_sums: shared memory no more than 128 rows of 65 floats", "yours: 34304 bytes"},
      {"particles_fields_pitch_163.cu", {"neighbour_distances: shared memory no more than 129 particles of 5 floats"},
       "neighbour_distances: shared memory no more than 129 particles of 5 floats", "yours: 2608 bytes"},
      {"particles_padded_linear_staging.cu", {"neighbour_distances: every shared access at its ideal wavefronts"},
       "neighbour_distances: every shared access at its ideal wavefronts", "store of 4 bytes per lane"},
      {"transpose16_pad17.cu", {"transpose16: every shared access at its ideal wavefronts"},
       "transpose16: every shared access at its ideal wavefronts", "yours: 2 wavefronts, expected: 1"},
      {"transpose16_no_sync.cu",
       {"transpose16 is correct on 16x16,1x1,15x17,17x15,48x32,34x18 and random sizes",
        "transpose16: no race, barrier divergence, uninitialised read or out-of-bounds access",
        "transpose16: every shared access at its ideal wavefronts", "transpose16: shared memory no more than a 16x18 float tile"},
       "transpose16: no race, barrier divergence, uninitialised read or out-of-bounds access", "shared-memory race"},
      {"predictions_gcd_only.cu",
       {"prediction P6: every lane reads word 7 (stride 0)", "prediction P9: only the even lanes are active; lane l reads word 2 l"},
       "prediction P6: every lane reads word 7 (stride 0)", "yours: 32, expected: 1 wavefront"},
  };
  for (const Case& c : cases) {
    INFO(c.file);
    const auto report = grade_report(test_submission(2, "wrong", c.file), 1, 2);
    CHECK(failing_checks(report) == c.fails);
    CHECK(check_output(report, c.check).find(c.text) != std::string::npos);
  }
}

TEST_CASE("--lab all grades stages 1 to 6 and the quiz, with a total, and --list shows each") {
  const GraderRun r = run_grader("--lab all --backend cpu --seed 1 --format json --time-limit 10");
  CHECK(r.status == 1);
  const auto json = nlohmann::json::parse(r.out);
  REQUIRE(json["labs"].size() == 7);
  for (int i = 0; i < 6; ++i) CHECK(json["labs"][i]["lab"] == i + 1);
  CHECK(json["labs"][6]["lab"] == "quiz");
  // Skeleton CPU scores: 0 + 36 + 60 + 70 + 44 + 40 of 6 x 90, the untouched quiz 0/24.
  CHECK(json["total"]["score"].get<double>() == doctest::Approx(250));
  CHECK(json["total"]["max_score"].get<double>() == doctest::Approx(564));
  const GraderRun text = run_grader("--lab all --backend cpu --seed 1 --time-limit 10");
  CHECK(text.out.find("\nTotal: 250/564 over 6 stages and the quiz (72 points of checks skipped on this backend)\n") !=
        std::string::npos);
  // With the reference solutions and the quiz key: every point.
  const GraderRun key = run_grader("--lab all --solutions --backend cpu --seed 1 --time-limit 10");
  CHECK(key.status == 0);
  CHECK(key.out.find("\nTotal: 564/564 over 6 stages and the quiz") != std::string::npos);
  const GraderRun list = run_grader("--lab all --list");
  CHECK(list.out.find("lab 1 (bank mapping)") != std::string::npos);
  CHECK(list.out.find("lab 2 (stride and gcd)") != std::string::npos);
  CHECK(list.out.find("lab 4 (XOR swizzle)") != std::string::npos);
  CHECK(list.out.find("lab 5 (broadcast and wide types)") != std::string::npos);
  CHECK(list.out.find("4 points  conflict_degree equals the GPU's cycles per instruction  [GPU only]") !=
        std::string::npos);
}

namespace {

const std::string kMapColumns = "swizzle spreads each logical column over 32 banks";
const std::string kMapRange = "swizzle keeps every element in its row (values 0-31)";
const std::string kMapRow = "swizzle is one-to-one within each row";
const std::string kChunkRange = "swizzle_chunk keeps chunks in their row (0-7) and is one-to-one within each row";
const std::string kSwSquare = "transpose_swizzled: transpose of a 32x32 matrix";
const std::string kSwPartial = "transpose_swizzled: partial tiles 1x1, 31x33, 33x31";
const std::string kSwLarge = "transpose_swizzled: 1024x2048 and 2048x1024";
const std::string kSwRandom = "transpose_swizzled: two random shapes, odd and even";
const std::string kSwFindings =
    "transpose_swizzled: no out-of-bounds, misaligned, racy or uninitialised access, no barrier divergence";
const std::string kSwWrite = "transpose_swizzled: tile write costs 1 wavefront per warp instruction";
const std::string kSwRead = "transpose_swizzled: tile read costs 1 wavefront per warp instruction";
const std::string kSwSize = "transpose_swizzled: shared memory no more than a 32x32 float tile (4096 bytes)";
const std::string kChunkMap = "swizzle_chunk spreads each chunk over 8 places in every 8 rows a quarter-warp reads";
const std::string kChunkCorrect = "chunk_transpose_swizzled: correct, 1 and 3 read passes";
const std::string kChunkFindings =
    "chunk_transpose_swizzled: no misaligned, out-of-bounds, racy or uninitialised access";
const std::string kChunkWrite = "chunk_transpose_swizzled: float4 tile write costs the ideal 4 wavefronts";
const std::string kChunkRead = "chunk_transpose_swizzled: float4 column-chunk read costs the ideal 4 wavefronts";
const std::string kChunkSize = "chunk_transpose_swizzled: shared memory no more than 4096 bytes";

}  // namespace

TEST_CASE("stage 4: the reference and a rotation-based submission get full marks, and the skeleton shows 32- and 8-way") {
  CHECK(grade_report("--solutions", 0, 4)["score"] == 90);
  CHECK(grade_report(test_submission(4, "right", "alternative.cu"), 0, 4)["score"] == 90);
  const auto skeleton = grade_report("", 1, 4);
  CHECK(skeleton["score"] == 70);
  CHECK(failing_checks(skeleton) == std::set<std::string>{kMapColumns, kSwRead, kChunkMap, kChunkRead});
  CHECK(check_output(skeleton, kSwRead).find("yours: 32 wavefronts, expected: 1") != std::string::npos);
  CHECK(check_output(skeleton, kSwRead).find("banksim --width 4 --stride 32") != std::string::npos);
  CHECK(check_output(skeleton, kChunkRead).find("yours: 32 wavefronts, expected: 4") != std::string::npos);
  CHECK(check_output(skeleton, kChunkRead).find("(worst group: 8-way)") != std::string::npos);
  CHECK(check_output(skeleton, kMapColumns).find("logical column 0: rows 0 and 1 both land in physical column 0") !=
        std::string::npos);
}

TEST_CASE("stage 4: the seed-drawn chunk run reads its 5 to 40 tiles 2 to 4 times, every pass count drawn") {
  // The third chunk run is the one a kernel cannot know in advance; one pass
  // would test no multi-pass run at all.
  const std::regex drawn(R"(correct on 1 tile \(1 pass\), 3 tiles \(3 passes\) and (\d+) tiles \((\d) passes\))");
  std::set<int> passes_seen;
  for (int seed = 1; seed <= 16; ++seed) {
    const GraderRun r =
        run_grader("--lab 4 --solutions --backend cpu --verbose --time-limit 8 --seed " + std::to_string(seed));
    INFO("seed " << seed << "\n" << r.out << r.err);
    REQUIRE(r.status == 0);
    std::smatch m;
    REQUIRE(std::regex_search(r.out, m, drawn));
    const int tiles = std::stoi(m[1]), passes = std::stoi(m[2]);
    CHECK(tiles >= 5);
    CHECK(tiles <= 40);
    CHECK(passes >= 2);
    CHECK(passes <= 4);
    passes_seen.insert(passes);
  }
  CHECK(passes_seen == std::set<int>{2, 3, 4});
}

TEST_CASE("stage 4 known wrong submissions each lose exactly their checks") {
  struct Case {
    const char* file;
    std::set<std::string> fails;
    std::string check, text;
  };
  const std::set<std::string> wrong_data = {kSwSquare, kSwPartial, kSwLarge, kSwRandom, kSwFindings,
                                            kSwWrite,  kSwRead,    kSwSize};
  const std::vector<Case> cases = {
      {"write_only_swizzle.cu", wrong_data, kSwSquare, "yours vs expected: out[0][1]"},
      {"read_only_swizzle.cu", wrong_data, kSwFindings, "uninitialised shared read"},
      {"wrong_bits.cu", {kMapColumns, kSwRead}, kSwRead, "yours: 2 wavefronts, expected: 1"},
      {"row_plus_one.cu", {kMapRange, kSwFindings}, kMapRange, "swizzle(31, 0) = 32: outside 0..31"},
      {"padded_not_swizzled.cu", {kMapColumns, kSwSize}, kSwSize, "4224 bytes"},
      {"swizzle_row_index.cu", {kSwRead}, kSwRead, "yours: 32 wavefronts, expected: 1"},
      {"chunk_write_only.cu", {kChunkCorrect, kChunkWrite, kChunkRead, kChunkSize}, kChunkCorrect,
       "chunk 0 of row 1, .x"},
      {"chunk_pad_one_float.cu", {kChunkMap, kChunkCorrect, kChunkFindings, kChunkWrite, kChunkRead, kChunkSize},
       kChunkFindings, "misaligned shared access"},
      {"chunk_pad_four_floats.cu", {kChunkMap, kChunkSize}, kChunkSize, "4608 bytes"},
      {"chunk_wrong_bits.cu", {kChunkMap, kChunkRead}, kChunkRead, "yours: 16 wavefronts, expected: 4"},
      // A 2-way conflict: rows r and r + 4 of a quarter-warp's eight collide.
      {"chunk_row_mod4.cu", {kChunkMap, kChunkRead}, kChunkMap, "rows 0 and 4 both land in physical chunk 0"},
      {"row_collision.cu",
       {kMapRow, kSwSquare, kSwPartial, kSwLarge, kSwRandom, kSwFindings, kSwWrite, kSwRead, kSwSize}, kMapRow,
       "row 0: columns 0 and 1 both go to 1"},
      // Only the last row collides (and with it logical column 0): a check that stops a row early passes it.
      {"last_row_collision.cu",
       {kMapRow, kMapColumns, kSwSquare, kSwPartial, kSwLarge, kSwRandom, kSwFindings, kSwWrite, kSwRead, kSwSize},
       kMapRow, "row 31: columns 0 and 1 both go to 30"},
      // Only columns c and c + 16 collide: a check of the row in halves of 16 would let it through.
      {"halves_collide.cu",
       {kMapRow, kSwSquare, kSwPartial, kSwLarge, kSwRandom, kSwFindings, kSwWrite, kSwRead, kSwSize}, kMapRow,
       "row 0: columns 0 and 16 both go to 0"},
      {"column_write_unswizzled.cu", {kSwWrite}, kSwWrite, "yours: 32 wavefronts, expected: 1"},
      {"chunk_wrong_range.cu", {kChunkRange, kChunkCorrect, kChunkFindings, kChunkWrite, kChunkRead, kChunkSize},
       kChunkRange, "swizzle_chunk(8, 0) = 8: outside 0..7"},
      {"chunk_scalar_writes.cu", {kChunkWrite}, kChunkWrite, "yours: 4 wavefronts, expected: 1"},
  };
  for (const Case& c : cases) {
    INFO(c.file);
    const auto report = grade_report(test_submission(4, "wrong", c.file), 1, 4);
    CHECK(failing_checks(report) == c.fails);
    CHECK(check_output(report, c.check).find(c.text) != std::string::npos);
  }
}

TEST_CASE("text reports of the stage 1, 2, 4 and 5 skeletons match their golden files") {
  const GraderRun one = run_grader("--lab 1 --backend cpu --seed 1");
  CHECK(one.status == 1);
  check_golden("lab01_skeleton.txt", mask(one.out));
  const GraderRun two = run_grader("--lab 2 --backend cpu --seed 1");
  CHECK(two.status == 1);
  check_golden("lab02_skeleton.txt", mask(two.out));
  const GraderRun four = run_grader("--lab 4 --backend cpu --seed 1");
  CHECK(four.status == 1);
  check_golden("lab04_skeleton.txt", mask(four.out));
  const GraderRun five = run_grader("--lab 5 --backend cpu --seed 1");
  CHECK(five.status == 1);
  check_golden("lab05_skeleton.txt", mask(five.out));
}

TEST_CASE("stage 5: the reference and a differently written submission get full marks, and the skeleton shows each ideal") {
  CHECK(grade_report("--solutions", 0, 5)["score"] == 90);
  CHECK(grade_report(test_submission(5, "right", "alternative.cu"), 0, 5)["score"] == 90);
  const auto skeleton = grade_report("", 1, 5);
  CHECK(skeleton["score"] == 44);
  CHECK(check_output(skeleton, "poly_eval: every shared access at its ideal wavefronts")
            .find("yours: 8 wavefronts, expected: 1") != std::string::npos);
  // 8-byte and 16-byte lines are compared with their ideal (2 and 4), not with 1.
  CHECK(check_output(skeleton, "transpose_double: tile read at its ideal wavefronts")
            .find("yours: 32 wavefronts, expected: 2") != std::string::npos);
  CHECK(check_output(skeleton, "transpose_half: tile read at its ideal wavefronts")
            .find("yours: 32 wavefronts, expected: 1") != std::string::npos);
  CHECK(check_output(skeleton, "sum_quads: every shared access at its ideal wavefronts")
            .find("yours: 4 wavefronts, expected: 1") != std::string::npos);
  CHECK(check_output(skeleton, "prediction P2: every lane loads the same float4").find("not answered") !=
        std::string::npos);
}

TEST_CASE("stage 5 known wrong submissions each lose exactly their checks") {
  const std::string poly_correct = "poly_eval is correct on 1,127,128,1000 and random sizes";
  const std::string poly_findings =
      "poly_eval: no race, barrier divergence, uninitialised, misaligned or out-of-bounds access";
  const std::string poly_cost = "poly_eval: every shared access at its ideal wavefronts";
  const std::string poly_memory = "poly_eval: shared memory no more than one copy of the 8 coefficients";
  const std::string double_correct = "transpose_double is correct on 32x32,1x1,31x33,33x31,96x40 and random sizes";
  const std::string double_findings =
      "transpose_double: no race, barrier divergence, uninitialised, misaligned or out-of-bounds access";
  const std::string double_write = "transpose_double: tile write at its ideal wavefronts";
  const std::string double_read = "transpose_double: tile read at its ideal wavefronts";
  const std::string quads_correct = "sum_quads is correct on 1,127,128,1000 and random sizes";
  const std::string quads_findings =
      "sum_quads: no race, barrier divergence, uninitialised, misaligned or out-of-bounds access";
  const std::string quads_memory = "sum_quads: shared memory no more than 128 float4s";
  const std::string double_memory = "transpose_double: shared memory no more than a 32x33 double tile";
  const std::string half_correct = "transpose_half is correct on 64x64,1x1,63x65,65x63,130x70 and random sizes";
  const std::string half_findings =
      "transpose_half: no race, barrier divergence, uninitialised, misaligned or out-of-bounds access";
  const std::string half_read = "transpose_half: tile read at its ideal wavefronts";
  const std::string half_write = "transpose_half: tile write at its ideal wavefronts";
  const std::string half_memory = "transpose_half: shared memory no more than a 64x66 half tile";
  const std::string quads_cost = "sum_quads: every shared access at its ideal wavefronts";
  const auto p = [](const char* id, const char* question) { return std::string("prediction ") + id + ": " + question; };
  struct Case {
    const char* file;
    std::set<std::string> fails;
    std::string check, text;
  };
  const std::vector<Case> cases = {
      {"poly_wrong_order.cu", {poly_correct, poly_cost, poly_memory}, poly_correct, "outputs wrong; yours vs expected"},
      {"poly_no_sync.cu", {poly_correct, poly_findings, poly_cost, poly_memory}, poly_findings, "shared-memory race"},
      {"poly_per_warp_tables.cu", {poly_memory}, poly_memory, "yours: 128 bytes"},
      {"double_pad2.cu", {double_read, double_memory}, double_read, "yours: 4 wavefronts, expected: 2"},
      {"double_pad3.cu", {double_memory}, double_memory, "yours: 8960 bytes"},
      {"half_pad1.cu", {half_read}, half_read, "yours: 2 wavefronts, expected: 1"},
      {"half_no_bounds.cu", {half_correct, half_findings, half_read, half_write, half_memory}, half_findings,
       "out-of-bounds global"},
      {"quads_float2.cu", {quads_cost}, quads_cost, "yours: 4 wavefronts, expected: 2"},
      {"double_copy.cu", {double_correct, double_findings, double_write, double_read, double_memory}, double_correct,
       "outputs wrong; yours vs expected: [1][0]"},
      {"double_no_sync.cu", {double_correct, double_findings, double_write, double_read, double_memory},
       double_findings, "shared-memory race"},
      {"double_column_write.cu", {double_write}, double_write, "yours: 32 wavefronts, expected: 2"},
      {"half_column_write.cu", {half_write}, half_write, "yours: 32 wavefronts, expected: 1"},
      {"half_pad6.cu", {half_memory}, half_memory, "yours: 8960 bytes"},
      {"quads_missing_w.cu", {quads_correct, quads_cost, quads_memory}, quads_correct, "outputs wrong"},
      {"quads_no_sync.cu", {quads_correct, quads_findings, quads_cost, quads_memory}, quads_findings,
       "shared-memory race"},
      {"quads_twice_the_staging.cu", {quads_memory}, quads_memory, "yours: 4096 bytes"},
      {"predictions_cycles.cu",
       {p("P1", "every lane loads the same double"), p("P7", "lane l loads tile[l][0] of double tile[32][16]"),
        p("P8", "lane l loads double l / 2 (lanes 2t and 2t+1 load the same double)"),
        p("P9", "only lanes 0-7 are active; lane l loads double l")},
       p("P9", "only lanes 0-7 are active; lane l loads double l"), "yours: 2, expected: 1 wavefront"},
      {"predictions_word_rule.cu",
       {p("P2", "every lane loads the same float4"), p("P3", "every lane stores to the same double"),
        p("P4", "every lane stores to the same float4"),
        p("P5", "lane l loads double l (consecutive doubles; lanes 0 and 16 share a bank)"),
        p("P6", "lane l loads float4 l"), p("P10", "lane l loads tile[l][0] of half tile[64][65]")},
       p("P6", "lane l loads float4 l"), "yours: 1, expected: 4 wavefronts"},
  };
  for (const Case& c : cases) {
    INFO(c.file);
    const auto report = grade_report(test_submission(5, "wrong", c.file), 1, 5);
    CHECK(failing_checks(report) == c.fails);
    CHECK(check_output(report, c.check).find(c.text) != std::string::npos);
  }
}

TEST_CASE("the prediction questions the rubric prices are the ones the lab files state") {
  const std::map<int, std::string> files = {{1, "/labs/01-bank-mapping/bank_mapping.cu"},
                                            {2, "/labs/02-stride-gcd/stride.cu"},
                                            {5, "/labs/05-wide-types/wide.cu"}};
  for (const auto& [lab, file] : files) {
    const GraderRun list = run_grader("--lab " + std::to_string(lab) + " --list");
    std::ifstream in(kSource + file);
    std::ostringstream text;
    text << in.rdbuf();
    std::istringstream lines(list.out);
    std::string line;
    int found = 0;
    while (std::getline(lines, line)) {
      const auto at = line.find("prediction P");
      if (at == std::string::npos) continue;
      const std::string rest = line.substr(at + 11);  // "P3: question"
      INFO(rest);
      CHECK(text.str().find("//   " + rest + ".") != std::string::npos);
      ++found;
    }
    CHECK(found == 10);
  }
}

TEST_CASE("JSON printed by the code under test is its output, never the runner's answer") {
  // Legal debugging output with braces, from a kernel: every check passes
  // but the predictions, which this file predates.
  const auto braces = grade_report(test_submission(3, "right", "printf_braces.cu"), 1, 3);
  CHECK(braces["score"] == 80);
  CHECK(failing_checks(braces) == std::set<std::string>{kPredict1, kPredict2});
}

// The hostile files of tests/grader/lab03/hostile/ that run host code (a
// static constructor, a .preinit_array entry) are refused by the source check
// before anything is built: none of their code runs. Each scored before the
// check existed (forged stdout: what the skeleton scores; the forged answer
// descriptor and the stolen secret: 0, refused by the runner's secret; the
// fork loop: stopped at 32 processes; the detached child: ended with its
// check; the memory hog: stopped at --memory-limit).
TEST_CASE("host code of a submission is refused before the build, naming the line and the reason") {
  struct Case {
    const char* file;
    const char* message;
  };
  const Case cases[] = {
      {"forged_stdout.cu", "forged_stdout.cu:70: Forger is a host function (no __device__ or __global__)"},
      {"forged_descriptor.cu", "forged_descriptor.cu:74: calls getenv from the C or C++ library"},
      {"stolen_secret.cu", "stolen_secret.cu:124: the attribute `section` is not allowed in a lab file"},
      {"fork_loop.cu", "fork_loop.cu:73: calls fork from the C or C++ library"},
      {"detached_child.cu", "detached_child.cu:81: detacher is initialised by code that runs when the program starts"},
      {"memory_hog.cu", "memory_hog.cu:73: hog is initialised by code that runs when the program starts"},
  };
  for (const Case& c : cases) {
    const GraderRun r = run_grader("--lab 3 --backend cpu --seed 1 " + test_submission(3, "hostile", c.file));
    INFO(c.file << "\n" << r.out << r.err);
    CHECK(r.status == 2);
    CHECK(r.err.find(c.message) != std::string::npos);
    CHECK(r.err.find("what to do:") != std::string::npos);
    CHECK(r.err.find("does not build") == std::string::npos);  // refused before any compiler ran
  }
  // None of them ran: the detached child never started.
  CHECK(!std::filesystem::exists("/tmp/banklab-detached-child.pid"));
}

TEST_CASE("host code in a header beside the file is refused, also when the header changed after a passing check") {
  // The source check's verdict is kept for the file and its own headers: a
  // header edited since is checked again, not taken from the record.
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(BANKLAB_TEST_TMP) / "edited_header";
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ifstream solution(kSource + "/solutions/03-padded-transpose/transpose.cu");
  std::ostringstream lab;
  lab << "#include \"helper.cuh\"\n" << solution.rdbuf();
  std::ofstream(dir / "transpose.cu") << lab.str();
  std::ofstream(dir / "helper.cuh") << "__device__ inline int twice(int x) { return 2 * x; }\n";
  const std::string args = "--lab 3 --backend cpu --seed 1 --impl " + (dir / "transpose.cu").string();
  const GraderRun first = run_grader(args);
  INFO(first.out << first.err);
  CHECK(first.status == 0);
  CHECK(first.out.find("Score: 90/90") != std::string::npos);
  std::ofstream(dir / "helper.cuh") << "__device__ inline int twice(int x) { return 2 * x; }\n"
                                       "int host_helper(int x) { return x + 1; }\n";
  const GraderRun second = run_grader(args);
  INFO(second.out << second.err);
  CHECK(second.status == 2);
  CHECK(second.err.find("helper.cuh:2: host_helper is a host function") != std::string::npos);
}

TEST_CASE("file-scope __shared__ arrays, CUDA's min() and shared memory in a device function grade as correct") {
  CHECK(grade_report(test_submission(3, "right", "file_scope_min_max.cu"), 0, 3)["score"] == 90);
}

TEST_CASE("a build that runs out of time says so, and does not blame the file") {
  const std::string copy = std::string(BANKLAB_TEST_TMP) + "/slow_build_transpose.cu";
  std::ofstream(copy) << std::ifstream(kSource + "/solutions/03-padded-transpose/transpose.cu").rdbuf()
                      << "\n// " << std::random_device{}() << "\n";  // never in the cache
  const GraderRun r = run_grader("--lab 3 --impl " + copy + " --backend cpu --build-time-limit 0.01");
  CHECK(r.status == 2);
  CHECK(r.err.find("could not be built: the build did not finish within the time limit of 0.01 s") !=
        std::string::npos);
  CHECK(r.err.find("raise --build-time-limit") != std::string::npos);
  CHECK(r.err.find("fix the error above") == std::string::npos);
}

TEST_CASE("the random shapes are one odd and one even that is not a multiple of 32, new for every seed") {
  std::set<std::string> seen;
  for (int seed : {1, 2, 3}) {
    const GraderRun r = run_grader("--lab 3 --backend cpu --format json --seed " + std::to_string(seed));
    const auto report = nlohmann::json::parse(r.out);
    const std::string text = check_output(report, kRandom);  // "correct on 45x201,98x66"
    std::smatch m;
    REQUIRE(std::regex_search(text, m, std::regex(R"(correct on (\d+)x(\d+),(\d+)x(\d+))")));
    for (int i : {1, 2}) CHECK(std::stoi(m[i]) % 2 == 1);
    for (int i : {3, 4}) {
      CHECK(std::stoi(m[i]) % 2 == 0);
      CHECK(std::stoi(m[i]) % 32 != 0);
    }
    seen.insert(m[0]);
  }
  CHECK(seen.size() == 3);
}

TEST_CASE("known wrong: a failed assert is reported at the assert's line, not inside the C library") {
  const auto report = grade_report(wrong("failed_assert.cu"), 1, 3);
  CHECK(check_output(report, kSquare).find("crash at failed_assert.cu:56: kernel crashed: SIGABRT") != std::string::npos);
}

TEST_CASE("--submissions grades a folder of 20 into a gradebook, and a rerun keeps what did not change") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(BANKLAB_TEST_TMP) / "submissions";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path solution = kSource + "/solutions/03-padded-transpose/transpose.cu";
  const fs::path skeleton = kSource + "/labs/03-padded-transpose/transpose.cu";
  const fs::path wrong_dir = kSource + "/tests/grader/lab03/wrong";
  for (int i = 0; i < 8; ++i) fs::copy_file(solution, dir / ("right" + std::to_string(i) + ".cu"));
  for (int i = 0; i < 4; ++i) fs::copy_file(skeleton, dir / ("skeleton" + std::to_string(i) + ".cu"));
  fs::copy_file(wrong_dir / "no_sync.cu", dir / "no_sync.cu");
  fs::copy_file(wrong_dir / "pad_wrong_dim.cu", dir / "pad_wrong_dim.cu");
  fs::copy_file(wrong_dir / "failed_assert.cu", dir / "crashes.cu");
  fs::copy_file(wrong_dir / "infinite_loop.cu", dir / "hangs.cu");
  std::ofstream(dir / "no_build.cu") << "this is not CUDA\n";
  fs::create_directories(dir / "folder_with_lab_file");
  fs::copy_file(solution, dir / "folder_with_lab_file" / "transpose.cu");
  fs::create_directories(dir / "folder_with_one_cu");
  fs::copy_file(skeleton, dir / "folder_with_one_cu" / "mine.cu");
  fs::create_directories(dir / "empty_folder");

  const std::string args = "--lab 3 --backend cpu --seed 5 --time-limit 3 -j 2 --submissions " + dir.string();
  const GraderRun r = run_grader(args);
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  CHECK(r.err.find("20 submissions") != std::string::npos);
  CHECK(r.err.find("[20/20]") != std::string::npos);
  const auto book = nlohmann::json::parse(std::ifstream(dir / "gradebook.json"));
  REQUIRE(book["submissions"].size() == 20);
  std::map<std::string, nlohmann::json> rows;
  for (const auto& row : book["submissions"]) rows[row["student"].get<std::string>()] = row;
  for (int i = 0; i < 8; ++i) CHECK(rows["right" + std::to_string(i)]["score"] == 90);
  for (int i = 0; i < 4; ++i) CHECK(rows["skeleton" + std::to_string(i)]["score"] == 60);
  CHECK(rows["no_sync"]["score"] == 20);
  CHECK(rows["pad_wrong_dim"]["score"] == 80);
  CHECK(rows["crashes"]["status"] == "graded");
  CHECK(rows["crashes"]["score"] < 90);
  CHECK(rows["hangs"]["status"] == "graded");
  CHECK(rows["hangs"]["score"] == 30);
  CHECK(rows["no_build"]["status"] == "does not build");
  CHECK(rows["no_build"]["max_score"] == 90);
  CHECK(rows["folder_with_lab_file"]["score"] == 90);
  CHECK(rows["folder_with_one_cu"]["score"] == 60);
  CHECK(rows["empty_folder"]["status"] == "no submission");
  for (const auto& [name, row] : rows) {
    if (row["status"] == "graded") CHECK(row["seed"] == 5);
  }
  // The CSV: a header and one line per student, the per-check points in the rubric's order.
  std::ifstream csv(dir / "gradebook.csv");
  std::string header, line;
  std::getline(csv, header);
  CHECK(header.rfind("student,score,max_score,status,backend,seed,transpose of a 32x32 matrix,", 0) == 0);
  int lines = 0;
  while (std::getline(csv, line)) ++lines;
  CHECK(lines == 20);
  // A rerun grades only what was not graded (the file that does not build, the empty folder).
  const GraderRun again = run_grader(args);
  CHECK(again.status == 0);
  CHECK(again.err.find("2 to grade (18 unchanged since the last run") != std::string::npos);
}

TEST_CASE("a submission may not include files from outside its folder, such as the solution") {
  const GraderRun r = run_grader("--lab 3 --backend cpu " + test_submission(3, "hostile", "includes_solution.cu"));
  CHECK(r.status == 2);
  // The source check names the include; where the sandbox hides solutions/
  // from the preprocessor first, the file is not there to include.
  CHECK((r.err.find("includes " + kSource + "/solutions/03-padded-transpose/transpose.cu, outside its own folder") !=
             std::string::npos ||
         r.err.find("solutions/03-padded-transpose/transpose.cu: No such file or directory") != std::string::npos));
}

TEST_CASE("code that differs between the emulator build and a GPU build is refused, with its line") {
  const GraderRun r = run_grader("--lab 3 --backend cpu " + test_submission(3, "hostile", "emulator_only_padding.cu"));
  CHECK(r.status == 2);
  CHECK(r.err.find("emulator_only_padding.cu:50: this code is not the same for the CPU emulator and for a GPU") !=
        std::string::npos);
}

TEST_CASE("the Gradescope bundle grades a submission laid out as Gradescope lays it out") {
  namespace fs = std::filesystem;
  const fs::path work = fs::path(BANKLAB_TEST_TMP) / "gradescope";
  fs::remove_all(work);
  fs::create_directories(work);
  const auto made = banklab::test::run_command("sh " + kSource + "/common/scripts/gradescope/make_bundle.sh 3 " +
                                               work.string() + " 2>&1");
  INFO(made.out);
  REQUIRE(made.status == 0);
  const fs::path zip = work / "banklab-lab3-gradescope.zip";
  REQUIRE(fs::exists(zip));
  // /autograder/source holds the unpacked zip; setup.sh and run_autograder at its top.
  const fs::path root = work / "autograder";
  fs::create_directories(root / "source");
  REQUIRE(banklab::test::run_command("cd " + (root / "source").string() + " && cmake -E tar xf " + zip.string())
              .status == 0);
  for (const char* name : {"setup.sh", "run_autograder", "banklab-lab.txt", "banklab-file.txt",
                           "banklab/grader/src/main.cpp", "banklab/labs/03-padded-transpose/transpose.cu"}) {
    CHECK_MESSAGE(fs::exists(root / "source" / name), name);
  }
  auto grade = [&](const std::string& file, const std::string& as) {
    fs::remove_all(root / "submission");
    fs::remove_all(root / "results");
    fs::create_directories(root / "submission");
    if (!file.empty()) fs::copy_file(file, root / "submission" / as);
    const auto r = banklab::test::run_command("BANKLAB_AUTOGRADER_ROOT=" + root.string() + " BANKLAB_GRADER=" +
                                              std::string(GRADER_PATH) + " sh " +
                                              (root / "source" / "run_autograder").string() + " 2>/dev/null");
    CHECK(r.status == 0);
    std::ifstream in(root / "results" / "results.json");
    REQUIRE(in.good());
    return nlohmann::json::parse(in);
  };
  const auto solution = grade(kSource + "/solutions/03-padded-transpose/transpose.cu", "transpose.cu");
  CHECK(solution["score"] == 90);
  CHECK(solution["tests"].size() == 16);
  // Any single .cu file is taken, whatever its name.
  CHECK(grade(kSource + "/labs/03-padded-transpose/transpose.cu", "mine.cu")["score"] == 60);
  const std::string broken = std::string(BANKLAB_TEST_TMP) + "/gradescope_broken.cu";
  std::ofstream(broken) << "this is not CUDA\n";
  const auto build_error = grade(broken, "transpose.cu");
  CHECK(build_error["score"] == 0);
  CHECK(build_error["output"].get<std::string>().find("does not build") != std::string::npos);
  const auto nothing = grade("", "");
  CHECK(nothing["score"] == 0);
  CHECK(nothing["output"].get<std::string>().find("No transpose.cu in the submission") != std::string::npos);
}

TEST_CASE("stages 4 and 5 refuse a submission that includes the solution or tests for the emulator") {
  for (const auto& [lab, solution] : {std::pair{4, "/solutions/04-xor-swizzle/swizzle.cu"},
                                      std::pair{5, "/solutions/05-wide-types/wide.cu"}}) {
    INFO("stage " << lab);
    const std::string includes = std::string(BANKLAB_TEST_TMP) + "/includes_solution_" + std::to_string(lab) + ".cu";
    std::ofstream(includes) << "#include \"" << kSource << solution << "\"\n";
    const GraderRun r = run_grader("--lab " + std::to_string(lab) + " --backend cpu --impl " + includes);
    CHECK(r.status == 2);
    // Refused by the source check, or, where the sandbox hides solutions/
    // from the preprocessor, by the compiler, which cannot find it.
    CHECK((r.err.find("outside its own folder") != std::string::npos ||
           r.err.find(solution + std::string(": No such file or directory")) != std::string::npos));
    // The solution with a test on __CUDA_ARCH__ around its first kernel line.
    std::ifstream in(kSource + solution);
    std::stringstream text;
    text << in.rdbuf();
    const std::string detects = std::string(BANKLAB_TEST_TMP) + "/detects_emulator_" + std::to_string(lab) + ".cu";
    std::ofstream(detects) << "#ifndef __CUDA_ARCH__\nstatic int cpu_only = 1;\n#endif\n" << text.str();
    const GraderRun d = run_grader("--lab " + std::to_string(lab) + " --backend cpu --impl " + detects);
    CHECK(d.status == 2);
    CHECK(d.err.find(":2: this code is not the same for the CPU emulator and for a GPU") != std::string::npos);
  }
}

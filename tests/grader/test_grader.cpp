// The grader graded: the reference gets full marks, the skeleton loses only
// the conflict points, every known-wrong submission loses the right checks
// with the right message, every output format parses, and the text and JSON
// reports match golden files (seed fixed, times and paths masked).
#include <doctest/doctest.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

#include "run_command.hpp"

namespace {

struct Result {
  int status = -1;
  std::string out;
  std::string err;
};

const std::string kSource = BANKLAB_SOURCE_DIR;

Result run(const std::string& args) {
  const std::string err_file = std::string(BANKLAB_TEST_TMP) + "/grader_stderr.txt";
  const auto r = banklab::test::run_command(std::string(GRADER_PATH) + " " + args + " 2>" + err_file);
  std::ifstream err(err_file);
  std::ostringstream text;
  text << err.rdbuf();
  return {r.status, r.out, text.str()};
}

nlohmann::json grade_json(const std::string& impl_args, int expected_status) {
  const Result r = run("--lab 3 " + impl_args + " --backend cpu --seed 1 --time-limit 4 --format json");
  INFO("grader " << impl_args << "\n" << r.out << r.err);
  REQUIRE(r.status == expected_status);
  return nlohmann::json::parse(r.out);
}

std::set<std::string> failing(const nlohmann::json& report) {
  std::set<std::string> names;
  for (const auto& c : report["checks"]) {
    if (c["status"] == "fail") names.insert(c["name"].get<std::string>());
  }
  return names;
}

std::string output_of(const nlohmann::json& report, const std::string& check) {
  for (const auto& c : report["checks"]) {
    if (c["name"] == check) return c["output"].get<std::string>();
  }
  FAIL("no check named " << check);
  return "";
}

std::string wrong(const std::string& file) { return "--impl " + kSource + "/tests/grader/lab03/wrong/" + file; }

const std::string kSquare = "transpose of a 32x32 matrix";
const std::string kPartial = "transpose of partial tiles: 1x1, 31x33, 33x31";
const std::string kLarge = "transpose of 1024x2048 and 2048x1024";
const std::string kRandom = "transpose of two random odd shapes";
const std::string kBounds = "no out-of-bounds memory access";
const std::string kDivergence = "no barrier divergence";
const std::string kRace = "no shared-memory race";
const std::string kUninit = "no uninitialised shared read";
const std::string kWrite = "tile write costs 1 wavefront per warp instruction";
const std::string kRead = "tile read costs 1 wavefront per warp instruction";
const std::string kSize = "shared memory no more than a 32x33 float tile";

// Times, the seed-independent paths and durations change from run to run.
std::string mask(std::string text) {
  text = std::regex_replace(text, std::regex(R"(\(\d+\.\ds\))"), "(T)");
  text = std::regex_replace(text, std::regex(R"("seconds": [0-9.e+-]+)"), "\"seconds\": T");
  size_t at = 0;
  while ((at = text.find(kSource, at)) != std::string::npos) text.replace(at, kSource.size(), "<src>");
  return text;
}

void check_golden(const std::string& name, const std::string& actual) {
  const std::string path = kSource + "/tests/grader/golden/" + name;
  if (std::getenv("BANKLAB_UPDATE_GOLDEN") != nullptr) {
    std::ofstream(path) << actual;
    return;
  }
  std::ifstream in(path);
  REQUIRE_MESSAGE(in.good(), "missing golden file " << path << " (make it with BANKLAB_UPDATE_GOLDEN=1)");
  std::ostringstream expected;
  expected << in.rdbuf();
  if (expected.str() != actual) {
    const std::string actual_path = std::string(BANKLAB_TEST_TMP) + "/" + name + ".actual";
    std::ofstream(actual_path) << actual;
    const std::string text = banklab::test::run_command("diff -u " + path + " " + actual_path).out;
    FAIL("output differs from " << path << " (rerun with BANKLAB_UPDATE_GOLDEN=1 if the change is intended):\n"
                                << text);
  }
}

}  // namespace

TEST_CASE("the reference solution gets full marks on the CPU backend, GPU checks skipped") {
  const auto report = grade_json("--solutions", 0);
  CHECK(report["score"] == 80);
  CHECK(report["max_score"] == 80);
  CHECK(report["skipped_points"] == 20);
  CHECK(failing(report).empty());
}

TEST_CASE("the untouched skeleton builds and runs, and loses only the tile-read conflict points") {
  const auto report = grade_json("", 1);
  CHECK(report["score"] == 70);
  CHECK(failing(report) == std::set<std::string>{kRead});
  const std::string why = output_of(report, kRead);
  CHECK(why.find("transpose.cu:") != std::string::npos);
  CHECK(why.find("yours: 32 wavefronts, expected: 1") != std::string::npos);
  CHECK(why.find("bank 0 must deliver 32 different words") != std::string::npos);
  CHECK(why.find("wf 31") != std::string::npos);  // the bank map
}

TEST_CASE("known wrong: padding on the wrong dimension loses the tile-read points") {
  const auto report = grade_json(wrong("pad_wrong_dim.cu"), 1);
  CHECK(failing(report) == std::set<std::string>{kRead});
  CHECK(output_of(report, kRead).find("yours: 32 wavefronts, expected: 1") != std::string::npos);
}

TEST_CASE("known wrong: __syncthreads() inside the bounds check is barrier divergence") {
  const auto report = grade_json(wrong("sync_inside_bounds.cu"), 1);
  CHECK(failing(report) == std::set<std::string>{kPartial, kRandom, kDivergence, kRace, kUninit});
  const std::string why = output_of(report, kDivergence);
  CHECK(why.find("barrier divergence at sync_inside_bounds.cu:48") != std::string::npos);
  CHECK(why.find("keep it outside the if") != std::string::npos);
}

TEST_CASE("known wrong: no __syncthreads() is a race and reads of unwritten shared memory") {
  const auto report = grade_json(wrong("no_sync.cu"), 1);
  CHECK(failing(report) ==
        std::set<std::string>{kSquare, kPartial, kLarge, kRandom, kRace, kUninit, kWrite, kRead, kSize});
  CHECK(output_of(report, kRace).find("no __syncthreads() between") != std::string::npos);
  CHECK(output_of(report, kWrite).find("not checked: needs") != std::string::npos);
}

TEST_CASE("known wrong: bounds checks removed fails odd sizes and is out of bounds") {
  const auto report = grade_json(wrong("no_bounds.cu"), 1);
  // On 31x33 the write past the end reaches the guard page: the kernel
  // crashes, so the behaviour checks cannot vouch for it either.
  CHECK(failing(report) == std::set<std::string>{kPartial, kRandom, kBounds, kDivergence, kRace, kUninit});
  CHECK(output_of(report, kBounds).find("out-of-bounds global write") != std::string::npos);
  CHECK(output_of(report, kRace).find("could not check: the kernel did not finish on 31x33") != std::string::npos);
}

TEST_CASE("known wrong: a kernel that writes nothing leaves the poison in place") {
  const auto report = grade_json(wrong("writes_nothing.cu"), 1);
  CHECK(failing(report) == std::set<std::string>{kSquare, kPartial, kLarge, kRandom, kWrite, kRead, kSize});
  CHECK(output_of(report, kSquare).find("1024 of 1024 elements wrong") != std::string::npos);
  CHECK(output_of(report, kSquare).find("NaN (never written)") != std::string::npos);
}

TEST_CASE("known wrong: copying instead of transposing is wrong, with yours and expected side by side") {
  const auto report = grade_json(wrong("copies.cu"), 1);
  CHECK(failing(report) == std::set<std::string>{kSquare, kPartial, kLarge, kRandom, kWrite, kRead, kSize});
  CHECK(output_of(report, kSquare).find("yours vs expected: out[1][0]") != std::string::npos);
}

TEST_CASE("known wrong: an off-by-one write bound writes out of bounds") {
  const auto report = grade_json(wrong("oob_write.cu"), 1);
  CHECK(failing(report) == std::set<std::string>{kPartial, kRandom, kBounds, kUninit});
  CHECK(output_of(report, kBounds).find("out-of-bounds global write") != std::string::npos);
  CHECK(output_of(report, kBounds).find("oob_write.cu:52") != std::string::npos);
}

TEST_CASE("known wrong: an infinite loop fails every check with the loop's line, and the grader finishes") {
  const auto report = grade_json(wrong("infinite_loop.cu"), 1);
  CHECK(report["score"] == 0);
  CHECK(output_of(report, kSquare).find("is there an infinite loop?") != std::string::npos);
  CHECK(output_of(report, kSquare).find("infinite_loop.cu:52") != std::string::npos);
  CHECK(output_of(report, kRace).find("could not check: the kernel did not finish") != std::string::npos);
}

TEST_CASE("an implementation that does not compile is exit status 2 with the compiler's message") {
  const std::string bad = std::string(BANKLAB_TEST_TMP) + "/does_not_compile.cu";
  std::ofstream(bad) << "__global__ void transpose_padded(float* out, const float* in, int w, int h) { oops; }\n";
  const Result r = run("--lab 3 --backend cpu --impl " + bad);
  CHECK(r.status == 2);
  CHECK(r.err.find("does not build") != std::string::npos);
  CHECK(r.err.find("oops") != std::string::npos);
  CHECK(r.err.find("was not declared") != std::string::npos);
}

TEST_CASE("usage errors are one line and exit status 2") {
  for (const char* args : {"--lab 9", "--lab three", "--lab 3 --impl /nonexistent/transpose.cu --backend cpu",
                           "--lab 3 --format xml", "--lab 3 --solutions --impl x.cu", "", "--lab all --impl x.cu"}) {
    const Result r = run(args);
    INFO("grader " << args << "\n" << r.out << r.err);
    CHECK(r.status == 2);
    CHECK(r.err.rfind("grader: ", 0) == 0);
  }
}

TEST_CASE("--backend gpu on a machine without a usable GPU says why and exits 2") {
  const Result probe = run("--lab 3 --solutions --format json --seed 1 --time-limit 30");
  const auto report = nlohmann::json::parse(probe.out);
  if (report["backend"] == "gpu") return;  // this machine has a GPU: nothing to refuse
  const Result r = run("--lab 3 --solutions --backend gpu");
  CHECK(r.status == 2);
  CHECK(r.err.find("--backend gpu:") != std::string::npos);
  CHECK(report["backend_reason"].get<std::string>().find("so the CPU emulator") != std::string::npos);
}

TEST_CASE("--list names every check with its points") {
  const Result r = run("--lab 3 --list");
  CHECK(r.status == 0);
  CHECK(r.out.find("10 points  " + kRead) != std::string::npos);
  CHECK(r.out.find("[GPU only]") != std::string::npos);
}

TEST_CASE("--format gradescope writes results.json that Gradescope accepts") {
  const Result r = run("--lab 3 --backend cpu --seed 1 --format gradescope");
  CHECK(r.status == 1);
  const auto json = nlohmann::json::parse(r.out);
  CHECK(json["score"].is_number());
  CHECK(json["score"] == 70);
  REQUIRE(json["tests"].is_array());
  CHECK(json["tests"].size() == 14);
  for (const auto& t : json["tests"]) {
    CHECK(t["name"].is_string());
    CHECK(t["score"].is_number());
    CHECK(t["max_score"].is_number());
    CHECK((t["status"] == "passed" || t["status"] == "failed"));
    CHECK(t["output"].is_string());
    CHECK(t["visibility"] == "visible");
  }
}

TEST_CASE("--format junit writes XML that a standard parser accepts") {
  const Result r = run("--lab all --backend cpu --seed 1 --format junit");
  CHECK(r.status == 1);
  const std::string path = std::string(BANKLAB_TEST_TMP) + "/junit.xml";
  std::ofstream(path) << r.out;
  CHECK(std::system(("xmllint --noout " + path).c_str()) == 0);
  CHECK(r.out.find("<failure message=") != std::string::npos);
  CHECK(r.out.find("<skipped message=\"needs a GPU") != std::string::npos);
}

TEST_CASE("text and JSON reports of the skeleton match their golden files") {
  const Result text = run("--lab 3 --backend cpu --seed 1");
  CHECK(text.status == 1);
  check_golden("lab03_skeleton.txt", mask(text.out));
  const Result json = run("--lab 3 --backend cpu --seed 1 --format json");
  CHECK(json.status == 1);
  check_golden("lab03_skeleton.json", mask(json.out));
}

TEST_CASE("--build-only builds the runners (GPU too where nvcc is) and grades nothing") {
  const Result r = run("--lab 3 --solutions --build-only");
  CHECK(r.status == 0);
  CHECK(r.out.find("lab 3 CPU runner: ") != std::string::npos);
  CHECK(r.out.find("Score") == std::string::npos);
}

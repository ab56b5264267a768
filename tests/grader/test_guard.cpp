// Lab code cannot reach the runner: hostile submissions that read the
// runner's memory, overwrite their own return address, or carry host code
// (a static constructor, fopen) lose exactly what they should, with a message
// naming their line (the emulator's memory guard and the link check of the
// lab object, common/emulator/src/guard.cpp and grader/src/link_check.cpp).
#include <doctest/doctest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "run_command.hpp"

namespace {

struct Result {
  int status = -1;
  std::string out;
  std::string err;
};

const std::string kHostile = std::string(BANKLAB_SOURCE_DIR) + "/tests/grader/hostile/";

Result grade(int lab, const std::string& file) {
  const std::string err_file = std::string(BANKLAB_TEST_TMP) + "/guard_stderr.txt";
  const auto r = banklab::test::run_command(std::string(GRADER_PATH) + " --lab " + std::to_string(lab) + " --impl " +
                                            kHostile + file + " --backend cpu --seed 1 --time-limit 4 --format json 2>" +
                                            err_file);
  std::ifstream err(err_file);
  std::ostringstream text;
  text << err.rdbuf();
  return {r.status, r.out, text.str()};
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
  return "";
}

}  // namespace

TEST_CASE("stage 1: word_of and bank_of that read the runner's memory are stopped at the reading line") {
  // Without the guard they find the grader's secret and score 90/90; with
  // it the runs of both functions stop, and only the mapping's 20 points go.
  const Result r = grade(1, "stage1_reads_runner_memory.cu");
  INFO(r.out << r.err);
  if (r.status == 2) {
    // An earlier layer (the source check or the nvcc step) refuses the file
    // before it runs: the attack is stopped, with the file and line named.
    CHECK(r.err.find(".cu:") != std::string::npos);
    return;
  }
  REQUIRE(r.status == 1);
  const auto report = nlohmann::json::parse(r.out);
  CHECK(report["score"] == 70);
  CHECK(failing(report) == std::set<std::string>{"word_of on every byte offset", "bank_of on every byte offset"});
  const std::string out = output_of(report, "word_of on every byte offset");
  CHECK(out.find("exit status 86") != std::string::npos);
  CHECK(out.find("lab code at stage1_reads_runner_memory.cu:24 made a read of 1 byte") != std::string::npos);
  CHECK(out.find("in the runner's memory") != std::string::npos);
}

TEST_CASE("stage 3: a kernel that reads past a local array and into the runner's memory is stopped") {
  // Without the guard it reads the secret, pads its tile and scores 85/90;
  // with it every launch stops at the scanning line: correctness and the
  // costs fail, the memory and prediction checks pass (30/90).
  const Result r = grade(3, "stage3_kernel_reads_runner_memory.cu");
  INFO(r.out << r.err);
  if (r.status == 2) {
    // An earlier layer (the source check or the nvcc step) refuses the file
    // before it runs: the attack is stopped, with the file and line named.
    CHECK(r.err.find(".cu:") != std::string::npos);
    return;
  }
  REQUIRE(r.status == 1);
  const auto report = nlohmann::json::parse(r.out);
  CHECK(report["score"] == 30);
  const std::string out = output_of(report, "transpose of a 32x32 matrix");
  CHECK(out.find("crash at stage3_kernel_reads_runner_memory.cu:29: kernel stopped: a read of 1 byte") !=
        std::string::npos);
  CHECK(out.find("the address is in the runner's memory") != std::string::npos);
}

TEST_CASE("stage 3: a kernel that overwrites its own return address is stopped when it returns") {
  // Without the check its return jumps into `escape` (an endless loop: the
  // time limit at its line); with it the launch stops with a finding.
  const Result r = grade(3, "stage3_overwrites_return_address.cu");
  INFO(r.out << r.err);
  if (r.status == 2) {
    // An earlier layer (the source check or the nvcc step) refuses the file
    // before it runs: the attack is stopped, with the file and line named.
    CHECK(r.err.find(".cu:") != std::string::npos);
    return;
  }
  REQUIRE(r.status == 1);
  const auto report = nlohmann::json::parse(r.out);
  const std::string out = output_of(report, "transpose of 1024x2048 and 2048x1024");
  CHECK(out.find("kernel stopped: the function's return address on the stack was overwritten") != std::string::npos);
  CHECK(out.find("time limit") == std::string::npos);
}

TEST_CASE("the link check refuses a static constructor and a host library call, naming the line") {
  const Result ctor = grade(3, "stage3_static_constructor.cu");
  CHECK(ctor.status == 2);
  // Refused by the link check, or before it by the source check.
  CHECK((ctor.err.find("stage3_static_constructor.cu for the CPU emulator is refused: stage3_static_constructor.cu: "
                       "the file has a static constructor or destructor") != std::string::npos ||
         ctor.err.find("refused before the build") != std::string::npos));
  // fopen from a kernel: 90/90 without the check.
  const Result fopen = grade(3, "stage3_calls_fopen.cu");
  CHECK(fopen.status == 2);
  CHECK(fopen.err.find("stage3_calls_fopen.cu:13") != std::string::npos);
  CHECK((fopen.err.find("lab code may call CUDA device functions only") != std::string::npos ||
         fopen.err.find("refused before the build") != std::string::npos));
}

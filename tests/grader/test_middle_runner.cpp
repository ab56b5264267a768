// The grader believes only its own runner's answer: one line, after this
// run's secret, with raw data it judges itself. A runner in the middle
// (middle/middle_runner.cpp) changes the reference's answer on its way to the
// grader; passed on as it is, the reference keeps full marks (so what fails
// below fails for the change alone). A line whose secret is junk of the
// secret's length (what a lab file that cannot read the secret could write),
// or the answer written twice, is refused; a run marked unfinished is not
// correct, whatever its outputs, and so its costs are never read; a runner
// that crashes after writing a right answer gets no credit for it.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "grader_test.hpp"

namespace {

namespace fs = std::filesystem;
using banklab::test::GraderRun;
using banklab::test::run_grader;

// Grades the reference of `lab` with the stage's runner replaced by the
// middle runner of `mode`, through a config of its own (one folder below the
// build folder, as the grader wants).
nlohmann::json grade_through(int lab, const std::string& mode, int expected_status) {
  const std::string nn = (lab < 10 ? "0" : "") + std::to_string(lab);
  std::ifstream in(fs::path(GRADER_PATH).parent_path() / "grader_config.json");
  nlohmann::json config = nlohmann::json::parse(in);
  bool found = false;
  for (auto& entry : config["labs"]) {
    if (entry["number"] != lab) continue;
    entry["cpu_runner_library"] = std::string(BANKLAB_MIDDLE_DIR) + "/liblab" + nn + "_middle_" + mode + ".a";
    found = true;
  }
  REQUIRE(found);
  const fs::path dir = fs::path(BANKLAB_BUILD_DIR) / ("middle-runner-lab" + nn + "-" + mode);
  fs::create_directories(dir);
  std::ofstream(dir / "grader_config.json") << config.dump(2);
  setenv("BANKLAB_GRADER_CONFIG", (dir / "grader_config.json").c_str(), 1);
  const GraderRun r = run_grader("--lab " + std::to_string(lab) +
                                 " --solutions --backend cpu --seed 1 --time-limit 8 --format json");
  unsetenv("BANKLAB_GRADER_CONFIG");
  INFO("lab " << lab << ", middle runner " << mode << "\n" << r.out << r.err);
  REQUIRE(r.status == expected_status);
  return nlohmann::json::parse(r.out);
}

// How the checks of a report ended: passed, failed with `message` in their
// output, failed as not checked (a check they need failed), failed otherwise.
struct Outcomes {
  int passed = 0;
  int failed_with_message = 0;
  int not_checked = 0;
  int failed_otherwise = 0;
};

Outcomes outcomes(const nlohmann::json& report, const std::string& message) {
  Outcomes o;
  for (const auto& c : report["checks"]) {
    if (c["status"] == "pass") ++o.passed;
    if (c["status"] != "fail") continue;
    const std::string output = c["output"];
    INFO(c["name"] << ": " << output);
    if (output.find(message) != std::string::npos) {
      ++o.failed_with_message;
    } else if (output.rfind("not checked: needs", 0) == 0) {
      ++o.not_checked;
    } else {
      ++o.failed_otherwise;
    }
  }
  return o;
}

}  // namespace

TEST_CASE("the middle runner passing the answer on unchanged keeps the reference's full marks") {
  for (const int lab : {2, 3}) {
    const nlohmann::json report = grade_through(lab, "honest", 0);
    CHECK(report["score"] == report["max_score"]);
  }
}

TEST_CASE("an answer line whose secret is junk of the secret's length is refused at every check it answers") {
  const nlohmann::json report = grade_through(3, "forged_secret", 1);
  const Outcomes o = outcomes(report, "it did not come from the grader's runner alone");
  CHECK(o.passed == 0);
  CHECK(o.failed_with_message >= 9);  // correctness, findings, predictions
  CHECK(o.not_checked == 3);          // the tile costs and the memory bound need correctness
  CHECK(o.failed_otherwise == 0);
  CHECK(report["score"] == 0);
}

TEST_CASE("an answer written twice on the answer channel is refused") {
  const nlohmann::json report = grade_through(3, "second_line", 1);
  const Outcomes o = outcomes(report, "it did not come from the grader's runner alone");
  CHECK(o.passed == 0);
  CHECK(o.failed_with_message >= 9);
  CHECK(o.failed_otherwise == 0);
  CHECK(report["score"] == 0);
}

TEST_CASE("a run that did not finish is not correct, even with every output right, and its costs are not read") {
  // Stage 2's three kernels: every run marked unfinished (the outputs and
  // recorded accesses are the reference's own).
  const nlohmann::json report = grade_through(2, "unfinished", 1);
  for (const auto& c : report["checks"]) {
    const std::string name = c["name"];
    const std::string output = c["output"];
    INFO(name << ": " << output);
    if (name.find(" is correct on ") != std::string::npos) {
      CHECK(c["status"] == "fail");
      CHECK(output.find(": the kernel did not finish; 0 of ") != std::string::npos);
      CHECK(output.find(" outputs wrong (so far)") != std::string::npos);
    }
    // The costs and memory bounds need correctness: never read from an unfinished run.
    if (name.find("every shared access at its ideal wavefronts") != std::string::npos ||
        name.find("shared memory no more than") != std::string::npos) {
      CHECK(c["status"] == "fail");
      CHECK(output.rfind("not checked: needs", 0) == 0);
    }
  }
  const Outcomes o = outcomes(report, "the kernel did not finish");
  CHECK(o.failed_with_message == 3);
  CHECK(o.not_checked == 6);
}

TEST_CASE("a transpose run that did not finish says so, with its elements wrong so far") {
  // Stage 3's runs marked unfinished (the reference's outputs, all right).
  const nlohmann::json report = grade_through(3, "unfinished", 1);
  int correctness = 0;
  for (const auto& c : report["checks"]) {
    const std::string name = c["name"];
    const std::string output = c["output"];
    INFO(name << ": " << output);
    if (name.rfind("transpose of ", 0) != 0) continue;
    ++correctness;
    CHECK(c["status"] == "fail");
    CHECK(output.find(": the kernel did not finish; 0 of ") != std::string::npos);
    CHECK(output.find(" elements wrong (so far)") != std::string::npos);
  }
  CHECK(correctness == 4);
}

TEST_CASE("a runner that crashes after writing a right answer gets no credit for the answer") {
  // The reference's own answer, passed on unchanged, then abort(): the answer
  // is not believed, every check it answers fails with the signal.
  const nlohmann::json report = grade_through(3, "crash_after_answer", 1);
  const Outcomes o = outcomes(report, "killed by signal 6");
  CHECK(o.passed == 0);
  CHECK(o.failed_with_message >= 9);  // correctness, findings, predictions
  CHECK(o.failed_otherwise == 0);
  CHECK(report["score"] == 0);
}

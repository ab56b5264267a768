// A stage added the way grader/README.md says ("Adding a stage"): stage 99,
// made from grader/labs/template by tests/grader/CMakeLists.txt, is listed,
// grades its skeleton below full marks and its solution, and a correct file
// written differently, at full marks; the kit's own config does not see it.
#include <filesystem>
#include <fstream>

#include "grader_test.hpp"

namespace {

using banklab::test::GraderRun;
using banklab::test::run_grader;

const std::string kStage = BANKLAB_TEMPLATE_STAGE;

GraderRun run_stage(const std::string& args) {
  return run_grader("--lab 99 " + args + " --backend cpu --seed 2 --time-limit 20");
}

}  // namespace

TEST_CASE("a stage made from the template is graded through its own config, and only there") {
  std::filesystem::create_directories(BANKLAB_TEST_TMP);
  setenv("BANKLAB_GRADER_CONFIG", BANKLAB_TEMPLATE_CONFIG, 1);
  const GraderRun list = run_grader("--lab 99 --list");
  CHECK(list.status == 0);
  CHECK(list.out.find("lab 99 (tiny bank rule)") != std::string::npos);
  CHECK(list.out.find("10 points  bank_of_word gives each word's bank") != std::string::npos);

  const GraderRun skeleton = run_stage("--impl " + kStage + "/lab.cu");
  INFO(skeleton.out << skeleton.err);
  CHECK(skeleton.status == 1);
  CHECK(skeleton.out.find("bank_of_word(1): yours 0, expected 1") != std::string::npos);
  CHECK(skeleton.out.find("Score: 0/10") != std::string::npos);

  const GraderRun solution = run_stage("--impl " + kStage + "/solution.cu");
  INFO(solution.out << solution.err);
  CHECK(solution.status == 0);
  CHECK(solution.out.find("Score: 10/10") != std::string::npos);

  const std::string masked = std::string(BANKLAB_TEST_TMP) + "/tiny_masked.cu";
  std::ofstream(masked) << "__host__ __device__ int bank_of_word(int word) { return word & 31; }\n";
  CHECK(run_stage("--impl " + masked).status == 0);
  const std::string off_by_one = std::string(BANKLAB_TEST_TMP) + "/tiny_off_by_one.cu";
  std::ofstream(off_by_one) << "__host__ __device__ int bank_of_word(int word) { return (word + 1) % 32; }\n";
  CHECK(run_stage("--impl " + off_by_one).status == 1);

  unsetenv("BANKLAB_GRADER_CONFIG");
  const GraderRun kit = run_grader("--lab 99 --list");
  CHECK(kit.status == 2);
  CHECK(kit.err.find("this stage is not available yet") != std::string::npos);
}

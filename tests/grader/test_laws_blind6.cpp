// Laws the sixth blind set of grader mutations went unseen by
// (tests/mutation/README.md), each with the submission or input that shows
// the grader does what it says: every seed is the seed given, the memory
// limit reaches the runners, a run that answered nothing prices nothing,
// and a file the source check cannot read is not taken unchecked.
#include <doctest/doctest.h>

#include <string>

#include "grader_test.hpp"

namespace {

using banklab::test::check_output;
using banklab::test::failing_checks;
using banklab::test::GraderRun;
using banklab::test::run_grader;
using banklab::test::test_submission;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

nlohmann::json grade(const std::string& args, int expected_status) {
  const GraderRun r = run_grader(args + " --backend cpu --format json");
  INFO(args << "\n" << r.out << r.err);
  REQUIRE(r.status == expected_status);
  return nlohmann::json::parse(r.out);
}

}  // namespace

TEST_CASE("every stage's reference keeps full marks at seeds of many digits, the largest one too") {
  // A runner writes the seed it was given into its answer; a seed read
  // another way (hexadecimal, 32 bits) makes the answer one "for another
  // seed", and its checks fail.
  for (const std::string seed : {"18446744073709551615", "4294967297", "10"}) {
    for (int lab = 1; lab <= 6; ++lab) {
      INFO("lab " << lab << ", seed " << seed);
      const auto report = grade("--lab " + std::to_string(lab) + " --solutions --seed " + seed + " --time-limit 20", 0);
      CHECK(report["score"] == report["max_score"]);
      CHECK(report["seed"].dump() == seed);
    }
  }
}

TEST_CASE("stage 3: --memory-limit stops a runner past it, and the tile costs pass from no run that answered nothing") {
  const std::string hoard = test_submission(3, "hostile", "device_hoard.cu");
  // 320 MiB under the default limit of 4 GiB: full marks. (A time limit of
  // 24 s gives the one thread that touches 81,920 pages 2 s on a loaded machine.)
  CHECK(grade("--lab 3 " + hoard + " --seed 1 --time-limit 24", 0)["score"] == 90);
  // The reference under 0.25 GiB: full marks (the limit alone fails nothing).
  CHECK(grade("--lab 3 --solutions --seed 1 --time-limit 24 --memory-limit 0.25", 0)["score"] == 90);
  // Under 0.25 GiB, the runs of the large matrices are stopped and answer nothing.
  const auto report = grade("--lab 3 " + hoard + " --seed 1 --time-limit 24 --memory-limit 0.25", 1);
  const std::string stopped = "was stopped for using more than 0.25 GiB of memory (--memory-limit)";
  const std::set<std::string> fails = {"transpose of 1024x2048 and 2048x1024",
                                       "tile write costs 1 wavefront per warp instruction",
                                       "tile read costs 1 wavefront per warp instruction",
                                       "shared memory no more than a 32x33 float tile"};
  CHECK(failing_checks(report) == fails);
  for (const std::string& check : fails) {
    INFO(check);
    CHECK(contains(check_output(report, check), stopped));
  }
  // The shapes that answered were right, and priced at 1 wavefront: the cost
  // checks fail for the runs that did not answer, not for these.
  CHECK(failing_checks(report).count("transpose of a 32x32 matrix") == 0);
}

TEST_CASE("a file that GCC builds and the source check's clang cannot read is refused, not taken unchecked") {
  const GraderRun r = run_grader("--lab 3 " + test_submission(3, "hostile", "gcc_only_syntax.cu") +
                                 " --backend cpu --seed 1 --time-limit 4");
  INFO(r.out << r.err);
  CHECK(r.status == 2);
  CHECK(contains(r.err, "gcc_only_syntax.cu could not be checked: the grader's source check (clang) does not accept "
                        "code the GCC build accepts"));
  CHECK(contains(r.err, "gcc_only_syntax.cu:60: error: 'auto' not allowed in function prototype"));
  CHECK(contains(r.err, "write standard CUDA C++ that both compilers (and nvcc) accept"));
}

// Emulator runs side by side (--runner-jobs): every check's verdict, points
// and message are the same as with the runs one after another, on files that
// pass, fail on costs, fail on correctness and never finish.
#include "grader_test.hpp"

namespace {

using banklab::test::GraderRun;
using banklab::test::run_grader;
using banklab::test::source_dir;

// The JSON report less what may differ between two runs: the seconds.
void drop_seconds(nlohmann::json& j) {
  if (j.is_object()) {
    j.erase("seconds");
    for (auto& [key, value] : j.items()) drop_seconds(value);
  } else if (j.is_array()) {
    for (auto& value : j) drop_seconds(value);
  }
}

nlohmann::json verdicts(const GraderRun& run) {
  nlohmann::json report = nlohmann::json::parse(run.out);
  drop_seconds(report);
  return report;
}

// Each check's status and points, and its message unless `messages` is
// false (where a run stops at the time limit says where it was stopped).
nlohmann::json outcomes(const nlohmann::json& report, bool messages) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& c : report["checks"]) {
    out.push_back({c["name"], c["status"], c["score"], messages ? c["output"] : nlohmann::json()});
  }
  return out;
}

void same_both_ways(const std::string& args, bool messages = true) {
  const GraderRun one = run_grader(args + " --format json --runner-jobs 1");
  const GraderRun two = run_grader(args + " --format json --runner-jobs 2");
  INFO(args << "\n" << one.err << two.err);
  REQUIRE(!one.out.empty());
  REQUIRE(!two.out.empty());
  CHECK(one.status == two.status);
  if (messages) CHECK(verdicts(one).dump(1) == verdicts(two).dump(1));
  CHECK(outcomes(verdicts(one), messages).dump(1) == outcomes(verdicts(two), messages).dump(1));
}

}  // namespace

TEST_CASE("--runner-jobs 2 grades as --runner-jobs 1: same verdicts, points and messages") {
  const std::string root = source_dir();
  same_both_ways("--lab 4 --backend cpu --seed 7 --solutions");
  same_both_ways("--lab 4 --backend cpu --seed 7 --impl " + root + "/tests/grader/lab04/wrong/wrong_bits.cu");
  same_both_ways("--lab 3 --backend cpu --seed 7 --impl " + root + "/tests/grader/lab03/wrong/conflicted_tile.cu");
  same_both_ways("--lab 5 --backend cpu --seed 7 --impl " + root + "/tests/grader/lab05/wrong/double_pad2.cu");
  same_both_ways("--lab 2 --backend cpu --seed 7 --impl " + root + "/tests/grader/lab02/wrong/rows_pitch_66.cu");
  // Side by side, the large two-shape runs are made one shape per run and
  // joined: a kernel that crashes or fails an assertion there must read the
  // same as from one run.
  same_both_ways("--lab 3 --backend cpu --seed 7 --impl " + root + "/tests/grader/lab03/wrong/oob_write.cu");
  same_both_ways("--lab 3 --backend cpu --seed 7 --impl " + root + "/tests/grader/lab03/wrong/failed_assert.cu");
}

TEST_CASE("--runner-jobs: a file that never finishes times out the same way") {
  const std::string args = "--lab 3 --backend cpu --seed 7 --time-limit 3 --impl " + source_dir() +
                           "/tests/grader/lab03/wrong/infinite_loop.cu";
  same_both_ways(args, false);
}

TEST_CASE("--runner-jobs refuses what is not a count") {
  const GraderRun bad = run_grader("--lab 1 --runner-jobs many");
  CHECK(bad.status == 2);
  CHECK(bad.err.find("--runner-jobs") != std::string::npos);
}

TEST_CASE("an endless loop stops at the block's 5 s, and the later runs of that file are given 5 s, and say so") {
  // The default --time-limit (60 s). One at a time, so that the first run
  // (32x32) is the one that hangs and every later run starts after it.
  const GraderRun r = run_grader("--lab 3 --backend cpu --seed 7 --runner-jobs 1 --format json --impl " +
                                 source_dir() + "/tests/grader/lab03/wrong/infinite_loop.cu");
  INFO(r.err << r.out);
  REQUIRE(!r.out.empty());
  const nlohmann::json report = nlohmann::json::parse(r.out);
  CHECK(report["score"] == 30);  // as with the full limit (test_grader's known-wrong case)
  const std::string note = "this run was given 5 s, not the full --time-limit of 60 s, as an earlier run of this file "
                           "did not finish within it";
  int shortened = 0;
  for (const auto& c : report["checks"]) {
    const std::string name = c["name"].get<std::string>(), output = c.value("output", "");
    CAPTURE(name);
    CAPTURE(output);
    if (name == "transpose of a 32x32 matrix") {
      CHECK(c["status"] == "fail");
      // One block's share of the limit (60 / 12 s), not the run's 48 s.
      CHECK(output.find("time limit at infinite_loop.cu:52: block (0,0,0) ran past the time limit of 5.0 s for one "
                        "block (an endless loop?)") != std::string::npos);
      CHECK(output.find(note) == std::string::npos);
      CHECK(c["seconds"].get<double>() < 20.0);
    } else if (name.rfind("transpose of", 0) == 0) {
      CHECK(c["status"] == "fail");
      CHECK(output.find("ran past the time limit of 4.0 s") != std::string::npos);
      CHECK(output.find(note) != std::string::npos);
      CHECK(c["seconds"].get<double>() < 11.0);  // not the 60 s it would have had
      ++shortened;
    }
  }
  CHECK(shortened == 3);
}

TEST_CASE("a file that finishes is never given less than the time limit") {
  const GraderRun r = run_grader("--lab 3 --backend cpu --seed 7 --time-limit 12 --runner-jobs 1 --format json --impl " +
                                 source_dir() + "/tests/grader/lab03/wrong/conflicted_tile.cu");
  REQUIRE(!r.out.empty());
  CHECK(r.out.find("this run was given") == std::string::npos);
}

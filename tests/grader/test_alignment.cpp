// A shared array is only as aligned as its declaration guarantees: the
// emulator reports a float4 (or float2, double2) access through a variable
// declared with less alignment, even where the layout happens to align it,
// so stage 5's warning (a float array need not be 16-byte aligned) is graded;
// arrays declared float4 or __align__(N) keep full marks.
#include <doctest/doctest.h>

#include "grader_test.hpp"

using namespace banklab::test;

TEST_CASE("stage 5: a float4 cast of a float staging array is a misaligned-access finding, not full marks") {
  const auto report = grade_report(test_submission(5, "wrong", "quads_float_cast.cu"), 1, 5);
  const std::string findings = "sum_quads: no race, barrier divergence, uninitialised, misaligned or out-of-bounds access";
  const auto fails = failing_checks(report);
  INFO("failing: " << report["checks"].dump().substr(0, 3000));
  CHECK(fails.count(findings) == 1);
  const std::string out = check_output(report, findings);
  CHECK(out.find("declared with only 4-byte alignment") != std::string::npos);
  CHECK(out.find("quads_float_cast.cu:198:") != std::string::npos);  // the file and line of the float4 read
  CHECK(out.find("__align__(16)") != std::string::npos);
  // Only sum_quads loses points: the other kernels are the reference's.
  for (const std::string& name : fails) CHECK(name.find("sum_quads") != std::string::npos);
}

TEST_CASE("stage 5: a float4 array, an __align__(16) float array and an __align__(8) float array read as float2 are not findings") {
  CHECK(grade_report("--solutions", 0, 5)["score"] == 90);                                   // float4 quads[]
  CHECK(grade_report(test_submission(5, "right", "alternative.cu"), 0, 5)["score"] == 90);   // __align__(16) float
  CHECK(grade_report(test_submission(5, "right", "powers_and_flat_tiles.cu"), 0, 5)["score"] == 90);
  const auto pairs = grade_report(test_submission(5, "wrong", "quads_float2.cu"), 1, 5);     // __align__(8) float, float2
  const auto fails = failing_checks(pairs);
  CHECK(fails.count("sum_quads: no race, barrier divergence, uninitialised, misaligned or out-of-bounds access") == 0);
  CHECK(fails.count("sum_quads: every shared access at its ideal wavefronts") == 1);
}

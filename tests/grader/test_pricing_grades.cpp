// Grades that depend on the grader pricing and judging every run itself:
// stage 1's mapping on the whole range, stage 3's costs on the large and
// random shapes (a kernel that avoids conflicts only on small grids loses
// them), and the correct submissions that must keep full marks.
#include <doctest/doctest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "run_command.hpp"

namespace {

const std::string kSource = BANKLAB_SOURCE_DIR;

nlohmann::json grade(int lab, const std::string& file, int expected_status) {
  const std::string err_file = std::string(BANKLAB_TEST_TMP) + "/pricing_grades_stderr.txt";
  const std::string impl = file.empty() ? "--solutions" : "--impl " + kSource + "/tests/grader/" + file;
  const auto r = banklab::test::run_command(std::string(GRADER_PATH) + " --lab " + std::to_string(lab) + " " + impl +
                                            " --backend cpu --seed 1 --time-limit 20 --format json 2>" + err_file);
  INFO("grader --lab " << lab << " " << impl << "\n" << r.out);
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

}  // namespace

TEST_CASE("stage 1: word_of truncated to 16 bits loses the word_of points, from byte 65536 on") {
  const auto report = grade(1, "lab01/wrong/offset_16_bits.cu", 1);
  CHECK(report["score"] == 80);
  CHECK(failing(report) == std::set<std::string>{"word_of on every byte offset"});
  const std::string why = output_of(report, "word_of on every byte offset");
  CHECK(why.find("word_of(65536) = 0, expected 16384") != std::string::npos);
  CHECK(why.find("every byte offset from 0 to 232447") != std::string::npos);
  CHECK(output_of(report, "bank_of on every byte offset").find("right on every byte offset from 0 to 232447") !=
        std::string::npos);
}

TEST_CASE("stage 1: a word_of wrong on one byte offset of the whole range loses the word_of points") {
  const auto report = grade(1, "lab01/wrong/one_offset.cu", 1);
  CHECK(report["score"] == 80);
  CHECK(failing(report) == std::set<std::string>{"word_of on every byte offset"});
  const std::string why = output_of(report, "word_of on every byte offset");
  CHECK(why.find("1 of ") != std::string::npos);
  CHECK(why.find("word_of(232447) = 58112, expected 58111") != std::string::npos);
}

TEST_CASE("stage 1: the reference and the alternative keep full marks on the whole range") {
  CHECK(grade(1, "", 0)["score"] == 90);
  CHECK(grade(1, "lab01/right/alternative.cu", 0)["score"] == 90);
}

TEST_CASE("stage 3: a kernel padded only on small grids loses the tile-read points on the large and random runs") {
  const auto report = grade(3, "lab03/hostile/padded_on_small_grids.cu", 1);
  CHECK(report["score"] == 80);
  CHECK(failing(report) == std::set<std::string>{"tile read costs 1 wavefront per warp instruction"});
  const std::string why = output_of(report, "tile read costs 1 wavefront per warp instruction");
  CHECK(why.find("yours: 32 wavefronts, expected: 1") != std::string::npos);
  // The large grids are priced on a sample of their blocks, and the report says which.
  const std::string sampled = "over 32x32, 1x1, 31x33, 33x31, 1024x2048 (costs traced on 512 of 2048 blocks, chosen "
                              "from the seed), 2048x1024 (costs traced on 512 of 2048 blocks, chosen from the seed)";
  CHECK(why.find(sampled) != std::string::npos);
  // The findings checks read the same runs as correctness.
  CHECK(output_of(report, "no shared-memory race").find("none on 32x32, 1x1, 31x33, 33x31, 1024x2048, 2048x1024") !=
        std::string::npos);
}

TEST_CASE("stage 3: the reference and the right/ submissions keep full marks with every run priced") {
  CHECK(grade(3, "", 0)["score"] == 90);
  CHECK(grade(3, "lab03/right/file_scope_min_max.cu", 0)["score"] == 90);
  // This one predates the predictions: every other check passes.
  const auto braces = grade(3, "lab03/right/printf_braces.cu", 1);
  CHECK(braces["score"] == 80);
  CHECK(failing(braces) == std::set<std::string>{"prediction P1: the column read of float tile[32][32]",
                                                 "prediction P2: the column read of float tile[32][33]"});
}

TEST_CASE("the text and Gradescope reports name the sample of blocks a large grid's costs were traced on") {
  const std::string impl = "--impl " + kSource + "/tests/grader/lab03/hostile/padded_on_small_grids.cu";
  const std::string sample = "1024x2048 (costs traced on 512 of 2048 blocks, chosen from the seed)";
  const auto text = banklab::test::run_command(std::string(GRADER_PATH) + " --lab 3 " + impl +
                                               " --backend cpu --seed 1 --time-limit 20 2>/dev/null");
  CHECK(text.status == 1);
  CHECK(text.out.find(sample) != std::string::npos);
  const auto gradescope = banklab::test::run_command(std::string(GRADER_PATH) + " --lab 3 " + impl +
                                                     " --backend cpu --seed 1 --time-limit 20 --format gradescope "
                                                     "2>/dev/null");
  REQUIRE(gradescope.status == 1);
  bool named = false;
  const nlohmann::json results = nlohmann::json::parse(gradescope.out);
  for (const auto& t : results["tests"]) {
    if (t["name"].get<std::string>().find("tile read costs 1 wavefront") == std::string::npos) continue;
    named = t["output"].get<std::string>().find(sample) != std::string::npos;
  }
  CHECK(named);
}

// Hints that follow the cause: conflict_cause derives its words from the
// priced access (stride, gcd, lane groups, runs), and stage 2's report shows
// the cause of the instruction it priced, not a sentence fixed per kernel.
#include <doctest/doctest.h>

#include <set>
#include <string>
#include <vector>

#include "access_cause.hpp"
#include "grader_test.hpp"

using banklab::AccessCost;
using banklab::MemOp;
using banklab::WarpAccess;
using banklab::grader::conflict_cause;

namespace {

AccessCost words(int width, MemOp op, const std::vector<std::int64_t>& word_of_lane) {
  std::vector<std::int64_t> offsets;
  for (auto w : word_of_lane) offsets.push_back(w < 0 ? banklab::kInactive : 4 * w);
  return banklab::price(WarpAccess::make(width, op, offsets));
}

std::vector<std::int64_t> lanes(auto f) {
  std::vector<std::int64_t> out;
  for (int l = 0; l < 32; ++l) out.push_back(f(l));
  return out;
}

}  // namespace

TEST_CASE("conflict_cause: a stride's gcd with 32, from the lanes' words") {
  const std::string four = conflict_cause(words(4, MemOp::kLoad, lanes([](int l) { return 4 * l + 1; })));
  CHECK(four.find("stride 4 words") != std::string::npos);
  CHECK(four.find("gcd(4, 32) = 4") != std::string::npos);
  CHECK(four.find("a 4-way conflict") != std::string::npos);
  const std::string six = conflict_cause(words(4, MemOp::kLoad, lanes([](int l) { return 6 * l; })));
  CHECK(six.find("gcd(6, 32) = 2") != std::string::npos);
  CHECK(six.find("a 2-way conflict") != std::string::npos);
  // At the ideal there is nothing to explain.
  CHECK(conflict_cause(words(4, MemOp::kLoad, lanes([](int l) { return 5 * l; }))).empty());
  // Doubles, 2 words per lane: stride 68 words (double[.][34]) is 2-way in a half-warp.
  const std::string wide = conflict_cause(words(8, MemOp::kLoad, lanes([](int l) { return 68 * l; })));
  CHECK(wide.find("2 words per lane") != std::string::npos);
  CHECK(wide.find("half-warp") != std::string::npos);
  CHECK(wide.find("a 2-way conflict") != std::string::npos);
}

TEST_CASE("conflict_cause: the banks a stride's lanes start in are the banks its words are in") {
  // Every even stride of a full warp of 4-byte reads: the sentence's bank
  // count is the number of different banks of the 32 words, counted here.
  for (std::int64_t stride = 2; stride <= 64; stride += 2) {
    const auto word = [stride](int l) { return stride * l + 3; };
    std::set<std::int64_t> banks;
    for (int l = 0; l < 32; ++l) banks.insert(word(l) % 32);
    const std::string cause = conflict_cause(words(4, MemOp::kLoad, lanes(word)));
    INFO("stride " << stride << ": " << cause);
    CHECK(cause.find("so the lanes start in only " + std::to_string(banks.size()) + " of the 32 banks") !=
          std::string::npos);
  }
}

TEST_CASE("conflict_cause: a padded 5-float structure staged float by float is a 2-way store, not 'stride 4'") {
  // Lane l stores float l % 4 of particle l / 4 into a structure of 5 floats.
  const AccessCost cost = words(4, MemOp::kStore, lanes([](int l) { return (l / 4) * 5 + l % 4; }));
  REQUIRE(cost.wavefronts == 2);
  const std::string cause = conflict_cause(cost);
  INFO(cause);
  CHECK(cause.find("runs of 4 consecutive words, each run 5 words after the last") != std::string::npos);
  CHECK(cause.find("a 2-way conflict") != std::string::npos);
  CHECK(cause.find("4-way") == std::string::npos);
  CHECK(cause.find("stride 4") == std::string::npos);
}

TEST_CASE("conflict_cause: a 16x16 block's column read, two half-warps of stride 16") {
  const AccessCost cost = words(4, MemOp::kLoad, lanes([](int l) { return 16 * (l % 16) + l / 16; }));
  REQUIRE(cost.wavefronts == 8);
  const std::string cause = conflict_cause(cost);
  INFO(cause);
  CHECK(cause.find("lanes 0-15 are 16 words apart") != std::string::npos);
  CHECK(cause.find("use 4 of the 32 banks") != std::string::npos);
  CHECK(cause.find("an 8-way conflict") != std::string::npos);
}

TEST_CASE("conflict_cause: no pattern, the words that meet in one bank") {
  std::vector<std::int64_t> w = lanes([](int l) { return l; });
  w[5] = 37;  // lane 5 moves to bank 5's second word, next to lane 5's old one... and away from word 5
  w[6] = 5;
  const std::string cause = conflict_cause(words(4, MemOp::kLoad, w));
  INFO(cause);
  CHECK(cause.find("bank 5 must deliver 2 different words") != std::string::npos);
  CHECK(cause.find("a 2-way conflict") != std::string::npos);
}

TEST_CASE("stage 2's report gives the staging store of a padded structure a 2-way cause, not the skeleton's 4-way") {
  using namespace banklab::test;
  const auto report = grade_report(test_submission(2, "wrong", "particles_padded_linear_staging.cu"), 1, 2);
  const std::string out = check_output(report, "neighbour_distances: every shared access at its ideal wavefronts");
  INFO(out);
  CHECK(out.find("why: in the warp, the lanes go in runs of 4 consecutive words, each run 5 words after the last") !=
        std::string::npos);
  CHECK(out.find("a 2-way conflict") != std::string::npos);
  CHECK(out.find("4-way") == std::string::npos);
  // The skeleton's field reads are stride 4, and the report says so.
  const auto skeleton = grade_report("", 1, 2);
  const std::string fields = check_output(skeleton, "neighbour_distances: every shared access at its ideal wavefronts");
  CHECK(fields.find("(stride 4 words): gcd(4, 32) = 4") != std::string::npos);
  CHECK(fields.find("a 4-way conflict") != std::string::npos);
}

TEST_CASE(
    "--hint K: step K of the first failing check's ladder, from a nudge to the method, and a bad K is a usage error") {
  using namespace banklab::test;
  const GraderRun first = run_grader("--lab 1 --backend cpu --seed 1 --time-limit 10 --hint");
  CHECK(first.status == 1);
  CHECK(first.out.find("\nHint 1 of 3 for \"word_of on every byte offset\":\n  A word is 4 bytes") !=
        std::string::npos);
  CHECK(first.out.find("(--hint 2 for the next one)") != std::string::npos);
  const GraderRun second = run_grader("--lab 1 --backend cpu --seed 1 --time-limit 10 --hint 2");
  CHECK(second.out.find("\nHint 2 of 3 for \"word_of on every byte offset\":\n  The word of a byte offset is") !=
        std::string::npos);
  const GraderRun last = run_grader("--lab 1 --backend cpu --seed 1 --time-limit 10 --hint 7");
  CHECK(last.out.find("Hint 3 of 3") != std::string::npos);
  CHECK(last.out.find("(that is the last hint for this check)") != std::string::npos);
  // Without --hint, no hint; a full-marks file has nothing to hint at.
  CHECK(run_grader("--lab 1 --backend cpu --seed 1 --time-limit 10").out.find("Hint ") == std::string::npos);
  CHECK(run_grader("--lab 1 --solutions --backend cpu --seed 1 --time-limit 10 --hint")
            .out.find("Hint: no check fails, nothing to hint at.") != std::string::npos);
  for (const char* bad : {"--hint 0", "--hint x", "--hint --format json"}) {
    INFO(bad);
    const GraderRun r = run_grader(std::string("--lab 1 --backend cpu ") + bad);
    CHECK(r.status == 2);
    CHECK(r.err.find("--hint") != std::string::npos);
  }
}

TEST_CASE("--hint on a failing prediction gives the ladder every stage shares") {
  using namespace banklab::test;
  // Stage 2 with P6 and P9 wrong and everything else right: the first
  // failing check is P6, which has no stage-2 ladder of its own.
  const GraderRun r = run_grader("--lab 2 " + test_submission(2, "wrong", "predictions_gcd_only.cu") +
                                 " --backend cpu --seed 1 --time-limit 10 --hint");
  INFO(r.out << r.err);
  CHECK(r.status == 1);
  CHECK(r.out.find("\nHint 1 of 3 for \"prediction P6: every lane reads word 7 (stride 0)\":\n  Write down each lane's "
                   "byte offset, then its word, then its bank.\n") != std::string::npos);
  CHECK(r.out.find("nothing to hint at") == std::string::npos);
}

TEST_CASE(
    "--hint gives each task its own ladder: a known-wrong file per ladder, its first failing check, the ladder's first "
    "step") {
  using namespace banklab::test;
  struct Case {
    int lab;
    const char* file;   // in tests/grader/labNN/wrong/
    const char* check;  // the first failing check, as the rubric names it
    const char* step;   // the start of that ladder's first step
  };
  const Case cases[] = {
      {1, "puzzles_wrong.cu", "puzzle 1, conflict free: 1 wavefront",
       "Each puzzle names the cost it wants; the 32 byte offsets you give decide it."},
      {1, "bank_of_bytes.cu", "bank_of on every byte offset", "Banks repeat every 32 words"},
      {2, "degree_no_broadcast.cu", "conflict_degree on every stride 0-1024 and 1-32 active lanes",
       "Work out stride 1, stride 2 and stride 32"},
      {2, "rows_pitch_66.cu", "row_sums: every shared access at its ideal wavefronts",
       "The lanes of the sum walk down a column"},
      {2, "particles_padded_linear_staging.cu", "neighbour_distances: every shared access at its ideal wavefronts",
       "Find which line conflicts"},
      {2, "transpose16_pad17.cu", "transpose16: every shared access at its ideal wavefronts",
       "In a 16x16 block a warp is two rows"},
      {3, "conflicted_tile.cu", "tile read costs 1 wavefront per warp instruction",
       "Which of the two tile accesses walks down a column?"},
      {3, "reads_rows.cu", "transpose of a 32x32 matrix", "Look at the first wrong elements"},
      {4, "row_collision.cu", "swizzle is one-to-one within each row", "The map must keep every element in its row"},
      {4, "write_only_swizzle.cu", "transpose_swizzled: transpose of a 32x32 matrix",
       "The write and the read must use the same map"},
      {4, "chunk_row_mod4.cu", "swizzle_chunk spreads each chunk over 8 places in every 8 rows a quarter-warp reads",
       "A float4 column read is served a quarter-warp"},
      {4, "chunk_write_only.cu", "chunk_transpose_swizzled: correct, 1 and 3 read passes",
       "The write and the read must use the same chunk map."},
      {5, "poly_wrong_order.cu", "poly_eval is correct on 1,127,128,1000 and random sizes",
       "At each step, which coefficient"},
      {5, "double_pad2.cu", "transpose_double: tile read at its ideal wavefronts",
       "An 8-byte access is served a half-warp"},
      {5, "half_pad1.cu", "transpose_half: tile read at its ideal wavefronts", "Two halves share a word"},
      {5, "quads_float2.cu", "sum_quads: every shared access at its ideal wavefronts",
       "A float4 access is served a quarter-warp"},
      {6, "reduce_pad_per_64.cu", "reduce_sum: every shared access at its ideal wavefronts",
       "Run banklab run labs/06-capstone/programs/reduce.cu"},
      {6, "scan_pad_per_16.cu", "scan_segments: every shared access at its ideal wavefronts",
       "Run banklab run labs/06-capstone/programs/scan.cu"},
      {6, "gemm_pad34.cu", "gemm_tiled: every shared access at its ideal wavefronts",
       "Run banklab run labs/06-capstone/programs/gemm.cu"},
      {6, "hist_pitch10.cu", "histogram32: every shared access at its ideal wavefronts",
       "Run banklab run labs/06-capstone/programs/histogram.cu"},
      {6, "stencil_pad13_columns.cu", "stencil_cross: every shared access at its ideal wavefronts",
       "Run banklab run labs/06-capstone/programs/stencil.cu"},
      {6, "diag_wrong_worst.cu", "diagnosis of scan_segments: every conflicted line with its worst degree and cause",
       "Run each kernel's program under banklab run: every line of original.cu"},
  };
  for (const Case& c : cases) {
    const std::string file = c.file;
    CAPTURE(file);
    const GraderRun r = run_grader("--lab " + std::to_string(c.lab) + " " + test_submission(c.lab, "wrong", c.file) +
                                   " --backend cpu --seed 1 --time-limit 10 --hint");
    INFO(r.out << r.err);
    CHECK(r.status == 1);
    CHECK(r.out.find("\nHint 1 of 3 for \"" + std::string(c.check) + "\":\n  " + c.step) != std::string::npos);
  }
}

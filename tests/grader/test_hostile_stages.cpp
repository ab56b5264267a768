// Stages 2, 4 and 5 graded against hostile submissions (tests/grader/lab0N/hostile/):
// kernels that are conflict-free only on the runs they can recognise as the
// pricing runs (fixed small grids, the command line, their own arguments),
// that copy global to global beside a token shared access, or that read
// shared memory once for every pass. Each scored 90/90 on main at 53fab2c
// (--backend cpu --seed 1), when the cost checks read runs of their own
// ("31x33,33x31,64x64", "300", ...); each must now lose exactly the cost or
// memory checks its cheat was for, and correct submissions written
// differently from the references keep full marks.
#include <doctest/doctest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "grader_test.hpp"
#include "run_command.hpp"

namespace {

const std::string kSource = BANKLAB_SOURCE_DIR;

struct Graded {
  int status = -1;
  nlohmann::json report;
  std::string err;
};

Graded grade(int lab, const std::string& impl, std::uint64_t seed = 1, int time_limit = 8) {
  const std::string err_file = std::string(BANKLAB_TEST_TMP) + "/hostile_stages_stderr.txt";
  const std::string impl_args = impl.empty() ? "--solutions" : "--impl " + kSource + "/tests/grader/" + impl;
  const auto r = banklab::test::run_command(std::string(GRADER_PATH) + " --lab " + std::to_string(lab) + " " +
                                            impl_args + " --backend cpu --seed " + std::to_string(seed) +
                                            " --time-limit " + std::to_string(time_limit) + " --format json 2>" +
                                            err_file);
  std::ifstream in(err_file);
  std::ostringstream err;
  err << in.rdbuf();
  Graded g{r.status, nlohmann::json(), err.str()};
  if (r.status == 0 || r.status == 1) {
    g.report = nlohmann::json::parse(r.out);
    if (seed == 1) banklab::test::check_report_golden(lab, impl.empty() ? "--solutions" : impl, r.status, g.report);
  }
  return g;
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

struct Case {
  std::string file;             ///< under tests/grader/
  double score;                 ///< of 90 after the change (all were 90 before)
  std::set<std::string> fails;  ///< exactly these checks fail
  std::string check, text;      ///< and this one says this
  bool host_code = false;       ///< reads /proc/self/cmdline: the source check may refuse it instead
};

void check_case(int lab, const Case& c, std::uint64_t seed = 1, int time_limit = 8) {
  INFO("stage " << lab << ": " << c.file << " --seed " << seed << " --time-limit " << time_limit);
  const Graded g = grade(lab, c.file, seed, time_limit);
  INFO(g.err);
  // The source check (another branch) refuses host calls in kernel code
  // before the build: then the cheat gets no grade at all, which is also right.
  if (c.host_code && g.status == 2) {
    CHECK(g.err.find(c.file.substr(c.file.rfind('/') + 1)) != std::string::npos);
    return;
  }
  REQUIRE(g.status == 1);
  CHECK(g.report["score"].get<double>() == c.score);
  CHECK(failing(g.report) == c.fails);
  CHECK(output_of(g.report, c.check).find(c.text) != std::string::npos);
}

}  // namespace

TEST_CASE("stage 4: kernels that recognise the pricing run, copy global to global or read once lose their checks") {
  const std::string write = "transpose_swizzled: tile write costs 1 wavefront per warp instruction";
  const std::string read = "transpose_swizzled: tile read costs 1 wavefront per warp instruction";
  const std::string size = "transpose_swizzled: shared memory no more than a 32x32 float tile (4096 bytes)";
  const std::string chunk_read = "chunk_transpose_swizzled: float4 column-chunk read costs the ideal 4 wavefronts";
  const std::vector<Case> cases = {
      // Conflicted on the large and random shapes, which are priced now.
      {"lab04/hostile/fixed_grids.cu", 80, {read, chunk_read}, read, "yours: 32 wavefronts, expected: 1"},
      {"lab04/hostile/kernel_sees_pricing.cu", 80, {read, chunk_read}, chunk_read, "yours: 32 wavefronts, expected: 4"},
      {"lab04/hostile/cmdline.cu", 85, {read}, read, "yours: 32 wavefronts, expected: 1", true},
      // 256 token stores for the 1024 floats of the 32x32 run.
      {"lab04/hostile/global_copy.cu",
       75,
       {write, read, size},
       write,
       "on 32x32: transpose_swizzled stored 256 floats in shared memory for 1024 output floats, at least 1024 "
       "expected: every element goes through the tile"},
      // Every element stored and loaded back by the thread that stored it:
      // the traffic is there, the exchange between threads is not.
      {"lab04/hostile/own_words.cu",
       80,
       {read, size},
       read,
       "transpose_swizzled's shared loads read back only what the same threads stored (each lane the words it "
       "wrote itself, in the same warp): nothing moves between threads through shared memory"},
      {"lab04/hostile/chunk_read_once.cu",
       85,
       {chunk_read},
       chunk_read,
       "on 3 tiles x 3 passes: chunk_transpose_swizzled loaded 3072 floats from shared memory for 3072 output floats "
       "and 3 passes, at least 9216 expected: every pass reads its chunk from shared memory again"},
  };
  for (const Case& c : cases) check_case(4, c);
  // The random run (tiles and passes from the seed) catches tiles == passes on any seed.
  check_case(4, cases[1], 7);
}

TEST_CASE("stage 2: kernels that recognise the pricing run or sum rows from global memory lose their checks") {
  const std::string rows = "row_sums: every shared access at its ideal wavefronts";
  const std::string rows_memory = "row_sums: shared memory no more than 128 rows of 65 floats";
  const std::string particles = "neighbour_distances: every shared access at its ideal wavefronts";
  const std::string transpose = "transpose16: every shared access at its ideal wavefronts";
  const std::string transpose_memory = "transpose16: shared memory no more than a 16x18 float tile";
  const std::set<std::string> costs = {rows, particles, transpose};
  const std::vector<Case> cases = {
      {"lab02/hostile/fixed_grids.cu", 66, costs, rows, "yours: 32 wavefronts, expected: 1"},
      {"lab02/hostile/kernel_sees_pricing.cu", 66, costs, particles, "yours: 4 wavefronts, expected: 1"},
      {"lab02/hostile/cmdline.cu", 66, costs, transpose, "yours: 8 wavefronts, expected: 1", true},
      // row_sums: one token float per thread for 64 floats per row;
      // transpose16: a token store and load of a float per thread, as many
      // bytes as a real tile moves, but each thread reads back its own word.
      {"lab02/hostile/global_copy.cu",
       70,
       {rows, rows_memory, transpose, transpose_memory},
       rows_memory,
       "on 1: row_sums loaded 1 float from shared memory for 1 output float, at least 64 expected: each row goes "
       "through shared memory"},
      // The reference with global_copy.cu's transpose16: 90/90 on main at 0806142.
      {"lab02/hostile/transpose_own_reads.cu",
       80,
       {transpose, transpose_memory},
       transpose_memory,
       "on 16x16: transpose16's shared loads read back only what the same threads stored (each lane the words it "
       "wrote itself, in the same warp): nothing moves between threads through shared memory, so the 256 output "
       "floats were not transposed in it"},
  };
  for (const Case& c : cases) check_case(2, c);
}

TEST_CASE("stage 5: kernels that recognise the pricing run or read from global memory lose their checks") {
  const std::string double_read = "transpose_double: tile read at its ideal wavefronts";
  const std::string half_read = "transpose_half: tile read at its ideal wavefronts";
  const std::string quads = "sum_quads: every shared access at its ideal wavefronts";
  const std::string poly = "poly_eval: every shared access at its ideal wavefronts";
  const std::string poly_memory = "poly_eval: shared memory no more than one copy of the 8 coefficients";
  const std::set<std::string> reads = {double_read, half_read, quads};
  const std::vector<Case> cases = {
      {"lab05/hostile/fixed_grids.cu", 76, reads, double_read, "yours: 32 wavefronts, expected: 2"},
      {"lab05/hostile/kernel_sees_pricing.cu", 76, reads, half_read, "yours: 32 wavefronts, expected: 1"},
      {"lab05/hostile/cmdline.cu", 76, reads, quads, "yours: 4 wavefronts, expected: 1", true},
      // poly_eval: one broadcast token load per output for 8 coefficients;
      // sum_quads: one float4 token per quad, 2 passes asked.
      {"lab05/hostile/global_copy.cu",
       72,
       {poly, poly_memory, quads},
       quads,
       "on 1: sum_quads loaded 4 floats from shared memory for 1 output float and 2 passes, at least 8 expected"},
      // Every half stored and loaded back by the thread that stored it: the
      // traffic is there, the exchange between threads is not.
      {"lab05/hostile/own_words_half.cu",
       83,
       {half_read, "transpose_half: shared memory no more than a 64x66 half tile"},
       half_read,
       "on 64x64: transpose_half's shared loads read back only what the same threads stored (each lane the words it "
       "wrote itself, in the same warp): nothing moves between threads through shared memory"},
      // Half of each double's bytes through the tile (its high word), the
      // other half global to global: the traffic is counted in bytes, 8 per
      // double stored and loaded.
      {"lab05/hostile/half_double_staged.cu",
       80,
       {"transpose_double: tile write at its ideal wavefronts", double_read,
        "transpose_double: shared memory no more than a 32x33 double tile"},
       double_read,
       "on 32x32: transpose_double loaded 512 doubles from shared memory for 1024 output doubles, at least 1024 "
       "expected: every element goes through the tile (one shared store and one shared load each)"},
      // Every run used 2 passes before; the random runs now take 3 to 6.
      {"lab05/hostile/quads_passes_two.cu",
       84,
       {quads},
       quads,
       "on 1169:3: sum_quads loaded 5120 floats from shared memory for 1169 output floats and 3 passes, at least "
       "14028 expected: every quad is staged in shared memory once and read from there again "
       "in every pass"},
  };
  for (const Case& c : cases) check_case(5, c);
}

TEST_CASE("stages 3 and 4: a conflicted store libm makes through a pointer (modff) is priced as the kernel's own") {
  // Both scored full marks on the cost checks when libm's write went unseen.
  check_case(3, {"lab03/hostile/modff_store.cu", 80, {"tile write costs 1 wavefront per warp instruction"},
                 "tile write costs 1 wavefront per warp instruction",
                 "modff_store.cu:62: if (x < width && y < height) modff(in[y * width + x] * 0x1p100f, "
                 "&tile[tx][ty + j]);  // column store, untraced\n  34724 warp instructions, 1108678 wavefronts "
                 "(ideal 34724)"});
  const std::string write = "transpose_swizzled: tile write costs 1 wavefront per warp instruction";
  const std::string chunk_write = "chunk_transpose_swizzled: float4 tile write costs the ideal 4 wavefronts";
  check_case(4, {"lab04/hostile/modff_store.cu", 80, {write, chunk_write}, chunk_write,
                 "modff_store.cu:149: modff(v.x * 0x1p100f, &t2[chunk][row].x);\n  80 warp instructions, 640 "
                 "wavefronts (ideal 80)"});
  // The same store on a padded tile is conflict-free, and priced so.
  const Graded right = grade(3, "lab03/right/modff_padded_store.cu");
  INFO(right.err);
  REQUIRE(right.status == 0);
  CHECK(right.report["score"].get<double>() == 90);
  CHECK(output_of(right.report, "tile write costs 1 wavefront per warp instruction").find("modff_padded_store.cu") ==
        std::string::npos);
}

TEST_CASE("stage 2: a thread that floods the tracer's pending warp instructions hides no conflict") {
  // row_sums passed its cost check when the column walk after the flood went unrecorded.
  // The flood (a million traced reads by one thread in each block) must finish
  // for the cost check to see it: on a slow 2-core machine running two suites
  // it took more than the 6.4 s of --time-limit 8 (stop 47's first CI), so it
  // gets 30.
  check_case(2, {"lab02/hostile/flood_tracer.cu", 66,
                 {"row_sums: every shared access at its ideal wavefronts",
                  "neighbour_distances: every shared access at its ideal wavefronts",
                  "transpose16: every shared access at its ideal wavefronts"},
                 "row_sums: every shared access at its ideal wavefronts",
                 "could not price 160960 shared accesses on 1, 127, 128, 256, 300, 599, 1082: a block had more "
                 "than 1048576 shared warp instructions waiting to be priced"},
             1, 30);
}

TEST_CASE("stage 3: a column read made by the warp's lanes in turns is priced as the one instruction it replaces") {
  check_case(3, {"lab03/hostile/lanes_take_turns.cu", 80, {"tile read costs 1 wavefront per warp instruction"},
                 "tile read costs 1 wavefront per warp instruction",
                 "its lanes take turns: a warp ran this line in several warp instructions, a group of lanes after "
                 "another, with a warp function (__syncwarp, a shuffle) or a barrier between them; each is conflict-free, but run "
                 "together, as one instruction, they cost 1108646 wavefronts (ideal 34798)"});
}

TEST_CASE("stage 3: a column read made by the lanes in turns with __syncthreads() between them is priced joined") {
  // Turns between block barriers: one lane per barrier interval.
  check_case(3, {"lab03/hostile/turns_between_barriers.cu", 80, {"tile read costs 1 wavefront per warp instruction"},
                 "tile read costs 1 wavefront per warp instruction",
                 "its lanes take turns: a warp ran this line in several warp instructions, a group of lanes after "
                 "another, with a warp function (__syncwarp, a shuffle) or a barrier between them; each is "
                 "conflict-free, but run together, as one instruction, they cost 1108646 wavefronts (ideal 34798)"});
}

TEST_CASE("stages 2, 4, 5: the references and correct submissions written differently keep full marks") {
  const std::vector<std::pair<int, std::string>> right = {
      {2, ""}, {2, "lab02/right/alternative.cu"}, {2, "lab02/right/own_rows.cu"}, {2, "lab02/right/staged_for_others.cu"},
      {4, ""}, {4, "lab04/right/alternative.cu"}, {4, "lab04/right/reversed_xor.cu"},
      {5, ""}, {5, "lab05/right/alternative.cu"}, {5, "lab05/right/powers_and_flat_tiles.cu"},
  };
  for (const auto& [lab, file] : right) {
    INFO("stage " << lab << ": " << (file.empty() ? "the reference" : file));
    const Graded g = grade(lab, file);
    INFO(g.err);
    REQUIRE(g.status == 0);
    CHECK(g.report["score"].get<double>() == 90);
  }
}

// The kept files the other cases grade with options of their own (or only
// through other suites), graded as a student would: each whole report, the
// refusals' messages included, equals its golden file. Left out: the files
// whose report depends on the machine (nvcc installed or not, memory,
// processes, the time a run takes; includes_solution.cu is refused by nvcc
// where it is installed, by the build where not).
TEST_CASE("kept files graded elsewhere with other options give their whole golden report at seed 1, refusals too") {
  const std::vector<std::string> files = {
      "lab01/wrong/offset_16_bits.cu",       "lab02/hostile/cmdline.cu",
      "lab04/hostile/cmdline.cu",            "lab05/hostile/cmdline.cu",
      "lab03/hostile/constant_address.cu",   "lab03/hostile/defines_getpid.cu",
      "lab03/hostile/emulator_only_last_line.cu", "lab03/hostile/emulator_only_padding.cu",
      "lab03/hostile/forged_descriptor.cu",  "lab03/hostile/forged_stdout.cu",
      "lab03/hostile/gcc_only_syntax.cu",
      "lab03/hostile/padded_on_small_grids.cu", "lab03/hostile/small_address.cu",
      "lab03/hostile/stolen_secret.cu",      "lab03/hostile/two_host_functions.cu",
      "lab03/right/host_device_helper.cu",
  };
  for (const std::string& file : files) {
    INFO(file);
    const int lab = file[4] - '0';
    const auto r = banklab::test::run_command(std::string(GRADER_PATH) + " --lab " + std::to_string(lab) +
                                              " --impl " + kSource + "/tests/grader/" + file +
                                              " --backend cpu --seed 1 --time-limit 8 --format json 2>/dev/null");
    REQUIRE((r.status == 0 || r.status == 1 || r.status == 2));
    banklab::test::check_report_golden(lab, file, r.status, nlohmann::json::parse(r.out));
  }
}

// Stage 6, the capstone, graded: the reference gets full marks and the
// skeleton shows each kernel's conflicted lines; differently written fixes
// get full marks; every known-wrong submission loses exactly its checks;
// dishonest ones get nothing for what they did not do; the diagnosis key the
// grader prices is what `banklab run` shows a student for the five
// programs; the programs build with nvcc.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

#include "grader_test.hpp"
#include "run_command.hpp"

namespace {

using banklab::test::check_output;
using banklab::test::failing_checks;
using banklab::test::grade_report;
using banklab::test::run_command;
using banklab::test::run_grader;
using banklab::test::test_submission;

const std::string kSource = BANKLAB_SOURCE_DIR;
const char* const kKernels[] = {"reduce_sum", "scan_segments", "gemm_tiled", "histogram32", "stencil_cross"};
const char* const kPrograms[] = {"reduce", "scan", "gemm", "histogram", "stencil"};

std::string correct(const std::string& kernel) {
  static const std::map<std::string, std::string> shapes = {{"reduce_sum", "1,255,256,1000,70000"},
                                                            {"scan_segments", "1,511,512,1000,9000"},
                                                            {"gemm_tiled", "32x32x32,1x1x1,33x31x45,100x70x90"},
                                                            {"histogram32", "1,1023,1024,5000,32768"},
                                                            {"stencil_cross", "32x8,1x1,31x9,100x37,256x64"}};
  return kernel + " is correct on " + shapes.at(kernel) + " and random sizes";
}
std::string findings(const std::string& kernel) {
  return kernel + ": no race, barrier divergence, uninitialised, misaligned or out-of-bounds access";
}
std::string cost(const std::string& kernel) { return kernel + ": every shared access at its ideal wavefronts"; }
std::string memory(const std::string& kernel) {
  static const std::map<std::string, std::string> bounds = {{"reduce_sum", "264 ints (256 and 8 of padding)"},
                                                            {"scan_segments", "544 ints (512 and 32 of padding)"},
                                                            {"gemm_tiled", "two 32x33 float tiles"},
                                                            {"histogram32", "288 counters (32 bins x 9)"},
                                                            {"stencil_cross", "36 x 13 ints"}};
  return kernel + ": shared memory no more than " + bounds.at(kernel);
}
std::string diagnosis(const std::string& kernel) {
  return "diagnosis of " + kernel + ": every conflicted line with its worst degree and cause";
}
const std::string kRows = "diagnosis: every row names a conflicted line of original.cu and a cause of the list";

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

}  // namespace

TEST_CASE("stage 6: the reference gets full marks, and the skeleton shows each kernel's conflicted lines") {
  CHECK(grade_report("--solutions", 0, 6)["score"] == 90);
  const auto skeleton = grade_report("", 1, 6);
  // Correct, clean and small, but every kernel conflicted and no diagnosis.
  CHECK(skeleton["score"] == 40);
  std::set<std::string> expected;
  for (const char* k : kKernels) {
    expected.insert(cost(k));
    expected.insert(diagnosis(k));
  }
  expected.insert(kRows);
  CHECK(failing_checks(skeleton) == expected);
  // The worst instruction of each kernel, with the line of the student's file.
  CHECK(check_output(skeleton, cost("reduce_sum")).find("yours: 8 wavefronts, expected: 1") != std::string::npos);
  CHECK(check_output(skeleton, cost("scan_segments")).find("yours: 16 wavefronts, expected: 1") != std::string::npos);
  CHECK(check_output(skeleton, cost("gemm_tiled")).find("capstone.cu:108: a_tile[threadIdx.x][r]") != std::string::npos);
  CHECK(check_output(skeleton, cost("gemm_tiled")).find("yours: 32 wavefronts, expected: 1") != std::string::npos);
  CHECK(check_output(skeleton, cost("histogram32")).find("yours: 8 wavefronts, expected: 1") != std::string::npos);
  CHECK(check_output(skeleton, cost("stencil_cross")).find("yours: 4 wavefronts, expected: 1") != std::string::npos);
  // The empty diagnosis: how many lines lack a row, never which degree or cause.
  const std::string scan = check_output(skeleton, diagnosis("scan_segments"));
  CHECK(scan.find("8 conflicted lines of scan_segments in original.cu have no row") != std::string::npos);
  CHECK(scan.find("16") == std::string::npos);
  CHECK(scan.find("STRIDE") == std::string::npos);
  CHECK(check_output(skeleton, diagnosis("gemm_tiled")).find("1 conflicted line of gemm_tiled in original.cu has no row") !=
        std::string::npos);
  CHECK(check_output(skeleton, kRows).find("the diagnosis has no rows yet") != std::string::npos);
}

TEST_CASE("stage 6: fixes written differently from the reference get full marks, on two seeds") {
  // A padded interleaved tree, a swizzled scan, an untransposed A tile, rows of
  // 9 counters, a halo loaded by statements, DATA as a cause (alternative_layouts);
  // a warp-synchronous tail, the scan's loads at 2 * tid, a swizzled A tile,
  // counters swizzled by warp, a stencil loaded by nested loops (swizzles_and_warp_tail);
  // the scan's small levels in warp 0 with __syncwarp(), a growing down-sweep (scan_warp_tail).
  for (const char* file : {"alternative_layouts.cu", "swizzles_and_warp_tail.cu", "scan_warp_tail.cu"}) {
    CAPTURE(file);
    CHECK(grade_report(test_submission(6, "right", file), 0, 6)["score"] == 90);
    const auto seven = run_grader("--lab 6 " + test_submission(6, "right", file) + " --backend cpu --seed 7 --time-limit 4");
    CHECK(seven.status == 0);
    CHECK(seven.out.find("Score: 90/90") != std::string::npos);
  }
}

TEST_CASE("stage 6 known wrong submissions each lose exactly their checks") {
  struct Case {
    const char* file;
    std::set<std::string> fails;
    std::string check, text;
  };
  const auto behaviour = [](const std::string& k) {
    return std::set<std::string>{correct(k), cost(k), memory(k)};
  };
  const auto raced = [](const std::string& k) {
    return std::set<std::string>{correct(k), findings(k), cost(k), memory(k)};
  };
  const std::vector<Case> cases = {
      {"reduce_tree_one_short.cu", behaviour("reduce_sum"), correct("reduce_sum"), "255: 1 of 1 outputs wrong; yours vs expected: [0] 713 vs -4823"},
      {"reduce_no_sync.cu", raced("reduce_sum"), findings("reduce_sum"), "shared-memory race at reduce_no_sync.cu:48"},
      {"reduce_pad_per_64.cu", {cost("reduce_sum")}, cost("reduce_sum"), "reduce_pad_per_64.cu:42: partial[tid + tid / 64]"},
      {"reduce_double_array.cu", {memory("reduce_sum")}, memory("reduce_sum"), "yours: 2048 bytes of __shared__ memory"},
      {"scan_root_unpadded.cu", behaviour("scan_segments"), correct("scan_segments"), "1: 1 of 1 outputs wrong; yours vs expected: [0] -55 vs 0"},
      {"scan_no_final_sync.cu", raced("scan_segments"), findings("scan_segments"), "shared-memory race at scan_no_final_sync.cu:95"},
      {"scan_pad_per_16.cu", {cost("scan_segments")}, cost("scan_segments"), "scan_pad_per_16.cu:69: temp[padded(tid)]"},
      {"scan_double_buffer.cu", {memory("scan_segments")}, memory("scan_segments"), "yours: 4096 bytes of __shared__ memory"},
      {"gemm_store_not_transposed.cu", behaviour("gemm_tiled"), correct("gemm_tiled"), "32x32x32: 1014 of 1024 outputs wrong"},
      {"gemm_no_second_sync.cu", raced("gemm_tiled"), findings("gemm_tiled"), "shared-memory race at gemm_no_second_sync.cu:123"},
      {"gemm_no_k_bound.cu", {findings("gemm_tiled")}, findings("gemm_tiled"), "out-of-bounds global read of 4 bytes"},
      {"gemm_pad34.cu", {cost("gemm_tiled")}, cost("gemm_tiled"), "yours: 2 wavefronts, expected: 1"},
      {"gemm_pad_both_dims.cu", {memory("gemm_tiled")}, memory("gemm_tiled"), "yours: 8712 bytes of __shared__ memory"},
      {"hist_merge_by_rows.cu", behaviour("histogram32"), correct("histogram32"), "1: 1 of 32 outputs wrong; yours vs expected: [31] 0 vs 1"},
      {"hist_load_before_bound.cu", {findings("histogram32")}, findings("histogram32"), "out-of-bounds global read of 4 bytes"},
      {"hist_zero_loop_swapped.cu", {cost("histogram32")}, cost("histogram32"), "hist[i % HIST_WARPS][i / HIST_WARPS] = 0;"},
      {"hist_pitch10.cu", {cost("histogram32"), memory("histogram32")}, cost("histogram32"), "yours: 2 wavefronts, expected: 1"},
      {"hist_pitch11.cu", {memory("histogram32")}, memory("histogram32"), "yours: 1408 bytes of __shared__ memory"},
      {"stencil_cross_typo.cu", behaviour("stencil_cross"), correct("stencil_cross"), "32x8: 256 of 256 outputs wrong"},
      {"stencil_load_then_mask.cu", raced("stencil_cross"), findings("stencil_cross"), "out-of-bounds global read of 4 bytes"},
      {"stencil_corners_unloaded.cu", {findings("stencil_cross")}, findings("stencil_cross"), "uninitialised shared read at stencil_corners_unloaded.cu:181"},
      {"stencil_pad13_columns.cu", {cost("stencil_cross")}, cost("stencil_cross"), "yours: 2 wavefronts, expected: 1"},
      {"stencil_staged_output.cu", {memory("stencil_cross")}, memory("stencil_cross"), "yours: 2752 bytes of __shared__ memory"},
      {"diag_wrong_worst.cu", {diagnosis("scan_segments")}, diagnosis("scan_segments"), "line 59: worst 32 is not the line's worst"},
      {"diag_wrong_cause.cu", {diagnosis("gemm_tiled")}, diagnosis("gemm_tiled"), "line 94: the cause STRIDE does not explain its worst warp instruction"},
      {"diag_missing_line.cu", {diagnosis("histogram32")}, diagnosis("histogram32"), "1 conflicted line of histogram32 in original.cu has no row"},
      {"diag_two_rows.cu", {diagnosis("stencil_cross")}, diagnosis("stencil_cross"), "line 148 has 2 rows: give each line one row"},
      {"diag_ideal_line.cu", {diagnosis("gemm_tiled"), kRows}, kRows, "line 99 of original.cu costs its ideal: it has no conflict"},
      {"diag_capstone_lines.cu", {diagnosis("stencil_cross"), kRows}, kRows, "line 161 of original.cu has no shared-memory access"},
      {"diag_cause_out_of_list.cu", {diagnosis("reduce_sum"), kRows}, kRows, "the row for line 36 has the cause 5: use one of STRIDE, COLUMN, WIDE, DATA"},
  };
  for (const Case& c : cases) {
    INFO(c.file);
    const auto report = grade_report(test_submission(6, "wrong", c.file), 1, 6);
    CHECK(failing_checks(report) == c.fails);
    CHECK(check_output(report, c.check).find(c.text) != std::string::npos);
  }
  // A wrong declaration of the diagnosis fails its six checks with the contract's words, and nothing else.
  std::set<std::string> all_diagnosis = {kRows};
  for (const char* k : kKernels) all_diagnosis.insert(diagnosis(k));
  const std::pair<const char*, const char*> contract[] = {
      {"diag_15_rows.cu", "`diagnosis` is `int[15][3]` (line 196), not `int[20][3]`: declare `int diagnosis[20][3]` at file scope (one row of numbers for each entry)"},
      {"diag_const.cu", "`diagnosis` is const (line 196): the grader cannot read a const array"}};
  for (const auto& [file, text] : contract) {
    INFO(file);
    const auto report = grade_report(test_submission(6, "contract", file), 1, 6);
    CHECK(report["score"] == 70);
    CHECK(failing_checks(report) == all_diagnosis);
    CHECK(check_output(report, kRows).find(text) != std::string::npos);
  }
}

TEST_CASE("stage 6 dishonest submissions get nothing for what they did not do") {
  // Work done in shuffles or global atomics beside shared traffic that is
  // too small (a token, a neighbour swap, a few loads) loses the kernel's
  // cost and memory checks.
  const std::pair<const char*, const char*> around[] = {{"reduce_shuffles_token.cu", "reduce_sum"},
                                                        {"reduce_shuffles_neighbour_swap.cu", "reduce_sum"},
                                                        {"hist_global_atomics_token.cu", "histogram32"},
                                                        {"hist_global_atomics_dummy_traffic.cu", "histogram32"}};
  for (const auto& [file, kernel] : around) {
    INFO(file);
    const auto report = grade_report(test_submission(6, "hostile", file), 1, 6);
    CHECK(report["score"] == 82);
    CHECK(failing_checks(report) == std::set<std::string>{cost(kernel), memory(kernel)});
    CHECK(check_output(report, cost(kernel)).find(" shared memory for ") != std::string::npos);
  }
  // The original's conflicted tree run by each warp's lanes in turns
  // (one-lane instructions between __syncwarp()s): priced as run together.
  const auto turns = grade_report(test_submission(6, "hostile", "reduce_lanes_take_turns.cu"), 1, 6);
  CHECK(turns["score"] == 84);
  CHECK(failing_checks(turns) == std::set<std::string>{cost("reduce_sum")});
  CHECK(check_output(turns, cost("reduce_sum")).find("its lanes take turns") != std::string::npos);
  // The same with atomicExch for the stores of an unpadded GEMM tile.
  const auto atomic_turns = grade_report(test_submission(6, "hostile", "gemm_atomic_turns.cu"), 1, 6);
  CHECK(atomic_turns["score"] == 84);
  CHECK(failing_checks(atomic_turns) == std::set<std::string>{cost("gemm_tiled")});
  CHECK(check_output(atomic_turns, cost("gemm_tiled")).find("its lanes take turns") != std::string::npos);
  // Conflict-free only on the fixed sizes: the seed's random sizes are priced too.
  const auto fixed = grade_report(test_submission(6, "hostile", "reduce_sees_fixed_shapes.cu"), 1, 6);
  CHECK(failing_checks(fixed) == std::set<std::string>{cost("reduce_sum")});
  // A forged verdict printed to stdout is the program's output, not the grade.
  CHECK(grade_report(test_submission(6, "hostile", "prints_fake_verdict.cu"), 1, 6)["score"] == 40);
  // Refused before anything runs: code chosen by a macro only the emulator's
  // build defines (the sanitizer's, one of the emulator header's), reading
  // the command line or the environment, a static constructor that forges
  // the diagnosis, and includes of files outside the lab file's folder.
  struct Refused {
    const char* file;
    const char* text;
  };
  const Refused refused[] = {
      {"emulator_macro_tsan.cu", "this code is not the same for the CPU emulator and for a GPU"},
      {"emulator_macro_kit_header.cu", "this code is not the same for the CPU emulator and for a GPU"},
      {"reads_cmdline.cu", "reads_cmdline.cu"},
      {"reads_environment.cu", "reads_environment.cu"},
      {"static_constructor_diagnosis.cu", "static_constructor_diagnosis.cu"},
      {"includes_original.cu", "includes_original.cu includes <src>/labs/06-capstone/original.cu, outside its own folder"},
      {"includes_solution.cu", "outside its own folder"},
  };
  for (const Refused& r : refused) {
    INFO(r.file);
    const auto g = run_grader("--lab 6 " + test_submission(6, "hostile", r.file) + " --backend cpu --seed 1 --time-limit 4");
    CHECK(g.status == 2);
    CHECK(g.out.find("Score:") == std::string::npos);
    CHECK(banklab::test::machine_neutral(g.err).find(r.text) != std::string::npos);
  }
}

TEST_CASE("stage 6: the diagnosis key is what banklab run shows for the five programs") {
  // The reference's diagnosis (full marks, so equal to the grader's key, line,
  // worst and all) against the conflicted lines of original.cu in banklab
  // run's CSV of each program, which the student reads.
  std::set<std::pair<int, int>> answered;
  const std::string solution = read_text(kSource + "/solutions/06-capstone/capstone.cu");
  const std::regex row(R"(\{(\d+), (\d+), (STRIDE|COLUMN|WIDE|DATA)\})");
  for (std::sregex_iterator it(solution.begin(), solution.end(), row), end; it != end; ++it) {
    answered.insert({std::stoi((*it)[1]), std::stoi((*it)[2])});
  }
  REQUIRE(answered.size() == 15);
  std::set<std::pair<int, int>> shown;
  for (const char* program : kPrograms) {
    CAPTURE(program);
    const auto r = run_command(std::string(BANKLAB_PATH) + " run --format csv " + kSource + "/labs/06-capstone/programs/" +
                               program + ".cu 2>/dev/null");
    REQUIRE(r.status == 0);
    std::istringstream lines(r.out);
    std::string line;
    std::getline(lines, line);
    REQUIRE(line.rfind("kernel,file,line,loads,stores,warp_instructions,wavefronts,ideal_wavefronts,excess_wavefronts,"
                       "worst_wavefronts",
                       0) == 0);
    int rows = 0;
    while (std::getline(lines, line)) {
      // The kernel's name is quoted (its parameters hold commas); the other fields are not.
      std::vector<std::string> f;
      const std::size_t name_end = line[0] == '"' ? line.find('"', 1) + 1 : line.find(',');
      f.push_back(line.substr(0, name_end));
      std::stringstream fields(line.substr(name_end + 1));
      for (std::string x; std::getline(fields, x, ',');) f.push_back(x);
      REQUIRE(f.size() >= 10);
      if (f[1].find("original.cu") == std::string::npos) continue;
      ++rows;
      if (std::stoll(f[8]) > 0) shown.insert({std::stoi(f[2]), std::stoi(f[9])});
    }
    CHECK(rows > 0);
  }
  CHECK(shown == answered);
}

TEST_CASE("stage 6: --export-program names the stage's own programs") {
  const std::string dir = std::string(BANKLAB_TEST_TMP) + "/capstone_export";
  std::filesystem::remove_all(dir);
  const auto r = run_grader("--lab 6 --export-program " + dir);
  CHECK(r.status == 2);
  CHECK(r.err.find("labs/06-capstone/programs/ (gemm.cu, histogram.cu, reduce.cu, scan.cu, stencil.cu)") !=
        std::string::npos);
  CHECK(!std::filesystem::exists(dir));
}

#if BANKLAB_TEST_HAVE_NVCC
TEST_CASE("stage 6: nvcc builds the five programs with the skeleton and with the reference") {
  // Device code for one architecture is enough to show they build (no GPU needed).
  const std::string tmp = std::string(BANKLAB_TEST_TMP) + "/capstone_nvcc";
  std::filesystem::remove_all(tmp);
  std::filesystem::create_directories(tmp + "/labs/06-capstone/programs");
  std::filesystem::create_directories(tmp + "/grader/labs");
  // A copy of the tree's layout with the reference as capstone.cu.
  for (const char* path : {"labs/06-capstone/original.cu", "grader/labs/common/program_common.cuh",
                           "grader/labs/lab06/task_data.hpp", "labs/06-capstone/programs/capstone_program.cuh"}) {
    std::filesystem::create_directories(std::filesystem::path(tmp + "/" + path).parent_path());
    std::filesystem::copy_file(kSource + "/" + path, tmp + "/" + path);
  }
  std::filesystem::copy_file(kSource + "/solutions/06-capstone/capstone.cu", tmp + "/labs/06-capstone/capstone.cu");
  // Each program includes the whole lab file: one build compiles all five reference kernels.
  std::filesystem::copy_file(kSource + "/labs/06-capstone/programs/reduce.cu", tmp + "/labs/06-capstone/programs/reduce.cu");
  const auto reference = run_command("nvcc -std=c++17 -arch=sm_90 -o " + tmp + "/reduce " + tmp +
                                     "/labs/06-capstone/programs/reduce.cu 2>&1");
  CHECK_MESSAGE(reference.status == 0, reference.out);
  for (const char* program : kPrograms) {
    CAPTURE(program);
    const auto built = run_command("nvcc -std=c++17 -arch=sm_90 -o " + tmp + "/" + program + " " + kSource +
                                   "/labs/06-capstone/programs/" + program + ".cu 2>&1");
    CHECK_MESSAGE(built.status == 0, built.out);
  }
}
#endif

TEST_CASE("stage 6's Gradescope bundle names capstone.cu, ships original.cu, and grades the reference 90/90") {
  namespace fs = std::filesystem;
  const fs::path work = fs::path(BANKLAB_TEST_TMP) / "gradescope6";
  fs::remove_all(work);
  fs::create_directories(work);
  // The stage's folder holds three kinds of .cu file: the lab file is the one the grader names.
  const auto made = run_command("sh " + kSource + "/common/scripts/gradescope/make_bundle.sh 6 " + work.string() + " 2>&1");
  INFO(made.out);
  REQUIRE(made.status == 0);
  const fs::path root = work / "autograder";
  fs::create_directories(root / "source");
  REQUIRE(run_command("cd " + (root / "source").string() + " && cmake -E tar xf " +
                      (work / "banklab-lab6-gradescope.zip").string())
              .status == 0);
  CHECK(read_text((root / "source" / "banklab-file.txt").string()) == "capstone.cu\n");
  CHECK(fs::exists(root / "source" / "banklab/labs/06-capstone/original.cu"));
  CHECK(!fs::exists(root / "source" / "banklab/solutions"));
  for (const auto& [file, score] : {std::pair<std::string, int>{kSource + "/solutions/06-capstone/capstone.cu", 90},
                                    std::pair<std::string, int>{kSource + "/labs/06-capstone/capstone.cu", 40}}) {
    CAPTURE(file);
    fs::remove_all(root / "submission");
    fs::remove_all(root / "results");
    fs::create_directories(root / "submission");
    fs::copy_file(file, root / "submission" / "capstone.cu");
    const auto r = run_command("BANKLAB_AUTOGRADER_ROOT=" + root.string() + " BANKLAB_GRADER=" + std::string(GRADER_PATH) +
                               " sh " + (root / "source" / "run_autograder").string() + " 2>/dev/null");
    CHECK(r.status == 0);
    std::ifstream in(root / "results" / "results.json");
    REQUIRE(in.good());
    const nlohmann::json results = nlohmann::json::parse(in);
    CHECK(results["score"] == score);
  }
}

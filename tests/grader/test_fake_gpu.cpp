// The GPU backend's timing checks, graded without a GPU: a config of the
// test's own names a stand-in GPU probe (it says a GPU is there) and a
// stand-in GPU runner (fake_gpu/fake_gpu_runner.cu, built by the grader with
// nvcc as it builds the real one) that computes the right outputs on the host
// and reports median times the test chose. Each limit is tried just below and
// just above, so that a limit loosened or tightened, a ratio turned round or
// the wrong times compared, all change a verdict here.
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "banklab/bank_model.hpp"
#include "grader_test.hpp"
#include "predictions.hpp"

namespace {

namespace fs = std::filesystem;
using banklab::test::check_output;
using banklab::test::GraderRun;
using banklab::test::run_grader;

std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Grades stage `lab`'s reference on the GPU backend with the stand-in runner,
// its times given by `defines` (the lines put above fake_gpu_runner.cu).
nlohmann::json grade_on_fake_gpu(int lab, const std::string& name, const std::string& defines,
                                 const std::string& what = "--solutions") {
  const fs::path dir = fs::path(BANKLAB_BUILD_DIR) / ("fake-gpu-lab0" + std::to_string(lab) + "-" + name);
  fs::create_directories(dir);
  const fs::path probe = dir / "probe.sh";
  std::ofstream(probe) << "#!/bin/sh\necho '{\"devices\":1,\"name\":\"stand-in GPU of test_fake_gpu\","
                          "\"compute_capability\":\"9.0\"}'\n";
  fs::permissions(probe, fs::perms::owner_all);
  const fs::path runner = dir / "fake_gpu_runner.cu";
  std::ofstream(runner) << "#define FAKE_GPU_STAGE " << lab << "\n"
                        << defines << "#line 1 \"fake_gpu_runner.cu\"\n"
                        << read_text(fs::path(BANKLAB_SOURCE_DIR) / "tests/grader/fake_gpu/fake_gpu_runner.cu");
  std::ifstream in(fs::path(GRADER_PATH).parent_path() / "grader_config.json");
  nlohmann::json config = nlohmann::json::parse(in);
  config["gpu_probe"] = probe.string();
  bool found = false;
  for (auto& entry : config["labs"]) {
    if (entry["number"] != lab) continue;
    entry["gpu_runner_source"] = runner.string();
    found = true;
  }
  REQUIRE(found);
  std::ofstream(dir / "grader_config.json") << config.dump(2);
  setenv("BANKLAB_GRADER_CONFIG", (dir / "grader_config.json").c_str(), 1);
  const GraderRun r =
      run_grader("--lab " + std::to_string(lab) + " " + what + " --backend gpu --seed 1 --time-limit 8 --format json");
  unsetenv("BANKLAB_GRADER_CONFIG");
  INFO("stage " << lab << ", stand-in GPU " << name << "\n" << r.out << r.err);
  const nlohmann::json report = nlohmann::json::parse(r.out);
  REQUIRE(report["backend"] == "gpu");
  return report;
}

std::string status_of(const nlohmann::json& report, const std::string& check) {
  for (const auto& c : report["checks"]) {
    if (c["name"] == check) return c["status"].get<std::string>();
  }
  FAIL("no check named " << check);
  return "";
}

double score_of(const nlohmann::json& report, const std::string& check) {
  for (const auto& c : report["checks"]) {
    if (c["name"] == check) return c["score"].get<double>();
  }
  return -1;
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

#if BANKLAB_TEST_HAVE_NVCC

TEST_CASE(
    "stage 3 on a GPU: 1.19x over the conflicted tile fails 'at least 1.2x', 1.21x passes, and 1.82x the reference "
    "fails 'at most 1.8x', 1.67x passes") {
  const std::string faster = "at least 1.2x faster than the conflicted tile";
  const std::string near = "at most 1.8x the reference solution's time";
  // {student, conflicted, solution} in ms.
  const auto slow = grade_on_fake_gpu(3, "slow", "#define FAKE_TRANSPOSE_MS {1.0, 1.19, 0.6}\n");
  CHECK(status_of(slow, "transpose of a 32x32 matrix") == "pass");  // the host outputs are right
  CHECK(status_of(slow, faster) == "fail");
  CHECK(score_of(slow, faster) == 0);
  CHECK(has(check_output(slow, faster), "yours 1.000 ms, conflicted tile 1.190 ms, reference solution 0.600 ms"));
  CHECK(has(check_output(slow, faster), "speed-up over the conflicted tile = 1.190, expected at least 1.200"));
  CHECK(status_of(slow, near) == "pass");
  CHECK(score_of(slow, near) == 5);
  CHECK(has(check_output(slow, near), "yours / solution = 1.667, expected at most 1.800"));

  const auto fast = grade_on_fake_gpu(3, "fast", "#define FAKE_TRANSPOSE_MS {1.0, 1.21, 0.55}\n");
  CHECK(status_of(fast, faster) == "pass");
  CHECK(score_of(fast, faster) == 10);
  CHECK(status_of(fast, near) == "fail");
  CHECK(has(check_output(fast, near), "yours / solution = 1.818, expected at most 1.800"));
}

// A stand-in ncu on PATH: writes to the grader's --log-file the load, store
// and atomic wavefronts it is made with, for the kernel of the runner's
// `--task` (one row of `kernels` each: task, kernel signature, ld, st, atom;
// a task of "*" answers any).
struct NcuRow {
  std::string task, kernel, ld, st, atom = "0";
};
struct FakeNcu {
  fs::path dir = fs::path(BANKLAB_BUILD_DIR) / "fake-ncu";
  std::string old_path = std::getenv("PATH");
  explicit FakeNcu(const std::vector<NcuRow>& kernels) {
    fs::create_directories(dir);
    const std::string metric = "_pipe_lsu_wavefronts_mem_shared_op_";
    std::ostringstream script;
    script << R"(#!/bin/sh
log=""; prev=""; task="*"
for a in "$@"; do [ "$prev" = "--log-file" ] && log="$a"; [ "$prev" = "--task" ] && task="$a"; prev="$a"; done
{
echo '"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size","Device","CC","Section Name","Metric Name","Metric Unit","Metric Value"'
case "$task" in
)";
    for (const NcuRow& k : kernels) {
      const std::string head = "\"0\",\"1\",\"runner\",\"host\",\"" + k.kernel +
                               "\",\"1\",\"7\",\"(32, 8, 1)\",\"(8, 8, 1)\",\"0\",\"9.0\",\"Command line "
                               "profiler metrics\",\"";
      script << "  " << (k.task == "*" ? "*" : "'" + k.task + "'") << ")\n"
             << "    echo '" << head << "smsp__sass_l1tex_data" << metric << "ld.sum\",\"\",\"" << k.ld << "\"'\n"
             << "    echo '" << head << "smsp__sass_l1tex_data" << metric << "st.sum\",\"\",\"" << k.st << "\"'\n"
             << "    echo '" << head << "l1tex__data" << metric << "atom.sum\",\"\",\"" << k.atom << "\"' ;;\n";
    }
    script << "esac\n} > \"$log\"\n";
    std::ofstream(dir / "ncu") << script.str();
    fs::permissions(dir / "ncu", fs::perms::owner_all);
    setenv("PATH", (dir.string() + ":" + old_path).c_str(), 1);
  }
  FakeNcu(const std::string& ld, const std::string& st)
      : FakeNcu({{"*", "transpose_padded(float *, const float *, int, int)", ld, st}}) {}
  ~FakeNcu() { setenv("PATH", old_path.c_str(), 1); }
};

TEST_CASE(
    "stage 3 on a GPU: the Nsight Compute check compares with nvcc's code, where nvcc merges four reads into one "
    "LDS.128") {
  const std::string check = "Nsight Compute shared wavefronts match the emulator";
  const std::string file = std::string(BANKLAB_SOURCE_DIR) + "/tests/grader/lab03/nvcc/merged_row_reads.cu";
  const std::string times = "#define FAKE_TRANSPOSE_MS {1.0, 1.5, 0.9}\n";
  {
    // 256x256: 512 warps' LDS.128 at 4 wavefronts each, as nvcc compiled it.
    const FakeNcu ncu("2048", "2048");
    const auto compiled = grade_on_fake_gpu(3, "merged-compiled", times, "--impl " + file);
    CHECK(status_of(compiled, check) == "pass");
    const std::string out = check_output(compiled, check);
    CHECK(has(out, "Nsight Compute 2048 vs emulator 2048; shared store wavefronts 2048 vs 2048"));
    CHECK(has(out, "as written: 8192 loads and 2048 stores and atomics"));
    CHECK(has(out,
              "merged_row_reads.cu:71: 6144 wavefronts as written, 2048 as nvcc compiled it (1536 warp "
              "instructions merged into 16-byte accesses)"));
  }
  {
    // What the source view counts (four 4-way reads) is not what the GPU issues.
    const FakeNcu ncu("8192", "2048");
    const auto written = grade_on_fake_gpu(3, "merged-written", times, "--impl " + file);
    CHECK(status_of(written, check) == "fail");
    CHECK(has(check_output(written, check), "Nsight Compute 8192 vs emulator 2048"));
  }
}

TEST_CASE(
    "stage 4 on a GPU: 1.5x over the conflicted tile, 1.10x the padded tile and 2.0x over unswizzled chunks, each "
    "tried on both sides") {
  const std::string faster = "transpose_swizzled at least 1.5x faster than the conflicted tile";
  const std::string padded = "transpose_swizzled within 10% of the padded tile (stage 3)";
  const std::string chunks = "chunk_transpose_swizzled at least 2x faster than the unswizzled chunks";
  // Transpose {student, conflicted, padded, solution}, chunks {student, conflicted, solution}, in ms.
  const auto below = grade_on_fake_gpu(4, "below",
                                       "#define FAKE_TRANSPOSE_MS {1.0, 1.49, 0.92, 0.9}\n"
                                       "#define FAKE_CHUNKS_MS {1.0, 1.98, 0.9}\n");
  CHECK(status_of(below, "transpose_swizzled: transpose of a 32x32 matrix") == "pass");  // the host outputs are right
  CHECK(status_of(below, faster) == "fail");
  CHECK(has(check_output(below, faster), "speed-up over the conflicted tile = 1.490, expected at least 1.500"));
  CHECK(status_of(below, padded) == "pass");
  CHECK(has(check_output(below, padded), "yours / padded = 1.087, expected at most 1.100"));
  CHECK(status_of(below, chunks) == "fail");
  CHECK(has(check_output(below, chunks), "speed-up over the unswizzled chunks = 1.980, expected at least 2.000"));

  const auto above = grade_on_fake_gpu(4, "above",
                                       "#define FAKE_TRANSPOSE_MS {1.0, 1.51, 0.89, 0.9}\n"
                                       "#define FAKE_CHUNKS_MS {1.0, 2.02, 0.9}\n");
  CHECK(status_of(above, faster) == "pass");
  CHECK(status_of(above, padded) == "fail");
  CHECK(has(check_output(above, padded), "yours / padded = 1.124, expected at most 1.100"));
  CHECK(status_of(above, chunks) == "pass");
  CHECK(status_of(above, "chunk_transpose_swizzled: correct, 1 and 3 read passes") == "pass");
}

namespace {

// The cycles a GPU whose loads take exactly the bank model's pipeline passes
// (one cycle each, never under the 1.388-cycle floor) would measure on the ten
// stage-5 patterns; stores take `store_factor` times their passes and the
// load at `off_index` (if any) `off_factor` times.
std::string fake_cycles(double store_factor, int off_index = -1, double off_factor = 1) {
  std::ostringstream out;
  out << "#define FAKE_CYCLES {";
  for (int p = 0; p < lab05::kPredictions; ++p) {
    std::array<std::int64_t, 32> offsets{};
    for (int lane = 0; lane < 32; ++lane) {
      const long long o = lab05::pattern_offset(p, lane);
      offsets[static_cast<std::size_t>(lane)] = o < 0 ? banklab::kInactive : o;
    }
    const bool store = lab05::kPatterns[p].store;
    const auto access = banklab::WarpAccess::make(lab05::kPatterns[p].width_bytes,
                                                  store ? banklab::MemOp::kStore : banklab::MemOp::kLoad, offsets);
    const double passes = banklab::price(access).pipeline_passes;
    double cycles = store ? passes * store_factor : std::max(passes, 1.388);
    if (p == off_index) cycles *= off_factor;
    out << (p ? ", " : "") << cycles;
  }
  out << "}\n";
  return out.str();
}

}  // namespace

TEST_CASE(
    "stage 5 on a GPU: each kernel's speed-up limit tried on both sides, and the cycle probe grades the loads and only "
    "reports the stores") {
  const std::string poly = "poly_eval at least 1.5x faster than its conflicted version";
  const std::string dbl = "transpose_double at least 1.2x faster than its conflicted version";
  const std::string half = "transpose_half at least 1.5x faster than its conflicted version";
  const std::string quads = "sum_quads at least 1.5x faster than its conflicted version";
  const std::string probe = "the cycle probe measures each prediction pattern's pipeline passes (loads)";
  // {student, conflicted, solution} in ms; the stores 8% over their passes, as 16-byte stores are on the H200.
  const auto below =
      grade_on_fake_gpu(5, "below",
                        "#define FAKE_POLY_MS {1.0, 1.49, 0.9}\n#define FAKE_DOUBLE_MS {1.0, 1.19, 0.9}\n"
                        "#define FAKE_HALF_MS {1.0, 1.49, 0.9}\n#define FAKE_QUADS_MS {1.0, 1.49, 0.9}\n" +
                            fake_cycles(1.08));
  CHECK(status_of(below, "poly_eval is correct on 1,127,128,1000 and random sizes") == "pass");  // host outputs
  CHECK(status_of(below, "transpose_half is correct on 64x64,1x1,63x65,65x63,130x70 and random sizes") == "pass");
  for (const std::string& check : {poly, dbl, half, quads}) {
    INFO(check);
    CHECK(status_of(below, check) == "fail");
  }
  CHECK(has(check_output(below, dbl),
            "median of 20 runs: yours 1.000 ms, conflicted reference 1.190 ms, reference "
            "solution 0.900 ms\nspeed-up = 1.190, expected at least 1.200"));
  CHECK(has(check_output(below, poly), "speed-up = 1.490, expected at least 1.500"));
  CHECK(status_of(below, probe) == "pass");
  CHECK(score_of(below, probe) == 2);
  const std::string measured = check_output(below, probe);
  CHECK(has(measured, "P3 (8-byte store, 2 wavefronts, 2 passes): store differs (reported, not graded): 2.160 cycles"));
  CHECK(has(measured, "P9 (8-byte load, 1 wavefront, 2 passes): 2.000 cycles per warp instruction"));
  CHECK(!has(measured, "DIFFERS"));

  // One load pattern 10% over its passes fails the probe; the speed-ups just above their limits pass.
  const auto above =
      grade_on_fake_gpu(5, "above",
                        "#define FAKE_POLY_MS {1.0, 1.51, 0.9}\n#define FAKE_DOUBLE_MS {1.0, 1.21, 0.9}\n"
                        "#define FAKE_HALF_MS {1.0, 1.51, 0.9}\n#define FAKE_QUADS_MS {1.0, 1.51, 0.9}\n" +
                            fake_cycles(1.0, 5, 1.1));
  for (const std::string& check : {poly, dbl, half, quads}) {
    INFO(check);
    CHECK(status_of(above, check) == "pass");
  }
  CHECK(status_of(above, probe) == "fail");
  CHECK(has(check_output(above, probe), "P6 (16-byte load, 4 wavefronts, 4 passes): DIFFERS: 4.400 cycles"));
  CHECK(has(check_output(above, probe), "expected: every load pattern's cycles equal to its pipeline passes"));
}

TEST_CASE(
    "stage 6 on a GPU: each kernel's limit against the shipped kernel tried on both sides, and the diagnosis read from "
    "the GPU runner") {
  const std::string reduce = "reduce_sum no more than 5% slower than the shipped kernel";
  const std::string scan = "scan_segments at least 1.5x faster than the shipped kernel";
  const std::string gemm = "gemm_tiled at least 1.2x faster than the shipped kernel";
  const std::string histogram = "histogram32 no more than 5% slower than the shipped kernel";
  const std::string stencil = "stencil_cross at least 1.05x faster than the shipped kernel";
  // {student, conflicted} in ms, per kernel: just below each limit, then just above.
  const auto below = grade_on_fake_gpu(
      6, "below", "#define FAKE_STAGE6_MS {{1.0, 0.94}, {1.0, 1.49}, {1.0, 1.19}, {1.0, 0.94}, {1.0, 1.04}}\n");
  CHECK(status_of(below, "scan_segments is correct on 1,511,512,1000,9000 and random sizes") ==
        "pass");  // host outputs
  for (const std::string& check : {reduce, scan, gemm, histogram, stencil}) {
    INFO(check);
    CHECK(status_of(below, check) == "fail");
  }
  CHECK(has(check_output(below, reduce),
            "median of 20 runs: yours 1.000 ms, the shipped kernel (original.cu) 0.940 ms\n"
            "speed-up = 0.940, expected at least 0.950"));
  CHECK(has(check_output(below, stencil), "speed-up = 1.040, expected at least 1.050"));
  // The diagnosis comes from the GPU runner's answer on this backend: the reference's passes.
  CHECK(status_of(below, "diagnosis of scan_segments: every conflicted line with its worst degree and cause") ==
        "pass");
  const auto above = grade_on_fake_gpu(
      6, "above", "#define FAKE_STAGE6_MS {{1.0, 0.96}, {1.0, 1.51}, {1.0, 1.21}, {1.0, 0.96}, {1.0, 1.06}}\n");
  for (const std::string& check : {reduce, scan, gemm, histogram, stencil}) {
    INFO(check);
    CHECK(status_of(above, check) == "pass");
  }
}

// Stage 6's kernels: the runner's task name and the signature Nsight Compute prints.
const std::vector<std::array<std::string, 2>> kStage6Kernels = {
    {"reduce", "reduce_sum(int *, const int *, int)"},
    {"scan", "scan_segments(int *, const int *, int)"},
    {"gemm", "gemm_tiled(float *, const float *, const float *, int, int, int)"},
    {"histogram", "histogram32(unsigned int *, const unsigned int *, int)"},
    {"stencil", "stencil_cross(int *, const int *, int, int)"}};

// What Nsight Compute measured for each kernel in the grading of `graded`
// (the command's `--solutions` or `--impl PATH`) recorded in `file`: the
// GPU's side of every "Nsight Compute N vs emulator M" of the check's output.
std::vector<NcuRow> measured_on_gpu(const fs::path& file, const std::string& graded) {
  std::istringstream text(read_text(file));
  const std::regex row(R"(^    (\w+) \S+: shared load wavefronts, Nsight Compute (\d+) vs emulator \d+; shared store )"
                       R"(wavefronts (\d+) vs \d+(; shared atomic wavefronts (\d+) vs \d+)?)");
  std::vector<NcuRow> rows;
  bool inside = false;
  for (std::string line; std::getline(text, line);) {
    if (line.rfind("$ grader ", 0) == 0) inside = has(line, " " + graded + " ");
    std::smatch m;
    if (!inside || !std::regex_search(line, m, row)) continue;
    for (const auto& k : kStage6Kernels) {
      if (k[1].substr(0, k[1].find('(')) == m[1]) rows.push_back({k[0], k[1], m[2], m[3], m[5].matched ? m[5].str() : "0"});
    }
  }
  return rows;
}

TEST_CASE(
    "stage 6 on a GPU: what Nsight Compute measured on an H100 for the reference and two alternative fixes equals the "
    "emulator's price of nvcc's code, the scan's reread loads included") {
  // tests/data/gpu/capstone/h100_first_grading: the check failed there on
  // scan_segments (2082 load wavefronts against 1722), nvcc reloading what
  // `temp[padded(bi)] += t` adds to; every other count was equal.
  // h100_grading: swizzles_and_warp_tail.cu's scan has 2010, nvcc rereading
  // at 5 of its 9 unrolled copies of the down-sweep (the last ones).
  const std::string check = "Nsight Compute shared wavefronts match the emulator (all five kernels)";
  const std::string times = "#define FAKE_STAGE6_MS {{1.0, 1.0}, {1.0, 2.0}, {1.0, 2.0}, {1.0, 1.0}, {1.0, 2.0}}\n";
  const fs::path data = fs::path(BANKLAB_SOURCE_DIR) / "tests/data/gpu/capstone";
  const std::string right = "tests/grader/lab06/right/";
  struct Case {
    std::string recorded, graded, what, scan_loads;
  };
  const std::vector<Case> cases = {
      {"h100_first_grading", "--solutions", "--solutions", "2082"},
      {"h100_first_grading", "--impl " + right + "alternative_layouts.cu",
       "--impl " + (fs::path(BANKLAB_SOURCE_DIR) / right / "alternative_layouts.cu").string(), "2082"},
      {"h100_grading", "--impl " + right + "swizzles_and_warp_tail.cu",
       "--impl " + (fs::path(BANKLAB_SOURCE_DIR) / right / "swizzles_and_warp_tail.cu").string(), "2010"}};
  for (const Case& c : cases) {
    INFO(c.graded);
    const std::vector<NcuRow> gpu = measured_on_gpu(data / c.recorded / "grading.txt", c.graded);
    REQUIRE(gpu.size() == kStage6Kernels.size());
    CHECK(gpu[1].ld == c.scan_loads);
    const FakeNcu ncu(gpu);
    const auto report = grade_on_fake_gpu(6, "ncu-h100", times, c.what);
    const std::string out = check_output(report, check);
    INFO(out);
    CHECK(status_of(report, check) == "pass");
    CHECK(has(out, "scan_segments 9000: shared load wavefronts, Nsight Compute " + c.scan_loads + " vs emulator " +
                       c.scan_loads + "; shared store wavefronts 1386 vs 1386 (the emulator priced nvcc's code for "
                       "sm_90; as written: 1722 loads and 1386 stores and atomics; the lines nvcc compiles otherwise:"));
    CHECK(has(out, "loads added (nvcc reads again what the line stores to"));
    // The histogram's atomics are stores in the source view: nothing nvcc compiles otherwise.
    CHECK(has(out, "shared atomic wavefronts 1024 vs 1024 (the emulator priced nvcc's code for sm_90, the same as the "
                   "source view)"));
  }
}

TEST_CASE(
    "stage 6 on a GPU: Nsight Compute against the emulator for all five kernels, shared atomics compared in their own "
    "column") {
  const std::string check = "Nsight Compute shared wavefronts match the emulator (all five kernels)";
  const std::string times = "#define FAKE_STAGE6_MS {{1.0, 1.0}, {1.0, 2.0}, {1.0, 2.0}, {1.0, 1.0}, {1.0, 2.0}}\n";
  const auto& kernels = kStage6Kernels;
  // A GPU that measured nothing: every kernel differs, and the output gives
  // the emulator's numbers, priced as nvcc compiled the reference.
  std::vector<NcuRow> zero, measured;
  for (const auto& k : kernels) zero.push_back({k[0], k[1], "0", "0", "0"});
  std::string out;
  {
    const FakeNcu ncu(zero);
    const auto none = grade_on_fake_gpu(6, "ncu-zero", times);
    REQUIRE(status_of(none, check) == "fail");
    out = check_output(none, check);
  }
  INFO(out);
  const std::regex line(
      R"((\w+) \S+: shared load wavefronts, Nsight Compute 0 vs emulator (\d+); shared store )"
      R"(wavefronts 0 vs (\d+)(; shared atomic wavefronts 0 vs (\d+))? \(the emulator priced nvcc's)");
  for (const auto& k : kernels) {
    const std::string name = k[1].substr(0, k[1].find('('));
    bool found = false;
    for (std::sregex_iterator it(out.begin(), out.end(), line), end; it != end; ++it) {
      if ((*it)[1] != name) continue;
      found = true;
      measured.push_back({k[0], k[1], (*it)[2], (*it)[3], (*it)[5].matched ? (*it)[5].str() : "0"});
    }
    INFO(name);
    REQUIRE(found);
  }
  // The histogram's counting is shared atomicAdd: wavefronts of their own, not stores.
  CHECK(measured[3].atom != "0");
  CHECK(measured[0].atom == "0");
  {
    // A GPU that measured what the emulator predicts, atomics included: the check passes.
    const FakeNcu ncu(measured);
    const auto same = grade_on_fake_gpu(6, "ncu-same", times);
    CHECK(status_of(same, check) == "pass");
  }
  {
    // One atomic wavefront more on the histogram alone: the check fails, naming it.
    std::vector<NcuRow> off = measured;
    off[3].atom = std::to_string(std::stoll(off[3].atom) + 1);
    const FakeNcu ncu(off);
    const auto differs = grade_on_fake_gpu(6, "ncu-atom", times);
    CHECK(status_of(differs, check) == "fail");
    CHECK(has(check_output(differs, check),
              "shared atomic wavefronts " + off[3].atom + " vs " + measured[3].atom + " (the emulator priced"));
  }
}

TEST_CASE(
    "stage 6 on a GPU without nvcc's code priced: the source view counts a shared atomic as a store, so Nsight "
    "Compute's stores and atomics are compared as one sum") {
  const std::string check = "Nsight Compute shared wavefronts match the emulator (all five kernels)";
  const std::string times = "#define FAKE_STAGE6_MS {{1.0, 1.0}, {1.0, 2.0}, {1.0, 2.0}, {1.0, 1.0}, {1.0, 2.0}}\n";
  // An nvdisasm that fails, found on PATH before the build's own (where the
  // toolkit has one beside nvcc, that one is found first: then not tried).
  std::ifstream config_in(fs::path(GRADER_PATH).parent_path() / "grader_config.json");
  const std::string nvcc = nlohmann::json::parse(config_in)["nvcc"].get<std::string>();
  if (nvcc.find('/') != std::string::npos && access((fs::path(nvcc).parent_path() / "nvdisasm").c_str(), X_OK) == 0) {
    MESSAGE("nvdisasm beside nvcc: the source view cannot be forced here; not run");
    return;
  }
  const auto& kernels = kStage6Kernels;
  std::vector<NcuRow> zero, measured;
  for (const auto& k : kernels) zero.push_back({k[0], k[1], "0", "0", "0"});
  std::string out;
  {
    const FakeNcu ncu(zero);
    std::ofstream(ncu.dir / "nvdisasm") << "#!/bin/sh\necho 'nvdisasm: a stand-in that fails' >&2\nexit 1\n";
    fs::permissions(ncu.dir / "nvdisasm", fs::perms::owner_all);
    const auto none = grade_on_fake_gpu(6, "ncu-source-zero", times);
    fs::remove(ncu.dir / "nvdisasm");
    REQUIRE(status_of(none, check) == "fail");
    out = check_output(none, check);
  }
  INFO(out);
  CHECK(has(out, "(as written: nvcc's code was not priced"));
  const std::regex line(R"((\w+) \S+: shared load wavefronts, Nsight Compute 0 vs emulator (\d+); shared store and )"
                        R"(atomic wavefronts 0 \+ 0 vs (\d+))");
  for (const auto& k : kernels) {
    const std::string name = k[1].substr(0, k[1].find('('));
    bool found = false;
    for (std::sregex_iterator it(out.begin(), out.end(), line), end; it != end; ++it) {
      if ((*it)[1] != name) continue;
      found = true;
      measured.push_back({k[0], k[1], (*it)[2], (*it)[3], "0"});
    }
    INFO(name);
    REQUIRE(found);
  }
  // The histogram's stores and atomics split as Nsight Compute splits them:
  // only their sum is compared with the source view's stores.
  const long long histogram_stores = std::stoll(measured[3].st);
  REQUIRE(histogram_stores > 1);
  measured[3].st = std::to_string(histogram_stores - 1);
  measured[3].atom = "1";
  {
    const FakeNcu ncu(measured);
    std::ofstream(ncu.dir / "nvdisasm") << "#!/bin/sh\nexit 1\n";
    fs::permissions(ncu.dir / "nvdisasm", fs::perms::owner_all);
    const auto split = grade_on_fake_gpu(6, "ncu-source-split", times);
    fs::remove(ncu.dir / "nvdisasm");
    CHECK(status_of(split, check) == "pass");
    CHECK(has(check_output(split, check),
              "shared store and atomic wavefronts " + measured[3].st + " + 1 vs " + std::to_string(histogram_stores)));
  }
}

#else

TEST_CASE("the stand-in GPU tests need nvcc (this build has none)") { MESSAGE("no nvcc: not run"); }

#endif

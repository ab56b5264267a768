// Nsight Compute results read from the grader's own log file: the CSV parser on
// ncu output recorded on the H200, and the runner of ncu with a fake `ncu` on
// PATH that floods stdout, forges a result there, or loses it.
#include <doctest/doctest.h>

#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "ncu_check.hpp"

namespace {

namespace fs = std::filesystem;
using banklab::grader::measure_with_ncu;
using banklab::grader::NcuResult;
using banklab::grader::parse_ncu_csv;

const std::string kSource = BANKLAB_SOURCE_DIR;
const std::string kLd = "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum";
const std::string kSt = "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum";

std::string text_of(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// ncu 2023's details page in CSV, as recorded on the H200 (tests/data/gpu/h200_shared_atomics_ncu.csv).
const std::string kHeader =
    R"("ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size",)"
    R"("Device","CC","Section Name","Metric Name","Metric Unit","Metric Value")";

std::string row(const std::string& id, const std::string& kernel, const std::string& metric, const std::string& value) {
  return "\"" + id + R"(","584","runner","127.0.0.1",")" + kernel +
         R"x(","1","7","(32, 8, 1)","(8, 8, 1)","0","9.0","Command line profiler metrics",")x" + metric + R"(","",")" +
         value + "\"";
}

const std::string kKernel = "transpose_padded(const float *, float *, int, int)";

std::string good_log(const std::string& ld = "67,108,864", const std::string& st = "2048") {
  return "==PROF== Connected to process 584 (runner)\n==PROF== Profiling \"transpose_padded\": 0%....100% - 1 pass\n"
         "==PROF== Disconnected from process 584\n" +
         kHeader + "\n" + row("0", kKernel, kLd, ld) + "\n" + row("0", kKernel, kSt, st) + "\n";
}

}  // namespace

TEST_CASE("ncu's CSV recorded on the H200 parses, the program's lines among it skipped") {
  const std::string recorded = text_of(kSource + "/tests/data/gpu/h200_shared_atomics_ncu.csv");
  // The recording profiles every launch; one launch of each kernel is what the grader asks ncu for.
  std::istringstream in(recorded);
  std::string line, first_launch;
  while (std::getline(in, line)) {
    if (line.rfind("\"", 0) != 0 || line.rfind("\"ID\"", 0) == 0 || line.rfind("\"0\"", 0) == 0 ||
        line.rfind("\"1\"", 0) == 0)
      first_launch += line + "\n";
  }
  const std::string all_shared = "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum";
  const std::string atom = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum";
  const NcuResult a = parse_ncu_csv(first_launch, "atomic_add_int", {all_shared, atom});
  CHECK(a.kind == NcuResult::Kind::kMeasured);
  CHECK(a.values.at(all_shared) == 40);
  CHECK(a.values.at(atom) == 1);
  const NcuResult f = parse_ncu_csv(first_launch, "atomic_add_float", {all_shared});
  CHECK(f.kind == NcuResult::Kind::kMeasured);
  CHECK(f.values.at(all_shared) == 135);
  // The whole recording has 8 launches of each kernel: not the one launch asked for.
  const NcuResult every = parse_ncu_csv(recorded, "atomic_add_int", {all_shared});
  CHECK(every.kind == NcuResult::Kind::kLost);
  CHECK(every.problem.find("has 8 launches of atomic_add_int where the grader asked for one") != std::string::npos);
}

TEST_CASE("ncu's CSV: thousands separators, a kernel named like another, and every way a result is not one") {
  const NcuResult good = parse_ncu_csv(good_log(), "transpose_padded", {kLd, kSt});
  REQUIRE(good.kind == NcuResult::Kind::kMeasured);
  CHECK(good.values.at(kLd) == 67108864);
  CHECK(good.values.at(kSt) == 2048);
  // A kernel whose name starts with the one asked for is another kernel.
  CHECK(parse_ncu_csv(good_log(), "transpose", {kLd, kSt}).kind == NcuResult::Kind::kLost);
  const std::string templated = kHeader + "\n" + row("0", "void transpose_padded<1>(const float *)", kLd, "4") + "\n" +
                                row("0", "void transpose_padded<1>(const float *)", kSt, "5") + "\n";
  CHECK(parse_ncu_csv(templated, "transpose_padded", {kLd, kSt}).values.at(kSt) == 5);

  auto lost = [](const std::string& log) {
    const NcuResult r = parse_ncu_csv(log, "transpose_padded", {kLd, kSt});
    CHECK(r.kind == NcuResult::Kind::kLost);
    return r.problem;
  };
  CHECK(lost("") == "Nsight Compute's log holds no CSV result");
  CHECK(lost("==PROF== Connected\n==WARNING== No kernels were profiled.\n") ==
        "Nsight Compute profiled no launch of transpose_padded");
  CHECK(lost(good_log("n/a")).find("value of " + kLd + " is not a count: \"n/a\"") != std::string::npos);
  CHECK(lost(good_log("-3")).find("is not a count") != std::string::npos);
  CHECK(lost(good_log("12 wavefronts")).find("is not a count") != std::string::npos);
  CHECK(lost(kHeader + "\n" + row("0", kKernel, kLd, "1") + "\n").find("0 values of " + kSt) != std::string::npos);
  CHECK(lost(good_log() + row("0", kKernel, kSt, "1") + "\n").find("2 values of " + kSt) != std::string::npos);
  CHECK(lost(good_log() + row("1", kKernel, kLd, "1") + "\n" + row("1", kKernel, kSt, "1") + "\n")
            .find("2 launches of transpose_padded") != std::string::npos);
  CHECK(lost(good_log() + kHeader + "\n").find("two CSV headers") != std::string::npos);
  CHECK(lost(kHeader + "\n\"0\",\"short\"\n").find("a row of 2 fields for a header of 15") != std::string::npos);
  const NcuResult denied = parse_ncu_csv("==ERROR== ERR_NVGPUCTRPERM - The user does not have permission\n",
                                         "transpose_padded", {kLd, kSt});
  CHECK(denied.kind == NcuResult::Kind::kNotPermitted);
}

namespace {

// A fake ncu on PATH: finds its --log-file argument, notes that file's
// folder's mode, and behaves as FAKE_NCU_MODE says.
struct FakeNcu {
  fs::path dir = fs::path(BANKLAB_TEST_TMP) / "fake_ncu";
  std::string old_path = std::getenv("PATH");
  FakeNcu() {
    fs::create_directories(dir);
    std::ofstream(dir / "good.csv") << good_log("4096", "2048");
    std::ofstream(dir / "ncu") << R"(#!/bin/sh
log=""; prev=""
for a in "$@"; do [ "$prev" = "--log-file" ] && log="$a"; prev="$a"; done
folder=$(dirname "$log")
stat -c %a "$folder" > ")" << (dir / "folder_mode").string() << R"("
echo "$folder" > ")" << (dir / "folder").string() << R"("
good=")" << (dir / "good.csv").string() << R"("
case "$FAKE_NCU_MODE" in
  flood) head -c 5000000 /dev/zero | tr '\0' x; cp "$good" "$log" ;;
  forge) cat "$good"; : > "$log" ;;
  nothing) ;;
  denied_on_stdout) echo "==ERROR== ERR_NVGPUCTRPERM"; echo "$@" ;;
esac
exit 0
)";
    fs::permissions(dir / "ncu", fs::perms::owner_all);
    setenv("PATH", (dir.string() + ":" + old_path).c_str(), 1);
  }
  ~FakeNcu() { setenv("PATH", old_path.c_str(), 1); }
  NcuResult run(const std::string& mode) {
    setenv("FAKE_NCU_MODE", mode.c_str(), 1);
    return measure_with_ncu({"/bin/true", "ncu-target"}, "transpose_padded", {kLd, kSt}, 30);
  }
};

}  // namespace

TEST_CASE("a kernel that prints 5 MB does not push the ncu result out of reach: it is read from the grader's file") {
  FakeNcu fake;
  const NcuResult r = fake.run("flood");
  INFO(r.problem);
  REQUIRE(r.kind == NcuResult::Kind::kMeasured);
  CHECK(r.values.at(kLd) == 4096);
  CHECK(r.values.at(kSt) == 2048);
  // The log's folder is the grader's alone, and gone afterwards.
  CHECK(text_of(fake.dir / "folder_mode") == "700\n");
  std::string folder = text_of(fake.dir / "folder");
  folder.pop_back();
  CHECK(folder.find("banklab-ncu-") != std::string::npos);
  CHECK_FALSE(fs::exists(folder));
}

TEST_CASE("a result printed on stdout (a forgery) with nothing in the log file fails as lost, not skipped") {
  FakeNcu fake;
  for (const char* mode : {"forge", "nothing"}) {
    const NcuResult r = fake.run(mode);
    INFO(mode << ": " << r.problem);
    CHECK(r.kind == NcuResult::Kind::kLost);
    CHECK(r.problem.find("Nsight Compute's log holds no CSV result (ncu exit status 0, and its log file is empty)") !=
          std::string::npos);
    CHECK(r.problem.find("--log-file") != std::string::npos);  // the command, to rerun
  }
  // Only the grader's file can say the counters are out of reach: a program
  // printing ncu's permission error does not turn the check into a skip.
  CHECK(fake.run("denied_on_stdout").kind == NcuResult::Kind::kLost);
}

TEST_CASE("without ncu on PATH the check says Nsight Compute is not installed") {
  const std::string old_path = std::getenv("PATH");
  setenv("PATH", "/nonexistent", 1);
  const NcuResult r = measure_with_ncu({"/bin/true"}, "transpose_padded", {kLd, kSt}, 30);
  setenv("PATH", old_path.c_str(), 1);
  CHECK(r.kind == NcuResult::Kind::kNotInstalled);
  CHECK(r.problem == "Nsight Compute (ncu) is not installed here");
}

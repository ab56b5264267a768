// The integrity check's nvcc step: a kernel calling a host function builds for
// the emulator but not for a GPU, and is refused at its line where nvcc is
// installed; a __host__ __device__ helper passes; the step is cached.
#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "run_command.hpp"

namespace {

namespace fs = std::filesystem;

const std::string kSource = BANKLAB_SOURCE_DIR;
const std::string kHostile = kSource + "/tests/grader/lab03/hostile/calls_host_function.cu";

struct Result {
  int status = -1;
  std::string out;
  std::string err;
  double seconds = 0;
};

std::string text_of(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

Result run(const std::string& args, const std::string& env = "") {
  fs::create_directories(BANKLAB_TEST_TMP);
  const std::string err_file = std::string(BANKLAB_TEST_TMP) + "/nvcc_stderr.txt";
  const auto start = std::chrono::steady_clock::now();
  const auto r = banklab::test::run_command(env + " " + GRADER_PATH + " " + args + " 2>" + err_file);
  return {r.status, r.out, text_of(err_file),
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()};
}

// The grader's configuration with no CUDA compiler: a machine without nvcc.
std::string without_nvcc() {
  const fs::path config = fs::path(GRADER_PATH).parent_path() / "grader_config.json";
  nlohmann::json c = nlohmann::json::parse(text_of(config));
  c["nvcc"] = "";
  const fs::path copy = fs::path(GRADER_PATH).parent_path() / "grader_config_no_nvcc.json";  // beside it: same tree
  std::ofstream(copy) << c.dump(2);
  return "BANKLAB_GRADER_CONFIG=" + copy.string();
}

int nvcc_records() {
  int n = 0;
  const fs::path cache = fs::path(GRADER_PATH).parent_path() / "cache";
  if (!fs::exists(cache)) return 0;
  for (const auto& entry : fs::directory_iterator(cache)) n += entry.path().filename().string().rfind("nvcc-", 0) == 0;
  return n;
}

}  // namespace

TEST_CASE("a kernel that calls a host function is refused with nvcc's message at the call's line" *
          doctest::skip(!BANKLAB_TEST_HAVE_NVCC)) {
  const Result r = run("--lab 3 --backend cpu --impl " + kHostile);
  INFO(r.out << r.err);
  CHECK(r.status == 2);
  // nvcc's message, or the source check's, which runs first and names the host function.
  const bool by_nvcc = r.err.find("grader: calls_host_function.cu does not build with nvcc: calls_host_function.cu:54: error: "
                                  "calling a __host__ function(\"padded_word(int, int)\") from a __global__ function("
                                  "\"transpose_padded\") is not allowed\n") != std::string::npos;
  const bool by_source_check =
      r.err.find("calls_host_function.cu:43: padded_word is a host function") != std::string::npos;
  CHECK((by_nvcc || by_source_check));
  CHECK(r.err.find("fix the error above in") != std::string::npos);
  if (by_nvcc) CHECK(r.err.find("Fix it so that nvcc accepts it") != std::string::npos);
  CHECK(r.out.empty());  // no grade
}

TEST_CASE("a file the source check passes and nvcc refuses: the student is told to fix the file, not the machine" *
          doctest::skip(!BANKLAB_TEST_HAVE_NVCC)) {
  const Result r = run("--lab 3 --backend cpu --impl " + kSource + "/tests/grader/lab03/hostile/shared_initialiser.cu");
  INFO(r.out << r.err);
  CHECK(r.status == 2);
  CHECK(r.err.find("grader: shared_initialiser.cu does not build with nvcc: shared_initialiser.cu:73: error: "
                   "initializer not allowed for __shared__ variable") != std::string::npos);
  CHECK(r.err.find("Fix it so that nvcc accepts it") != std::string::npos);
  CHECK(r.err.find("grader: fix the error above in ") != std::string::npos);
  CHECK(r.err.find("nothing is wrong with") == std::string::npos);
  CHECK(r.out.empty());  // no grade
}

TEST_CASE("a __host__ __device__ helper passes the nvcc step and gets full marks" *
          doctest::skip(!BANKLAB_TEST_HAVE_NVCC)) {
  const Result r = run("--lab 3 --backend cpu --time-limit 30 --format json --impl " + kSource +
                       "/tests/grader/lab03/right/host_device_helper.cu");
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(nlohmann::json::parse(r.out)["score"] == 90);
}

TEST_CASE("the nvcc step runs once per file content: uncached and cached times" *
          doctest::skip(!BANKLAB_TEST_HAVE_NVCC)) {
  const fs::path dir = fs::path(BANKLAB_TEST_TMP) / "nvcc_cache";
  fs::create_directories(dir);
  const fs::path file = dir / "transpose.cu";
  // New content every run, so that neither the source check nor nvcc has a record of it.
  const auto stamp = std::chrono::system_clock::now().time_since_epoch().count();
  std::ofstream(file) << text_of(kSource + "/solutions/03-padded-transpose/transpose.cu") << "// " << stamp << "\n";
  const std::string args = "--lab 3 --backend cpu --time-limit 30 --format json --impl " + file.string();
  const int before = nvcc_records();
  const Result first = run(args);
  INFO(first.err);
  REQUIRE(first.status == 0);
  CHECK(nlohmann::json::parse(first.out)["score"] == 90);
  CHECK(nvcc_records() == before + 1);
  const Result cached = run(args);
  CHECK(cached.status == 0);
  CHECK(nvcc_records() == before + 1);
  // The same file on a machine without nvcc: the difference is the nvcc step
  // (its source-check record exists now, so build it under another name).
  std::ofstream(file) << text_of(kSource + "/solutions/03-padded-transpose/transpose.cu") << "// " << stamp << "b\n";
  const Result no_nvcc = run(args, without_nvcc());
  CHECK(no_nvcc.status == 0);
  MESSAGE("grading a new file: " << first.seconds << " s with the nvcc step, "
                                          << no_nvcc.seconds << " s on a machine without nvcc; cached: "
                                          << cached.seconds << " s");
}

// Where nvcc is not installed the emulator build itself must refuse a call
// from device code to a host-only function. Not done yet: the libclang source
// check (grader/src/ast_check.*, helper `ast`) is to cover it. This test
// documents the gap and flips to a failure ("should have failed") once the
// emulator build refuses the file: then drop should_fail.
TEST_CASE("without nvcc, a kernel that calls a host function is refused by the emulator build" *
          doctest::should_fail()) {
  const Result r = run("--lab 3 --backend cpu --time-limit 30 --impl " + kHostile, without_nvcc());
  INFO(r.out << r.err);
  CHECK(r.status == 2);
  CHECK(r.err.find("calls_host_function.cu:54") != std::string::npos);
}

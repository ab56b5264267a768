// grader --export-program: a whole program that launches the lab file's
// kernels as the grader does; nvcc builds it where nvcc is installed, and it
// refuses a folder that is not empty.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "grader_test.hpp"

namespace fs = std::filesystem;
using banklab::test::run_command;

namespace {

std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

}  // namespace

TEST_CASE("--export-program writes a program for every stage, and nvcc builds each where it is installed") {
  const char* files[] = {"bank_mapping.cu", "stride.cu", "transpose.cu", "swizzle.cu", "wide.cu"};
  for (int lab = 1; lab <= 5; ++lab) {
    CAPTURE(lab);
    const fs::path dir = fs::path(BANKLAB_TEST_TMP) / ("program_lab" + std::to_string(lab));
    fs::remove_all(dir);
    const auto r = run_command(std::string(GRADER_PATH) + " --lab " + std::to_string(lab) + " --export-program " +
                               dir.string() + " 2>&1");
    REQUIRE(r.status == 0);
    CHECK(r.out.find("written: " + dir.string()) != std::string::npos);
    const std::string program = read_text(dir / "program.cu");
    CHECK(program.find("#include \"" + std::string(files[lab - 1]) + "\"") != std::string::npos);
    CHECK(program.find("int main(") != std::string::npos);
    CHECK(program.find("@LAB_FILE@") == std::string::npos);
    CHECK(fs::exists(dir / files[lab - 1]));
    CHECK(fs::exists(dir / "program_common.cuh"));
    CHECK(read_text(dir / "README.md").find("banklab run program.cu") != std::string::npos);
#if BANKLAB_TEST_HAVE_NVCC
    // Device code for one architecture is enough to show it builds (no GPU needed).
    const auto built = run_command("cd " + dir.string() + " && nvcc -std=c++17 -arch=sm_90 program.cu -o program 2>&1");
    CHECK_MESSAGE(built.status == 0, built.out);
#endif
  }
}

TEST_CASE("banklab run runs the exported programs on the emulator: the references are right, and so is the skeleton's (global-only) transpose") {
  for (int lab = 1; lab <= 5; ++lab) {
    CAPTURE(lab);
    const fs::path dir = fs::path(BANKLAB_TEST_TMP) / ("program_ref" + std::to_string(lab));
    fs::remove_all(dir);
    REQUIRE(run_command(std::string(GRADER_PATH) + " --lab " + std::to_string(lab) + " --solutions --export-program " +
                        dir.string() + " >/dev/null 2>&1").status == 0);
    const auto r = run_command("cd " + dir.string() + " && " + BANKLAB_PATH + " run program.cu 2>&1");
    CHECK_MESSAGE(r.status == 0, r.out);
    CHECK(r.out.find("elements wrong") == std::string::npos);
    CHECK(r.out.find("elements right") != std::string::npos);
    if (lab == 3) CHECK(r.out.find("transpose.cu:") != std::string::npos);  // the per-line costs name the lab file
  }
  // The skeleton of stage 3 (a transpose through global memory only): right, no shared accesses.
  const fs::path dir = fs::path(BANKLAB_TEST_TMP) / "program_skeleton3";
  fs::remove_all(dir);
  REQUIRE(run_command(std::string(GRADER_PATH) + " --lab 3 --export-program " + dir.string() + " >/dev/null 2>&1").status == 0);
  const auto r = run_command("cd " + dir.string() + " && " + BANKLAB_PATH + " run program.cu 2>&1");
  CHECK(r.status == 0);
  CHECK(r.out.find("transpose_padded: all 65536 elements right") != std::string::npos);
}

TEST_CASE("--export-program refuses a folder that is not empty, and --lab all") {
  const fs::path dir = fs::path(BANKLAB_TEST_TMP) / "program_full";
  fs::create_directories(dir);
  std::ofstream(dir / "keep.txt") << "mine\n";
  const auto r = run_command(std::string(GRADER_PATH) + " --lab 3 --export-program " + dir.string() + " 2>&1");
  CHECK(r.status == 2);
  CHECK(r.out.find("the folder exists and is not empty") != std::string::npos);
  CHECK(read_text(dir / "keep.txt") == "mine\n");
  const auto all = run_command(std::string(GRADER_PATH) + " --lab all --export-program " + dir.string() + "x 2>&1");
  CHECK(all.status == 2);
  CHECK(all.out.find("--export-program needs one lab") != std::string::npos);
}

// banklab run on whole CUDA programs (tests/cli/programs): the programs' own
// results are right, the per-line costs are the bank model's, the options
// work, and errors say what and where.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <filesystem>
#include <algorithm>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "run_command.hpp"

using banklab::test::run_command;

namespace {

std::string banklab_run(const std::string& args) {
  return std::string("BANKLAB_CACHE_DIR=") + BANKLAB_TEST_CACHE + " " + BANKLAB_PATH + " run " + args;
}
std::string program(const std::string& name) { return std::string(BANKLAB_PROGRAMS) + "/" + name; }

nlohmann::json run_json(const std::string& args) {
  const auto r = run_command(banklab_run("--format json " + args) + " 2>/dev/null");
  INFO(r.out);
  REQUIRE(r.status == 0);
  return nlohmann::json::parse(r.out);
}

const nlohmann::json& kernel(const nlohmann::json& report, const std::string& name) {
  for (const auto& k : report["kernels"]) {
    if (k["kernel"].get<std::string>().find(name) != std::string::npos) return k;
  }
  FAIL("no kernel " << name);
  static const nlohmann::json none;
  return none;
}

const nlohmann::json& line(const nlohmann::json& k, int number) {
  for (const auto& l : k["lines"]) {
    if (l["line"] == number) return l;
  }
  FAIL("no line " << number);
  static const nlohmann::json none;
  return none;
}

}  // namespace

TEST_CASE("an unmodified CUDA program runs with its arguments and gets its per-line table") {
  const auto r = run_command(banklab_run(program("transpose.cu") + " 64") + " 2>&1");
  INFO(r.out);
  CHECK(r.status == 0);
  CHECK(r.out.find("transpose 64x64: OK (0 wrong)") != std::string::npos);
  CHECK(r.out.find("1 launch of void transpose<0>(float*, float const*, int): 4 blocks, all traced") !=
        std::string::npos);
  // The column read of the unpadded tile: 32 wavefronts per warp instruction.
  CHECK(r.out.find("transpose.cu:29               4096         0         128        4096       128      3968      32") !=
        std::string::npos);
}

TEST_CASE("--format json: the costs per line, the padded tile conflict-free, the program's output apart") {
  const auto report = run_json(program("transpose.cu") + " 128");
  const auto& plain = kernel(report, "transpose<0>");
  const auto& padded = kernel(report, "transpose<1>");
  // 128x128: 16 blocks of 8 warps, 4 read instructions each.
  CHECK(line(plain, 29)["warp_instructions"] == 512);
  CHECK(line(plain, 29)["wavefronts"] == 512 * 32);
  CHECK(line(padded, 29)["wavefronts"] == 512);
  CHECK(line(padded, 25)["wavefronts"] == 512);
  CHECK(padded["shared_bytes"] == 32 * 33 * 4);
  CHECK(plain["launches"] == 1);
}

TEST_CASE("dynamic shared memory sized at launch: interleaved reduction conflicts, sequential does not") {
  const auto report = run_json(program("reduce_dynamic.cu"));
  const auto& interleaved = kernel(report, "reduce_interleaved");
  const auto& sequential = kernel(report, "reduce_sequential");
  CHECK(interleaved["lines"].size() == 3);
  CHECK(line(interleaved, 14)["wavefronts"] > line(interleaved, 14)["ideal_wavefronts"]);
  CHECK(line(interleaved, 14)["worst_wavefronts"] == 8);
  CHECK(line(sequential, 26)["wavefronts"] == line(sequential, 26)["ideal_wavefronts"]);
  CHECK(interleaved["findings"].empty());
  CHECK(sequential["findings"].empty());
  CHECK(interleaved["dynamic_shared_bytes"] == 256 * 4);
  // The text report names the static and the dynamic bytes apart.
  const auto text = run_command(banklab_run(program("reduce_dynamic.cu")) + " 2>&1");
  CHECK(text.out.find("kernel reduce_interleaved(int const*, int*), grid (8,1,1), block (256,1,1), 0 bytes of shared "
                      "memory + 1024 dynamic\n") != std::string::npos);
}

TEST_CASE("dynamic shared memory in template kernels and a SharedMemory<T> helper, as the CUDA samples write it") {
  const auto report = run_json(program("template_dynamic.cu"));
  const auto& reduce = kernel(report, "reduce<double");
  const auto& scale = kernel(report, "scale<2>");
  CHECK(reduce["findings"].empty());
  CHECK(scale["findings"].empty());
  CHECK(reduce["dynamic_shared_bytes"] == 128 * 8);
  // doubles, one per lane: 2 wavefronts per full warp, the ideal.
  CHECK(line(reduce, 24)["wavefronts"] == 32);
  CHECK(line(reduce, 24)["ideal_wavefronts"] == 32);
  CHECK(line(scale, 38)["wavefronts"] == 2);
  const auto r = run_command(banklab_run(program("template_dynamic.cu")) + " 2>&1");
  CHECK(r.status == 0);
  CHECK(r.out.find("reduce 499500, scale 3.0: right") != std::string::npos);
}

TEST_CASE("a launch from device code (dynamic parallelism) stops the parent at its line, saying why") {
  const auto r = run_command(banklab_run(program("dynamic_parallelism.cu")) + " 2>&1");
  INFO(r.out);
  CHECK(r.status == 1);  // the program's own: it saw the launch fail
  CHECK(r.out.find("parent: unspecified launch failure") != std::string::npos);
  CHECK(r.out.find("crash at dynamic_parallelism.cu:11: kernel stopped: a kernel launch from device code (dynamic "
                   "parallelism)") != std::string::npos);
}

TEST_CASE("cooperative groups, shared atomics and a templated device function's shared array") {
  const auto r = run_command(banklab_run(program("histogram_cg.cu")) + " 2>&1");
  INFO(r.out);
  CHECK(r.status == 0);
  CHECK(r.out.find("histogram counts 10000 of 10000; block sum 8128 (expected 8128)") != std::string::npos);
  CHECK(r.out.find("histogram_cg.cu:30") != std::string::npos);  // the broadcast read of the device function's array
}

TEST_CASE("--kernel traces one kernel, --blocks traces a sample and says so") {
  const auto one = run_json("--kernel 'transpose<1>' " + program("transpose.cu") + " 64");
  CHECK(kernel(one, "transpose<0>")["traced"] == false);
  CHECK(kernel(one, "transpose<0>")["lines"].empty());
  CHECK(kernel(one, "transpose<1>")["traced"] == true);
  const auto sampled = run_json("--blocks 4 " + program("transpose.cu") + " 256");
  CHECK(kernel(sampled, "transpose<0>")["blocks_run"] == 64);
  CHECK(kernel(sampled, "transpose<0>")["blocks_traced"] == 4);
  CHECK(line(kernel(sampled, "transpose<0>"), 29)["warp_instructions"] == 4 * 8 * 4);
  const auto text = run_command(banklab_run("--blocks 4 " + program("transpose.cu") + " 256") + " 2>&1");
  CHECK(text.out.find("64 blocks, 4 of them traced (--blocks)") != std::string::npos);
}

TEST_CASE("a launch inside an included header is rewritten too, and reported at the header's lines") {
  const auto r = run_command(banklab_run(program("header_launch.cu")) + " 2>&1");
  INFO(r.out);
  CHECK(r.status == 0);
  CHECK(r.out.find("add_one: OK") != std::string::npos);
  CHECK(r.out.find("1 launch of add_one(int*)") != std::string::npos);
  CHECK(r.out.find("launch_helpers.cuh:9") != std::string::npos);
}

TEST_CASE("a program of several files: host main.cpp, kernels.cu, helpers found with -I, launches in either") {
  const std::string app = program("multi_file/app");
  const std::string in_app = "cd " + app + " && ";
  const auto r = run_command(in_app + banklab_run("--rebuild -I ../shared main.cpp kernels.cu -- 256") + " 2>&1");
  INFO(r.out);
  CHECK(r.status == 0);
  // The helpers' guards and queries (CUDA's include guards, CUDART_VERSION,
  // cudaDeviceGetAttribute) and __CUDACC__ in the .cu file only.
  CHECK(r.out.find("device: compute capability 9.0, 132 multiprocessors") != std::string::npos);
  CHECK(r.out.find("constant memory symbols: OK") != std::string::npos);
  CHECK(r.out.find("multi-file program, 256 elements: OK (0 wrong)") != std::string::npos);
  // main.cpp defines umin and min of its own: a host file gets no device functions.
  CHECK(r.out.find("first elements shown: 4 of 4") != std::string::npos);
  CHECK(r.out.find("building main.cpp and 1 more file") != std::string::npos);
  // The launch inside the header of the other folder, and cudaLaunchKernel((void *)kernel, ...).
  CHECK(r.out.find("1 launch of double_all(float*): 4 blocks, all traced") != std::string::npos);
  CHECK(r.out.find("double_launch.cuh:9") != std::string::npos);
  CHECK(r.out.find("1 launch of reverse_block(float*): 4 blocks, all traced") != std::string::npos);
  CHECK(r.out.find("kernels.cu:15") != std::string::npos);

  // A kernel pointer whose type is gone cannot be called: CUDA's error, and why.
  const auto untyped = run_command(in_app + banklab_run("-I ../shared main.cpp kernels.cu -- 256 untyped") + " 2>&1");
  CHECK(untyped.status == 1);
  CHECK(untyped.out.find("cudaLaunchKernel was given the kernel reverse_block(float*) as a plain pointer") !=
        std::string::npos);
  CHECK(untyped.out.find("cudaErrorInvalidDeviceFunction") != std::string::npos);

  // Without -I the helper is not found; without kernels.cu the program does not link.
  const auto no_include = run_command(in_app + banklab_run("main.cpp kernels.cu") + " 2>&1");
  CHECK(no_include.status == 2);
  CHECK(no_include.out.find("checks.h") != std::string::npos);
  const auto one_file = run_command(in_app + banklab_run("-I ../shared main.cpp") + " 2>&1");
  CHECK(one_file.status == 2);
  CHECK(one_file.out.find("undefined reference to `double_on_device(float*, int)'") != std::string::npos);
  CHECK(one_file.out.find("a program of several files: banklab run main.cu other.cu") != std::string::npos);
}

TEST_CASE("cudaLaunchCooperativeKernel: a grid sync over one block runs, over several stops at its line") {
  const auto one = run_command(banklab_run(program("grid_sync.cu") + " 1") + " 2>&1");
  INFO(one.out);
  CHECK(one.status == 0);
  CHECK(one.out.find("grid sync over 1 blocks: OK") != std::string::npos);
  CHECK(one.out.find("1 launch of sum_then_scale(int const*, int*, int*, int): 1 block, all traced") != std::string::npos);
  const auto four = run_command(banklab_run(program("grid_sync.cu") + " 4") + " 2>&1");
  INFO(four.out);
  CHECK(four.status == 1);
  CHECK(four.out.find("grid sync over 4 blocks: unspecified launch failure") != std::string::npos);
  CHECK(four.out.find("crash at grid_sync.cu:24: kernel stopped: a grid-wide sync (this_grid().sync()) over more "
                      "than one block") != std::string::npos);
}

TEST_CASE("a launch CUDA refuses returns its error from cudaLaunchKernel and from cudaGetLastError, once") {
  const auto r = run_command(banklab_run(program("launch_errors.cu")) + " 2>&1");
  INFO(r.out);
  CHECK(r.status == 0);
  CHECK(r.out.find("valid launch: cudaSuccess, then cudaSuccess\n") != std::string::npos);
  CHECK(r.out.find("2048 threads: cudaErrorInvalidConfiguration, then cudaErrorInvalidConfiguration, then "
                   "cudaSuccess\n") != std::string::npos);
  CHECK(r.out.find("2048 threads with <<<>>>: cudaErrorInvalidConfiguration\n") != std::string::npos);
  CHECK(r.out.find("launch errors: OK") != std::string::npos);
  // Each refused launch is named at its own line.
  CHECK(r.out.find("invalid launch at launch_errors.cu:22: invalid launch configuration: grid (1,1,1), block "
                   "(2048,1,1)") != std::string::npos);
  CHECK(r.out.find("invalid launch at launch_errors.cu:25: invalid launch configuration") != std::string::npos);
  // Too much dynamic shared memory: refused too, at its line, with the limit.
  CHECK(r.out.find("4 MiB of dynamic shared memory: refused\n") != std::string::npos);
  CHECK(r.out.find("invalid launch at launch_errors.cu:27: ") != std::string::npos);
  CHECK(r.out.find("232448") != std::string::npos);
  // Its first launch ran no block (it stopped, it was not left out by
  // --kernel); the second ran: the kernel still reads as stopped early.
  CHECK(r.out.find("2 launches of staged(int*): 1 block, 1 of the launches stopped early") != std::string::npos);
  CHECK(r.out.find("kernel staged(int*), grid (1,1,1), block (64,1,1), 0 bytes of shared memory + 256 dynamic, "
                   "STOPPED EARLY") != std::string::npos);
  CHECK(r.out.find("not traced (--kernel)") == std::string::npos);
}

TEST_CASE("a kernel fault is a finding with its line, and the program sees CUDA's error") {
  const auto r = run_command(banklab_run(program("out_of_bounds.cu")) + " 2>&1");
  INFO(r.out);
  CHECK(r.status == 0);
  CHECK(r.out.find("after the launch: an illegal memory access was encountered") != std::string::npos);
  CHECK(r.out.find("out-of-bounds shared access at out_of_bounds.cu:9") != std::string::npos);
}

TEST_CASE("a program that does not build: exit status 2 and the compiler's message with the file's own line") {
  const auto r = run_command(banklab_run(program("does_not_build.cu")) + " 2>&1");
  CHECK(r.status == 2);
  CHECK(r.out.find("does_not_build.cu:5:14: error: ") != std::string::npos);
  CHECK(r.out.find("undeclared_name") != std::string::npos);
  CHECK(r.out.find("does not build for the CPU emulator") != std::string::npos);
}

TEST_CASE("usage errors: no program, a missing file, an unknown option") {
  CHECK(run_command(banklab_run("") + " 2>&1").status == 2);
  const auto missing = run_command(banklab_run("no_such_program.cu") + " 2>&1");
  CHECK(missing.status == 2);
  CHECK(missing.out.find("no_such_program.cu: no such file") != std::string::npos);
  CHECK(run_command(banklab_run("--no-such-option x.cu") + " 2>&1").status != 0);
  const auto help = run_command(std::string(BANKLAB_PATH) + " run --help");
  CHECK(help.status == 0);
  CHECK(help.out.find("--kernel") != std::string::npos);
}

// ---- nvcc's own code: lines it compiles differently ------------------------------

namespace {

// One of Nsight Compute's counters per kernel (the name before its parameter
// list), from the H200 run of the GPU comparison program: by default its
// shared load instructions.
std::map<std::string, std::uint64_t> ncu_shared_loads(const std::string& metric = "smsp__sass_inst_executed_op_shared_ld.sum") {
  std::ifstream in(std::string(BANKLAB_SOURCE_DIR) + "/common/emulator/gpu_compare/h200/ncu.csv");
  std::map<std::string, std::uint64_t> out;
  std::string text;
  while (std::getline(in, text)) {
    if (text.empty() || text[0] != '"') continue;
    std::vector<std::string> fields;
    for (std::size_t i = 0; i < text.size();) {
      const std::size_t close = text.find('"', i + 1);
      fields.push_back(text.substr(i + 1, close - i - 1));
      i = close + 2;
    }
    if (fields.size() < 15 || fields[12] != metric) continue;
    std::string digits;
    for (char c : fields[14]) {
      if (c != ',') digits += c;
    }
    out[fields[4].substr(0, fields[4].find('('))] += std::stoull(digits);
  }
  return out;
}

// A folder with an `nvcc` that makes an empty cubin and an `nvdisasm` that
// prints what the real one printed on the H200 machine (`recorded`, under
// tests/data/gpu/: by default for the GPU comparison program), or with
// `nvcc` alone.
std::string fake_cuda_bin(bool with_nvdisasm, const std::string& recorded = "gpu_compare_nvdisasm.txt") {
  std::string name = recorded.substr(0, recorded.find('.'));
  std::replace(name.begin(), name.end(), '/', '-');
  const std::string dir =
      std::string(BANKLAB_TEST_CACHE) + (with_nvdisasm ? "/fake-cuda-" + name : "/fake-cuda-no-nvdisasm");
  std::filesystem::create_directories(dir);
  {
    std::ofstream nvcc(dir + "/nvcc");
    nvcc << "#!/bin/sh\nwhile [ $# -gt 0 ]; do if [ \"$1\" = -o ]; then : > \"$2\"; fi; shift; done\n";
  }
  std::filesystem::permissions(dir + "/nvcc", std::filesystem::perms::owner_all);
  if (with_nvdisasm) {
    std::ofstream nvdisasm(dir + "/nvdisasm");
    nvdisasm << "#!/bin/sh\ncat '" << BANKLAB_SOURCE_DIR << "/tests/data/gpu/" << recorded << "'\n";
  }
  if (with_nvdisasm) std::filesystem::permissions(dir + "/nvdisasm", std::filesystem::perms::owner_all);
  return dir;
}

}  // namespace

TEST_CASE("lines nvcc compiles differently are named, with Nsight Compute's count estimated") {
  const std::string gpu_compare = std::string(BANKLAB_SOURCE_DIR) + "/common/emulator/gpu_compare/kernels.cu";
  const auto r = run_command("BANKLAB_CUDA_BIN=" + fake_cuda_bin(true) + " " +
                             banklab_run("--rebuild --format json " + gpu_compare) + " 2>/dev/null");
  INFO(r.out);
  REQUIRE(r.status == 0);
  const auto report = nlohmann::json::parse(r.out);
  CHECK(report["nvcc_compared"] == true);
  const auto ncu = ncu_shared_loads();
  REQUIRE(ncu.size() == 12);
  int flagged = 0;
  for (const auto& k : report["kernels"]) {
    const std::string name = k["kernel"].get<std::string>().substr(0, k["kernel"].get<std::string>().find('('));
    std::uint64_t emulator_loads = 0;
    for (const auto& l : k["lines"])
      emulator_loads += l["warp_instructions"].get<std::uint64_t>() - l["store_instructions"].get<std::uint64_t>();
    INFO(name << ": emulator " << emulator_loads << " load instructions, Nsight Compute " << ncu.at(name));
    // Named exactly where the H200's counts differ from the emulator's.
    CHECK(k["nvcc_differences"].empty() == (emulator_loads == ncu.at(name)));
    if (k["nvcc_differences"].empty()) continue;
    ++flagged;
    const std::string text = k["nvcc_differences"][0].get<std::string>();
    const auto about = text.find("counts about ");
    REQUIRE(about != std::string::npos);
    const double estimate = std::stod(text.substr(about + 13));
    // Within 5% of what Nsight Compute measured (the tiled multiply: exactly).
    CHECK(std::abs(estimate - static_cast<double>(ncu.at(name))) <= 0.05 * static_cast<double>(ncu.at(name)));
    if (name == "matmul_tiled") CHECK(static_cast<std::uint64_t>(estimate) == ncu.at(name));
  }
  CHECK(flagged == 2);
}

TEST_CASE("with nvcc installed, banklab run compares with nvcc's own code by default, as the H200's nvdisasm does") {
  // No BANKLAB_CUDA_BIN: the tools a user has (PATH, /usr/local/cuda/bin,
  // or the nvdisasm setup.sh installs into the build's cuda-tools/).
  const bool nvcc = run_command("command -v nvcc >/dev/null || test -x /usr/local/cuda/bin/nvcc").status == 0;
  if (!nvcc) {
    MESSAGE("no nvcc on this machine: nothing to compare with");
    return;
  }
  const std::string gpu_compare = std::string(BANKLAB_SOURCE_DIR) + "/common/emulator/gpu_compare/kernels.cu";
  const auto real = run_command(banklab_run("--format json " + gpu_compare) + " 2>/dev/null");
  INFO(real.out);
  REQUIRE(real.status == 0);
  const auto report = nlohmann::json::parse(real.out);
  // setup.sh --deps-only (CI's first step) installs nvdisasm where nvcc has none.
  INFO("not compared because: " << report.value("nvcc_not_compared_because", std::string("?")));
  REQUIRE(report["nvcc_compared"] == true);
  CHECK(report["nvcc_tools"].get<std::string>().rfind("nvcc 13.", 0) == 0);
  // The same lines named, in the same words, as from the H200 machine's
  // nvdisasm of nvcc 13.0 (tests/data/gpu/gpu_compare_nvdisasm.txt).
  const auto recorded = run_command("BANKLAB_CUDA_BIN=" + fake_cuda_bin(true) + " " +
                                    banklab_run("--format json " + gpu_compare) + " 2>/dev/null");
  REQUIRE(recorded.status == 0);
  const auto h200 = nlohmann::json::parse(recorded.out);
  REQUIRE(h200["kernels"].size() == report["kernels"].size());
  int named = 0;
  for (std::size_t i = 0; i < report["kernels"].size(); ++i) {
    CAPTURE(report["kernels"][i]["kernel"]);
    CHECK(report["kernels"][i]["nvcc_differences"] == h200["kernels"][i]["nvcc_differences"]);
    named += static_cast<int>(report["kernels"][i]["nvcc_differences"].size());
  }
  CHECK(named == 2);
}

TEST_CASE("kernels taking __half and half2 are found in nvcc's code and priced as compiled (their names match nvcc's)") {
  const bool nvcc = run_command("command -v nvcc >/dev/null || test -x /usr/local/cuda/bin/nvcc").status == 0;
  if (!nvcc) {
    MESSAGE("no nvcc on this machine: nothing to compare with");
    return;
  }
  const auto r = run_command(banklab_run("--as-compiled --format json " + program("half_types.cu")) + " 2>/dev/null");
  INFO(r.out);
  REQUIRE(r.status == 0);
  const auto report = nlohmann::json::parse(r.out);
  REQUIRE(report["nvcc_compared"] == true);
  REQUIRE(report["kernels"].size() == 2);
  for (const auto& k : report["kernels"]) {
    CAPTURE(k["kernel"]);
    // nvcc mangles the parameters as __half and __half2 (cuda_fp16.h's names).
    CHECK(std::string(k["kernel"]).find("__half") != std::string::npos);
    CHECK(k["nvcc_found"] == true);
    REQUIRE(k.contains("as_compiled"));
    // One 2-byte (or 4-byte) access per thread each way, conflict-free: as written.
    CHECK(k["as_compiled"]["total"]["load_wavefronts"] == 16);
    CHECK(k["as_compiled"]["total"]["store_wavefronts"] == 16);
  }
  // A kernel nvcc's code lacks is said to be not compared (the text report).
  const auto text = run_command(banklab_run(program("half_types.cu")) + " 2>&1");
  CHECK(text.out.find("not compared with nvcc's code") == std::string::npos);
  // With another program's code (the H200's of as_compiled.cu), it is said.
  const auto other = run_command("BANKLAB_CUDA_BIN=" + fake_cuda_bin(true, "h200_as_compiled/as_compiled.sass") + " " +
                                 banklab_run(program("half_types.cu")) + " 2>&1");
  CHECK(other.out.find("not compared with nvcc's code: it has no shared instruction of a function "
                       "reverse_half(__half*, __half const*)") != std::string::npos);
  const auto other_json = run_command("BANKLAB_CUDA_BIN=" + fake_cuda_bin(true, "h200_as_compiled/as_compiled.sass") +
                                      " " + banklab_run("--format json " + program("half_types.cu")) + " 2>/dev/null");
  REQUIRE(other_json.status == 0);
  const auto other_report = nlohmann::json::parse(other_json.out);  // kept: the loop reads into it
  REQUIRE(!other_report["kernels"].empty());
  for (const auto& k : other_report["kernels"]) CHECK(k["nvcc_found"] == false);
}

TEST_CASE("a shared accumulator nvcc keeps in a register through its loop is named, with the most Nsight Compute counts") {
  const bool nvcc = run_command("command -v nvcc >/dev/null || test -x /usr/local/cuda/bin/nvcc").status == 0;
  if (!nvcc) {
    MESSAGE("no nvcc on this machine: nothing to compare with");
    return;
  }
  const auto r = run_command(banklab_run("--format json " + program("as_compiled.cu")) + " 2>/dev/null");
  INFO(r.out);
  REQUIRE(r.status == 0);
  const auto report = nlohmann::json::parse(r.out);
  REQUIRE(report["nvcc_compared"] == true);
  std::map<std::string, std::vector<std::string>> named;  // kernel -> its sentences
  for (const auto& k : report["kernels"]) {
    const std::string kernel = k["kernel"];
    for (const auto& d : k["nvcc_differences"]) named[kernel.substr(0, kernel.find('('))].push_back(d);
  }
  const auto said = [&](const std::string& kernel, const std::string& start, const std::string& part) {
    for (const std::string& d : named[kernel]) {
      if (d.rfind(start, 0) == 0 && d.find(part) != std::string::npos) return true;
    }
    return false;
  };
  // acc[t] += in[i] in a grid-stride loop: nvcc stores once after the loop,
  // so each of the 2 blocks' 4 warps stores once; the emulator counts a
  // store per iteration (8 per warp).
  CHECK(said("accumulate", "as_compiled.cu:58: stores: nvcc's 1 x 4-byte store here is outside every loop of its code",
             "the emulator counts 64 store instructions: Nsight Compute counts at most 8 here"));
  // What the H200 counted on that line (tests/data/gpu/h200_as_compiled/lines.csv).
  std::ifstream measured(std::string(BANKLAB_SOURCE_DIR) + "/tests/data/gpu/h200_as_compiled/lines.csv");
  std::string row, line58;
  while (std::getline(measured, row)) {
    if (row.rfind("accumulate,as_compiled.cu,58,Store,", 0) == 0) line58 = row;
  }
  CHECK(line58 == "accumulate,as_compiled.cu,58,Store,8,8,8");
  // Thread 0's loop over the slots, unrolled by nvcc into 32 LDS.128: a
  // width difference, not a store moved out of a loop.
  CHECK(said("accumulate", "as_compiled.cu:62: loads: nvcc makes 32 x 16-byte load", "counts about 64 load instructions"));
  CHECK_FALSE(said("accumulate", "as_compiled.cu:62", "outside every loop"));
  // Two adjacent 4-byte stores on two lines, one STS.64 on the second; two
  // adjacent loads on one line, one LDS.64.
  CHECK(said("pairs", "as_compiled.cu:33: stores: nvcc makes no shared store here", "counts none on this line"));
  CHECK(said("pairs", "as_compiled.cu:34: stores: nvcc makes 1 x 8-byte store", "counts about 16 store instructions"));
  CHECK(said("pairs", "as_compiled.cu:36: loads: nvcc makes 1 x 8-byte load", "counts about 32 load instructions"));
  // The histogram's atomics run in nvcc's loop, as in the source.
  CHECK(named["histogram"].empty());
  // The same sentences from the H200 machine's nvdisasm of the same program.
  const auto recorded = run_command("BANKLAB_CUDA_BIN=" + fake_cuda_bin(true, "h200_as_compiled/as_compiled.sass") +
                                    " " + banklab_run("--format json " + program("as_compiled.cu")) + " 2>/dev/null");
  REQUIRE(recorded.status == 0);
  const auto h200 = nlohmann::json::parse(recorded.out);
  REQUIRE(h200["kernels"].size() == report["kernels"].size());
  for (std::size_t i = 0; i < h200["kernels"].size(); ++i) {
    CAPTURE(h200["kernels"][i]["kernel"]);
    CHECK(h200["kernels"][i]["nvcc_differences"] == report["kernels"][i]["nvcc_differences"]);
  }
}

namespace {

// `banklab run --as-compiled PROGRAM` with the H200 machine's nvdisasm of it
// (tests/data/gpu/DIR/NAME.sass) against that machine's Source page summed
// per line (DIR/lines.csv, `rows` rows): every line and every kernel total.
// Returns the report.
nlohmann::json check_as_compiled_against_h200(const std::string& name, const std::string& dir, int rows_expected) {
  const auto r = run_command("BANKLAB_CUDA_BIN=" + fake_cuda_bin(true, dir + "/" + name + ".sass") + " " +
                             banklab_run("--as-compiled --format json " + program(name + ".cu")) + " 2>/dev/null");
  INFO(r.out);
  REQUIRE(r.status == 0);
  const auto report = nlohmann::json::parse(r.out);
  REQUIRE(report["as_compiled"] == true);
  // kernel -> "line,operation" -> (instructions, wavefronts, ideal), from the report.
  using Counts = std::array<std::uint64_t, 3>;
  std::map<std::string, std::map<std::string, Counts>> ours;
  for (const auto& k : report["kernels"]) {
    const std::string kernel = k["kernel"];
    REQUIRE(k.contains("as_compiled"));
    auto& lines = ours[kernel.substr(0, kernel.find('('))];
    for (const auto& l : k["as_compiled"]["lines"]) {
      const std::string at = std::string(l["file"]).substr(std::string(l["file"]).rfind('/') + 1) + "," +
                             std::to_string(l["line"].get<int>());
      const std::uint64_t ideal = l["ideal_wavefronts"];
      for (const auto& [op, key] : {std::pair<const char*, const char*>{"Load", "load"}, {"Store", "store"}, {"Atomic", "atomic"}}) {
        const std::uint64_t n = l[std::string(key) + "_instructions"], wf = l[std::string(key) + "_wavefronts"];
        // A line has one kind of access here, so its ideal is that access's.
        if (n > 0) lines[at + "," + op] = Counts{n, wf, ideal};
      }
    }
  }
  // The H200's Source page, summed per line. It files a shared atomicAdd's
  // ATOMS under device_atomic_functions.hpp:112, inlined at the caller's line
  // (the nvdisasm chain), where the report puts it: as_compiled.cu:73.
  std::map<std::string, std::map<std::string, Counts>> h200;
  std::ifstream measured(std::string(BANKLAB_SOURCE_DIR) + "/tests/data/gpu/" + dir + "/lines.csv");
  std::string row;
  std::getline(measured, row);  // header
  int rows = 0;
  while (std::getline(measured, row)) {
    std::vector<std::string> cell;
    std::stringstream cells(row);
    for (std::string c; std::getline(cells, c, ',');) cell.push_back(c);
    REQUIRE(cell.size() == 7);
    std::string at = cell[1] + "," + cell[2];
    if (at == "device_atomic_functions.hpp,112") at = "as_compiled.cu,73";
    h200[cell[0]][at + "," + cell[3]] = Counts{std::stoull(cell[4]), std::stoull(cell[5]), std::stoull(cell[6])};
    ++rows;
  }
  REQUIRE(rows == rows_expected);
  CHECK(ours == h200);
  // Per kernel, the totals too.
  for (const auto& [kernel, lines] : h200) {
    CAPTURE(kernel);
    Counts want{}, got{};
    for (const auto& [at, c] : lines) {
      for (int i = 0; i < 3; ++i) want[i] += c[i];
    }
    for (const auto& k : report["kernels"]) {
      if (std::string(k["kernel"]).rfind(kernel + "(", 0) != 0) continue;
      const auto& t = k["as_compiled"]["total"];
      got = {t["load_instructions"].get<std::uint64_t>() + t["store_instructions"].get<std::uint64_t>() +
                 t["atomic_instructions"].get<std::uint64_t>(),
             t["load_wavefronts"].get<std::uint64_t>() + t["store_wavefronts"].get<std::uint64_t>() +
                 t["atomic_wavefronts"].get<std::uint64_t>(),
             t["ideal_wavefronts"]};
    }
    CHECK(got == want);
  }
  return report;
}

}  // namespace

TEST_CASE("--as-compiled prices what nvcc issued: every line and kernel total equal to the H200's source view") {
  // nvdisasm of the H200 machine's build (tests/data/gpu/h200_as_compiled/):
  // no nvcc needed here.
  const auto report = check_as_compiled_against_h200("as_compiled", "h200_as_compiled", 11);
  // The source view stays as it was: pairs' line 36 is two 4-byte loads per warp there.
  for (const auto& k : report["kernels"]) {
    if (std::string(k["kernel"]).rfind("pairs(", 0) != 0) continue;
    for (const auto& l : k["lines"]) {
      if (l["line"] == 36) CHECK(l["warp_instructions"] == 64);
    }
  }
  // The text report shows the table and says what nvcc did.
  const auto text = run_command("BANKLAB_CUDA_BIN=" + fake_cuda_bin(true, "h200_as_compiled/as_compiled.sass") + " " +
                                banklab_run("--as-compiled " + program("as_compiled.cu")) + " 2>&1");
  CHECK(text.out.find("as nvcc compiled it (--as-compiled") != std::string::npos);
  CHECK(text.out.find("64 joined into wider accesses (LDS.64)") != std::string::npos);
  CHECK(text.out.find("56 repeats not issued: kept in a register through the loop") != std::string::npos);
  CHECK(text.out.find("21 predicated off in every lane, still issued") != std::string::npos);
}

TEST_CASE("--as-compiled on a program written after it, measured after: every line and kernel total equal to the H200's") {
  // Two adjacent loads (and stores) of a butterfly on two lines, a row read
  // nvcc widens beside a column read it cannot, a running maximum kept in a
  // register, a predicated store in a branch whole blocks skip.
  check_as_compiled_against_h200("as_compiled_more", "h200_as_compiled_more", 16);
}

TEST_CASE("--as-compiled on the twelve kernels of the GPU comparison: 11 equal Nsight Compute in every count") {
  const std::string gpu_compare = std::string(BANKLAB_SOURCE_DIR) + "/common/emulator/gpu_compare/kernels.cu";
  const auto r = run_command("BANKLAB_CUDA_BIN=" + fake_cuda_bin(true) + " " +
                             banklab_run("--as-compiled --format json " + gpu_compare) + " 2>/dev/null");
  INFO(r.out);
  REQUIRE(r.status == 0);
  const auto report = nlohmann::json::parse(r.out);
  REQUIRE(report["as_compiled"] == true);
  // The kernel-level counters of h200/ncu.csv; their instruction counts leave
  // out warps where a predicated instruction had no lane on, which the report
  // counts (as the Source page does) and names apart.
  const std::pair<const char*, const char*> counters[] = {
      {"smsp__sass_inst_executed_op_shared_ld.sum", "load_instructions"},
      {"smsp__sass_inst_executed_op_shared_st.sum", "store_instructions"},
      {"smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "load_wavefronts"},
      {"smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum", "store_wavefronts"},
      {"smsp__sass_inst_executed_op_shared_atom.sum", "atomic_instructions"},
      {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum", "atomic_wavefronts"}};
  int equal = 0, kernels = 0;
  for (const auto& k : report["kernels"]) {
    const std::string name = k["kernel"].get<std::string>().substr(0, k["kernel"].get<std::string>().find('('));
    const std::string plain = name.rfind("void ", 0) == 0 ? name.substr(5) : name;
    ++kernels;
    bool same = true;
    for (const auto& [metric, field] : counters) {
      const auto gpu = ncu_shared_loads(metric);
      std::uint64_t ours = 0;
      for (const auto& l : k["as_compiled"]["lines"]) {
        ours += l[field].get<std::uint64_t>();
        if (std::string(field) == "load_instructions") ours -= l["predicated_off_warps"]["loads"].get<std::uint64_t>();
        if (std::string(field) == "store_instructions") ours -= l["predicated_off_warps"]["stores"].get<std::uint64_t>();
      }
      const auto found = gpu.find(plain);
      const std::uint64_t theirs = found == gpu.end() ? 0 : found->second;
      INFO(plain << " " << metric << ": Nsight Compute " << theirs << ", --as-compiled " << ours);
      if (plain != "sums_in_function") CHECK(ours == theirs);
      same = same && ours == theirs;
    }
    equal += same;
  }
  CHECK(kernels == 12);
  // sums_in_function: nvcc reads partial[4][33] whole in 33 LDS.128, the pad
  // words too; the emulator joins only the 16-byte spans the loop reads whole
  // (gpu_compare/README.md).
  CHECK(equal == 11);
}

TEST_CASE("--as-compiled without nvdisasm says it did not price the lines as compiled, and the source view stays") {
  const auto r = run_command("BANKLAB_CUDA_BIN=" + fake_cuda_bin(false) + " " +
                             banklab_run("--as-compiled " + program("as_compiled.cu")) + " 2>&1");
  INFO(r.out);
  CHECK(r.status == 0);
  CHECK(r.out.find("not priced as nvcc compiled it: nvcc's code was not compared") != std::string::npos);
  CHECK(r.out.find("as_compiled.cu:36") != std::string::npos);
}

TEST_CASE("without nvdisasm the report says that nvcc's code was not compared, and why") {
  const auto r = run_command("BANKLAB_CUDA_BIN=" + fake_cuda_bin(false) + " " +
                             banklab_run("--rebuild " + program("transpose.cu") + " 64") + " 2>&1");
  INFO(r.out);
  CHECK(r.status == 0);
  CHECK(r.out.find("nvcc's own code was not compared: nvdisasm not found") != std::string::npos);
}

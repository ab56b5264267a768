// banklab run at its edges: --time-limit bounds the whole program (host code
// included) and a stopped launch is a non-zero exit; limits that are not a
// number of seconds are refused in words; a program without a launch, or one
// whose allocation fails, is told so instead of "did it call _exit?"; a
// stopped launch and a kernel launched with several shapes say so; kernel
// attributes are an H200's; by-value parameters and runtime calls from
// kernel code behave as on a GPU; every device function gives what an H100
// gives.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
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

// The "value NAME ...: fields" rows of `out` against an H100's in `recorded`
// (tests/data/gpu/...), row by row: `rows` of `fields` fields each ("|" not
// counted); the fields in `exact` equal as text, each other field within its
// relative tolerance in `close` (field, tolerance).
void compare_value_rows(const std::string& out, const std::string& recorded, std::size_t rows, std::size_t fields,
                        const std::vector<std::size_t>& exact, const std::vector<std::pair<std::size_t, double>>& close) {
  const auto values_of = [](const std::string& text) {
    std::vector<std::string> parts;
    std::istringstream in(text.substr(text.find(": ") + 2));
    for (std::string word; in >> word;) {
      if (word != "|") parts.push_back(word);
    }
    return parts;
  };
  std::ifstream file(std::string(BANKLAB_SOURCE_DIR) + "/" + recorded);
  std::vector<std::string> gpu;
  for (std::string line; std::getline(file, line);) {
    if (line.rfind("value ", 0) == 0) gpu.push_back(line);
  }
  REQUIRE(gpu.size() == rows);
  std::istringstream emulated(out);
  std::size_t row = 0;
  for (std::string line; std::getline(emulated, line);) {
    if (line.rfind("value ", 0) != 0) continue;
    REQUIRE(row < gpu.size());
    const std::string& expected = gpu[row++];
    INFO(line << "\nH100: " << expected);
    REQUIRE(line.substr(0, line.find(": ")) == expected.substr(0, expected.find(": ")));
    const std::vector<std::string> mine = values_of(line), theirs = values_of(expected);
    REQUIRE(mine.size() == fields);
    REQUIRE(theirs.size() == fields);
    for (std::size_t i : exact) CHECK(mine[i] == theirs[i]);
    for (const auto& [i, tolerance] : close) {
      const double a = std::strtod(mine[i].c_str(), nullptr), b = std::strtod(theirs[i].c_str(), nullptr);
      CHECK(std::fabs(a - b) <= tolerance * std::fabs(b));
    }
  }
  CHECK(row == rows);
}

}  // namespace

TEST_CASE("--time-limit stops an endless host loop: the whole program is bounded, exit status 124") {
  // Without the bound this test would never end (the loop is endless): that it
  // ends at all, with the limit's message, is the check.
  const auto r = run_command(banklab_run("--time-limit 2 " + program("host_loop.cu")) + " 2>&1");
  INFO(r.out);
  CHECK(r.status == 124);
  CHECK(r.out.find("launched; now looping on the host") != std::string::npos);
  CHECK(r.out.find("ran past the time limit of 2 s (the whole program, host code included)") != std::string::npos);
  // Stopped with SIGTERM first, the program wrote the report of the launch that ran.
  CHECK(r.out.find("1 launch of fill(float*): 1 block, all traced") != std::string::npos);
  CHECK(r.out.find("it had no time to write its report") == std::string::npos);
}

TEST_CASE("host code that aborts after a launch still shows what it printed and the report of the launch") {
  const auto r = run_command(banklab_run(program("host_abort.cu")) + " 2>&1");
  INFO(r.out);
  CHECK(r.status == 134);
  CHECK(r.out.find("launched; a host check fails next\n") != std::string::npos);
  CHECK(r.out.find("1 launch of reverse_tile(float*): 1 block, all traced") != std::string::npos);
  CHECK(r.out.find("host_abort.cu:12                64         0") != std::string::npos);
  CHECK(r.out.find("banklab run: the program was killed by signal 6 (Aborted)\n") != std::string::npos);
  CHECK(r.out.find("before it could write its report") == std::string::npos);
}

TEST_CASE("a launch stopped at the time limit makes banklab run exit 124, though the program returns 0") {
  const auto r = run_command(banklab_run("--time-limit 1 " + program("kernel_loop.cu")) + " 2>&1");
  INFO(r.out);
  CHECK(r.status == 124);
  CHECK(r.out.find("1 launch was stopped at the time limit of 1 s") != std::string::npos);
  CHECK(r.out.find("after the launch: ") != std::string::npos);  // the program went on, and saw the error
  // The kernel's header says the launch stopped, not "all traced".
  CHECK(r.out.find("1 launch of spin(int volatile*): 1 block, the launch stopped early (see below): the counts are "
                   "for what ran before it stopped") != std::string::npos);
  CHECK(r.out.find("all traced") == std::string::npos);
}

TEST_CASE("a kernel launched with two shapes has each named with its launches, in text and JSON") {
  const auto r = run_command(banklab_run(program("two_shapes.cu")) + " 2>&1");
  INFO(r.out);
  CHECK(r.status == 0);
  CHECK(r.out.find("scale, three launches: OK (0 wrong)") != std::string::npos);
  CHECK(r.out.find("3 launches of scale(float*, float): 8 blocks, all traced") != std::string::npos);
  CHECK(r.out.find("launched with 2 shapes (the line below names the last): grid (4,1,1), block (64,1,1) x 1; "
                   "grid (2,1,1), block (128,1,1) x 2\n") != std::string::npos);
  const auto j = run_command(banklab_run("--format json " + program("two_shapes.cu")) + " 2>/dev/null");
  REQUIRE(j.status == 0);
  const nlohmann::json report = nlohmann::json::parse(j.out);
  REQUIRE(report["kernels"].size() == 1);
  const nlohmann::json& k = report["kernels"][0];
  CHECK(k["launches"] == 3);
  CHECK(k["stopped_launches"] == 0);
  CHECK(k["geometries"] == nlohmann::json::parse(R"([{"grid": [4, 1, 1], "block": [64, 1, 1], "launches": 1},
                                                     {"grid": [2, 1, 1], "block": [128, 1, 1], "launches": 2}])"));
}

TEST_CASE("--time-limit that is not a number of seconds is refused with its range, not a 309-digit number") {
  for (const char* limit : {"1e20", "nan", "inf", "-1", "0", "soon"}) {
    INFO("--time-limit " << limit);
    const auto r =
        run_command(banklab_run(std::string("--time-limit ") + limit + " " + program("transpose.cu")) + " 2>&1");
    CHECK(r.status != 0);
    CHECK(r.out.find("is not a number of seconds from 0.001 to 86400") != std::string::npos);
    CHECK(r.out.find("179769") == std::string::npos);  // the largest double, written out
  }
}

TEST_CASE("a program without a kernel launch is told there is nothing to trace") {
  const auto r = run_command(banklab_run(program("no_launch.cu")) + " 2>&1");
  INFO(r.out);
  CHECK(r.status == 0);
  CHECK(r.out.find("allocated and freed, launched nothing") != std::string::npos);
  CHECK(r.out.find("the program has no kernel launch") != std::string::npos);
  CHECK(r.out.find("_exit or abort") == std::string::npos);
}

TEST_CASE("a failed cudaMalloc before the first launch is named, with its size") {
  const auto r = run_command(banklab_run(program("alloc_fails.cu")) + " 2>&1");
  INFO(r.out);
  CHECK(r.status == 1);  // the program's own exit status
  CHECK(r.out.find("cudaMalloc: out of memory") != std::string::npos);
  CHECK(r.out.find("before its first kernel launch: 1 cudaMalloc call failed (the largest asked for "
                   "1125899906842624 bytes") != std::string::npos);
  CHECK(r.out.find("_exit or abort") == std::string::npos);
}

TEST_CASE("cudaFuncGetAttributes gives the static shared memory and the dynamic limit an H200 gives") {
  // The numbers the same program printed on an H200 (tests/data/gpu/h200_func_attributes/).
  const auto r = run_command(banklab_run(program("func_attributes.cu")) + " 2>&1");
  INFO(r.out);
  CHECK(r.status == 0);
  CHECK(r.out.find("padded_tile: 4224 static bytes, 1024 threads at most, dynamic limit 44928\n") != std::string::npos);
  CHECK(r.out.find("big_dynamic: 16 static bytes, dynamic limit 49136\n") != std::string::npos);
  CHECK(r.out.find("big_dynamic after cudaFuncSetAttribute: dynamic limit 65536\n") != std::string::npos);
  CHECK(r.out.find("asking for 228 KiB: cudaErrorInvalidValue\n") != std::string::npos);
  CHECK(r.out.find("big_dynamic with 64 KiB: right\n") != std::string::npos);
}

TEST_CASE(
    "a by-value kernel parameter is copied on the host once per launch, never per thread: a lock whose "
    "destructor frees its memory stays usable by every block") {
  const auto r = run_command(banklab_run(program("by_value_params.cu")) + " 2>&1");
  INFO(r.out);
  CHECK(r.status == 0);
  CHECK(r.out.find("sum under a by-value lock, 64 blocks: OK (73713, expected 73713; cudaSuccess)") !=
        std::string::npos);
  // Per thread, 8192 copies and as many destructor calls would be made.
  CHECK(r.out.find("host copies of the by-value argument: 1, destroyed: 1 (8192 threads ran)") != std::string::npos);
  // A pointer freed already: cudaFree says so, as CUDA's does.
  CHECK(r.out.find("the lock's own cudaFree, after its copies': cudaErrorInvalidValue") != std::string::npos);
  CHECK(r.out.find("1 launch of sum_under_lock(SpinLock, Counted, int const*, int*): 64 blocks, all traced") !=
        std::string::npos);
  CHECK(r.out.find("out-of-bounds") == std::string::npos);
}

TEST_CASE(
    "a kernel that calls the runtime's host API (cudaFree) is stopped at that line with a finding, and the "
    "memory is not freed") {
  const auto r = run_command(banklab_run(program("host_call_in_kernel.cu")) + " 2>&1");
  INFO(r.out);
  CHECK(r.out.find("crash at host_call_in_kernel.cu:15: kernel stopped: cudaFree called from device code, where the "
                   "emulator does not run CUDA's runtime API") != std::string::npos);
  CHECK(r.out.find("look for a helper or destructor the kernel runs that makes it, in thread (0,0,0) of block "
                   "(0,0,0)") != std::string::npos);
  // The launch failed, as a GPU's would, and every later call says so.
  CHECK(r.out.find("after the launch: cudaErrorLaunchFailure") != std::string::npos);
  CHECK(r.out.find("1 launch of free_from_device(Scratch): 1 block, the launch stopped early") != std::string::npos);
}

TEST_CASE(
    "every device function the emulator provides gives what an H100 gives, on inputs at their edges, line "
    "for line (tests/data/gpu/h100_semantics/semantics.txt)") {
  const auto r = run_command(banklab_run(program("semantics.cu")) + " 2>/dev/null");
  REQUIRE(r.status == 0);
  std::ifstream file(std::string(BANKLAB_SOURCE_DIR) + "/tests/data/gpu/h100_semantics/semantics.txt");
  REQUIRE(file);
  std::istringstream emulator(r.out);
  std::string gpu_line, emulator_line;
  int lines = 0, equal = 0;
  while (std::getline(file, gpu_line)) {
    ++lines;
    REQUIRE(std::getline(emulator, emulator_line));
    // The one difference left: fmaxf is the host C library's in kernel code
    // built for the emulator, and fmaxf(+0, -0) is -0 there (+0 on a GPU);
    // the first input pair is (+0, -0). The rest of that line must agree.
    const std::string fmaxf_line = "function fmaxf NaN: ";
    if (gpu_line.rfind(fmaxf_line, 0) == 0) {
      CHECK(gpu_line.substr(fmaxf_line.size(), 2) == "0 ");
      CHECK(emulator_line.substr(fmaxf_line.size(), 9) == "80000000 ");
      CHECK(gpu_line.substr(fmaxf_line.size() + 2) == emulator_line.substr(fmaxf_line.size() + 9));
      ++equal;
      continue;
    }
    INFO("H100:     " << gpu_line);
    INFO("emulator: " << emulator_line);
    CHECK(gpu_line == emulator_line);
    equal += gpu_line == emulator_line;
  }
  CHECK(lines == 155);
  CHECK(equal == lines);
}

namespace {

// The fields of one CSV record (RFC 4180: quoted fields may hold commas and "").
std::vector<std::string> csv_record(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      fields.back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  return fields;
}

}  // namespace

TEST_CASE(
    "--format csv has a row per kernel and line with the JSON report's counts, kernel names with commas "
    "quoted, and the program's output on stderr") {
  // Four kernels: three without a shared access (one row each, no line), one with.
  const std::string args = program("semantics.cu") + " 2>/dev/null";
  const auto csv = run_command(banklab_run("--format csv " + args));
  const auto json = run_command(banklab_run("--format json " + args));
  REQUIRE(csv.status == 0);
  REQUIRE(json.status == 0);
  CHECK(csv.out.find("shuffle ") == std::string::npos);  // the program's output went to stderr
  std::istringstream in(csv.out);
  std::string line;
  REQUIRE(std::getline(in, line));
  const std::vector<std::string> header = csv_record(line);
  CHECK(header == std::vector<std::string>{"kernel", "file", "line", "loads", "stores", "warp_instructions",
                                           "wavefronts", "ideal_wavefronts", "excess_wavefronts", "worst_wavefronts",
                                           "store_instructions", "store_wavefronts", "launches", "stopped_launches",
                                           "blocks_run", "blocks_traced"});
  std::vector<std::vector<std::string>> rows;
  while (std::getline(in, line)) rows.push_back(csv_record(line));
  const nlohmann::json report = nlohmann::json::parse(json.out);
  std::size_t expected_rows = 0;
  for (const auto& k : report["kernels"]) expected_rows += std::max<std::size_t>(1, k["lines"].size());
  REQUIRE(rows.size() == expected_rows);
  std::size_t row = 0;
  for (const auto& k : report["kernels"]) {
    if (k["lines"].empty()) {
      const auto& r = rows[row++];
      REQUIRE(r.size() == header.size());
      CHECK(r[0] == k["kernel"].get<std::string>());
      CHECK(r[1].empty());
      CHECK(r[2].empty());
      CHECK(r[6] == "0");
    }
    for (const auto& l : k["lines"]) {
      const auto& r = rows[row++];
      REQUIRE(r.size() == header.size());
      CHECK(r[0] == k["kernel"].get<std::string>());
      CHECK(r[1] == l["file"].get<std::string>());
      CHECK(r[2] == std::to_string(l["line"].get<int>()));
      for (const char* field : {"loads", "stores", "warp_instructions", "wavefronts", "ideal_wavefronts",
                                "worst_wavefronts", "store_instructions", "store_wavefronts"}) {
        const auto at = std::find(header.begin(), header.end(), field) - header.begin();
        CHECK(r[static_cast<std::size_t>(at)] == std::to_string(l[field].get<std::uint64_t>()));
      }
      CHECK(r[8] == std::to_string(l["wavefronts"].get<std::uint64_t>() - l["ideal_wavefronts"].get<std::uint64_t>()));
      CHECK(r[12] == std::to_string(k["launches"].get<std::uint64_t>()));
      CHECK(r[14] == std::to_string(k["blocks_run"].get<std::uint64_t>()));
    }
  }
  CHECK(report["kernels"].size() == 4);
  // A comma in the name, read back whole.
  CHECK(std::any_of(rows.begin(), rows.end(),
                    [](const auto& r) { return r[0] == "atomics(AtomicCells*, unsigned long long*)"; }));
}

namespace {

// The floats of a line of hex words ("name: 3f800000 4148e000 ...", or four
// floats joined in one word for float4).
std::vector<float> floats_of(const std::string& line) {
  std::vector<float> out;
  std::istringstream words(line.substr(line.find(':') + 1));
  std::string word;
  while (words >> word) {
    for (std::size_t at = 0; at + 8 <= word.size(); at += 8) {
      const auto bits = static_cast<std::uint32_t>(std::stoul(word.substr(at, 8), nullptr, 16));
      float f;
      std::memcpy(&f, &bits, 4);
      out.push_back(f);
    }
  }
  return out;
}

}  // namespace

TEST_CASE(
    "texture objects fetch what a GPU fetches: arrays, pitched and linear memory, point and linear filtering, "
    "every address mode, normalized coordinates and reads (tests/data/gpu/h200_textures/textures.txt)") {
  const auto r = run_command(banklab_run(program("textures.cu")) + " 2>/dev/null");
  REQUIRE(r.status == 0);
  std::ifstream file(std::string(BANKLAB_SOURCE_DIR) + "/tests/data/gpu/h200_textures/textures.txt");
  REQUIRE(file);
  std::istringstream emulator(r.out);
  std::string gpu_line, emulator_line;
  int lines = 0, exact = 0;
  while (std::getline(file, gpu_line)) {
    ++lines;
    REQUIRE(std::getline(emulator, emulator_line));
    INFO("GPU:      " << gpu_line);
    INFO("emulator: " << emulator_line);
    REQUIRE(emulator_line.substr(0, emulator_line.find(':')) == gpu_line.substr(0, gpu_line.find(':')));
    // The hardware's filter arithmetic is not documented to the bit: linear
    // filtering of normalized reads, and blends with a border texel, within
    // the tolerances the data's README gives (its 13 other lines exact).
    const bool normalized_blend = gpu_line.find("linear normalized-float") != std::string::npos;
    const bool border_blend = gpu_line.rfind("float linear border:", 0) == 0;
    if (normalized_blend || border_blend) {
      const std::vector<float> gpu = floats_of(gpu_line), emu = floats_of(emulator_line);
      REQUIRE(gpu.size() == emu.size());
      int off = 0;
      for (std::size_t i = 0; i < gpu.size(); ++i) {
        const float tolerance = normalized_blend ? 2e-5f : 0.003f * std::fabs(gpu[i]);
        CHECK(std::fabs(gpu[i] - emu[i]) <= tolerance);
        off += gpu[i] != emu[i];
      }
      if (border_blend) CHECK(off <= 2);  // only the fetches a border texel joins
      continue;
    }
    CHECK(gpu_line == emulator_line);
    exact += gpu_line == emulator_line;
  }
  CHECK(lines == 16);
  CHECK(exact == 13);
}

TEST_CASE("a kernel launched with default arguments left out gets its defaults, as CUDA gives them") {
  const auto r = run_command(banklab_run(program("default_args.cu")) + " 2>&1");
  INFO(r.out);
  CHECK(r.status == 0);
  CHECK(r.out.find("scale_shift with defaults left out: OK (0 wrong)") != std::string::npos);
  CHECK(r.out.find("a template kernel's default: OK (0 wrong)") != std::string::npos);
  CHECK(r.out.find("3 launches of scale_shift(float*, int, float, float): 6 blocks, all traced") != std::string::npos);
}

TEST_CASE("shared memory written by memcpy, memset and modff in kernel code is priced at their lines") {
  // The C library does these stores itself, where no access hook sees them;
  // unrouted, the column store was missing and the read after it uninitialised.
  const auto r = run_command(banklab_run(program("library_stores.cu")) + " 2>&1");
  INFO(r.out);
  CHECK(r.status == 0);
  CHECK(r.out.find("library stores: OK (0 wrong)") != std::string::npos);
  CHECK(r.out.find("uninitialised") == std::string::npos);
  for (const char* line : {"  library_stores.cu:17             0        32           1          32         1        31      32\n",
                           "  library_stores.cu:18             0        32           1           1         1         0       1\n",
                           "  library_stores.cu:21             0        32           1           1         1         0       1\n",
                           "  library_stores.cu:25            64         0           2          33         2        31      32\n"}) {
    CHECK(r.out.find(line) != std::string::npos);
  }
}

TEST_CASE(
    "a race in two blocks and again in a second launch is one finding counted 3 times, at the later write, naming the "
    "earlier one") {
  const auto text = run_command(banklab_run(program("race_twice.cu")) + " 2>&1");
  INFO(text.out);
  CHECK(text.out.find("  shared-memory race at race_twice.cu:11 (and race_twice.cu:10): bytes written by one thread are "
                      "written by another with no __syncthreads() between [3 times]\n") != std::string::npos);
  const auto json = run_command(banklab_run("--format json " + program("race_twice.cu")) + " 2>/dev/null");
  REQUIRE(json.status == 0);
  const auto report = nlohmann::json::parse(json.out);
  int races = 0;
  std::function<void(const nlohmann::json&)> walk = [&](const nlohmann::json& j) {
    if (j.is_object() && j.contains("other_line")) {
      ++races;
      CHECK(j["line"] == 11);
      CHECK(j["other_line"] == 10);
      CHECK(j["count"] == 3);
    }
    if (j.is_structured()) {
      for (const auto& item : j) walk(item);
    }
  };
  walk(report);
  CHECK(races == 1);
}

TEST_CASE("a 2-D memset graph node sets each row from the start of that row, at the pitch") {
  const auto r = run_command(banklab_run(program("graph_memset_2d.cu")) + " 2>&1");
  INFO(r.out);
  CHECK(r.out.find("2-D memset node (no error): OK (0 wrong)\n") != std::string::npos);
}

TEST_CASE("--format csv keeps each column its own: a conflicted store's instructions and wavefronts") {
  const auto r = run_command(banklab_run("--format csv " + program("library_stores.cu")) + " 2>/dev/null");
  INFO(r.out);
  REQUIRE(r.status == 0);
  CHECK(r.out.find("kernel,file,line,loads,stores,warp_instructions,wavefronts,ideal_wavefronts,excess_wavefronts,"
                   "worst_wavefronts,store_instructions,store_wavefronts,launches,stopped_launches,blocks_run,"
                   "blocks_traced\n") == 0);
  // Line 17: 1 store instruction of 32 wavefronts.
  CHECK(r.out.find("/library_stores.cu,17,0,32,1,32,1,31,32,1,32,1,0,1,1\n") != std::string::npos);
}

TEST_CASE("--blocks 3 on a launch of 4 blocks traces 2 of them, never more than 3") {
  const auto r = run_command(banklab_run("--blocks 3 " + program("transpose.cu")) + " 2>&1");
  INFO(r.out);
  CHECK(r.status == 0);
  CHECK(r.out.find("1 launch of void transpose<0>(float*, float const*, int): 4 blocks, 2 of them traced (--blocks)") !=
        std::string::npos);
}

TEST_CASE("cooperative groups: a block made from block_tile_memory, and tiles of a tile made at run time") {
  const auto r = run_command(banklab_run(program("cg_partitions.cu")) + " 2>&1");
  INFO(r.out);
  CHECK(r.status == 0);
  CHECK(r.out.find("sums of eight through tiles of a tile: OK (0 wrong)") != std::string::npos);
  CHECK(r.out.find("1 launch of sums_by_eight(int const*, int*): 2 blocks, all traced") != std::string::npos);
}

TEST_CASE("a pipeline captured into a CUDA graph is recorded, not run, and each cudaGraphLaunch runs it in order") {
  const auto r = run_command(banklab_run(program("graph_pipeline.cu")) + " 2>&1");
  INFO(r.out);
  CHECK(r.status == 0);
  CHECK(r.out.find("captured 3 nodes while capturing (status 1); nothing ran: counter 0\n") != std::string::npos);
  CHECK(r.out.find("graph run 3 times: OK (0 wrong), counter 3\n") != std::string::npos);
  CHECK(r.out.find("capturing the legacy stream: cudaError") != std::string::npos);  // refused
  CHECK(r.out.find("capturing the legacy stream: cudaSuccess") == std::string::npos);
  CHECK(r.out.find("3 launches of reverse_blocks(float*): 12 blocks, all traced") != std::string::npos);
}

TEST_CASE("a graph's independent nodes run earliest added first, on every launch of its instance") {
  const auto r = run_command(banklab_run(program("graph_order.cu")) + " 2>&1");
  INFO(r.out);
  CHECK(r.status == 0);
  CHECK(r.out.find("launch 1 ran abcd\nlaunch 2 ran abcd\n") != std::string::npos);
}

TEST_CASE("a CUDA graph built node by node runs its nodes in the order their dependencies ask, with copied arguments") {
  const auto r = run_command(banklab_run(program("graph_nodes.cu")) + " 2>&1");
  INFO(r.out);
  CHECK(r.status == 0);
  CHECK(r.out.find("building graph_nodes.cu for the CPU emulator (0 kernel launches, 3 functions for graph nodes)") != std::string::npos);
  std::size_t ok = 0;
  for (std::size_t at = r.out.find("\nOK "); at != std::string::npos; at = r.out.find("\nOK ", at + 1)) ++ok;
  CHECK(ok == 11);
  CHECK(r.out.find("\n0 wrong\n") != std::string::npos);
  // Three runs of each kernel (the graph twice, then as a child graph), the
  // interleaved tree's conflicts priced at its line; scale once more, in 8
  // blocks of 128 threads (the shape set on its node).
  CHECK(r.out.find("3 launches of block_sums(int*, int const*, int): 12 blocks, all traced") != std::string::npos);
  CHECK(r.out.find("4 launches of scale(int*, int const*, int, int, int): 20 blocks, all traced") != std::string::npos);
  CHECK(r.out.find("graph_nodes.cu:31             6120      3060         432        1692       432      1260       8") !=
        std::string::npos);
  CHECK(r.out.find("has no kernel launch") == std::string::npos);
}

TEST_CASE("a kernel node given a void* the rewrite cannot see through is refused with what to write") {
  const std::string dir = std::string(BANKLAB_TEST_CACHE) + "/graph-untyped";
  std::filesystem::create_directories(dir);
  const std::string file = dir + "/graph_untyped.cu";
  std::ofstream(file) << ("#include <cstdio>\n"
                         "__global__ void k(int* p) { p[threadIdx.x] = 1; }\n"
                         "int main() {\n"
                         "  void* untyped = (void*)k;\n"
                         "  cudaGraph_t g; cudaGraphCreate(&g, 0);\n"
                         "  int* p; cudaMalloc(&p, 128);\n"
                         "  void* args[] = {&p};\n"
                         "  cudaKernelNodeParams params = {};\n"
                         "  params.func = untyped; params.gridDim = dim3(1); params.blockDim = dim3(32);\n"
                         "  params.kernelParams = args;\n"
                         "  cudaGraphNode_t n;\n"
                         "  const cudaError_t e = cudaGraphAddKernelNode(&n, g, nullptr, 0, &params);\n"
                         "  printf(\"added: %s\\n\", cudaGetErrorName(e));\n"
                         "  return e == cudaSuccess ? 0 : 3;\n"
                         "}\n");
  const auto r = run_command(banklab_run(file) + " 2>&1");
  INFO(r.out);
  CHECK(r.status == 3);
  CHECK(r.out.find("added: cudaErrorInvalidDeviceFunction") != std::string::npos);
  CHECK(r.out.find("cudaGraphAddKernelNode was given a kernel node whose func is a plain pointer (void*)") !=
        std::string::npos);
  CHECK(r.out.find("params.func = (void*)my_kernel;") != std::string::npos);
}

TEST_CASE("wmma: a tensor-core GEMM through shared tiles is right, and load_matrix_sync is priced as nvcc's LDSM") {
  const auto r = run_command(banklab_run(program("wmma_tiles.cu")) + " 2>&1");
  INFO(r.out);
  CHECK(r.status == 0);
  CHECK(r.out.find("unpadded tiles: OK (0 of 4096 elements wrong)") != std::string::npos);
  CHECK(r.out.find("padded tiles: OK (0 of 4096 elements wrong)") != std::string::npos);
  // Rows of 32 bytes: each 8x8 matrix's rows fall in two groups of banks, 8
  // wavefronts an LDSM; rows of 48 bytes: 4, the ideal.
  const std::string unpadded = r.out.substr(r.out.find("kernel void wmma_gemm<16>"));
  const std::string padded = r.out.substr(r.out.find("kernel void wmma_gemm<24>"));
  CHECK(unpadded.find("wmma_tiles.cu:38              2048         0          64         512       256       256       8") !=
        std::string::npos);
  CHECK(padded.find("wmma_tiles.cu:38              2048         0          64         256       256         0       4") !=
        std::string::npos);
}

TEST_CASE("wmma: load_matrix_sync's and store_matrix_sync's wavefronts equal what Nsight Compute measured on an H100") {
  // tests/data/gpu/probes/h100_wmma/wmma_probe.ldsm.csv: per launch of the
  // probe, the LDSM wavefronts (ldm 16, 24, 32, 40, 64: 8, 4, 16, 4, 32);
  // the emulator's report sums a kernel's launches at its line.
  std::ifstream csv(std::string(BANKLAB_SOURCE_DIR) + "/tests/data/gpu/probes/h100_wmma/wmma_probe.ldsm.csv");
  REQUIRE(csv.good());
  std::map<std::string, long long> measured;
  std::vector<long long> per_launch;
  for (std::string line; std::getline(csv, line);) {
    if (line.find("\"sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum\"") == std::string::npos) continue;
    const std::size_t name = line.find("\"void load_");
    const std::size_t value = line.rfind(",\"");
    if (name == std::string::npos || value == std::string::npos) continue;
    const std::string kernel = line.substr(name + 6, line.find('(', name) - name - 6);
    const long long v = std::stoll(line.substr(value + 2));
    measured[kernel] += v;
    per_launch.push_back(v);
  }
  REQUIRE(per_launch.size() == 15);
  CHECK(std::vector<long long>(per_launch.begin(), per_launch.begin() + 5) == std::vector<long long>{8, 4, 16, 4, 32});
  const auto r = run_command(banklab_run(std::string(BANKLAB_SOURCE_DIR) + "/tests/data/gpu/probes/wmma_probe.cu") +
                             " 2>&1");
  INFO(r.out);
  REQUIRE(r.status == 0);
  const std::vector<std::array<std::string, 3>> kernels = {
      {"load_a<nvcuda::row_major>", "load_a<nvcuda::wmma::row_major>", "wmma_probe.cu:26"},
      {"load_a<nvcuda::col_major>", "load_a<nvcuda::wmma::col_major>", "wmma_probe.cu:26"},
      {"load_b<nvcuda::row_major>", "load_b<nvcuda::wmma::row_major>", "wmma_probe.cu:43"}};
  const auto line_counts = [&](const std::string& kernel, const std::string& line) {
    const std::size_t at = r.out.find("kernel " + kernel);
    REQUIRE(at != std::string::npos);
    std::istringstream row(r.out.substr(r.out.find(line, at) + line.size()));
    std::array<long long, 5> counts{};  // loads, stores, warp instructions, wavefronts, ideal
    for (long long& c : counts) row >> c;
    return counts;
  };
  for (const auto& [on_gpu, here, line] : kernels) {
    INFO(on_gpu);
    REQUIRE(measured.count(on_gpu) == 1);
    const auto counts = line_counts("void " + here, line);
    CHECK(counts[2] == 5);  // one LDSM per launch
    CHECK(counts[3] == measured[on_gpu]);
    CHECK(counts[4] == 20);
  }
  // The accumulators (wmma_probe.ncu.csv, the kernels' shared loads and
  // stores: load_c's loads and store_c's stores are the wmma's alone):
  // row major ldm 16, 20, 24, 32 load 16, 16, 8, 32 wavefronts in 4 LDS.64,
  // store the same in 4 STS.64; column major stores 32, 8, 16, 32 in 8 STS.
  std::ifstream ncu(std::string(BANKLAB_SOURCE_DIR) + "/tests/data/gpu/probes/h100_wmma/wmma_probe.ncu.csv");
  REQUIRE(ncu.good());
  long long load_c = 0, store_c = 0, load_c_instructions = 0, store_c_instructions = 0;
  for (std::string line; std::getline(ncu, line);) {
    const std::size_t value = line.rfind(",\"");
    if (value == std::string::npos) continue;
    const bool is_load_c = line.find("\"load_c(") != std::string::npos;
    const bool is_store_c = line.find("\"store_c(") != std::string::npos;
    const std::string v = line.substr(value + 2, line.size() - value - 3);
    if (is_load_c && line.find("\"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum\"") != std::string::npos)
      load_c += std::stoll(v);
    if (is_store_c && line.find("\"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum\"") != std::string::npos)
      store_c += std::stoll(v);
    if (is_load_c && line.find("\"smsp__sass_inst_executed_op_shared_ld.sum\"") != std::string::npos)
      load_c_instructions += std::stoll(v);
    if (is_store_c && line.find("\"smsp__sass_inst_executed_op_shared_st.sum\"") != std::string::npos)
      store_c_instructions += std::stoll(v);
  }
  CHECK(load_c == 16 + 16 + 8 + 32);
  CHECK(store_c == 16 + 16 + 8 + 32 + 32 + 8 + 16 + 32);
  const auto loads = line_counts("load_c(float*, int, int)", "wmma_probe.cu:55");
  CHECK(loads[2] == load_c_instructions);
  CHECK(loads[3] == load_c);
  const auto stores = line_counts("store_c(float*, int, int)", "wmma_probe.cu:63");
  CHECK(stores[3] == store_c);
  // Nsight Compute's kernel-level instruction count has the fill loop's
  // stores too; the wmma's are 4 per row-major launch and 8 per column-major one.
  CHECK(stores[2] == 4 * 4 + 4 * 8);
}

TEST_CASE(
    "asynchronous copies into shared memory: the three CUDA forms fill a GEMM's tiles, each copy priced at its line") {
  const auto r = run_command(banklab_run(program("async_copy_gemm.cu")) + " 2>&1");
  INFO(r.out);
  CHECK(r.status == 0);
  CHECK(r.out.find("__pipeline_memcpy_async, two stages: OK (0 wrong)") != std::string::npos);
  CHECK(r.out.find("cuda::pipeline: OK (0 wrong)") != std::string::npos);
  CHECK(r.out.find("cooperative_groups::memcpy_async and cuda::barrier: OK (0 wrong)") != std::string::npos);
  // Each thread's 16-byte copy: 8 lanes cover a 128-byte row, one wavefront a quarter-warp
  // (64 warp instructions of 4 blocks, 2 tiles each, 4 wavefronts each).
  CHECK(
      r.out.find("async_copy_gemm.cu:37            0      2048          64         256       256         0       4") !=
      std::string::npos);
  CHECK(
      r.out.find("async_copy_gemm.cu:69            0      2048          64         256       256         0       4") !=
      std::string::npos);
  // A row of 8 units copied by the block: threads 0-7 store it, one wavefront per row.
  CHECK(
      r.out.find("async_copy_gemm.cu:96            0      2048         256         256       256         0       1") !=
      std::string::npos);
  // nvcc's code read through its inlining (the copy is inlined from CUDA's headers, the
  // three never-run `@!PT LDS` before it left out): what Nsight Compute shows of it.
  if (run_command("command -v nvcc >/dev/null || test -x /usr/local/cuda/bin/nvcc").status != 0) {
    MESSAGE("no nvcc on this machine: nvcc's code not compared");
    return;
  }
  CHECK(r.out.find("async_copy_gemm.cu:37: stores: nvcc makes an asynchronous copy here (3 x 16-byte LDGSTS)") !=
        std::string::npos);
  CHECK(r.out.find("async_copy_gemm.cu:69: stores: nvcc makes an asynchronous copy here (1 x 16-byte LDGSTS)") !=
        std::string::npos);
  CHECK(r.out.find("async_copy_gemm.cu:99: stores: nvcc makes a bulk copy here (32 x UBLKCP") != std::string::npos);
  CHECK(r.out.find("async_copy_gemm.cu:52: loads: nvcc makes 32 x 4-byte load + 32 x 16-byte load") !=
        std::string::npos);
}

TEST_CASE(
    "asynchronous 4-byte copies are priced as an H100's LDGSTS: consecutive words 1 wavefront, a stride of 32 words "
    "32") {
  const auto r = run_command(banklab_run(program("async_copy_patterns.cu")) + " 2>&1");
  INFO(r.out);
  CHECK(r.status == 0);
  CHECK(r.out.find("copies: OK (0 wrong)") != std::string::npos);
  CHECK(r.out.find(
            "async_copy_patterns.cu:14           0        32           1           1         1         0       1") !=
        std::string::npos);
  CHECK(r.out.find(
            "async_copy_patterns.cu:15           0        32           1          32         1        31      32") !=
        std::string::npos);
  CHECK(r.out.find(
            "async_copy_patterns.cu:19           0         1           1           1         1         0       1") !=
        std::string::npos);
  CHECK(r.out.find("finding") == std::string::npos);
}

TEST_CASE("-l and -L link a host library, as for nvcc: cudart is the emulator itself, cuFFT is refused by name") {
  const std::string dir = std::string(BANKLAB_TEST_CACHE) + "/host-library";
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/helper.c") << "int host_helper(int x) { return 3 * x; }\n";
  REQUIRE(run_command("cd " + dir + " && cc -c helper.c -o helper.o && ar rcs libhelper.a helper.o").status == 0);
  std::ofstream(dir + "/uses_lib.cu") << "#include <cstdio>\n"
                                         "extern \"C\" int host_helper(int x);\n"
                                         "__global__ void k(int* out) { out[threadIdx.x] = threadIdx.x; }\n"
                                         "int main() {\n"
                                         "  int* d; cudaMalloc(&d, 32 * sizeof(int)); k<<<1, 32>>>(d);\n"
                                         "  int h[32]; cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);\n"
                                         "  std::printf(\"host_helper(%d) = %d\\n\", h[5], host_helper(h[5]));\n"
                                         "}\n";
  const auto linked = run_command(banklab_run("-L " + dir + " -lhelper -lcudart " + dir + "/uses_lib.cu") + " 2>&1");
  INFO(linked.out);
  CHECK(linked.status == 0);
  CHECK(linked.out.find("host_helper(5) = 15") != std::string::npos);
  const auto alone = run_command(banklab_run(dir + "/uses_lib.cu") + " 2>&1");
  INFO(alone.out);
  CHECK(alone.status == 2);
  CHECK(alone.out.find("does not link") != std::string::npos);
  CHECK(alone.out.find("-l NAME, and -L DIR") != std::string::npos);
  const auto cufft = run_command(banklab_run("-l cufft " + dir + "/uses_lib.cu") + " 2>&1");
  CHECK(cufft.status == 2);
  CHECK(cufft.out.find("-lcufft: the CPU emulator has no libcufft") != std::string::npos);
}

TEST_CASE("CUB, Thrust and the parts of cuRAND not provided stop the build naming the library and what to do instead") {
  const std::string dir = std::string(BANKLAB_TEST_CACHE) + "/cuda-libraries";
  std::filesystem::create_directories(dir);
  const std::vector<std::array<std::string, 3>> cases = {
      {"cub/block/block_reduce.cuh", "is CUB, which the BankLab CPU emulator does not run",
       "write the step with __shared__ memory and __syncthreads()"},
      {"cub/block/block_radix_sort.cuh", "is CUB", "cub::BlockReduce: a tree reduction"},
      {"thrust/device_vector.h", "is Thrust", "use cudaMalloc, cudaMemcpy and your own kernels"},
      {"curand_mtgp32_kernel.h", "is a part of cuRAND the BankLab CPU emulator does not provide",
       "the host API of <curand.h>: XORWOW, MRG32k3a and Philox4_32_10"},
      {"cublas.h", "is not provided by the BankLab CPU emulator: its cuBLAS is the v2 API, <cublas_v2.h>",
       "banklab run -lcublas"}};
  for (const auto& [header, what, instead] : cases) {
    INFO(header);
    const std::string file = dir + "/uses_" + std::to_string(std::hash<std::string>{}(header) % 100000) + ".cu";
    std::ofstream(file) << "#include <" << header << ">\nint main() { return 0; }\n";
    const auto r = run_command(banklab_run(file) + " 2>&1");
    INFO(r.out);
    CHECK(r.status == 2);
    CHECK(r.out.find("<" + header + "> " + what) != std::string::npos);
    CHECK(r.out.find(instead) != std::string::npos);
    CHECK(r.out.find("does not build for the CPU emulator") != std::string::npos);
  }
}

TEST_CASE("cuRAND's MRG32k3a: its laws, and an H100's values bit for bit (integers and uniforms)") {
  const auto r = run_command(banklab_run(program("curand_mrg_check.cu")) + " 2>&1");
  INFO(r.out);
  CHECK(r.status == 0);
  std::size_t ok = 0, values = 0;
  for (std::size_t at = r.out.find(": OK\n"); at != std::string::npos; at = r.out.find(": OK\n", at + 1)) ++ok;
  for (std::size_t at = r.out.find("\nvalue MRG32k3a "); at != std::string::npos;
       at = r.out.find("\nvalue MRG32k3a ", at + 1)) {
    ++values;
  }
  CHECK(ok == 6);
  CHECK(values == 18);
  CHECK(r.out.find("seed 0's first output is 545508589 (every state word 12345): OK") != std::string::npos);
  CHECK(r.out.find("\n0 wrong\n") != std::string::npos);
  // Against an H100's table (tests/data/gpu/h100_curand/curand_mrg_check.txt):
  // 4 integers, the uniform and the uniform double bit for bit; the normals
  // within 2e-5 (float: the GPU's __sincosf) and 1e-13 (double), relative.
  compare_value_rows(r.out, "tests/data/gpu/h100_curand/curand_mrg_check.txt", 18, 9, {0, 1, 2, 3, 4, 7},
                     {{5, 2e-5}, {6, 2e-5}, {8, 1e-13}});
}

TEST_CASE("cuRAND's device API: XORWOW and Philox4x32-10 keep their laws, and Philox gives Random123's known answer") {
  // -lcurand is accepted as nvcc users write it (the device API is the emulator's).
  const auto r = run_command(banklab_run("-lcurand " + program("curand_check.cu")) + " 2>&1");
  INFO(r.out);
  CHECK(r.status == 0);
  CHECK(r.out.find("0 wrong") != std::string::npos);
  std::size_t ok = 0, values = 0;
  for (std::size_t at = r.out.find(": OK\n"); at != std::string::npos; at = r.out.find(": OK\n", at + 1)) ++ok;
  for (std::size_t at = r.out.find("\nvalue "); at != std::string::npos; at = r.out.find("\nvalue ", at + 1)) ++values;
  CHECK(ok == 8);
  CHECK(values == 36);
  // Before the vector types' copies could alias their members, -O2 dropped
  // the Philox counter's zeroing in curand_init: these three read WRONG.
  CHECK(r.out.find("Philox: curand_init's offset n is n outputs later: OK") != std::string::npos);
  CHECK(r.out.find("Philox: skipahead_sequence(n) is subsequence n: OK") != std::string::npos);
  CHECK(r.out.find("Philox4x32-10 known answer, counter 0 and key 0: 6627e8d5 e169c58d bc57ac4c 9b00dbd8: OK") !=
        std::string::npos);
  CHECK(r.out.find("value Philox4_32_10 0 0 0: 6627e8d5 e169c58d bc57ac4c 9b00dbd8 ") != std::string::npos);
  // Against an H100's table (tests/data/gpu/h100_curand/): integers, uniforms
  // and uniform doubles bit for bit; normals within 1e-5 (float) and 1e-13
  // (double) of the GPU's, relative.
  // "value NAME SEED SUB OFFSET: ints | uniforms | normals | uniform_double normal_double"
  compare_value_rows(r.out, "tests/data/gpu/h100_curand/curand_check.txt", 36, 12, {0, 1, 2, 3, 4, 5, 6, 7, 10},
                     {{8, 1e-5}, {9, 1e-5}, {11, 1e-13}});
}

TEST_CASE("cuRAND's host API: a Monte Carlo pi, each generator's distributions, offsets and the statuses cuRAND documents") {
  const auto r = run_command(banklab_run("-lcurand " + program("curand_host_check.cu")) + " 2>&1");
  INFO(r.out);
  CHECK(r.status == 0);
  CHECK(r.out.find("curand host check: OK") != std::string::npos);
  CHECK(r.out.find("pi from 2^20 points: 3.14") != std::string::npos);
  std::size_t stats = 0, laws = 0;
  for (std::size_t at = r.out.find("\nstats "); at != std::string::npos; at = r.out.find("\nstats ", at + 1)) {
    const std::string line = r.out.substr(at + 1, r.out.find('\n', at + 1) - at - 1);
    INFO(line);
    CHECK(line.size() > 4);
    CHECK(line.substr(line.size() - 4) == ": OK");
    ++stats;
  }
  CHECK(stats == 18);  // 3 generators x (5 kinds + log-normal)
  for (const char* name : {"xorwow", "mrg32k3a", "philox"}) {
    laws += r.out.find(std::string("law ") + name +
                       ": a second call goes on (0 of 1000 differ), an offset of 300 skips 300 (0 differ)") !=
            std::string::npos;
  }
  CHECK(laws == 3);
  // CURAND_STATUS_LENGTH_NOT_MULTIPLE for an odd count of normals, CURAND_STATUS_NOT_INITIALIZED for no generator.
  CHECK(r.out.find("status of 1001 normals: 105, of 1001 integers: 0, of a null generator: 101") != std::string::npos);
  // The kernel that counts the points is priced as any kernel.
  CHECK(r.out.find("1 launch of count_inside(") != std::string::npos);
}

TEST_CASE("-lcublas: a tiled SGEMM and a transpose checked against cuBLAS, and cuBLAS's rules a program sees") {
  // The program checks each answer itself (exact values where float holds
  // them, the tiled kernels within 1e-5) and exits with its count of WRONG.
  const auto r = run_command(banklab_run("-lcublas " + program("cublas_check.cu")) + " 2>&1");
  INFO(r.out);
  CHECK(r.status == 0);
  CHECK(r.out.find("0 wrong") != std::string::npos);
  std::size_t ok = 0;
  for (std::size_t at = r.out.find(": OK\n"); at != std::string::npos; at = r.out.find(": OK\n", at + 1)) ++ok;
  CHECK(ok == 28);
  // The rules measured on an H100's cuBLAS (tests/data/gpu/h100_cublas/).
  CHECK(r.out.find("gemv with incx 0 succeeds, every x element x[0]: (12, 30): OK") != std::string::npos);
  CHECK(r.out.find("dot with a null result is CUBLAS_STATUS_MAPPING_ERROR: OK") != std::string::npos);
  // The status names and strings, as that cuBLAS printed them.
  std::ifstream measured(std::string(BANKLAB_SOURCE_DIR) + "/tests/data/gpu/h100_cublas/cublas_check_measured.txt");
  std::size_t statuses = 0;
  for (std::string line; std::getline(measured, line);) {
    if (line.rfind("status ", 0) != 0) continue;
    INFO(line);
    CHECK(r.out.find(line + "\n") != std::string::npos);
    ++statuses;
  }
  CHECK(statuses == 10);
  CHECK(r.out.find("tiled kernel against cublasSgemm (67x53 times 53x45): OK") != std::string::npos);
  CHECK(r.out.find("cublasIsamax = 6 (1-based; |-8| is the largest): OK") != std::string::npos);
  CHECK(r.out.find("beta 0 does not read C (NaN in C gives the identity): OK") != std::string::npos);
  // The kernels are priced as in any program; cuBLAS's own work is not a kernel here.
  CHECK(r.out.find("1 launch of sgemm_tiled(") != std::string::npos);
  CHECK(r.out.find("cublas_check.cu:28          491520         0       15360       15360") != std::string::npos);
  // Without -lcublas the link fails, and says what to add.
  const auto unlinked = run_command(banklab_run(program("cublas_check.cu")) + " 2>&1");
  CHECK(unlinked.status == 2);
  CHECK(unlinked.out.find("cublas_check.cu calls cuBLAS: link it as nvcc does, with -lcublas") != std::string::npos);
}

TEST_CASE(
    "surface objects: 2D read and write in place with byte columns, clamp and zero boundary modes, arrays without the "
    "surface flag, and the trap mode's illegal address") {
  const auto r = run_command(banklab_run(program("surfaces.cu")) + " 2>&1");
  INFO(r.out);
  CHECK(r.status == 0);
  CHECK(r.out.find("scaled in place and read shifted with clamping: OK (0 wrong)") != std::string::npos);
  // Lane l reads element l - 2 (zeros before the array) and writes element l + 2 (dropped past it).
  CHECK(r.out.find("zero mode reads: 0 0 10 11 12 13 14 15\n") != std::string::npos);
  CHECK(r.out.find("zero mode writes: 10 11 100 101 102 103 104 105\n") != std::string::npos);
  // As an H100 does (tests/data/gpu/h100_programs/surfaces.txt).
  CHECK(r.out.find("a surface of an array without cudaArraySurfaceLoadStore: made\n") != std::string::npos);
  CHECK(r.out.find("array flags: 2 with cudaArraySurfaceLoadStore, 0 without\n") != std::string::npos);
  CHECK(r.out.find("destroying a surface: cudaSuccess") != std::string::npos);
  // The default mode past the end: the launch stops at the line, as the GPU stops the kernel.
  const auto trap = run_command(banklab_run(program("surfaces.cu") + " -- trap") + " 2>&1");
  INFO(trap.out);
  CHECK(trap.out.find("past the end, trap mode: cudaSuccess") == std::string::npos);
  CHECK(trap.out.find("out-of-bounds global access at surfaces.cu:34: kernel stopped: a surface access outside its "
                      "array") != std::string::npos);
  // The H100's error (tests/data/gpu/h100_programs/surfaces.txt).
  CHECK(trap.out.find("past the end, trap mode: cudaErrorIllegalAddress") != std::string::npos);
  CHECK(trap.out.find("a surface access outside its array with cudaBoundaryModeTrap") != std::string::npos);
}

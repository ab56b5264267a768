// What the emulator runners of the transpose stages (3, 4) share: a
// transpose kernel run on a list of shapes with seeded input and poisoned
// output, each run with its raw output and the emulator's report.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "banklab/emulator.hpp"
#include "banklab/emulator_json.hpp"
#include "banklab/sass.hpp"
#include "transpose_harness.hpp"

namespace harness {

/// The grader's limit for one block of a launch (--block-time-limit; 0:
/// none), so that an endless loop stops in that time, not in the run's.
inline double& block_time_limit() {
  static double seconds = 0;
  return seconds;
}

/// nvcc's code of the lab file (--sass FILE: `nvdisasm -gi -c` of it, which
/// the grader writes on the GPU backend), read before any of the file's code
/// runs; empty without it or where it does not parse.
inline std::vector<banklab::emu::SassAccess>& nvcc_code() {
  static std::vector<banklab::emu::SassAccess> code;
  return code;
}

inline void read_nvcc_code(const std::string& path) {
  std::ifstream in(path);
  try {
    if (in) nvcc_code() = banklab::emu::parse_nvdisasm(in);
  } catch (const std::exception&) {
    nvcc_code().clear();  // the report has no "as_compiled": the grader says it was not priced so
  }
}

/// The emulator's options for a launch of the lab's code with `seconds` left:
/// with --sass, also priced as nvcc compiled the kernel (the report's "as_compiled").
inline banklab::emu::LaunchOptions launch_options(double seconds) {
  banklab::emu::LaunchOptions options;
  options.time_limit_seconds = seconds;
  options.block_time_limit_seconds = block_time_limit();
  if (!nvcc_code().empty()) options.nvcc_code = &nvcc_code();
  return options;
}

/// A runner's command line: `runner COMMAND --flag value ...`.
struct RunnerArgs {
  std::string command, task, shapes;
  std::uint64_t seed = 1;
  double time_limit = 20;
  std::map<std::string, std::string> other;  ///< any other --flag value

  static RunnerArgs parse(int argc, char** argv) {
    RunnerArgs a;
    a.command = argc > 1 ? argv[1] : "";
    for (int i = 2; i + 1 < argc; i += 2) {
      const std::string flag = argv[i], value = argv[i + 1];
      if (flag == "--task") a.task = value;
      else if (flag == "--shapes") a.shapes = value;
      else if (flag == "--seed") a.seed = std::strtoull(value.c_str(), nullptr, 10);
      else if (flag == "--time-limit") a.time_limit = std::atof(value.c_str());
      else if (flag == "--block-time-limit") block_time_limit() = std::atof(value.c_str());
      else if (flag == "--sass") read_nvcc_code(value);
      else a.other[flag] = value;
    }
    return a;
  }
};

/// One run per item of "A,B,C": run(item, seconds left) returns the run's
/// JSON (with "report"); the time limit is for all items together, and the
/// items after a run that did not complete (a time limit, a crash) are not run
/// (that run says "ends_list").
template <class Run>
nlohmann::json run_each(const std::string& items, double time_limit, Run run) {
  nlohmann::json runs = nlohmann::json::array();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(time_limit);
  std::stringstream list(items);
  std::string item;
  while (std::getline(list, item, ',')) {
    const double left = std::chrono::duration<double>(deadline - std::chrono::steady_clock::now()).count();
    runs.push_back(run(item, std::max(0.1, left)));
    if (!runs.back()["report"]["completed"].get<bool>()) {
      runs.back()["ends_list"] = true;  // the grader's join of per-shape runs stops here too
      break;
    }
  }
  return runs;
}

using TransposeFunction = void (*)(float*, const float*, int, int);

/// Blocks of a transpose launch whose shared accesses are priced: all of a
/// grid up to this size, a seeded sample of a larger one.
inline constexpr std::uint64_t kTracedBlocks = 512;

/// Runs `kernel` (one block of `block` threads per tile x tile elements) on
/// every shape of "32x32,31x33": [{width, height, element_bytes, output
/// (base64 of the raw output), report}]; the grader compares. T is the kernel's element type, Bits an
/// unsigned integer of its size (the runner's view of the data). The time
/// limit is for all shapes together; after a launch that ran out of time (an
/// infinite loop), the remaining shapes are not run.
template <class Bits, class T>
nlohmann::json run_transpose_on_emulator(void (*kernel)(T*, const T*, int, int), const std::string& shapes_text,
                                         std::uint64_t seed, double time_limit, int tile = 32,
                                         dim3 block = dim3(32, 8)) {
  static_assert(sizeof(Bits) == sizeof(T), "Bits must be an integer of the element's size");
  nlohmann::json runs = nlohmann::json::array();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(time_limit);
  for (const Shape s : parse_shapes(shapes_text)) {
    const double left = std::chrono::duration<double>(deadline - std::chrono::steady_clock::now()).count();
    const std::vector<Bits> in = transpose_input<Bits>(s, seed);
    const std::size_t bytes = in.size() * sizeof(Bits);
    void* d_in = banklab::emu::device_malloc(bytes);
    void* d_out = banklab::emu::device_malloc(bytes);
    std::memcpy(d_in, in.data(), bytes);
    std::memset(d_out, kPoisonByte, bytes);
    banklab::emu::LaunchOptions options = launch_options(std::max(0.1, left));
    const dim3 grid((s.width + tile - 1) / tile, (s.height + tile - 1) / tile);
    // Every run is priced; a large grid by a sample of its blocks that the
    // seed chooses (the kernel cannot tell traced blocks from the others).
    options.trace_blocks = kTracedBlocks;
    options.trace_seed = seed;
    const auto report = banklab::emu::launch(options, grid, block, kernel, static_cast<T*>(d_out),
                                             static_cast<const T*>(d_in), s.width, s.height);
    // The output as it is, for the grader to compare (transpose_data.hpp).
    runs.push_back({{"width", s.width},
                    {"height", s.height},
                    {"element_bytes", sizeof(Bits)},
                    {"output", output_blob(d_out, bytes)},
                    {"report", banklab::emu::to_json(report)}});
    banklab::emu::device_free(d_in);
    banklab::emu::device_free(d_out);
    if (report.has(banklab::emu::FindingKind::kTimeLimit)) {
      runs.back()["ends_list"] = true;  // the grader's join of per-shape runs stops here too
      break;
    }
  }
  return runs;
}

}  // namespace harness

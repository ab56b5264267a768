// Stage-4 runner on the CPU emulator. Prints one JSON object per command:
//   runner maps                          swizzle over the 32x32 tile, swizzle_chunk over 32 rows x 8 chunks
//   runner run --task transpose --shapes 32x32,31x33 --seed N [--time-limit S]
//   runner run --task chunks --shapes 1,3 --passes P --seed N [--time-limit S]
//          (chunks: shapes are tile counts) per shape the raw output
//          (poisoned first) and the emulator's report; the grader compares and prices
#include <chrono>
#include <iostream>
#include <sstream>
#include <string>

#include "transpose_cpu.hpp"  // first: the emulator's CUDA types (float4)
#include "student_api.hpp"

namespace {

nlohmann::json maps() {
  nlohmann::json scalar = nlohmann::json::array(), chunk = nlohmann::json::array();
  for (int row = 0; row < lab04::kTile; ++row) {
    nlohmann::json s = nlohmann::json::array(), c = nlohmann::json::array();
    for (int col = 0; col < lab04::kTile; ++col) s.push_back(swizzle(row, col));
    for (int k = 0; k < lab04::kChunks; ++k) c.push_back(swizzle_chunk(row, k));
    scalar.push_back(s);
    chunk.push_back(c);
  }
  return {{"backend", "cpu"}, {"swizzle", scalar}, {"swizzle_chunk", chunk}};
}

int parse_count(const std::string& text, int minimum, int maximum) {
  char* end = nullptr;
  const long value = std::strtol(text.c_str(), &end, 10);
  if (end == text.c_str() || *end != '\0' || value < minimum || value > maximum) {
    std::cerr << "runner: bad count '" << text << "' (expected a whole number from " << minimum << " to " << maximum
              << ")\n";
    std::exit(2);
  }
  return static_cast<int>(value);
}

nlohmann::json run_chunks(int tiles, int passes, std::uint64_t seed, double time_limit) {
  const std::vector<float> in = lab04::make_chunk_input(tiles, seed);
  const std::size_t bytes = in.size() * sizeof(float);
  auto* d_in = static_cast<float4*>(banklab::emu::device_malloc(bytes));
  auto* d_out = static_cast<float4*>(banklab::emu::device_malloc(bytes));
  std::memcpy(static_cast<void*>(d_in), in.data(), bytes);
  std::memset(static_cast<void*>(d_out), harness::kPoisonByte, bytes);
  banklab::emu::LaunchOptions options = harness::launch_options(time_limit);
  const auto report = banklab::emu::launch(options, dim3(tiles), dim3(lab04::kChunkThreads), chunk_transpose_swizzled,
                                           d_out, static_cast<const float4*>(d_in), passes);
  // The output as it is: the grader compares it with its own reference (task_data.hpp).
  nlohmann::json run = {{"output", harness::output_blob(static_cast<const void*>(d_out), bytes)}};
  banklab::emu::device_free(d_in);
  banklab::emu::device_free(d_out);
  run["tiles"] = tiles;
  run["passes"] = passes;
  run["report"] = banklab::emu::to_json(report);
  return run;
}

}  // namespace

int main(int argc, char** argv) {
  const harness::RunnerArgs args = harness::RunnerArgs::parse(argc, argv);
  const int passes = args.other.count("--passes") ? parse_count(args.other.at("--passes"), 1, 64) : 1;
  nlohmann::json out = {{"backend", "cpu"}, {"seed", args.seed}};
  if (args.command == "maps") {
    out = maps();
  } else if (args.command == "run" && args.task == "transpose" && !args.shapes.empty()) {
    out["runs"] =
        harness::run_transpose_on_emulator<std::uint32_t>(transpose_swizzled, args.shapes, args.seed, args.time_limit);
  } else if (args.command == "run" && args.task == "chunks" && !args.shapes.empty()) {
    out["runs"] = harness::run_each(args.shapes, args.time_limit, [&](const std::string& item, double left) {
      return run_chunks(parse_count(item, 1, 4096), passes, args.seed, left);
    });
  } else {
    std::cerr << "usage: runner maps | run --task transpose --shapes WxH,... --seed N"
                 " | run --task chunks --shapes TILES,... --passes P --seed N\n";
    return 2;
  }
  harness::emit_answer(out.dump());
  return 0;
}

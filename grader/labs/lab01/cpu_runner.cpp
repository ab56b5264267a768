// Stage-1 runner on the CPU emulator. Prints one JSON object per command:
//   runner functions --seed N   the values of word_of and bank_of on lab01::function_offsets(N)
//   runner puzzles     each puzzle's lane offsets and the emulator's report of its load
//   runner answers     the student's predictions
#include <iostream>
#include <string>

#include "banklab/emulator.hpp"
#include "banklab/emulator_json.hpp"
#include "json_writer.hpp"
#include "student_api.hpp"

template <class T>
void puzzle_access(int puzzle, T* sink);
extern template void puzzle_access<unsigned char>(int, unsigned char*);
extern template void puzzle_access<unsigned short>(int, unsigned short*);
extern template void puzzle_access<unsigned>(int, unsigned*);

namespace {

// The values the student's function gives on the grader's offsets, as raw
// int32 bytes (base64): the grader compares them with the bank rule.
std::string function_values(bool bank, const std::vector<int>& offsets) {
  std::vector<std::int32_t> values;
  values.reserve(offsets.size());
  for (const int offset : offsets) values.push_back(bank ? bank_of(offset) : word_of(offset));
  return harness::output_blob(values.data(), values.size() * sizeof(std::int32_t));
}

template <class T>
banklab::emu::LaunchReport launch(int puzzle, double time_limit) {
  auto* sink = static_cast<T*>(banklab::emu::device_malloc(32 * sizeof(T)));
  banklab::emu::LaunchOptions options;
  options.time_limit_seconds = time_limit;
  auto report = banklab::emu::launch(options, dim3(1), dim3(32), puzzle_access<T>, puzzle, sink);
  banklab::emu::device_free(sink);
  return report;
}

nlohmann::json run_puzzles(double time_limit) {
  nlohmann::json puzzles = nlohmann::json::array();
  for (int p = 0; p < lab01::kPuzzleCount; ++p) {
    const lab01::PuzzleSpec& spec = lab01::kPuzzles[p];
    int offsets[32];
    for (int lane = 0; lane < 32; ++lane) offsets[lane] = lab01::kPuzzleFunctions[p](lane);
    nlohmann::json entry = {{"name", spec.name}, {"offsets", offsets}};
    // Offsets the harness's load cannot make are not launched (the grader
    // sees them in "offsets" and says what is wrong with them).
    int bad_lane = 0;
    if (*lab01::offsets_problem(offsets, spec.width_bytes, &bad_lane) == '\0') {
      const auto report = spec.width_bytes == 1   ? launch<unsigned char>(p, time_limit)
                          : spec.width_bytes == 2 ? launch<unsigned short>(p, time_limit)
                                                  : launch<unsigned>(p, time_limit);
      entry["report"] = banklab::emu::to_json(report);
    }
    puzzles.push_back(entry);
  }
  return {{"puzzles", puzzles}};
}

}  // namespace

int main(int argc, char** argv) {
  const std::string command = argc > 1 ? argv[1] : "";
  double time_limit = 20;
  std::uint64_t seed = 1;
  for (int i = 2; i + 1 < argc; i += 2) {
    if (std::string(argv[i]) == "--time-limit") time_limit = std::atof(argv[i + 1]);
    if (std::string(argv[i]) == "--seed") seed = std::strtoull(argv[i + 1], nullptr, 10);
  }
  nlohmann::json out = {{"backend", "cpu"}};
  if (command == "functions") {
    const std::vector<int> offsets = lab01::function_offsets(seed);
    out["seed"] = seed;
    out["word_of"] = function_values(false, offsets);
    out["bank_of"] = function_values(true, offsets);
  } else if (command == "puzzles") {
    out.update(run_puzzles(time_limit / lab01::kPuzzleCount));
  } else if (command == "answers") {
    out["predictions"] = nlohmann::json::array();
    for (int i = 0; i < lab01::kPredictions; ++i) out["predictions"].push_back(predicted_wavefronts[i]);
  } else {
    std::cerr << "usage: runner functions --seed N | puzzles | answers [--time-limit SECONDS]\n";
    return 2;
  }
  harness::emit_answer(out.dump());
  return 0;
}

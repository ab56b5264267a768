// Stage-1 runner on a GPU. Prints one JSON object per command:
//   runner functions   word_of and bank_of, run on the GPU, on every byte offset
//   runner puzzles     each puzzle's offsets (from the student's functions) timed
//                      by the cycle probe in a shared-load-bound loop
//   runner answers     the student's predictions
#include <string>
#include <vector>

#include "cycle_probe.hpp"
#include "json_writer.hpp"
#include "student_api.hpp"

namespace {

__global__ void evaluate_mapping(int* words, int* banks, int count) {
  const int offset = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (offset < count) {
    words[offset] = word_of(offset);
    banks[offset] = bank_of(offset);
  }
}

void print_error(const char* what, cudaError_t error) {
  harness::Json j;
  j.open('{').key("backend").value(std::string("gpu"));
  j.key("error").value(std::string(what) + ": " + cudaGetErrorString(error)).close('}');
  harness::emit_answer(j.str());
}

void write_function(harness::Json& j, const char* name, const std::vector<int>& yours, bool bank) {
  long long mismatches = 0;
  j.key(name).open('{').key("checked").value(static_cast<long long>(yours.size()));
  j.key("first").open('[');
  for (int offset = 0; offset < static_cast<int>(yours.size()); ++offset) {
    const int expected = bank ? (offset / 4) % 32 : offset / 4;
    if (yours[offset] == expected) continue;
    if (++mismatches <= 5) {
      j.open('{').key("offset").value(static_cast<long long>(offset));
      j.key("yours").value(static_cast<long long>(yours[offset]));
      j.key("expected").value(static_cast<long long>(expected)).close('}');
    }
  }
  j.close(']').key("mismatches").value(mismatches).close('}');
}

int functions() {
  const int count = lab01::kOffsetsChecked;
  int *words = nullptr, *banks = nullptr;
  cudaError_t error = cudaMalloc(&words, count * sizeof(int));
  if (error == cudaSuccess) error = cudaMalloc(&banks, count * sizeof(int));
  if (error == cudaSuccess) {
    evaluate_mapping<<<(count + 255) / 256, 256>>>(words, banks, count);
    error = cudaGetLastError();
  }
  if (error == cudaSuccess) error = cudaDeviceSynchronize();
  std::vector<int> w(count), b(count);
  if (error == cudaSuccess) error = cudaMemcpy(w.data(), words, count * sizeof(int), cudaMemcpyDeviceToHost);
  if (error == cudaSuccess) error = cudaMemcpy(b.data(), banks, count * sizeof(int), cudaMemcpyDeviceToHost);
  if (error != cudaSuccess) {
    print_error("word_of/bank_of on the GPU", error);
    return 0;
  }
  harness::Json j;
  j.open('{').key("backend").value(std::string("gpu"));
  write_function(j, "word_of", w, false);
  write_function(j, "bank_of", b, true);
  j.close('}');
  harness::emit_answer(j.str());
  return 0;
}

int puzzles() {
  harness::Json j;
  j.open('{').key("backend").value(std::string("gpu")).key("puzzles").open('[');
  for (int p = 0; p < lab01::kPuzzleCount; ++p) {
    const lab01::PuzzleSpec& spec = lab01::kPuzzles[p];
    int offsets[32];
    long long lane_offsets[32];
    for (int lane = 0; lane < 32; ++lane) lane_offsets[lane] = offsets[lane] = lab01::kPuzzleFunctions[p](lane);
    j.open('{').key("name").value(std::string(spec.name));
    int bad_lane = 0;
    const std::string problem = lab01::offsets_problem(offsets, spec.width_bytes, &bad_lane);
    if (!problem.empty()) {
      j.key("invalid").value("lane " + std::to_string(bad_lane) + ": offset " + std::to_string(offsets[bad_lane]) +
                             " " + problem);
    } else {
      const auto m = banklab::gpu::measure_cycles(spec.width_bytes, false, lane_offsets);
      if (!m.ok) {
        j.key("error").value(m.error);
      } else {
        j.key("cycles").value(m.cycles).key("cycles_per_wavefront").value(m.cycles_per_wavefront);
        j.key("load_floor_cycles").value(m.load_floor_cycles);
      }
    }
    j.close('}');
  }
  j.close(']').close('}');
  harness::emit_answer(j.str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string command = argc > 1 ? argv[1] : "";
  if (command == "functions") return functions();
  if (command == "puzzles") return puzzles();
  if (command == "answers") {
    harness::Json j;
    j.open('{').key("backend").value(std::string("gpu")).key("predictions").open('[');
    for (int i = 0; i < lab01::kPredictions; ++i) j.value(static_cast<long long>(predicted_wavefronts[i]));
    j.close(']').close('}');
    harness::emit_answer(j.str());
    return 0;
  }
  std::fprintf(stderr, "usage: runner functions | puzzles | answers\n");
  return 2;
}

// Stage-1 runner on a GPU. Prints one JSON object per command:
//   runner functions --seed N   word_of and bank_of, run on the GPU, on lab01::function_offsets(N)
//   runner puzzles     each puzzle's offsets (from the student's functions) timed
//                      by the cycle probe in a shared-load-bound loop
//   runner answers     the student's predictions
#include <string>
#include <vector>

#include "cycle_probe.hpp"
#include "json_writer.hpp"
#include "student_api.hpp"

namespace {

__global__ void evaluate_mapping(const int* offsets, int* words, int* banks, int count) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < count) {
    words[i] = word_of(offsets[i]);
    banks[i] = bank_of(offsets[i]);
  }
}

void print_error(const char* what, cudaError_t error) {
  harness::Json j;
  j.open('{').key("backend").value(std::string("gpu"));
  j.key("error").value(std::string(what) + ": " + cudaGetErrorString(error)).close('}');
  harness::emit_answer(j.str());
}

// The values word_of and bank_of give on the grader's offsets, computed on
// the GPU and returned raw (base64 of int32s): the grader compares.
int functions(std::uint64_t seed) {
  const std::vector<int> offsets = lab01::function_offsets(seed);
  const int count = static_cast<int>(offsets.size());
  int *d_offsets = nullptr, *words = nullptr, *banks = nullptr;
  cudaError_t error = cudaMalloc(&d_offsets, count * sizeof(int));
  if (error == cudaSuccess) error = cudaMalloc(&words, count * sizeof(int));
  if (error == cudaSuccess) error = cudaMalloc(&banks, count * sizeof(int));
  if (error == cudaSuccess) error = cudaMemcpy(d_offsets, offsets.data(), count * sizeof(int), cudaMemcpyHostToDevice);
  if (error == cudaSuccess) {
    evaluate_mapping<<<(count + 255) / 256, 256>>>(d_offsets, words, banks, count);
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
  j.open('{').key("backend").value(std::string("gpu")).key("seed").value(static_cast<long long>(seed));
  j.key("word_of").value(harness::output_blob(w.data(), w.size() * sizeof(int)));
  j.key("bank_of").value(harness::output_blob(b.data(), b.size() * sizeof(int)));
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
  std::uint64_t seed = 1;
  for (int i = 2; i + 1 < argc; i += 2) {
    if (std::string(argv[i]) == "--seed") seed = std::strtoull(argv[i + 1], nullptr, 10);
  }
  if (command == "functions") return functions(seed);
  if (command == "puzzles") return puzzles();
  if (command == "answers") {
    harness::Json j;
    j.open('{').key("backend").value(std::string("gpu")).key("predictions").open('[');
    for (int i = 0; i < lab01::kPredictions; ++i) j.value(static_cast<long long>(predicted_wavefronts[i]));
    j.close(']').close('}');
    harness::emit_answer(j.str());
    return 0;
  }
  std::fprintf(stderr, "usage: runner functions --seed N | puzzles | answers\n");
  return 2;
}

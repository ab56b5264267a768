// Stage-4 runner on a GPU. Prints one JSON object per command:
//   runner run --task transpose --shapes 32x32,... --seed N    correctness, poisoned outputs
//   runner run --task chunks --shapes 1,5 --passes P --seed N
//   runner time --task transpose --size N --repeats R   median ms: student, conflicted, padded (stage 3), solution
//   runner time --task chunks --tiles T --passes P --repeats R  median ms: student, conflicted, solution
//   runner ncu-target --task transpose --size N | --task chunks --tiles T --passes P
// The conflicted references and the solution come from solutions/04 (renamed
// at compile time); the padded transpose is stage 3's solution, included here.
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "gpu_runner.cuh"
#include "student_api.hpp"

__global__ void solution_transpose_conflicted(float* out, const float* in, int width, int height);
__global__ void solution_transpose_swizzled(float* out, const float* in, int width, int height);
__global__ void solution_chunk_transpose_conflicted(float4* out, const float4* in, int passes);
__global__ void solution_chunk_transpose_swizzled(float4* out, const float4* in, int passes);

#if __has_include("transpose.cu")
namespace stage3 {
#include "transpose.cu"  // solutions/03-padded-transpose, a GPU include folder of this stage
}  // namespace stage3
#define LAB04_PADDED_TRANSPOSE stage3::transpose_padded
#else
// The student kit has no solutions/: stage 3's padded transpose comes compiled
// (grader/labs/lab04/reference/stage3_gpu.o, made by grader --kit-references).
__global__ void stage3_transpose_padded(float* out, const float* in, int width, int height);
#define LAB04_PADDED_TRANSPOSE stage3_transpose_padded
#endif

namespace {

using ChunkKernel = void (*)(float4*, const float4*, int);

void launch_chunks(ChunkKernel kernel, float4* out, const float4* in, int tiles, int passes) {
  kernel<<<tiles, lab04::kChunkThreads>>>(out, in, passes);
}

int run_chunks(const std::string& shapes, int passes, std::uint64_t seed) {
  harness::Json j;
  j.open('{').key("backend").value(std::string("gpu")).key("runs").open('[');
  std::stringstream list(shapes);
  std::string item;
  while (std::getline(list, item, ',')) {
    const int tiles = std::max(1, std::atoi(item.c_str()));
    const std::vector<float> in = lab04::make_chunk_input(tiles, seed);
    const std::size_t bytes = in.size() * sizeof(float);
    float4 *d_in = nullptr, *d_out = nullptr;
    HARNESS_CUDA_CHECK(cudaMalloc(&d_in, bytes));
    HARNESS_CUDA_CHECK(cudaMalloc(&d_out, bytes));
    HARNESS_CUDA_CHECK(cudaMemcpy(d_in, in.data(), bytes, cudaMemcpyHostToDevice));
    HARNESS_CUDA_CHECK(cudaMemset(d_out, harness::kPoisonByte, bytes));
    launch_chunks(chunk_transpose_swizzled, d_out, d_in, tiles, passes);
    cudaError_t error = cudaGetLastError();
    if (error == cudaSuccess) error = cudaDeviceSynchronize();
    std::vector<float> got(in.size());
    if (error == cudaSuccess) error = cudaMemcpy(got.data(), d_out, bytes, cudaMemcpyDeviceToHost);
    j.open('{').key("tiles").value(static_cast<long long>(tiles)).key("passes").value(static_cast<long long>(passes));
    if (error != cudaSuccess) {
      // A kernel fault (a misaligned float4, say) poisons the context: stop here.
      j.key("error").value(std::string(cudaGetErrorString(error)));
      j.close('}').close(']').close('}');
      harness::emit_answer(j.str());
      return 0;
    }
    // The output as it is: the grader compares it with its own reference (task_data.hpp).
    j.key("output").value(harness::output_blob(got.data(), bytes));
    j.close('}');
    cudaFree(d_in);
    cudaFree(d_out);
  }
  j.close(']').close('}');
  harness::emit_answer(j.str());
  return 0;
}

void print_times(const char* task, const char* const* names, const std::vector<double>& ms) {
  harness::Json j;
  j.open('{').key("backend").value(std::string("gpu")).key("task").value(std::string(task));
  for (std::size_t k = 0; k < ms.size(); ++k) j.key(names[k]).value(ms[k]);
  j.close('}');
  harness::emit_answer(j.str());
}

int time_transpose(int size, int repeats) {
  const std::size_t bytes = static_cast<std::size_t>(size) * size * sizeof(float);
  float *d_in = nullptr, *d_out = nullptr;
  HARNESS_CUDA_CHECK(cudaMalloc(&d_in, bytes));
  HARNESS_CUDA_CHECK(cudaMalloc(&d_out, bytes));
  HARNESS_CUDA_CHECK(cudaMemset(d_in, 0, bytes));
  const harness::TransposeKernel kernels[4] = {transpose_swizzled, solution_transpose_conflicted,
                                               LAB04_PADDED_TRANSPOSE, solution_transpose_swizzled};
  const char* names[4] = {"student", "conflicted", "padded", "solution"};
  std::vector<std::function<void()>> launches;
  for (const auto kernel : kernels) launches.push_back([=] { harness::launch_transpose(kernel, d_out, d_in, size, size); });
  print_times("transpose", names, harness::median_times(launches, repeats));
  return 0;
}

int time_chunks(int tiles, int passes, int repeats) {
  const std::size_t bytes = static_cast<std::size_t>(tiles) * lab04::kTileFloats * sizeof(float);
  float4 *d_in = nullptr, *d_out = nullptr;
  HARNESS_CUDA_CHECK(cudaMalloc(&d_in, bytes));
  HARNESS_CUDA_CHECK(cudaMalloc(&d_out, bytes));
  HARNESS_CUDA_CHECK(cudaMemset(d_in, 0, bytes));
  const ChunkKernel kernels[3] = {chunk_transpose_swizzled, solution_chunk_transpose_conflicted,
                                  solution_chunk_transpose_swizzled};
  const char* names[3] = {"student", "conflicted", "solution"};
  std::vector<std::function<void()>> launches;
  for (const auto kernel : kernels) launches.push_back([=] { launch_chunks(kernel, d_out, d_in, tiles, passes); });
  print_times("chunks", names, harness::median_times(launches, repeats));
  return 0;
}

int ncu_target(const std::string& task, int size, int tiles, int passes) {
  const std::size_t elements =
      task == "chunks" ? static_cast<std::size_t>(tiles) * lab04::kTileFloats : static_cast<std::size_t>(size) * size;
  float *d_in = nullptr, *d_out = nullptr;
  HARNESS_CUDA_CHECK(cudaMalloc(&d_in, elements * sizeof(float)));
  HARNESS_CUDA_CHECK(cudaMalloc(&d_out, elements * sizeof(float)));
  HARNESS_CUDA_CHECK(cudaMemset(d_in, 0, elements * sizeof(float)));
  if (task == "chunks") {
    launch_chunks(chunk_transpose_swizzled, reinterpret_cast<float4*>(d_out), reinterpret_cast<const float4*>(d_in),
                  tiles, passes);
  } else {
    harness::launch_transpose(transpose_swizzled, d_out, d_in, size, size);
  }
  HARNESS_CUDA_CHECK(cudaGetLastError());
  HARNESS_CUDA_CHECK(cudaDeviceSynchronize());
  harness::emit_answer("{\"backend\":\"gpu\",\"launched\":\"" + task + "\"}");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string command = argc > 1 ? argv[1] : "";
  std::string task = "transpose", shapes = "32x32";
  std::uint64_t seed = 1;
  int size = 8192, repeats = 20, tiles = 1, passes = 1;
  for (int i = 2; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--task") task = argv[i + 1];
    if (flag == "--shapes") shapes = argv[i + 1];
    if (flag == "--seed") seed = std::strtoull(argv[i + 1], nullptr, 10);
    if (flag == "--size") size = std::atoi(argv[i + 1]);
    if (flag == "--repeats") repeats = std::max(1, std::atoi(argv[i + 1]));
    if (flag == "--tiles") tiles = std::max(1, std::atoi(argv[i + 1]));
    if (flag == "--passes") passes = std::max(1, std::atoi(argv[i + 1]));
  }
  const bool chunks = task == "chunks";
  if (command == "run" && chunks) return run_chunks(shapes, passes, seed);
  if (command == "run") return harness::run_transpose<std::uint32_t>(transpose_swizzled, harness::parse_shapes(shapes), seed);
  if (command == "time" && chunks) return time_chunks(tiles, passes, repeats);
  if (command == "time") return time_transpose(size, repeats);
  if (command == "ncu-target") return ncu_target(task, size, tiles, passes);
  std::fprintf(stderr,
               "usage: runner run --task transpose|chunks --shapes S [--passes P] --seed N | time --task transpose "
               "--size N | time --task chunks --tiles T --passes P | ncu-target --task ...\n");
  return 2;
}

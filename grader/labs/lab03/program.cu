// Stage 3 as a whole program (written by `grader --lab 3 --export-program`):
// your transpose_padded from @LAB_FILE@, launched as the grader launches it
// (32x32 tiles, 32x8 threads), once, on a seeded WIDTH x HEIGHT input.
//   ./program [WIDTH [HEIGHT]]      default 256 x 256, the size Nsight Compute measures
#include "@LAB_FILE@"

#include "program_common.cuh"

int main(int argc, char** argv) {
  const int width = argc > 1 ? std::atoi(argv[1]) : 256;
  const int height = argc > 2 ? std::atoi(argv[2]) : width;
  const std::vector<float> in = program::random_floats(static_cast<std::size_t>(width) * height, 1);
  float* d_in = program::to_device(in);
  float* d_out = program::device_buffer<float>(in.size());
  transpose_padded<<<program::transpose_grid(width, height), dim3(32, 8)>>>(d_out, d_in, width, height);
  program::compare("transpose_padded", program::finish("transpose_padded", d_out, in.size()),
                   program::transposed(in, width, height));
  PROGRAM_CHECK(cudaFree(d_in));
  PROGRAM_CHECK(cudaFree(d_out));
  return 0;
}

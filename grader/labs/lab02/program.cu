// Stage 2 as a whole program (written by `grader --lab 2 --export-program`):
// your three kernels from @LAB_FILE@, each launched once as the grader
// launches them, on seeded inputs.
//   ./program [N]      default 256: N rows, N particles, an N x N transpose
#include "@LAB_FILE@"

#include "program_common.cuh"

// The grader's launch shapes (grader/labs/lab02/student_api.hpp, which the
// program does not include: your file defines Particle too).
namespace lab02 {
constexpr int kColumns = 64;
constexpr int kRowsPerBlock = 128;
constexpr int kParticlesPerBlock = 128;
}  // namespace lab02

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 256;
  {  // row_sums: kRowsPerBlock threads per block, one row of kColumns floats each
    const std::vector<float> in = program::random_floats(static_cast<std::size_t>(n) * lab02::kColumns, 1);
    float *d_in = program::to_device(in), *d_out = program::device_buffer<float>(n);
    row_sums<<<(n + lab02::kRowsPerBlock - 1) / lab02::kRowsPerBlock, lab02::kRowsPerBlock>>>(d_out, d_in, n);
    std::vector<float> expected(n, 0.0f);
    for (int r = 0; r < n; ++r) {
      for (int c = 0; c < lab02::kColumns; ++c) expected[r] += in[static_cast<std::size_t>(r) * lab02::kColumns + c];
    }
    program::compare("row_sums", program::finish("row_sums", d_out, n), expected);
    PROGRAM_CHECK(cudaFree(d_in));
    PROGRAM_CHECK(cudaFree(d_out));
  }
  {  // neighbour_distances: kParticlesPerBlock threads per block, one particle each
    const std::vector<float> in = program::random_floats(static_cast<std::size_t>(n) * 4, 2);
    float* d_in = program::to_device(in);
    float* d_out = program::device_buffer<float>(n);
    neighbour_distances<<<(n + lab02::kParticlesPerBlock - 1) / lab02::kParticlesPerBlock,
                          lab02::kParticlesPerBlock>>>(d_out, reinterpret_cast<const Particle*>(d_in), n);
    program::finish("neighbour_distances", d_out, n);
    PROGRAM_CHECK(cudaFree(d_in));
    PROGRAM_CHECK(cudaFree(d_out));
  }
  {  // transpose16: 16x16 tiles of 16x16 threads
    const std::vector<float> in = program::random_floats(static_cast<std::size_t>(n) * n, 3);
    float *d_in = program::to_device(in), *d_out = program::device_buffer<float>(in.size());
    transpose16<<<dim3((n + 15) / 16, (n + 15) / 16), dim3(16, 16)>>>(d_out, d_in, n, n);
    program::compare("transpose16", program::finish("transpose16", d_out, in.size()), program::transposed(in, n, n));
    PROGRAM_CHECK(cudaFree(d_in));
    PROGRAM_CHECK(cudaFree(d_out));
  }
  return 0;
}

// Stage 5 as a whole program (written by `grader --lab 5 --export-program`):
// your four kernels from @LAB_FILE@, each launched once as the grader
// launches it, on seeded inputs of size N (points, quads, N x N transposes).
//   ./program [N]      default 256
#include "@LAB_FILE@"

#include "program_common.cuh"
#include "student_api.hpp"

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 256;
  const std::size_t count = static_cast<std::size_t>(n);
  {  // poly_eval: one thread per point, kPolyThreads per block
    const std::vector<float> c = lab05::poly_coefficients(1);
    const std::vector<float> x = lab05::poly_points(n, 1);
    float *d_c = program::to_device(c), *d_x = program::to_device(x), *d_out = program::device_buffer<float>(count);
    poly_eval<<<(n + lab05::kPolyThreads - 1) / lab05::kPolyThreads, lab05::kPolyThreads>>>(d_out, d_x, d_c, n);
    program::finish("poly_eval", d_out, count);
    PROGRAM_CHECK(cudaFree(d_c));
    PROGRAM_CHECK(cudaFree(d_x));
    PROGRAM_CHECK(cudaFree(d_out));
  }
  {  // sum_quads: one thread per quad of 4 floats, kQuadPasses passes
    const std::vector<float> in = lab05::quad_input(n, 1);
    float *d_in = program::to_device(in), *d_out = program::device_buffer<float>(count);
    sum_quads<<<(n + lab05::kQuadThreads - 1) / lab05::kQuadThreads, lab05::kQuadThreads>>>(d_out, d_in, n,
                                                                                         lab05::kQuadPasses);
    program::compare("sum_quads", program::finish("sum_quads", d_out, count),
                     lab05::expected_quads(in, lab05::kQuadPasses));
    PROGRAM_CHECK(cudaFree(d_in));
    PROGRAM_CHECK(cudaFree(d_out));
  }
  {  // transpose_double: 32x32 tiles of 32x8 threads
    const std::vector<float> values = program::random_floats(count * count, 1);
    const std::vector<double> in(values.begin(), values.end());
    double *d_in = program::to_device(in), *d_out = program::device_buffer<double>(in.size());
    transpose_double<<<program::transpose_grid(n, n), dim3(32, 8)>>>(d_out, d_in, n, n);
    program::compare("transpose_double", program::finish("transpose_double", d_out, in.size()),
                     program::transposed(in, n, n));
    PROGRAM_CHECK(cudaFree(d_in));
    PROGRAM_CHECK(cudaFree(d_out));
  }
  {  // transpose_half: kHalfTile x kHalfTile tiles of kHalfTile x kHalfRows threads
    const std::vector<float> values = program::random_floats(count * count, 1);
    std::vector<half> in(values.size());
    for (std::size_t i = 0; i < in.size(); ++i) in[i] = __float2half(values[i]);
    half *d_in = program::to_device(in), *d_out = program::device_buffer<half>(in.size());
    transpose_half<<<program::transpose_grid(n, n, lab05::kHalfTile), dim3(lab05::kHalfTile, lab05::kHalfRows)>>>(
        d_out, d_in, n, n);
    const std::vector<half> got = program::finish("transpose_half", d_out, in.size());
    const std::vector<float> expected = program::transposed(values, n, n);
    std::vector<float> got_floats(got.size());
    for (std::size_t i = 0; i < got.size(); ++i) got_floats[i] = __half2float(got[i]);
    program::compare("transpose_half", got_floats, expected);
    PROGRAM_CHECK(cudaFree(d_in));
    PROGRAM_CHECK(cudaFree(d_out));
  }
  return 0;
}

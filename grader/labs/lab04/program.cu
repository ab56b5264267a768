// Stage 4 as a whole program (written by `grader --lab 4 --export-program`):
// your transpose_swizzled and chunk_transpose_swizzled from @LAB_FILE@, each
// launched once as the grader launches them, on seeded inputs.
//   ./program [SIZE [TILES [PASSES]]]      default 256 x 256, 64 tiles, 2 passes
#include "@LAB_FILE@"

#include "program_common.cuh"
#include "student_api.hpp"

int main(int argc, char** argv) {
  const int size = argc > 1 ? std::atoi(argv[1]) : 256;
  const int tiles = argc > 2 ? std::atoi(argv[2]) : 64;
  const int passes = argc > 3 ? std::atoi(argv[3]) : 2;
  {  // the swizzled transpose: 32x32 tiles of 32x8 threads
    const std::vector<float> in = program::random_floats(static_cast<std::size_t>(size) * size, 1);
    float *d_in = program::to_device(in), *d_out = program::device_buffer<float>(in.size());
    transpose_swizzled<<<program::transpose_grid(size, size), dim3(32, 8)>>>(d_out, d_in, size, size);
    program::compare("transpose_swizzled", program::finish("transpose_swizzled", d_out, in.size()),
                     program::transposed(in, size, size));
    PROGRAM_CHECK(cudaFree(d_in));
    PROGRAM_CHECK(cudaFree(d_out));
  }
  {  // the chunk transpose: one block of kChunkThreads per 32x32 tile
    const std::vector<float> in = lab04::make_chunk_input(tiles, 1);
    float *d_in = program::to_device(in), *d_out = program::device_buffer<float>(in.size());
    chunk_transpose_swizzled<<<tiles, lab04::kChunkThreads>>>(reinterpret_cast<float4*>(d_out),
                                                            reinterpret_cast<const float4*>(d_in), passes);
    program::compare("chunk_transpose_swizzled", program::finish("chunk_transpose_swizzled", d_out, in.size()),
                     lab04::expected_chunks(in, tiles, passes));
    PROGRAM_CHECK(cudaFree(d_in));
    PROGRAM_CHECK(cudaFree(d_out));
  }
  return 0;
}

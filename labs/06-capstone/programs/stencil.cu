// stencil_cross as a whole program: the shipped kernel (original.cu) and
// yours (capstone.cu) on the same N x N image, each checked against the CPU.
//   banklab run labs/06-capstone/programs/stencil.cu      the per-line report of both
//   nvcc -O3 -arch=native -o stencil labs/06-capstone/programs/stencil.cu && ./stencil --time
#include "capstone_program.cuh"

int main(int argc, char** argv) {
  const capstone::Options o = capstone::options(argc, argv, 256, 4096);
  const int n = o.size;
  const std::vector<int> in = lab06::stencil_input(n, n, 1);
  int* d_in = program::to_device(in);
  int* d_out = program::device_buffer<int>(in.size());
  const dim3 grid((n + lab06::kStencilX - 1) / lab06::kStencilX, (n + lab06::kStencilY - 1) / lab06::kStencilY);
  capstone::side_by_side<int>("stencil_cross", o, [&](bool shipped) {
    (shipped ? original::stencil_cross : stencil_cross)<<<grid, dim3(lab06::kStencilX, lab06::kStencilY)>>>(d_out, d_in, n, n);
  }, d_out, lab06::expected_stencil(in, n, n));
  PROGRAM_CHECK(cudaFree(d_in));
  PROGRAM_CHECK(cudaFree(d_out));
  return 0;
}

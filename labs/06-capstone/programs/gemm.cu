// gemm_tiled as a whole program: the shipped kernel (original.cu) and yours
// (capstone.cu) on the same N x N matrices, each checked against the CPU.
//   banklab run labs/06-capstone/programs/gemm.cu         the per-line report of both
//   nvcc -O3 -arch=native -o gemm labs/06-capstone/programs/gemm.cu && ./gemm --time
#include "capstone_program.cuh"

int main(int argc, char** argv) {
  const capstone::Options o = capstone::options(argc, argv, 128, 1024);
  const int n = o.size;
  const std::vector<float> a = lab06::gemm_a(n, n, 1), b = lab06::gemm_b(n, n, 1);
  float *d_a = program::to_device(a), *d_b = program::to_device(b);
  float* d_c = program::device_buffer<float>(static_cast<std::size_t>(n) * n);
  const dim3 grid((n + lab06::kGemmTile - 1) / lab06::kGemmTile, (n + lab06::kGemmTile - 1) / lab06::kGemmTile);
  const dim3 block(lab06::kGemmTile, lab06::kGemmRows);
  capstone::side_by_side<float>("gemm_tiled", o, [&](bool shipped) {
    (shipped ? original::gemm_tiled : gemm_tiled)<<<grid, block>>>(d_c, d_a, d_b, n, n, n);
  }, d_c, lab06::expected_gemm(a, b, n, n, n));
  PROGRAM_CHECK(cudaFree(d_a));
  PROGRAM_CHECK(cudaFree(d_b));
  PROGRAM_CHECK(cudaFree(d_c));
  return 0;
}

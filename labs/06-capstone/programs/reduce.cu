// reduce_sum as a whole program: the shipped kernel (original.cu) and yours
// (capstone.cu) on the same input, each checked against the CPU.
//   banklab run labs/06-capstone/programs/reduce.cu       the per-line report of both
//   nvcc -O3 -arch=native -o reduce labs/06-capstone/programs/reduce.cu && ./reduce --time
#include "capstone_program.cuh"

int main(int argc, char** argv) {
  const capstone::Options o = capstone::options(argc, argv, 1 << 16, 1 << 24);
  const int n = o.size, grid = (n + lab06::kReduceThreads - 1) / lab06::kReduceThreads;
  const std::vector<int> in = lab06::reduce_input(n, 1);
  int* d_in = program::to_device(in);
  int* d_out = program::device_buffer<int>(grid);
  capstone::side_by_side<int>("reduce_sum", o, [&](bool shipped) {
    (shipped ? original::reduce_sum : reduce_sum)<<<grid, lab06::kReduceThreads>>>(d_out, d_in, n);
  }, d_out, lab06::expected_reduce(in));
  PROGRAM_CHECK(cudaFree(d_in));
  PROGRAM_CHECK(cudaFree(d_out));
  return 0;
}

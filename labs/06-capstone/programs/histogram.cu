// histogram32 as a whole program: the shipped kernel (original.cu) and yours
// (capstone.cu) on the same random values, each checked against the CPU.
//   banklab run labs/06-capstone/programs/histogram.cu    the per-line report of both
//   nvcc -O3 -arch=native -o histogram labs/06-capstone/programs/histogram.cu && ./histogram --time
// Under banklab run keep the size at 32768 or below: the report keeps 1024
// different access patterns per line, and every 32 random values make one.
#include "capstone_program.cuh"

int main(int argc, char** argv) {
  const capstone::Options o = capstone::options(argc, argv, 1 << 15, 1 << 24);
  const int n = o.size, grid = (n + lab06::kHistChunk - 1) / lab06::kHistChunk;
  const std::vector<std::uint32_t> data = lab06::histogram_input(n, 1);
  unsigned* d_data = program::to_device(data);
  unsigned* d_bins = program::device_buffer<unsigned>(static_cast<std::size_t>(grid) * lab06::kHistBins);
  capstone::side_by_side<unsigned>("histogram32", o, [&](bool shipped) {
    (shipped ? original::histogram32 : histogram32)<<<grid, lab06::kHistThreads>>>(d_bins, d_data, n);
  }, d_bins, lab06::expected_histogram(data));
  PROGRAM_CHECK(cudaFree(d_data));
  PROGRAM_CHECK(cudaFree(d_bins));
  return 0;
}

// scan_segments as a whole program: the shipped kernel (original.cu) and
// yours (capstone.cu) on the same input, each checked against the CPU.
//   banklab run labs/06-capstone/programs/scan.cu         the per-line report of both
//   nvcc -O3 -arch=native -o scan labs/06-capstone/programs/scan.cu && ./scan --time
#include "capstone_program.cuh"

int main(int argc, char** argv) {
  const capstone::Options o = capstone::options(argc, argv, 1 << 16, 1 << 24);
  const int n = o.size, grid = (n + lab06::kScanSegment - 1) / lab06::kScanSegment;
  const std::vector<int> in = lab06::scan_input(n, 1);
  int* d_in = program::to_device(in);
  int* d_out = program::device_buffer<int>(n);
  capstone::side_by_side<int>("scan_segments", o, [&](bool shipped) {
    (shipped ? original::scan_segments : scan_segments)<<<grid, lab06::kScanThreads>>>(d_out, d_in, n);
  }, d_out, lab06::expected_scan(in));
  PROGRAM_CHECK(cudaFree(d_in));
  PROGRAM_CHECK(cudaFree(d_out));
  return 0;
}

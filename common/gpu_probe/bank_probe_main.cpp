// bank_probe: issues one warp-wide shared-memory instruction per launch for
// each row of an access CSV, so that Nsight Compute can count its wavefronts
// on a real GPU (measure.sh runs it under ncu). This is how the bank model's
// rule is checked against hardware.
#include <algorithm>
#include <array>
#include <cstdio>
#include <fstream>

#include "bank_probe.hpp"
#include "banklab/access_csv.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: bank_probe PATTERNS.csv   (rows name,width_bytes,op,lane_byte_offsets)\n");
    return 2;
  }
  std::ifstream in(argv[1]);
  if (!in) {
    std::fprintf(stderr, "bank_probe: cannot open %s\n", argv[1]);
    return 2;
  }
  std::vector<banklab::AccessRow> rows;
  try {
    rows = banklab::read_access_csv(in, argv[1]);
  } catch (const banklab::AccessError& error) {
    std::fprintf(stderr, "bank_probe: %s\n", error.what());
    return 2;
  }
  for (const auto& row : rows) {
    for (long long offset : row.access.offsets) {
      if (offset + row.access.width_bytes > kSharedBytes) {
        std::fprintf(stderr, "bank_probe: %s: offset %lld is beyond the probe's %d shared bytes\n", row.name.c_str(),
                     offset, kSharedBytes);
        return 2;
      }
    }
    std::array<long long, banklab::kWarpSize> offsets{};
    std::copy(row.access.offsets.begin(), row.access.offsets.end(), offsets.begin());
    probe_one_access(row.access.width_bytes, row.access.op == banklab::MemOp::kStore, offsets.data());
  }
  std::printf("bank_probe: launched %zu patterns\n", rows.size());
  return 0;
}

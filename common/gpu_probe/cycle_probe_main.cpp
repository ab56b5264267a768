// cycle_probe: measures each row of an access CSV with the GPU cycle probe and
// prints cycles per warp instruction beside the bank model's wavefronts and
// pipeline passes (max(wavefronts, lane groups): an empty lane group still
// takes a pass, so a partial warp of 8- or 16-byte accesses can take more
// cycles than it has wavefronts):
//   cycle_probe PATTERNS.csv        (rows name,width_bytes,op,lane_byte_offsets)
// This is how the kit checks that "cycles per instruction = pipeline passes"
// holds for the patterns its stages time on a GPU.
#include <array>
#include <cstdio>
#include <fstream>

#include "banklab/access_csv.hpp"
#include "cycle_probe.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: cycle_probe PATTERNS.csv   (rows name,width_bytes,op,lane_byte_offsets)\n");
    return 2;
  }
  std::ifstream in(argv[1]);
  if (!in) {
    std::fprintf(stderr, "cycle_probe: cannot open %s\n", argv[1]);
    return 2;
  }
  std::vector<banklab::AccessRow> rows;
  try {
    rows = banklab::read_access_csv(in, argv[1]);
  } catch (const banklab::AccessError& error) {
    std::fprintf(stderr, "cycle_probe: %s\n", error.what());
    return 2;
  }
  std::printf("%-28s %5s %2s %8s %8s %8s %8s %10s %6s %s\n", "name", "width", "op", "cycles", "per_wf", "floor",
              "ratio", "wavefronts", "passes", "agree");
  int disagree = 0;
  for (const auto& row : rows) {
    std::array<long long, banklab::kWarpSize> offsets{};
    for (int lane = 0; lane < banklab::kWarpSize; ++lane) offsets[lane] = row.access.offsets[lane];
    const auto m = banklab::gpu::measure_cycles(row.access.width_bytes, row.access.op == banklab::MemOp::kStore,
                                                offsets.data());
    if (!m.ok) {
      std::fprintf(stderr, "cycle_probe: %s: %s\n", row.name.c_str(), m.error.c_str());
      return 1;
    }
    const banklab::AccessCost cost = banklab::price(row.access);
    const bool store = row.access.op == banklab::MemOp::kStore;
    const bool agree = m.agrees_with(cost.pipeline_passes, store);
    disagree += agree ? 0 : 1;
    std::printf("%-28s %5d %2s %8.3f %8.3f %8.3f %8.3f %10d %6d %s\n", row.name.c_str(), row.access.width_bytes,
                std::string(banklab::to_string(row.access.op)).c_str(), m.cycles, m.cycles_per_wavefront,
                m.load_floor_cycles, m.ratio(), cost.wavefronts, cost.pipeline_passes, agree ? "yes" : "NO");
  }
  std::printf("cycle_probe: %zu patterns, %d where the cycles differ from the pipeline passes\n", rows.size(),
              disagree);
  return disagree == 0 ? 0 : 1;
}

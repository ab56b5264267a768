// The GPU cycle probe: how many cycles one warp-wide shared-memory
// instruction takes, measured in a loop bound by shared accesses. On an H200
// the cycles per instruction equal the bank model's wavefronts, so the probe
// confirms a predicted cost on real hardware. C++17 with no dependencies, so
// that nvcc builds it into the grader's GPU runners.
#pragma once

#include <string>

namespace banklab::gpu {

/// Shared bytes the probe kernel declares; lane offsets must stay below this.
inline constexpr int kCycleProbeSharedBytes = 32 * 1024;

/// Measured on an H200 (tests/data/gpu/h200_cycle_probe.txt): a warp
/// instruction of w >= 2 wavefronts takes w cycles to within 1%; a
/// 1-wavefront load takes about 1.36 cycles, an issue limit, not the banks.
/// So each measurement carries its own two calibrations: the cycles of one
/// wavefront (a 32-wavefront column read, divided by 32) and that floor.
struct CycleMeasurement {
  bool ok = false;
  std::string error;              ///< a CUDA error or bad input, when !ok
  double cycles = 0;              ///< per warp instruction, the median of the repeats
  double cycles_per_wavefront = 0;  ///< a 4-byte load of lane l at word 32 l (32 wavefronts), / 32
  double load_floor_cycles = 0;   ///< a 4-byte load of lane l at word l (1 wavefront)

  /// cycles / cycles_per_wavefront: the wavefronts the hardware spent, as a ratio.
  [[nodiscard]] double ratio() const { return cycles_per_wavefront > 0 ? cycles / cycles_per_wavefront : 0; }
  /// The cycles `wavefronts` should take: wavefronts x cycles_per_wavefront,
  /// but never less than the issue floor for loads.
  [[nodiscard]] double expected_cycles(int wavefronts, bool store) const {
    const double banks = wavefronts * cycles_per_wavefront;
    return store || banks > load_floor_cycles ? banks : load_floor_cycles;
  }
  /// Within 5% (plus 0.05 cycles) of expected_cycles: the tolerance the H200
  /// runs justify (largest deviation seen there: 1.7%).
  [[nodiscard]] bool agrees_with(int wavefronts, bool store) const {
    const double expected = expected_cycles(wavefronts, store);
    const double diff = cycles > expected ? cycles - expected : expected - cycles;
    return diff <= 0.05 * expected + 0.05;
  }
};

/// Measures the access in which active lanes (offset >= 0) each issue one
/// shared load or store of width_bytes (1, 2, 4, 8 or 16) at their byte
/// offset, repeated in an unrolled loop by 16 warps of one block (so that the
/// shared-memory pipe, not instruction issue, bounds the loop). Loads are
/// `ld.volatile.shared` so that ptxas keeps every repeat.
CycleMeasurement measure_cycles(int width_bytes, bool store, const long long lane_offsets[32]);

}  // namespace banklab::gpu

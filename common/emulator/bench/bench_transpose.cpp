// Benchmark: the padded 32x32 transpose (BLOCK_ROWS 8, the stage-3 solution) of a 2048x2048 float
// matrix on the CPU emulator, with tracing and pricing on and off, on one core
// and on every core (LaunchOptions::workers). Prints a table of transposed
// elements per second and nanoseconds per shared access.
//   bench_transpose [N] [repeats]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <vector>

#include "banklab/emulator.hpp"

void transpose_padded(float* out, const float* in, int width, int height);

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 2048;
  const int repeats = argc > 2 ? std::atoi(argv[2]) : 3;
  if (n <= 0 || repeats <= 0) {
    std::fprintf(stderr, "usage: bench_transpose [N > 0] [repeats > 0]\n");
    return 2;
  }
  const std::size_t count = static_cast<std::size_t>(n) * static_cast<std::size_t>(n);
  auto* in = static_cast<float*>(banklab::emu::device_malloc(count * sizeof(float)));
  auto* out = static_cast<float*>(banklab::emu::device_malloc(count * sizeof(float)));
  std::iota(in, in + count, 0.0f);
  const dim3 grid((n + 31) / 32, (n + 31) / 32);
  const dim3 block(32, 8);
  const unsigned cores = banklab::emu::available_cores();
  std::printf("padded transpose %dx%d floats, grid (%u,%u), block (32,8), best of %d, %u cores\n", n, n, grid.x,
              grid.y, repeats, cores);
  std::printf("%-22s %8s %10s %14s %16s %12s\n", "mode", "workers", "seconds", "elements/s", "shared accesses",
              "ns/access");
  for (const bool trace : {true, false}) {
    for (const unsigned workers : {1u, cores}) {
    if (workers == cores && cores == 1) continue;
    banklab::emu::LaunchOptions options;
    options.trace = trace;
    options.workers = workers;
    options.time_limit_seconds = 600;
    double best = 1e30;
    banklab::emu::LaunchReport report;
    for (int r = 0; r < repeats; ++r) {
      report = banklab::emu::launch(options, grid, block, transpose_padded, out, in, n, n);
      best = std::min(best, report.seconds);
    }
    for (std::size_t i = 0; i < count; i += 4099) {
      const std::size_t x = i % static_cast<std::size_t>(n), y = i / static_cast<std::size_t>(n);
      if (out[x * static_cast<std::size_t>(n) + y] != in[i] || !report.findings.empty()) {
        std::fprintf(stderr, "bench_transpose: wrong result or findings:\n%s",
                     banklab::emu::format_report(report).c_str());
        return 1;
      }
    }
    std::printf("%-22s %8u %10.3f %14.3e %16llu %12.1f\n", trace ? "trace + bank pricing" : "checks only (no trace)",
                workers, best, static_cast<double>(count) / best, static_cast<unsigned long long>(report.shared_accesses),
                best * 1e9 / static_cast<double>(report.shared_accesses));
    }
  }
  return 0;
}

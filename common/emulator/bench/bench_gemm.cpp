// Benchmark: a 16x16-tiled shared-memory GEMM of N x N floats (default 512)
// on the CPU emulator, traced and priced, and with checks only, on one core
// and on every core (LaunchOptions::workers). Prints a table; the target is a
// traced 512x512 GEMM in under 2 seconds.
//   bench_gemm [N (a multiple of 16)] [repeats]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "banklab/emulator.hpp"

void gemm_tiled(const float* a, const float* b, float* c, int n);

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 512;
  const int repeats = argc > 2 ? std::atoi(argv[2]) : 1;
  if (n <= 0 || n % 16 != 0 || repeats <= 0) {
    std::fprintf(stderr, "usage: bench_gemm [N, a multiple of 16] [repeats > 0]\n");
    return 2;
  }
  const std::size_t count = static_cast<std::size_t>(n) * static_cast<std::size_t>(n);
  auto* a = static_cast<float*>(banklab::emu::device_malloc(count * sizeof(float)));
  auto* b = static_cast<float*>(banklab::emu::device_malloc(count * sizeof(float)));
  auto* c = static_cast<float*>(banklab::emu::device_malloc(count * sizeof(float)));
  for (std::size_t i = 0; i < count; ++i) {
    a[i] = static_cast<float>(i % 7);
    b[i] = static_cast<float>(i % 5);
  }
  const dim3 grid(n / 16, n / 16), block(16, 16);
  const unsigned cores = banklab::emu::available_cores();
  std::printf("tiled GEMM %dx%d floats, tiles 16x16, grid (%u,%u), best of %d, %u cores\n", n, n, grid.x, grid.y,
              repeats, cores);
  std::printf("%-22s %8s %10s %16s %16s %12s\n", "mode", "workers", "seconds", "shared accesses", "warp instr",
              "ns/access");
  std::uint64_t one_worker_wavefronts = 0;
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
      report = banklab::emu::launch(options, grid, block, gemm_tiled, a, b, c, n);
      best = std::min(best, report.seconds);
    }
    // spot checks against the host
    for (int r = 0; r < n; r += 97) {
      for (int col = 0; col < n; col += 89) {
        float expected = 0;
        for (int k = 0; k < n; ++k) expected += a[r * n + k] * b[static_cast<std::size_t>(k) * n + col];
        if (c[static_cast<std::size_t>(r) * n + col] != expected || !report.findings.empty()) {
          std::fprintf(stderr, "bench_gemm: wrong result or findings\n%s", banklab::emu::format_report(report).c_str());
          return 1;
        }
      }
    }
    std::uint64_t instructions = 0, wavefronts = 0;
    for (const auto& l : report.lines) {
      instructions += l.warp_instructions;
      wavefronts += l.wavefronts;
    }
    // Any number of workers prices the launch exactly as one does.
    if (trace && workers == 1) one_worker_wavefronts = wavefronts;
    if (trace && wavefronts != one_worker_wavefronts) {
      std::fprintf(stderr, "bench_gemm: %u workers counted %llu wavefronts, one worker %llu\n", workers,
                   static_cast<unsigned long long>(wavefronts), static_cast<unsigned long long>(one_worker_wavefronts));
      return 1;
    }
    std::printf("%-22s %8u %10.3f %16llu %16llu %12.1f\n", trace ? "trace + bank pricing" : "checks only (no trace)",
                workers, best, static_cast<unsigned long long>(report.shared_accesses),
                static_cast<unsigned long long>(instructions), best * 1e9 / static_cast<double>(report.shared_accesses));
    }
  }
  return 0;
}

// Stage 6's runs, inputs and CPU references (C++17, no dependencies): the
// runners make each input from the seed, the grader makes the same input and
// compares the runner's raw output with the reference here, and the programs
// in labs/06-capstone/programs/ use the same inputs and references.
//
// A run is the task's sizes as text: reduce, scan and histogram "N" (input
// elements), gemm "MxNxK" (C is M x N, the inner dimension K), stencil "WxH".
#pragma once

#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

namespace lab06 {

inline constexpr int kReduceThreads = 256;
inline constexpr int kScanThreads = 256, kScanSegment = 512;
inline constexpr int kGemmTile = 32, kGemmRows = 8;
inline constexpr int kHistThreads = 256, kHistBins = 32, kHistChunk = 1024;
inline constexpr int kStencilX = 32, kStencilY = 8, kStencilR = 2;

enum class Task { kReduce, kScan, kGemm, kHistogram, kStencil };

/// The task of a runner's --task id ("reduce", "scan", "gemm", "histogram",
/// "stencil"); false for another id.
inline bool task_of(const std::string& id, Task* task) {
  static const char* const ids[] = {"reduce", "scan", "gemm", "histogram", "stencil"};
  for (int t = 0; t < 5; ++t) {
    if (id == ids[t]) {
      *task = static_cast<Task>(t);
      return true;
    }
  }
  return false;
}

/// A run's sizes: {n}, {m, n, k} or {width, height}.
struct Run {
  Task task = Task::kReduce;
  int dims[3] = {0, 0, 0};
};

inline int dims_of(Task task) { return task == Task::kGemm ? 3 : task == Task::kStencil ? 2 : 1; }

/// The largest size of each dimension: the emulator prices every block, and
/// the histogram's per-line record keeps 1024 different access patterns
/// (one run of its counting line per 32 values).
inline long long max_dim(Task task) {
  switch (task) {
    case Task::kGemm: return 1024;
    case Task::kStencil: return 8192;
    case Task::kHistogram: return 1 << 15;
    default: return 1 << 26;
  }
}

/// Parses "N", "MxNxK" or "WxH" for the task; false for anything else
/// (a size below 1 or above max_dim(task) included).
inline bool parse_run(Task task, const char* text, Run* run) {
  run->task = task;
  const char* p = text;
  for (int d = 0; d < dims_of(task); ++d) {
    if (d > 0 && *p++ != 'x') return false;
    char* end = nullptr;
    const long v = std::strtol(p, &end, 10);
    if (end == p || v < 1 || v > max_dim(task)) return false;
    run->dims[d] = static_cast<int>(v);
    p = end;
  }
  return *p == '\0';
}

inline std::string label(const Run& run) {
  std::string out = std::to_string(run.dims[0]);
  for (int d = 1; d < dims_of(run.task); ++d) out += "x" + std::to_string(run.dims[d]);
  return out;
}

inline std::uint64_t mix(std::uint64_t seed, std::uint64_t salt) { return seed * 0x9e3779b97f4a7c15ull ^ salt; }

template <class T>
std::vector<T> whole_numbers(std::size_t count, int low, int high, std::uint64_t seed, std::uint64_t salt) {
  std::mt19937_64 rng(mix(seed, salt));
  std::uniform_int_distribution<int> value(low, high);
  std::vector<T> out(count);
  for (T& v : out) v = static_cast<T>(value(rng));
  return out;
}

/// reduce: n ints in -1000..1000; the output is one sum per 256 of them.
inline std::vector<int> reduce_input(int n, std::uint64_t seed) { return whole_numbers<int>(n, -1000, 1000, seed, 0x52u + n); }
inline std::vector<int> expected_reduce(const std::vector<int>& in) {
  std::vector<int> out((in.size() + kReduceThreads - 1) / kReduceThreads, 0);
  for (std::size_t i = 0; i < in.size(); ++i) out[i / kReduceThreads] += in[i];
  return out;
}

/// scan: n ints in -100..100; the output is each 512-element segment's
/// exclusive prefix sum.
inline std::vector<int> scan_input(int n, std::uint64_t seed) { return whole_numbers<int>(n, -100, 100, seed, 0x53u + n); }
inline std::vector<int> expected_scan(const std::vector<int>& in) {
  std::vector<int> out(in.size());
  int sum = 0;
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (i % kScanSegment == 0) sum = 0;
    out[i] = sum;
    sum += in[i];
  }
  return out;
}

/// gemm: A (m x k) and B (k x n) of whole numbers in -4..4 as floats, so that
/// every sum is exact in any order; the output is C = A B (m x n).
inline std::vector<float> gemm_a(int m, int k, std::uint64_t seed) {
  return whole_numbers<float>(static_cast<std::size_t>(m) * k, -4, 4, seed, 0x41u + 7919u * m + k);
}
inline std::vector<float> gemm_b(int k, int n, std::uint64_t seed) {
  return whole_numbers<float>(static_cast<std::size_t>(k) * n, -4, 4, seed, 0x42u + 7919u * k + n);
}
inline std::vector<float> expected_gemm(const std::vector<float>& a, const std::vector<float>& b, int m, int n, int k) {
  std::vector<float> c(static_cast<std::size_t>(m) * n, 0.0f);
  for (int i = 0; i < m; ++i) {
    for (int kk = 0; kk < k; ++kk) {
      const float av = a[static_cast<std::size_t>(i) * k + kk];
      for (int j = 0; j < n; ++j) c[static_cast<std::size_t>(i) * n + j] += av * b[static_cast<std::size_t>(kk) * n + j];
    }
  }
  return c;
}

/// histogram: n random 32-bit values; the output is 32 counts (value % 32)
/// per 1024 values.
inline std::vector<std::uint32_t> histogram_input(int n, std::uint64_t seed) {
  std::mt19937_64 rng(mix(seed, 0x48u + n));
  std::vector<std::uint32_t> out(n);
  for (auto& v : out) v = static_cast<std::uint32_t>(rng() >> 16);
  return out;
}
inline std::vector<std::uint32_t> expected_histogram(const std::vector<std::uint32_t>& in) {
  std::vector<std::uint32_t> out((in.size() + kHistChunk - 1) / kHistChunk * kHistBins, 0);
  for (std::size_t i = 0; i < in.size(); ++i) ++out[i / kHistChunk * kHistBins + in[i] % kHistBins];
  return out;
}

/// stencil: a width x height image of ints in -1000..1000; the output is 8
/// times each point plus its 8 neighbours on the cross of radius 2 (0 outside).
inline std::vector<int> stencil_input(int width, int height, std::uint64_t seed) {
  return whole_numbers<int>(static_cast<std::size_t>(width) * height, -1000, 1000, seed, 0x54u + 7919u * width + height);
}
inline std::vector<int> expected_stencil(const std::vector<int>& in, int width, int height) {
  auto at = [&](int x, int y) { return x < 0 || x >= width || y < 0 || y >= height ? 0 : in[static_cast<std::size_t>(y) * width + x]; };
  std::vector<int> out(in.size());
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      int v = 8 * at(x, y);
      for (int r = 1; r <= kStencilR; ++r) v += at(x - r, y) + at(x + r, y) + at(x, y - r) + at(x, y + r);
      out[static_cast<std::size_t>(y) * width + x] = v;
    }
  }
  return out;
}

/// The reference output of a run as raw bytes (4-byte elements).
inline std::vector<unsigned char> expected_bytes(const Run& run, std::uint64_t seed) {
  auto bytes = [](const auto& values) {
    std::vector<unsigned char> out(values.size() * 4);
    for (std::size_t i = 0; i < values.size(); ++i) {
      const auto* p = reinterpret_cast<const unsigned char*>(&values[i]);
      for (int b = 0; b < 4; ++b) out[4 * i + b] = p[b];
    }
    return out;
  };
  const int* d = run.dims;
  switch (run.task) {
    case Task::kReduce: return bytes(expected_reduce(reduce_input(d[0], seed)));
    case Task::kScan: return bytes(expected_scan(scan_input(d[0], seed)));
    case Task::kGemm: return bytes(expected_gemm(gemm_a(d[0], d[2], seed), gemm_b(d[2], d[1], seed), d[0], d[1], d[2]));
    case Task::kHistogram: return bytes(expected_histogram(histogram_input(d[0], seed)));
    case Task::kStencil: return bytes(expected_stencil(stencil_input(d[0], d[1], seed), d[0], d[1]));
  }
  return {};
}

}  // namespace lab06

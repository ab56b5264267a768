// What the five programs share: the shipped kernels (original.cu, in
// namespace original) and yours (capstone.cu) in one program, the grader's
// seeded inputs and CPU references (grader/labs/lab06/task_data.hpp), and a
// run of both kernels on the same input, each checked and, with --time on a
// GPU, timed.
//   PROGRAM [--time] [--size N]
#pragma once

namespace original {
#include "../original.cu"
}
#include "../capstone.cu"
#include "../../../grader/labs/common/program_common.cuh"
#include "../../../grader/labs/lab06/task_data.hpp"

#include <algorithm>
#include <cstring>
#include <functional>

namespace capstone {

struct Options {
  bool time = false;  ///< time both kernels (a GPU; the emulator's times mean nothing)
  int size = 0;       ///< the program's size, or the timed size with --time
};

inline Options options(int argc, char** argv, int size, int timed_size) {
  Options o;
  o.size = size;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--time") == 0) {
      o.time = true;
      o.size = timed_size;
    } else if (std::strcmp(argv[i], "--size") == 0 && i + 1 < argc) {
      o.size = std::max(1, std::atoi(argv[++i]));
    } else {
      std::fprintf(stderr, "usage: %s [--time] [--size N]\n", argv[0]);
      std::exit(2);
    }
  }
  return o;
}

/// Median milliseconds of 20 launches after 3 warm-up ones.
inline float median_ms(const std::function<void()>& launch) {
  cudaEvent_t start, stop;
  PROGRAM_CHECK(cudaEventCreate(&start));
  PROGRAM_CHECK(cudaEventCreate(&stop));
  for (int i = 0; i < 3; ++i) launch();
  std::vector<float> ms;
  for (int i = 0; i < 20; ++i) {
    PROGRAM_CHECK(cudaEventRecord(start));
    launch();
    PROGRAM_CHECK(cudaEventRecord(stop));
    PROGRAM_CHECK(cudaEventSynchronize(stop));
    float t = 0;
    PROGRAM_CHECK(cudaEventElapsedTime(&t, start, stop));
    ms.push_back(t);
  }
  PROGRAM_CHECK(cudaEventDestroy(start));
  PROGRAM_CHECK(cudaEventDestroy(stop));
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

/// Runs the shipped kernel, then yours (`launch(true)`, `launch(false)`),
/// each into `out` cleared first, and compares each result with `expected`;
/// with --time, times both and prints the ratio.
template <class T>
void side_by_side(const char* kernel, const Options& o, const std::function<void(bool shipped)>& launch, T* out,
                  const std::vector<T>& expected) {
  const std::string shipped = std::string("original::") + kernel;
  for (bool is_shipped : {true, false}) {
    const char* name = is_shipped ? shipped.c_str() : kernel;
    PROGRAM_CHECK(cudaMemset(out, 0xff, expected.size() * sizeof(T)));
    launch(is_shipped);
    program::compare(name, program::finish(name, out, expected.size()), expected);
  }
  if (o.time) {
    const float before = median_ms([&] { launch(true); }), after = median_ms([&] { launch(false); });
    std::printf("%s: %.3f ms shipped, %.3f ms yours (median of 20): %.2fx\n", kernel, before, after, before / after);
  }
}

}  // namespace capstone

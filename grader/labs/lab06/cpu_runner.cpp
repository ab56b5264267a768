// Stage-6 runner on the CPU emulator. Prints one JSON object per command:
//   runner run --task reduce|scan|gemm|histogram|stencil --shapes S,... --seed N [--time-limit S]
//          per run (task_data.hpp: "N", "MxNxK" or "WxH") the raw output
//          (poisoned first) and the emulator's report; the grader compares
//          and prices
//   runner answers        the diagnosis, as the file states it
#include <cstring>
#include <iostream>
#include <string>

#include "transpose_cpu.hpp"
#include "student_api.hpp"

namespace {

template <class T>
T* to_device(const std::vector<T>& host) {
  auto* device = static_cast<T*>(banklab::emu::device_malloc(host.size() * sizeof(T)));
  std::memcpy(device, host.data(), host.size() * sizeof(T));
  return device;
}

template <class T>
T* poisoned(std::size_t count) {
  auto* device = static_cast<T*>(banklab::emu::device_malloc(count * sizeof(T)));
  std::memset(device, harness::kPoisonByte, count * sizeof(T));
  return device;
}

int blocks(int count, int per_block) { return (count + per_block - 1) / per_block; }

// One run: the kernel's raw output, for the grader to compare bit for bit.
nlohmann::json run_one(lab06::Task task, const std::string& item, std::uint64_t seed, double time_limit) {
  lab06::Run run;
  if (!lab06::parse_run(task, item.c_str(), &run)) {
    std::cerr << "runner: bad run '" << item << "' (expected N, MxNxK for gemm or WxH for stencil)\n";
    std::exit(2);
  }
  const int* d = run.dims;
  const banklab::emu::LaunchOptions options = harness::launch_options(time_limit);
  std::vector<void*> buffers;
  void* out = nullptr;
  std::size_t out_bytes = 0;
  banklab::emu::LaunchReport report;
  switch (task) {
    case lab06::Task::kReduce: {
      int* in = to_device(lab06::reduce_input(d[0], seed));
      const int grid = blocks(d[0], lab06::kReduceThreads);
      int* sums = poisoned<int>(grid);
      report = banklab::emu::launch(options, dim3(grid), dim3(lab06::kReduceThreads), reduce_sum, sums,
                                    static_cast<const int*>(in), d[0]);
      buffers = {in};
      out = sums;
      out_bytes = grid * sizeof(int);
      break;
    }
    case lab06::Task::kScan: {
      int* in = to_device(lab06::scan_input(d[0], seed));
      int* result = poisoned<int>(d[0]);
      report = banklab::emu::launch(options, dim3(blocks(d[0], lab06::kScanSegment)), dim3(lab06::kScanThreads),
                                    scan_segments, result, static_cast<const int*>(in), d[0]);
      buffers = {in};
      out = result;
      out_bytes = d[0] * sizeof(int);
      break;
    }
    case lab06::Task::kGemm: {
      const int m = d[0], n = d[1], k = d[2];
      float* a = to_device(lab06::gemm_a(m, k, seed));
      float* b = to_device(lab06::gemm_b(k, n, seed));
      float* c = poisoned<float>(static_cast<std::size_t>(m) * n);
      report = banklab::emu::launch(options, dim3(blocks(n, lab06::kGemmTile), blocks(m, lab06::kGemmTile)),
                                    dim3(lab06::kGemmTile, lab06::kGemmRows), gemm_tiled, c,
                                    static_cast<const float*>(a), static_cast<const float*>(b), m, n, k);
      buffers = {a, b};
      out = c;
      out_bytes = static_cast<std::size_t>(m) * n * sizeof(float);
      break;
    }
    case lab06::Task::kHistogram: {
      auto* data = to_device(lab06::histogram_input(d[0], seed));
      const int grid = blocks(d[0], lab06::kHistChunk);
      auto* bins = poisoned<unsigned>(static_cast<std::size_t>(grid) * lab06::kHistBins);
      report = banklab::emu::launch(options, dim3(grid), dim3(lab06::kHistThreads), histogram32, bins,
                                    static_cast<const unsigned*>(data), d[0]);
      buffers = {data};
      out = bins;
      out_bytes = static_cast<std::size_t>(grid) * lab06::kHistBins * sizeof(unsigned);
      break;
    }
    case lab06::Task::kStencil: {
      const int width = d[0], height = d[1];
      int* in = to_device(lab06::stencil_input(width, height, seed));
      int* result = poisoned<int>(static_cast<std::size_t>(width) * height);
      report = banklab::emu::launch(options, dim3(blocks(width, lab06::kStencilX), blocks(height, lab06::kStencilY)),
                                    dim3(lab06::kStencilX, lab06::kStencilY), stencil_cross, result,
                                    static_cast<const int*>(in), width, height);
      buffers = {in};
      out = result;
      out_bytes = static_cast<std::size_t>(width) * height * sizeof(int);
      break;
    }
  }
  // The output as it is: the grader compares it with its own reference (task_data.hpp).
  nlohmann::json answer = {{"shape", lab06::label(run)}, {"output", harness::output_blob(out, out_bytes)}};
  for (void* buffer : buffers) banklab::emu::device_free(buffer);
  banklab::emu::device_free(out);
  answer["report"] = banklab::emu::to_json(report);
  return answer;
}

}  // namespace

int main(int argc, char** argv) {
  const harness::RunnerArgs args = harness::RunnerArgs::parse(argc, argv);
  nlohmann::json out = {{"backend", "cpu"}, {"seed", args.seed}};
  lab06::Task task{};
  if (args.command == "run" && lab06::task_of(args.task, &task) && !args.shapes.empty()) {
    out["runs"] = harness::run_each(args.shapes, args.time_limit, [&](const std::string& item, double left) {
      return run_one(task, item, args.seed, left);
    });
  } else if (args.command == "answers") {
    out["diagnosis"] = nlohmann::json::array();
    for (int r = 0; r < lab06::kDiagnosisRows; ++r) {
      out["diagnosis"].push_back({diagnosis[r][0], diagnosis[r][1], diagnosis[r][2]});
    }
  } else {
    std::cerr << "usage: runner run --task reduce|scan|gemm|histogram|stencil --shapes S,... --seed N | answers\n";
    return 2;
  }
  harness::emit_answer(out.dump());
  return 0;
}

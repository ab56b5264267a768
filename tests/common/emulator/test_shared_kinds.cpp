// Shared memory declared every way CUDA allows, run on the emulator: where
// each variable lands (against the H200's layout), dynamic shared memory
// sized at launch, shared arrays in device functions and templates, file
// scope, C linkage.
#include <doctest/doctest.h>

#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "banklab/emulator.hpp"

void local_two(unsigned* out);
void local_and_function(unsigned* out);
void file_scope(unsigned* out);
void dynamic_after_static(unsigned* out);
void dynamic_only(unsigned* out);
void templates(unsigned* out);
void call_order(unsigned* out);
void mixed_alignments(unsigned* out);
extern "C" void c_linkage_kernel(unsigned* out);
void reverse_dynamic(float* data, int n);
void dynamic_past_launch_size(float* data);
void sums_in_template(float* out);
void file_scope_race(int* out);

using banklab::emu::FindingKind;
using banklab::emu::LaunchOptions;
using banklab::emu::LaunchReport;

namespace {

// "name: var at N var at N ..." lines of the H200 probe, as offsets from the
// start of the kernel's shared memory (the H200 reserves the first 1024 bytes).
std::map<std::string, std::vector<unsigned>> measured_layouts() {
  std::ifstream in(std::string(BANKLAB_GPU_DATA) + "/shared_layout_cases.txt");
  REQUIRE(in);
  std::map<std::string, std::vector<unsigned>> out;
  std::string line;
  while (std::getline(in, line)) {
    const auto colon = line.find(':');
    std::vector<unsigned>& offsets = out[line.substr(0, colon)];
    for (std::size_t at = line.find(" at "); at != std::string::npos; at = line.find(" at ", at + 1)) {
      offsets.push_back(static_cast<unsigned>(std::stoul(line.substr(at + 4))) - 1024u);
    }
  }
  return out;
}

unsigned* device_words(std::size_t count) {
  void* p = banklab::emu::device_malloc(count * sizeof(unsigned));
  REQUIRE(p != nullptr);
  std::memset(p, 0, count * sizeof(unsigned));
  return static_cast<unsigned*>(p);
}

std::vector<unsigned> layout_of(void (*kernel)(unsigned*), std::size_t count, std::size_t dynamic_bytes = 0) {
  unsigned* out = device_words(32);
  LaunchOptions options;
  options.dynamic_shared_bytes = dynamic_bytes;
  const LaunchReport report = banklab::emu::launch(options, dim3(1), dim3(32), kernel, out);
  INFO(banklab::emu::format_report(report));
  CHECK(report.completed);  // (the probe's kernels race on purpose: no barriers)
  std::vector<unsigned> offsets(out, out + count);
  banklab::emu::device_free(out);
  return offsets;
}

const banklab::emu::Finding* finding(const LaunchReport& report, FindingKind kind) {
  for (const auto& f : report.findings) {
    if (f.kind == kind) return &f;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("shared variables land where the H200 puts them: kernel, device function, file scope, dynamic") {
  const auto gpu = measured_layouts();
  // The kernel's own variables in declaration order at natural alignment.
  CHECK(layout_of(local_two, 2) == gpu.at("local_two"));
  // A __noinline__ function's array after the kernel's.
  CHECK(layout_of(local_and_function, 2) == gpu.at("local_and_function"));
  // File-scope and static file-scope arrays, declared before the kernel, first.
  CHECK(layout_of(file_scope, 3) == gpu.at("file_scope"));
  // Dynamic shared memory after the static arrays, at a multiple of 16; every
  // extern __shared__ array names the same block.
  CHECK(layout_of(dynamic_after_static, 3, 1024) == gpu.at("dynamic_after_static"));
  CHECK(layout_of(dynamic_only, 1, 256) == gpu.at("dynamic_only"));
  // Two called functions: in the order they are defined, not called.
  CHECK(layout_of(call_order, 2) == gpu.at("call_order"));
  // Each at the alignment of its type (char, float4, a struct holding a
  // double, short, int, double2), read from the debug information.
  CHECK(layout_of(mixed_alignments, 6) == gpu.at("mixed_alignments"));
}

TEST_CASE("an inlined function's shared array: where the emulator and the H200 differ, as documented") {
  const auto gpu = measured_layouts();
  // nvcc puts the inlined function's char[9] first (declared before the
  // kernel's char[1]); GCC emits it in its own section, after the kernel's.
  // The called template instances follow in both, in instantiation order, at
  // the same offsets.
  const std::vector<unsigned> emulator = layout_of(templates, 4);
  INFO(emulator[0] << " " << emulator[1] << " " << emulator[2] << " " << emulator[3]);
  CHECK(gpu.at("templates") == std::vector<unsigned>{9, 12, 32, 0});
  CHECK(emulator == std::vector<unsigned>{0, 12, 32, 1});
}

TEST_CASE("dynamic shared memory is sized by the launch: a reversal is right and an index past that size is found") {
  constexpr int n = 29;
  float* data = static_cast<float*>(banklab::emu::device_malloc(32 * sizeof(float)));
  for (int i = 0; i < 32; ++i) data[i] = static_cast<float>(i);
  LaunchOptions options;
  options.dynamic_shared_bytes = n * sizeof(float);
  const LaunchReport report = banklab::emu::launch(options, dim3(1), dim3(32), reverse_dynamic, data, n);
  INFO(banklab::emu::format_report(report));
  CHECK(report.findings.empty());
  CHECK(report.dynamic_shared_bytes == n * sizeof(float));
  for (int i = 0; i < n; ++i) CHECK(data[i] == static_cast<float>(n - 1 - i));
  CHECK(data[n] == static_cast<float>(n));  // untouched

  options.dynamic_shared_bytes = 32 * sizeof(float);  // the kernel uses 64 floats
  const LaunchReport past = banklab::emu::launch(options, dim3(1), dim3(32), dynamic_past_launch_size, data);
  const auto* f = finding(past, FindingKind::kSharedOutOfBounds);
  REQUIRE(f != nullptr);
  CHECK(f->where.line > 0);
  CHECK(f->details.at(0).find("the first byte after the end of '(dynamic shared memory)'") != std::string::npos);

  // More than the program can have: an invalid launch, as on a GPU.
  options.dynamic_shared_bytes = std::size_t{1} << 20;
  const LaunchReport too_big = banklab::emu::launch(options, dim3(1), dim3(32), reverse_dynamic, data, n);
  REQUIRE(finding(too_big, FindingKind::kInvalidLaunch) != nullptr);
  CHECK(finding(too_big, FindingKind::kInvalidLaunch)->message.find("1048576 bytes of dynamic shared memory") !=
        std::string::npos);
  CHECK(!too_big.completed);
  banklab::emu::device_free(data);
}

TEST_CASE("a template device function's shared array is priced and checked like the kernel's") {
  float* out = static_cast<float*>(banklab::emu::device_malloc(32 * sizeof(float)));
  const LaunchReport report = banklab::emu::launch(dim3(1), dim3(32), sums_in_template, out);
  INFO(banklab::emu::format_report(report));
  CHECK(report.findings.empty());
  for (int i = 0; i < 32; ++i) CHECK(out[i] == 32.0f + 496.0f);
  // One instance of block_sum<32>: one 128-byte array, used by both calls.
  REQUIRE(report.shared_variables.size() == 1);
  CHECK(report.shared_bytes == 128);
  // The read loop: 32 iterations x 2 calls, each a broadcast of one word.
  std::uint64_t read_instructions = 0;
  for (const auto& line : report.lines) {
    if (line.loads > 0) read_instructions += line.warp_instructions;
  }
  CHECK(read_instructions == 64);
  banklab::emu::device_free(out);
}

TEST_CASE("a race on a file-scope shared array is found, and a C-linkage kernel runs with its own array") {
  int* out = static_cast<int*>(banklab::emu::device_malloc(32 * sizeof(int)));
  const LaunchReport race = banklab::emu::launch(dim3(1), dim3(32), file_scope_race, out);
  CHECK(finding(race, FindingKind::kSharedRace) != nullptr);
  banklab::emu::device_free(out);

  unsigned* words = device_words(32);
  const LaunchReport c = banklab::emu::launch(dim3(1), dim3(32), c_linkage_kernel, words);
  INFO(banklab::emu::format_report(c));
  CHECK(c.findings.empty());
  CHECK(c.kernel == "c_linkage_kernel");
  REQUIRE(c.shared_variables.size() == 1);
  CHECK(c.shared_bytes == 256);
  for (unsigned i = 0; i < 32; ++i) CHECK(words[i] == 63 - i);
  banklab::emu::device_free(words);
}

// The CPU SIMT emulator on real kernels: correct results, the per-line
// shared-memory cost, and every kind of finding on a kernel that has it.
#include <algorithm>
#include <chrono>
#include <cstring>
#include <doctest/doctest.h>

#include <fstream>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include "banklab/cuda_runtime_api.hpp"
#include "banklab/emulator.hpp"

// The kernels, as the grader declares them: plain functions on the CPU.
void transpose_conflicted(float* out, const float* in, int width, int height);
void transpose_padded(float* out, const float* in, int width, int height);
void barrier_inside_bounds_check(float* out, int n);
void missing_barrier(float* out);
void write_after_two_reads(float* out);
void reads_unwritten_shared(float* out);
void writes_past_the_end(float* out, int n);
void writes_far_past_the_end(float* out);
void spins_forever(volatile int* flag);
void one_block_spins(volatile int* flag, int stuck);
void block_waits(int ms);
void dereferences_null(int* out);
void divides_by_zero(int* out, int divisor);
void warp_sync_deadlock(int* out);
void warp_reduce_and_ballot(int* sums, unsigned* ballots);
void shared_histogram(const int* values, int n, int* bins);
void float4_copy(float4* out);
void double_broadcast(double* out);
template <int N>
void templated_stride(int* out);
extern template void templated_stride<2>(int* out);
void two_shared_arrays(int* out);
void indexes_past_shared(float* out);
void long_shared_loop(float* out, int iterations);
void float4_in_padded_rows(float4* out);
void tile_to_tile(float* out);
void reads_two_unwritten(float* out);
void spins_on_registers(int* out, unsigned seed);
void half_round_trip(float* out);
void global_counter(int* counter, int repeats);

using banklab::emu::FindingKind;
using banklab::emu::Finding;
using banklab::emu::LaunchReport;

namespace {

// The line of `file` that holds the comment marker.
int line_of(const std::string& file, const std::string& marker) {
  std::ifstream in(std::string(BANKLAB_KERNEL_DIR) + "/" + file);
  std::string text;
  for (int line = 1; std::getline(in, text); ++line) {
    if (text.find("// " + marker) != std::string::npos) return line;
  }
  FAIL("marker " << marker << " not in " << file);
  return 0;
}

const banklab::emu::LineStats* stats_at(const LaunchReport& report, int line) {
  for (const auto& l : report.lines) {
    if (l.where.line == line) return &l;
  }
  return nullptr;
}

const banklab::emu::Finding* finding(const LaunchReport& report, FindingKind kind) {
  for (const auto& f : report.findings) {
    if (f.kind == kind) return &f;
  }
  return nullptr;
}

template <class T>
T* device_array(std::size_t count, int fill_byte = 0) {
  void* p = banklab::emu::device_malloc(count * sizeof(T));
  REQUIRE(p != nullptr);
  std::memset(p, fill_byte, count * sizeof(T));
  return static_cast<T*>(p);
}

LaunchReport run_transpose(void (*kernel)(float*, const float*, int, int), int width, int height,
                           std::vector<float>& result, unsigned workers = 1) {
  const std::size_t n = static_cast<std::size_t>(width) * static_cast<std::size_t>(height);
  float* in = device_array<float>(n);
  float* out = device_array<float>(n, 0xff);
  std::iota(in, in + n, 0.0f);
  banklab::emu::LaunchOptions options;
  options.workers = workers;
  const dim3 grid((width + 31) / 32, (height + 31) / 32);
  auto report = banklab::emu::launch(options, grid, dim3(32, 8), kernel, out, in, width, height);
  result.assign(out, out + n);
  banklab::emu::device_free(in);
  banklab::emu::device_free(out);
  return report;
}

}  // namespace

TEST_CASE("padded transpose is correct on odd sizes and its tile accesses cost one wavefront") {
  for (auto [width, height] : {std::pair{33, 31}, std::pair{64, 64}, std::pair{1, 1}}) {
    std::vector<float> out;
    const auto report = run_transpose(transpose_padded, width, height, out);
    INFO(banklab::emu::format_report(report));
    CHECK(report.completed);
    CHECK(report.findings.empty());
    for (int y = 0; y < height; ++y) {
      for (int x = 0; x < width; ++x) {
        REQUIRE(out[static_cast<std::size_t>(x) * height + y] == static_cast<float>(y * width + x));
      }
    }
    CHECK(report.shared_bytes == 32 * 33 * 4);
    for (const auto& line : report.lines) CHECK(line.worst_wavefronts == 1);
  }
}

TEST_CASE("conflicted transpose: the column read costs 32 wavefronts per warp instruction, the row write 1") {
  std::vector<float> out;
  const auto report = run_transpose(transpose_conflicted, 64, 64, out);
  INFO(banklab::emu::format_report(report, true));
  CHECK(report.findings.empty());
  const auto* write = stats_at(report, line_of("transpose_kernels.cu", "TILE_WRITE"));
  const auto* read = stats_at(report, line_of("transpose_kernels.cu", "TILE_READ"));
  REQUIRE(write != nullptr);
  REQUIRE(read != nullptr);
  // 4 blocks x 8 warps x 4 rows each = 128 warp instructions per line.
  CHECK(write->warp_instructions == 128);
  CHECK(write->stores == 4096);
  CHECK(write->wavefronts == 128);
  CHECK(read->warp_instructions == 128);
  CHECK(read->loads == 4096);
  CHECK(read->wavefronts == 128 * 32);
  CHECK(read->worst_wavefronts == 32);
  CHECK(read->excess_wavefronts() == 128 * 31);
  CHECK(banklab::emu::format_report(report, true).find("bank 0 must deliver 32 different words") != std::string::npos);
}

TEST_CASE("a __syncthreads() inside the bounds check is reported as barrier divergence at its line") {
  float* out = device_array<float>(64);
  const auto report = banklab::emu::launch(dim3(1), dim3(64), barrier_inside_bounds_check, out, 40);
  const auto* f = finding(report, FindingKind::kBarrierDivergence);
  REQUIRE(f != nullptr);
  CHECK(f->where.line == line_of("bug_kernels.cu", "DIVERGENT_BARRIER"));
  CHECK(f->message.find("reached by 40 of 64 threads") != std::string::npos);
  CHECK(report.completed);  // reported, never a hang
  banklab::emu::device_free(out);
}

TEST_CASE("a missing __syncthreads() is reported as a race between the write and the read") {
  float* out = device_array<float>(64);
  const auto report = banklab::emu::launch(dim3(2), dim3(64), missing_barrier, out);
  const auto* race = finding(report, FindingKind::kSharedRace);
  REQUIRE(race != nullptr);
  INFO(banklab::emu::format_report(report));
  const int write_line = line_of("bug_kernels.cu", "RACE_WRITE");
  const int read_line = line_of("bug_kernels.cu", "RACE_READ");
  CHECK(((race->where.line == write_line && race->other.line == read_line) ||
         (race->where.line == read_line && race->other.line == write_line)));
  banklab::emu::device_free(out);
}

TEST_CASE("a write after two threads' reads is a race with the other reader, though the writer read last") {
  float* out = device_array<float>(64);
  const auto report = banklab::emu::launch(dim3(1), dim3(64), write_after_two_reads, out);
  INFO(banklab::emu::format_report(report));
  const auto* race = finding(report, FindingKind::kSharedRace);
  REQUIRE(race != nullptr);
  CHECK(race->where.line == line_of("bug_kernels.cu", "WRITE_AFTER_READS"));
  CHECK(race->other.line == line_of("bug_kernels.cu", "TWO_READS"));
  CHECK(race->message.find("bytes read by one thread are written by another") != std::string::npos);
  banklab::emu::device_free(out);
}

TEST_CASE("reading shared memory nothing wrote is reported at the reading line") {
  float* out = device_array<float>(64);
  const auto report = banklab::emu::launch(dim3(1), dim3(64), reads_unwritten_shared, out);
  const auto* f = finding(report, FindingKind::kUninitializedSharedRead);
  REQUIRE(f != nullptr);
  CHECK(f->where.line == line_of("bug_kernels.cu", "UNINIT_READ"));
  CHECK(f->count == 32);  // threads 32..63
  CHECK(f->details.front().find("byte 128 of 's'") != std::string::npos);
  banklab::emu::device_free(out);
}

TEST_CASE("out-of-bounds global writes are found, near the end and far away") {
  float* out = device_array<float>(64);
  auto near = banklab::emu::launch(dim3(1), dim3(64), writes_past_the_end, out, 64);
  const auto* f = finding(near, FindingKind::kGlobalOutOfBounds);
  REQUIRE(f != nullptr);
  CHECK(f->where.line == line_of("bug_kernels.cu", "OOB_WRITE"));
  CHECK(f->details.front().find("0 bytes past the end of allocation") != std::string::npos);
  auto far = banklab::emu::launch(dim3(1), dim3(64), writes_far_past_the_end, out);
  CHECK_FALSE(far.completed);
  REQUIRE(finding(far, FindingKind::kGlobalOutOfBounds) != nullptr);
  CHECK(finding(far, FindingKind::kGlobalOutOfBounds)->where.line == line_of("bug_kernels.cu", "FAR_OOB_WRITE"));
  INFO(banklab::emu::format_report(far, true));
  // The write faults after its finding: the fault is an out-of-bounds access
  // too (the arena's), not a crash of unknown cause.
  CHECK(finding(far, FindingKind::kCrash) == nullptr);
  int faults = 0;
  for (const auto& f : far.findings) {
    faults += f.kind == FindingKind::kGlobalOutOfBounds &&
              f.message.find("out-of-bounds global access crashed the kernel") != std::string::npos;
  }
  CHECK(faults == 1);
  banklab::emu::device_free(out);
}

TEST_CASE("a kernel writing memory that was already freed is told so") {
  float* gone = device_array<float>(64);
  const std::string id_of_gone = [&] {
    // The allocation's number, from a finding about the byte after it.
    const auto near = banklab::emu::launch(dim3(1), dim3(64), writes_past_the_end, gone, 64);
    const auto* f = finding(near, FindingKind::kGlobalOutOfBounds);
    REQUIRE(f != nullptr);
    const std::string& d = f->details.front();
    const std::size_t hash = d.find("allocation #");
    REQUIRE(hash != std::string::npos);
    return d.substr(hash, d.find(' ', hash + 12) - hash);
  }();
  REQUIRE(banklab::emu::device_free(gone));
  const auto report = banklab::emu::launch(dim3(1), dim3(64), writes_past_the_end, gone, 0);
  INFO(banklab::emu::format_report(report, true));
  const auto* f = finding(report, FindingKind::kGlobalOutOfBounds);
  REQUIRE(f != nullptr);
  REQUIRE_FALSE(f->details.empty());
  CHECK(f->details.front().find("inside " + id_of_gone + " (256 bytes), which was already freed") != std::string::npos);
}

TEST_CASE("an infinite loop stops at the time limit, a crash is reported with its line, and the emulator goes on") {
  int* flag = device_array<int>(1);
  banklab::emu::LaunchOptions options;
  options.time_limit_seconds = 0.3;
  const auto spin = banklab::emu::launch(options, dim3(1), dim3(32), spins_forever, static_cast<volatile int*>(flag));
  CHECK_FALSE(spin.completed);
  REQUIRE(finding(spin, FindingKind::kTimeLimit) != nullptr);
  INFO(finding(spin, FindingKind::kTimeLimit)->where.text() << " in " << finding(spin, FindingKind::kTimeLimit)->where.function);
  CHECK(finding(spin, FindingKind::kTimeLimit)->where.line == line_of("bug_kernels.cu", "SPIN"));

  int* out = device_array<int>(32);
  const auto crash = banklab::emu::launch(dim3(1), dim3(32), dereferences_null, out);
  CHECK_FALSE(crash.completed);
  REQUIRE(finding(crash, FindingKind::kCrash) != nullptr);
  CHECK(finding(crash, FindingKind::kCrash)->where.line == line_of("bug_kernels.cu", "NULL_READ"));
  CHECK(finding(crash, FindingKind::kCrash)->message.find("SIGSEGV") != std::string::npos);

  const auto divided = banklab::emu::launch(dim3(1), dim3(32), divides_by_zero, out, 0);
  INFO(banklab::emu::format_report(divided));
  CHECK_FALSE(divided.completed);
  REQUIRE(finding(divided, FindingKind::kCrash) != nullptr);
  CHECK(finding(divided, FindingKind::kCrash)->where.line == line_of("bug_kernels.cu", "DIVIDE_BY_ZERO"));
  CHECK(finding(divided, FindingKind::kCrash)->message.find("SIGFPE") != std::string::npos);

  std::vector<float> result;  // still usable afterwards
  CHECK(run_transpose(transpose_padded, 32, 32, result).findings.empty());
  banklab::emu::device_free(flag);
  banklab::emu::device_free(out);
}

TEST_CASE("a warp collective that can never complete is a deadlock finding, not a hang") {
  int* out = device_array<int>(64);
  const auto report = banklab::emu::launch(dim3(1), dim3(64), warp_sync_deadlock, out);
  CHECK_FALSE(report.completed);
  REQUIRE(finding(report, FindingKind::kDeadlock) != nullptr);
  CHECK(finding(report, FindingKind::kDeadlock)->where.line == line_of("bug_kernels.cu", "DEADLOCK_SYNCWARP"));
  banklab::emu::device_free(out);
}

TEST_CASE("shuffles and ballots exchange values within each warp") {
  int* sums = device_array<int>(8);
  unsigned* ballots = device_array<unsigned>(2);
  const auto report = banklab::emu::launch(dim3(1), dim3(64), warp_reduce_and_ballot, sums, ballots);
  CHECK(report.findings.empty());
  CHECK(sums[0] == 31 * 32 / 2);
  CHECK(sums[1] == (32 + 63) * 32 / 2);
  CHECK(ballots[0] == 0xaaaaaaaau);
  CHECK(sums[7] == 30);
  banklab::emu::device_free(sums);
  banklab::emu::device_free(ballots);
}

TEST_CASE("shared atomics count correctly and are not races") {
  const int n = 1000;
  int* values = device_array<int>(n);
  for (int i = 0; i < n; ++i) values[i] = i;
  int* bins = device_array<int>(8);
  const auto report = banklab::emu::launch(dim3(2), dim3(128), shared_histogram, values, n, bins);
  INFO(banklab::emu::format_report(report));
  CHECK(report.findings.empty());
  for (int b = 0; b < 8; ++b) CHECK(bins[b] == 2 * n / 8);
  banklab::emu::device_free(values);
  banklab::emu::device_free(bins);
}

TEST_CASE("a float4 copy is one 16-byte access per lane and priced as such") {
  float4* out = device_array<float4>(32);
  const auto report = banklab::emu::launch(dim3(1), dim3(32), float4_copy, out);
  INFO(banklab::emu::format_report(report, true));
  CHECK(report.findings.empty());
  const auto* store = stats_at(report, line_of("bug_kernels.cu", "FLOAT4_STORE"));
  const auto* load = stats_at(report, line_of("bug_kernels.cu", "FLOAT4_LOAD"));
  REQUIRE(store != nullptr);
  REQUIRE(load != nullptr);
  CHECK(store->warp_instructions == 1);
  CHECK(store->worst_access.width_bytes == 16);
  CHECK(store->wavefronts == 4);  // 512 contiguous bytes, quarter-warps
  CHECK(load->warp_instructions == 1);
  CHECK(load->worst_access.width_bytes == 16);
  CHECK(load->wavefronts == 8);  // stride 2 float4: each quarter-warp touches 256 bytes
  CHECK(out[3].x == 6.0f);
  banklab::emu::device_free(out);
}

TEST_CASE("a double broadcast costs one wavefront (the load pair-merge)") {
  double* out = device_array<double>(32);
  const auto report = banklab::emu::launch(dim3(1), dim3(32), double_broadcast, out);
  const auto* load = stats_at(report, line_of("bug_kernels.cu", "DOUBLE_BROADCAST"));
  REQUIRE(load != nullptr);
  CHECK(load->worst_access.width_bytes == 8);
  CHECK(load->wavefronts == 1);
  banklab::emu::device_free(out);
}

TEST_CASE("shared variables of template kernels are found through their symbols") {
  int* out = device_array<int>(32);
  const auto report = banklab::emu::launch(dim3(1), dim3(32), templated_stride<2>, out);
  INFO(banklab::emu::format_report(report));
  CHECK(report.shared_bytes == 2 * 32 * 4);
  const auto* line = stats_at(report, line_of("bug_kernels.cu", "TEMPLATE_STRIDE"));
  REQUIRE(line != nullptr);
  CHECK(line->wavefronts == 2);  // stride 2: gcd(2, 32)
  banklab::emu::device_free(out);
}

TEST_CASE("launches are deterministic: the same inputs give the same report") {
  std::vector<float> a, b;
  const auto first = run_transpose(transpose_conflicted, 96, 40, a);
  const auto second = run_transpose(transpose_conflicted, 96, 40, b);
  CHECK(a == b);
  CHECK(banklab::emu::format_report(first, true) == banklab::emu::format_report(second, true));
}

TEST_CASE("an invalid launch configuration is a finding at the line that launched it") {
  float* out = device_array<float>(1);
  const int line = __LINE__ + 1;
  const auto report = banklab::emu::launch(dim3(1), dim3(2048), missing_barrier, out);
  CHECK_FALSE(report.completed);
  REQUIRE(report.has(FindingKind::kInvalidLaunch));
  const auto* f = finding(report, FindingKind::kInvalidLaunch);
  CHECK(f->where.line == line);
  CHECK(f->where.file.find("test_emulator.cpp") != std::string::npos);
  banklab::emu::device_free(out);
}

TEST_CASE("a shared index past the end of the kernel's array is an out-of-bounds shared access") {
  float* out = device_array<float>(32);
  const auto report = banklab::emu::launch(dim3(1), dim3(32), indexes_past_shared, out);
  const auto* f = finding(report, FindingKind::kSharedOutOfBounds);
  REQUIRE(f != nullptr);
  CHECK(f->where.line == line_of("bug_kernels.cu", "SHARED_OOB"));
  CHECK(f->count == 32);
  REQUIRE(!f->details.empty());
  // Lane 0 reads a[40]: byte 160 of a 128-byte array, 32 bytes past its end.
  CHECK(f->details[0].find("32 bytes past the end of 'a'") != std::string::npos);
  banklab::emu::device_free(out);
}

TEST_CASE("a float4 read of a row padded by one float is a misaligned shared access, reported before it faults") {
  float4* out = device_array<float4>(32);
  const auto report = banklab::emu::launch(dim3(1), dim3(32), float4_in_padded_rows, out);
  INFO(banklab::emu::format_report(report, true));
  const auto* f = finding(report, FindingKind::kMisalignedShared);
  REQUIRE(f != nullptr);
  CHECK(f->where.line == line_of("bug_kernels.cu", "MISALIGNED_FLOAT4"));
  CHECK(f->message.find("misaligned address") != std::string::npos);
  // Lane 1's row starts at byte 132, 4 bytes past a multiple of 16.
  REQUIRE(f->details.size() == 2);
  CHECK(f->details[0].find("thread (1,0,0)") != std::string::npos);
  CHECK(f->details[0].find("4 bytes past a multiple of 16") != std::string::npos);
  // The host compiler's aligned 16-byte load then faults, as the GPU does:
  // the launch stops there.
  CHECK(report.findings.front().kind == FindingKind::kMisalignedShared);
  CHECK_FALSE(report.completed);
  banklab::emu::device_free(out);
}

TEST_CASE("a line that loads one shared array and stores another splits its wavefronts by instruction") {
  float* out = device_array<float>(32);
  const auto report = banklab::emu::launch(dim3(1), dim3(32), tile_to_tile, out);
  bool found = false;
  for (const auto& line : report.lines) {
    if (line.where.line != line_of("bug_kernels.cu", "LOAD_AND_STORE")) continue;
    found = true;
    CHECK(line.loads == 32);
    CHECK(line.stores == 32);
    CHECK(line.wavefronts == 33);       // the column load 32, the row store 1
    CHECK(line.store_wavefronts == 1);
  }
  CHECK(found);
  banklab::emu::device_free(out);
}

TEST_CASE("a loop with no memory access is named by its own line when the time limit stops it") {
  int* out = device_array<int>(32);
  banklab::emu::LaunchOptions options;
  options.time_limit_seconds = 0.3;
  const auto spin = banklab::emu::launch(options, dim3(1), dim3(32), spins_on_registers, out, 1u);
  CHECK_FALSE(spin.completed);
  REQUIRE(finding(spin, FindingKind::kTimeLimit) != nullptr);
  // The loop's line or its body's (the interrupted instruction is in one of them).
  const int line = finding(spin, FindingKind::kTimeLimit)->where.line;
  CHECK(line >= line_of("bug_kernels.cu", "REGISTER_SPIN"));
  CHECK(line <= line_of("bug_kernels.cu", "REGISTER_SPIN") + 2);
  banklab::emu::device_free(out);
}

TEST_CASE("one finding per line and kind, however many instructions the compiler made of the line") {
  float* out = device_array<float>(32);
  const auto report = banklab::emu::launch(dim3(1), dim3(32), reads_two_unwritten, out);
  int findings = 0;
  std::uint64_t count = 0;
  for (const auto& f : report.findings) {
    if (f.kind != FindingKind::kUninitializedSharedRead) continue;
    ++findings;
    count += f.count;
    CHECK(f.where.line == line_of("bug_kernels.cu", "TWO_UNWRITTEN"));
  }
  CHECK(findings == 1);
  CHECK(count >= 2);  // both instructions saw it
  banklab::emu::device_free(out);
}

TEST_CASE("shared variables are laid out in declaration order from offset 0, as nvcc does") {
  int* out = device_array<int>(32);
  const auto report = banklab::emu::launch(dim3(1), dim3(32), two_shared_arrays, out);
  REQUIRE(report.shared_variables.size() == 2);
  // On the H200, int a[33] is at 0 and int b[32] at 132 (tests/data/gpu/shared_layout.txt);
  // the emulator guesses b's alignment from its size (16), so it places b at 144.
  CHECK(report.shared_variables[0].name.find("::a") != std::string::npos);
  CHECK(report.shared_variables[0].offset == 0);
  CHECK(report.shared_variables[1].name.find("::b") != std::string::npos);
  CHECK(report.shared_variables[1].offset >= 132);
  CHECK(report.shared_variables[1].offset <= 144);
  CHECK(out[5] == 3);
  banklab::emu::device_free(out);
}

TEST_CASE("a long loop is traced in full with bounded memory: every execution is one warp instruction") {
  float* out = device_array<float>(64);
  const int iterations = 20000;  // more than the instances a warp may hold at once
  const auto report = banklab::emu::launch(dim3(1), dim3(64), long_shared_loop, out, iterations);
  CHECK(report.findings.empty());
  const auto* loop = stats_at(report, line_of("bug_kernels.cu", "LONG_LOOP"));
  REQUIRE(loop != nullptr);
  CHECK(loop->warp_instructions == 2u * iterations);
  CHECK(loop->loads == 64u * iterations);
  CHECK(loop->wavefronts == 2u * iterations);
  CHECK(out[5] == static_cast<float>(iterations));
  banklab::emu::device_free(out);
}

TEST_CASE("half values are stored as 2-byte accesses and convert back exactly") {
  float* out = device_array<float>(64);
  const auto report = banklab::emu::launch(dim3(1), dim3(64), half_round_trip, out);
  CHECK(report.findings.empty());
  const auto* store = stats_at(report, line_of("bug_kernels.cu", "HALF_STORE"));
  REQUIRE(store != nullptr);
  CHECK(store->worst_access.width_bytes == 2);
  CHECK(store->warp_instructions == 2);
  CHECK(store->wavefronts == 2);  // 32 lanes x 2 bytes = 16 words: one wavefront per warp
  for (int t = 0; t < 64; ++t) CHECK(out[t] == 0.5f * static_cast<float>(63 - t));
  banklab::emu::device_free(out);
}

// ---- parallel launches (LaunchOptions::workers) -------------------------------

TEST_CASE("a launch spread over several workers reports exactly what one worker reports") {
  for (auto* kernel : {transpose_conflicted, transpose_padded}) {
    std::vector<float> one, four;
    const auto a = run_transpose(kernel, 200, 72, one, 1);
    const auto b = run_transpose(kernel, 200, 72, four, 4);
    CHECK(one == four);
    CHECK(b.blocks_run == a.blocks_run);
    CHECK(b.shared_accesses == a.shared_accesses);
    CHECK(banklab::emu::format_report(a, true) == banklab::emu::format_report(b, true));
  }
  // Findings made in several blocks: counts add up, the details are those of
  // the first block, the order is the order of the blocks that made them.
  // (Worker w runs blocks w, w + 3, ...: every worker has blocks with the race.)
  float* out = device_array<float>(64);
  banklab::emu::LaunchOptions options;
  const auto race_one = banklab::emu::launch(options, dim3(9), dim3(64), missing_barrier, out);
  options.workers = 3;
  const auto race_three = banklab::emu::launch(options, dim3(9), dim3(64), missing_barrier, out);
  CHECK(race_three.workers == 3);
  REQUIRE(finding(race_three, FindingKind::kSharedRace) != nullptr);
  CHECK(finding(race_three, FindingKind::kSharedRace)->count == finding(race_one, FindingKind::kSharedRace)->count);
  CHECK(banklab::emu::format_report(race_one, true) == banklab::emu::format_report(race_three, true));
  banklab::emu::device_free(out);
}

TEST_CASE("global atomics of blocks on different workers all count") {
  const int n = 1000;
  int* values = device_array<int>(n);
  for (int i = 0; i < n; ++i) values[i] = i;
  int* bins = device_array<int>(8);
  banklab::emu::LaunchOptions options;
  options.workers = 4;
  const auto report = banklab::emu::launch(options, dim3(64), dim3(128), shared_histogram, values, n, bins);
  INFO(banklab::emu::format_report(report));
  CHECK(report.findings.empty());
  for (int b = 0; b < 8; ++b) CHECK(bins[b] == 64 * n / 8);
  int* counter = device_array<int>(1);
  const auto many = banklab::emu::launch(options, dim3(64), dim3(128), global_counter, counter, 40);
  CHECK(many.findings.empty());
  CHECK(*counter == 64 * 128 * 40);
  banklab::emu::device_free(counter);
  banklab::emu::device_free(values);
  banklab::emu::device_free(bins);
}

TEST_CASE("a block that runs past the block's time limit stops the launch then, not at the launch's limit") {
  int* flag = device_array<int>(1);
  banklab::emu::LaunchOptions options;
  options.time_limit_seconds = 60;
  options.block_time_limit_seconds = 0.3;
  const auto start = std::chrono::steady_clock::now();
  const auto spin =
      banklab::emu::launch(options, dim3(8), dim3(32), one_block_spins, static_cast<volatile int*>(flag), 3);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  INFO(banklab::emu::format_report(spin));
  CHECK_FALSE(spin.completed);
  REQUIRE(spin.findings.size() == 1);
  const Finding& f = spin.findings[0];
  CHECK(f.kind == FindingKind::kTimeLimit);
  CHECK(f.where.line == line_of("bug_kernels.cu", "ONE_BLOCK_SPIN"));
  CHECK(f.message == "block (3,0,0) ran past the time limit of 0.3 s for one block (an endless loop?)");
  CHECK(f.details.at(0).find("after 3 of 8 blocks had finished") != std::string::npos);
  CHECK(seconds < 5);  // 0.3 s and the report, not the launch's 60 s

  // A launch longer than the block's limit whose every block takes less
  // than it runs to its end: the limit is for each block, not the sum.
  // The block's time is the fastest of three (a loaded machine slows some
  // runs), and the launch has 40 blocks: 10 times the block's limit.
  float* out = device_array<float>(64);
  double fastest = 1e9;
  for (int i = 0; i < 3; ++i) {
    const auto one = banklab::emu::launch(dim3(1), dim3(64), long_shared_loop, out, 20000);
    REQUIRE(one.completed);
    fastest = std::min(fastest, one.seconds);
  }
  options.block_time_limit_seconds = std::max(0.05, 4 * fastest);
  const auto many = banklab::emu::launch(options, dim3(40), dim3(64), long_shared_loop, out, 20000);
  INFO("one block: " << fastest << " s, 40 blocks: " << many.seconds << " s");
  CHECK(many.completed);
  CHECK(many.findings.empty());
  CHECK(many.seconds > options.block_time_limit_seconds);  // else this case shows nothing
  // The block's limit counts its CPU time, not the wall clock: a block that
  // waits 0.6 s (as on a machine busy with other work) is not stopped by a
  // 0.2 s limit; one that spins is.
  options.block_time_limit_seconds = 0.2;
  const auto start_wait = std::chrono::steady_clock::now();
  const auto waits = banklab::emu::launch(options, dim3(2), dim3(32), block_waits, 600);
  INFO(banklab::emu::format_report(waits));
  CHECK(waits.completed);
  CHECK(waits.findings.empty());
  CHECK(std::chrono::duration<double>(std::chrono::steady_clock::now() - start_wait).count() >= 1.2);
  const auto spins = banklab::emu::launch(options, dim3(1), dim3(32), one_block_spins, static_cast<volatile int*>(flag), 0);
  REQUIRE(spins.findings.size() == 1);
  CHECK(spins.findings[0].message == "block (0,0,0) ran past the time limit of 0.2 s for one block (an endless loop?)");
  // The launch's own limit still holds with a block limit above it.
  options.time_limit_seconds = 0.3;
  options.block_time_limit_seconds = 30;
  const auto whole = banklab::emu::launch(options, dim3(8), dim3(32), spins_forever, static_cast<volatile int*>(flag));
  REQUIRE(whole.findings.size() == 1);
  CHECK(whole.findings[0].message.rfind("the launch ran past the time limit of 0.3 s", 0) == 0);
  banklab::emu::device_free(out);
  banklab::emu::device_free(flag);
}

TEST_CASE("on several workers a time limit or a crash stops the launch and is reported once") {
  int* flag = device_array<int>(1);
  banklab::emu::LaunchOptions options;
  options.workers = 4;
  options.time_limit_seconds = 0.3;
  const auto spin = banklab::emu::launch(options, dim3(8), dim3(32), spins_forever, static_cast<volatile int*>(flag));
  INFO(banklab::emu::format_report(spin));
  CHECK_FALSE(spin.completed);
  REQUIRE(spin.findings.size() == 1);
  CHECK(spin.findings[0].kind == FindingKind::kTimeLimit);
  CHECK(spin.findings[0].where.line == line_of("bug_kernels.cu", "SPIN"));
  CHECK(spin.findings[0].details.at(0).find("after 0 of 8 blocks had finished") != std::string::npos);

  int* out = device_array<int>(32);
  options.time_limit_seconds = 10;
  const auto crash = banklab::emu::launch(options, dim3(16), dim3(32), dereferences_null, out);
  INFO(banklab::emu::format_report(crash));
  CHECK_FALSE(crash.completed);
  REQUIRE(finding(crash, FindingKind::kCrash) != nullptr);
  CHECK(finding(crash, FindingKind::kCrash)->where.line == line_of("bug_kernels.cu", "NULL_READ"));

  std::vector<float> result;  // still usable afterwards, on several workers too
  CHECK(run_transpose(transpose_padded, 96, 96, result, 4).findings.empty());
  banklab::emu::device_free(flag);
  banklab::emu::device_free(out);
}

TEST_CASE("the text table's columns never run together: ten-digit counts and a long file name") {
  banklab::emu::LaunchReport report;
  report.kernel = "k";
  report.completed = true;
  banklab::emu::LineStats l;
  l.where.file = "/src/a_rather_long_kernel_file_name.cu";
  l.where.line = 1234;
  l.loads = 12345678901;
  l.stores = 2345678901;
  l.warp_instructions = 3456789012;
  l.wavefronts = 45678901234;
  l.ideal_wavefronts = 5678901234;
  l.worst_wavefronts = 32;
  report.lines.push_back(l);
  const std::string text = banklab::emu::format_report(report);
  INFO(text);
  std::istringstream in(text.substr(text.find("a_rather_long")));
  std::vector<std::string> row(8);
  for (std::string& cell : row) in >> cell;
  CHECK(row == std::vector<std::string>{"a_rather_long_kernel_file_name.cu:1234", "12345678901", "2345678901", "3456789012",
                                        "45678901234", "5678901234", std::to_string(45678901234ull - 5678901234ull), "32"});
  // The header above it has each name over its column's last digit.
  const std::size_t header = text.find("  line");
  const std::size_t row_start = text.find("  a_rather_long");
  const std::string head = text.substr(header, text.find('\n', header) - header);
  const std::string body = text.substr(row_start, text.find('\n', row_start) - row_start);
  CHECK(head.size() == body.size());
}

TEST_CASE("a report keeps its laws: a sound one breaks none, and each broken law is named with its line and numbers") {
  std::vector<float> out;
  const auto report = run_transpose(transpose_conflicted, 64, 64, out);
  CHECK(banklab::emu::report_law_violations(report).empty());
  REQUIRE(!report.lines.empty());

  // An ideal above the wavefronts: the excess would wrap to 2^64 - 1.
  auto broken = report;
  broken.lines[0].ideal_wavefronts = broken.lines[0].wavefronts + 1;
  auto laws = banklab::emu::report_law_violations(broken);
  REQUIRE(laws.size() == 1);
  CHECK(laws[0].find(broken.lines[0].where.text() + ": ideal wavefronts above the wavefronts (" +
                     std::to_string(broken.lines[0].wavefronts + 1) + ", " +
                     std::to_string(broken.lines[0].wavefronts) + ")") != std::string::npos);

  // More lanes than 32 a warp instruction, fewer wavefronts than instructions,
  // a worst instruction that does not bound the line, more blocks traced than run.
  broken = report;
  broken.lines[0].loads = 33 * broken.lines[0].warp_instructions;
  broken.lines[0].stores = 0;
  CHECK(banklab::emu::report_law_violations(broken).size() == 1);
  broken = report;
  broken.lines[0].wavefronts = broken.lines[0].warp_instructions - 1;
  broken.lines[0].ideal_wavefronts = 0;
  broken.lines[0].store_wavefronts = 0;
  CHECK(!banklab::emu::report_law_violations(broken).empty());
  broken = report;
  broken.lines[0].worst_wavefronts = 0;
  CHECK(!banklab::emu::report_law_violations(broken).empty());
  broken = report;
  broken.blocks_traced = broken.blocks_run + 1;
  laws = banklab::emu::report_law_violations(broken);
  REQUIRE(laws.size() == 1);
  CHECK(laws[0].find("the launch: more blocks traced than run") != std::string::npos);
}

TEST_CASE("cudaMallocPitch starts rows at multiples of 512 bytes, as host_api.cpp documents for an H200") {
  struct Want {
    std::size_t width_bytes, pitch;
  };
  for (const Want w : {Want{1, 512}, Want{100, 512}, Want{512, 512}, Want{513, 1024}, Want{1500, 1536}}) {
    INFO(w.width_bytes << " bytes per row");
    void* rows = nullptr;
    std::size_t pitch = 0;
    REQUIRE(cudaMallocPitch(&rows, &pitch, w.width_bytes, 3) == cudaSuccess);
    CHECK(pitch == w.pitch);
    // Every row's bytes are inside the allocation (the last row's end included).
    std::memset(rows, 1, pitch * 3);
    CHECK(cudaFree(rows) == cudaSuccess);
  }
}

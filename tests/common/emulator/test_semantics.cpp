// The emulator's semantics against CUDA's definitions, on small launches with
// a partial last warp (48 threads: warp 1 has lanes 0-15) and two blocks.
// Expected values are computed here from the CUDA Programming Guide's
// definitions of each function, never copied from an emulator run.
#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "banklab/emulator.hpp"

void shuffles(unsigned* out);
void votes(unsigned* out);
void warp_reductions(unsigned* out);
void warp_reductions_unsigned(unsigned* out);
void counting_barriers(unsigned* out);
void atomics(int* out, int* global_sum);
void write_after_read(int* out);
void reads_what_another_block_wrote(int* out);
void copies_unwritten(unsigned* out);
void half_warps_store(int* out);
void intrinsics(unsigned* out, unsigned a, unsigned b);
void half_arithmetic(unsigned short* out);
void store_in_two_rounds(int* out, int rounds);
void bytes_of_words(unsigned* out);
void probe_atomic_add_int(const int* word, int* out);
void probe_atomic_add_float(const int* word, int* out);
void probe_atomic_cas_int(const int* word, int* out);
void thread_coordinates(unsigned* out);

using banklab::emu::FindingKind;
using banklab::emu::LaunchReport;

namespace {

constexpr unsigned kBlocks = 2, kThreads = 48;

unsigned value_of(unsigned block, unsigned thread) { return block * 1000u + thread * 7u + 1u; }

template <class T>
T* device_array(std::size_t count) {
  void* p = banklab::emu::device_malloc(count * sizeof(T));
  REQUIRE(p != nullptr);
  std::memset(p, 0, count * sizeof(T));
  return static_cast<T*>(p);
}

// Lanes of thread t's warp that exist (48 threads: warp 1 has 16).
unsigned lanes_in_warp(unsigned t) { return std::min(32u, kThreads - t / 32 * 32); }

const banklab::emu::Finding* finding(const LaunchReport& report, FindingKind kind) {
  for (const auto& f : report.findings) {
    if (f.kind == kind) return &f;
  }
  return nullptr;
}

int line_of(const std::string& marker) {
  std::ifstream in(std::string(BANKLAB_KERNEL_DIR) + "/semantics_kernels.cu");
  std::string text;
  for (int line = 1; std::getline(in, text); ++line) {
    if (text.find("// " + marker) != std::string::npos) return line;
  }
  FAIL("marker " << marker << " not found");
  return 0;
}

LaunchReport run_clean(const char* what, const LaunchReport& report) {
  INFO(what << "\n" << banklab::emu::format_report(report));
  CHECK(report.completed);
  CHECK(report.findings.empty());
  return report;
}

}  // namespace

TEST_CASE("shuffles return the source lane's value, in segments, and a full-mask tree in a partial warp completes") {
  unsigned* out = device_array<unsigned>(kBlocks * kThreads * 5);
  run_clean("shuffles", banklab::emu::launch(dim3(kBlocks), dim3(kThreads), shuffles, out));
  for (unsigned b = 0; b < kBlocks; ++b) {
    for (unsigned t = 0; t < kThreads; ++t) {
      CAPTURE(b);
      CAPTURE(t);
      const unsigned* o = out + (b * kThreads + t) * 5;
      const unsigned lane = t % 32, base = t - lane, lanes = lanes_in_warp(t);
      // __shfl_sync(v, (lane + 3) % 16, width 16): lane (segment start + src) of its 16-lane segment.
      CHECK(o[0] == value_of(b, base + lane / 16 * 16 + (lane + 3) % 16));
      // __shfl_up_sync(v, 3): lane - 3, or its own value below lane 3.
      CHECK(o[1] == value_of(b, lane >= 3 ? t - 3 : t));
      // __shfl_down_sync(v, 5): lane + 5, or its own from lane 27 up (in a partial warp, lanes whose
      // source does not exist are undefined and not checked).
      if (lane + 5 < 32 && lane + 5 < lanes) CHECK(o[2] == value_of(b, t + 5));
      if (lane + 5 >= 32) CHECK(o[2] == value_of(b, t));
      // __shfl_xor_sync(v, 6): lane ^ 6 (all sources exist in both warps).
      if ((lane ^ 6u) < lanes) CHECK(o[3] == value_of(b, base + (lane ^ 6u)));
      if (lane == 0 && lanes == 32) {
        unsigned sum = 0;
        for (unsigned l = 0; l < 32; ++l) sum += value_of(b, base + l);
        CHECK(o[4] == sum);
      }
    }
  }
  banklab::emu::device_free(out);
}

TEST_CASE("ballot, any and all see the lanes that exist, in each warp") {
  unsigned* out = device_array<unsigned>(kBlocks * kThreads * 4);
  run_clean("votes", banklab::emu::launch(dim3(kBlocks), dim3(kThreads), votes, out));
  for (unsigned b = 0; b < kBlocks; ++b) {
    for (unsigned t = 0; t < kThreads; ++t) {
      CAPTURE(t);
      const unsigned* o = out + (b * kThreads + t) * 4;
      const unsigned base = t / 32 * 32, lanes = lanes_in_warp(t);
      unsigned ballot = 0;
      bool any40 = false;
      for (unsigned l = 0; l < lanes; ++l) {
        if ((base + l) % 3 == 0) ballot |= 1u << l;
        any40 = any40 || base + l == 40;
      }
      CHECK(o[0] == ballot);
      CHECK(o[1] == (any40 ? 1u : 0u));  // only warp 1 holds thread 40
      CHECK(o[2] == 1u);
      CHECK(o[3] == 0u);  // lane 5 exists in both warps
    }
  }
  banklab::emu::device_free(out);
}

TEST_CASE("warp reductions and matches combine exactly the lanes that exist") {
  unsigned* out = device_array<unsigned>(kBlocks * kThreads * 7);
  run_clean("warp_reductions", banklab::emu::launch(dim3(kBlocks), dim3(kThreads), warp_reductions, out));
  for (unsigned b = 0; b < kBlocks; ++b) {
    for (unsigned t = 0; t < kThreads; ++t) {
      CAPTURE(t);
      const unsigned* o = out + (b * kThreads + t) * 7;
      const unsigned base = t / 32 * 32, lanes = lanes_in_warp(t);
      int add = 0, least = 1 << 30, most = -(1 << 30);
      unsigned all_and = ~0u, all_or = 0, all_xor = 0, match = 0;
      for (unsigned l = 0; l < lanes; ++l) {
        const unsigned v = value_of(b, base + l);
        const int s = static_cast<int>(v) - 500;
        add += s;
        least = std::min(least, s);
        most = std::max(most, s);
        all_and &= v;
        all_or |= v;
        all_xor ^= v;
        if (l % 4 == (t % 32) % 4) match |= 1u << l;
      }
      CHECK(static_cast<int>(o[0]) == add);
      CHECK(static_cast<int>(o[1]) == least);
      CHECK(static_cast<int>(o[2]) == most);
      CHECK(o[3] == all_and);
      CHECK(o[4] == all_or);
      CHECK(o[5] == all_xor);
      CHECK(o[6] == match);
    }
  }
  banklab::emu::device_free(out);
}

TEST_CASE("a block of 1024 threads, the most CUDA allows, runs, and 1025 threads or a 1025-wide x are refused") {
  unsigned* out = device_array<unsigned>(1025 * 5);
  const LaunchReport full = run_clean("1024 threads", banklab::emu::launch(dim3(1), dim3(1024), counting_barriers, out));
  CHECK(full.completed);
  CHECK(out[0] == 205u);        // t % 5 == 0 for t = 0, 5, ..., 1020
  CHECK(out[1023 * 5] == 205u);
  CHECK(out[1023 * 5 + 2] == 0u);  // t != 7 fails for thread 7
  for (const dim3 block : {dim3(1025), dim3(1025, 1), dim3(33, 32), dim3(1, 1, 65)}) {
    CAPTURE(block.x);
    CAPTURE(block.y);
    CAPTURE(block.z);
    const LaunchReport refused = banklab::emu::launch(dim3(1), block, counting_barriers, out);
    CHECK_FALSE(refused.completed);
    CHECK(finding(refused, FindingKind::kInvalidLaunch) != nullptr);
  }
  banklab::emu::device_free(out);
}

TEST_CASE("threadIdx and blockIdx in every dimension: each z slice of a block starts y again at 0") {
  const dim3 grid(2, 1, 3), block(5, 3, 4);
  const unsigned threads = block.x * block.y * block.z, blocks = grid.x * grid.y * grid.z;
  unsigned* out = device_array<unsigned>(blocks * threads * 6);
  std::fill(out, out + blocks * threads * 6, ~0u);
  run_clean("thread_coordinates", banklab::emu::launch(grid, block, thread_coordinates, out));
  unsigned at = 0;
  for (unsigned bz = 0; bz < grid.z; ++bz) {
    for (unsigned by = 0; by < grid.y; ++by) {
      for (unsigned bx = 0; bx < grid.x; ++bx) {
        for (unsigned z = 0; z < block.z; ++z) {
          for (unsigned y = 0; y < block.y; ++y) {
            for (unsigned x = 0; x < block.x; ++x, at += 6) {
              CAPTURE(at / 6);
              CHECK(std::vector<unsigned>(out + at, out + at + 6) == std::vector<unsigned>{x, y, z, bx, by, bz});
            }
          }
        }
      }
    }
  }
  banklab::emu::device_free(out);
}

TEST_CASE("__reduce_min_sync and __reduce_max_sync of unsigned values compare them as unsigned") {
  unsigned* out = device_array<unsigned>(kBlocks * kThreads * 2);
  run_clean("warp_reductions_unsigned",
            banklab::emu::launch(dim3(kBlocks), dim3(kThreads), warp_reductions_unsigned, out));
  for (unsigned b = 0; b < kBlocks; ++b) {
    for (unsigned t = 0; t < kThreads; ++t) {
      CAPTURE(t);
      const unsigned base = t / 32 * 32, lanes = lanes_in_warp(t);
      unsigned least = ~0u, most = 0;
      for (unsigned l = 0; l < lanes; ++l) {
        const unsigned v = value_of(b, base + l) | (l % 2 == 1 ? 0x80000000u : 0u);
        least = std::min(least, v);
        most = std::max(most, v);
      }
      CHECK(out[(b * kThreads + t) * 2] == least);
      CHECK(out[(b * kThreads + t) * 2 + 1] == most);
      CHECK(most >= 0x80000000u);  // the largest has bit 31 set: a signed compare would not pick it
    }
  }
  banklab::emu::device_free(out);
}

TEST_CASE("__syncthreads_count, _and and _or count the whole block") {
  unsigned* out = device_array<unsigned>(kBlocks * kThreads * 5);
  run_clean("counting_barriers", banklab::emu::launch(dim3(kBlocks), dim3(kThreads), counting_barriers, out));
  for (unsigned i = 0; i < kBlocks * kThreads; ++i) {
    CHECK(out[i * 5] == 10u);  // t % 5 == 0 for t = 0, 5, ..., 45
    CHECK(out[i * 5 + 1] == 1u);
    CHECK(out[i * 5 + 2] == 0u);
    CHECK(out[i * 5 + 3] == 1u);
    CHECK(out[i * 5 + 4] == 0u);
  }
  banklab::emu::device_free(out);
}

TEST_CASE("shared and global atomics: add, max, min, a CAS loop and exchange give CUDA's results") {
  int* out = device_array<int>(kBlocks * 8);
  int* global_sum = device_array<int>(1);
  run_clean("atomics", banklab::emu::launch(dim3(kBlocks), dim3(kThreads), atomics, out, global_sum));
  int total = 0;
  for (unsigned b = 0; b < kBlocks; ++b) {
    CAPTURE(b);
    int sum = 0, most = -1000000, least = 1000000;
    for (unsigned t = 0; t < kThreads; ++t) {
      const int v = static_cast<int>(value_of(b, t)) % 97 - 40;
      sum += v;
      most = std::max(most, v);
      least = std::min(least, v);
    }
    total += sum;
    const int* o = out + b * 8;
    CHECK(o[0] == sum);
    CHECK(o[1] == most);
    CHECK(o[2] == least);
    CHECK(o[3] == static_cast<int>(kThreads));  // each thread's CAS loop adds exactly 1
    CHECK(o[4] + o[5] == sum);                   // exchanges: every value is returned once or stays
  }
  CHECK(*global_sum == total);
  banklab::emu::device_free(out);
  banklab::emu::device_free(global_sum);
}

TEST_CASE("races in both orders: a write after another thread's read is found too") {
  int* out = device_array<int>(64);
  const LaunchReport report = banklab::emu::launch(dim3(1), dim3(64), write_after_read, out);
  const auto* f = finding(report, FindingKind::kSharedRace);
  REQUIRE(f != nullptr);
  CHECK(f->message.find("read by one thread are written by another") != std::string::npos);
  CHECK(f->where.line == line_of("WAR_WRITE"));
  CHECK(f->other.line == line_of("WAR_READ"));
  banklab::emu::device_free(out);
}

TEST_CASE("an uninitialised read is per block: block 1 reads what only block 0 wrote") {
  int* out = device_array<int>(64);
  const LaunchReport report = banklab::emu::launch(dim3(2), dim3(32), reads_what_another_block_wrote, out);
  const auto* f = finding(report, FindingKind::kUninitializedSharedRead);
  REQUIRE(f != nullptr);
  CHECK(f->where.line == line_of("SECOND_BLOCK_READ"));
  CHECK(f->count == 32);
  CHECK(f->details.at(0).find("block (1,0,0)") != std::string::npos);
  banklab::emu::device_free(out);
}

TEST_CASE("unwritten shared memory reads as the poison 0xff bytes, not zeros") {
  unsigned* out = device_array<unsigned>(32);
  const LaunchReport report = banklab::emu::launch(dim3(1), dim3(32), copies_unwritten, out);
  CHECK(finding(report, FindingKind::kUninitializedSharedRead) != nullptr);
  for (int i = 0; i < 32; ++i) CHECK(out[i] == 0xffffffffu);
  banklab::emu::device_free(out);
}

TEST_CASE("warp instructions are assembled per warp: two half-warps of different warps are two instructions") {
  int* out = device_array<int>(64);
  const LaunchReport report = banklab::emu::launch(dim3(1), dim3(64), half_warps_store, out);
  const int line = line_of("HALF_WARPS_STORE");
  const banklab::emu::LineStats* stats = nullptr;
  for (const auto& l : report.lines) {
    if (l.where.line == line) stats = &l;
  }
  REQUIRE(stats != nullptr);
  CHECK(stats->warp_instructions == 2);
  CHECK(stats->stores == 32);
  banklab::emu::device_free(out);
}

TEST_CASE("warp instructions never join executions from both sides of a barrier") {
  int* out = device_array<int>(32);
  const LaunchReport report = banklab::emu::launch(dim3(1), dim3(32), store_in_two_rounds, out, 2);
  const int line = line_of("ROUND_STORE");
  const banklab::emu::LineStats* stats = nullptr;
  for (const auto& l : report.lines) {
    if (l.where.line == line) stats = &l;
  }
  REQUIRE(stats != nullptr);
  CHECK(stats->warp_instructions == 2);
  CHECK(stats->stores == 32);
  for (int i = 0; i < 32; ++i) CHECK(out[i] == (i < 16 ? 0 : 1));
  banklab::emu::device_free(out);
}

TEST_CASE("integer intrinsics and CUDA's min and max compute what CUDA defines") {
  unsigned* out = device_array<unsigned>(20);
  const unsigned a = 0x12345678u, b = 0x00f0f000u;
  run_clean("intrinsics", banklab::emu::launch(dim3(1), dim3(32), intrinsics, out, a, b));
  CHECK(out[0] == 13u);           // popcount of 0x12345678
  CHECK(out[1] == 8u);            // leading zeros of 0x00f0f000
  CHECK(out[2] == 13u);           // lowest set bit of 0x00f0f000, 1-based
  CHECK(out[3] == 0x1e6a2c48u);   // 0x12345678 bit-reversed
  CHECK(out[4] == 0xf0560078u);   // selectors 0,4,1,5 of bytes {78 56 34 12 | 00 f0 f0 00}: 78 00 56 f0
  CHECK(out[5] == 0xf0f00012u);   // (b:a << 8) >> 32
  CHECK(out[6] == 0x00123456u);   // low 32 bits of (b:a >> 8)
  CHECK(static_cast<int>(out[7]) == -15);
  CHECK(out[8] == 3u);            // the low 24 bits of 0x1000001 are 1
  CHECK(out[9] == static_cast<unsigned>((static_cast<unsigned long long>(a) * b) >> 32));
  CHECK(static_cast<int>(out[10]) == -1);  // (-2 * 2^30) >> 32
  CHECK(out[11] == 107u);
  CHECK(out[12] == 3u);
  CHECK(out[13] == 0xffffffffu);
  CHECK(static_cast<int>(out[14]) == -4);
  CHECK(out[15] == 25u);
  CHECK(out[16] == 0x3f800000u);
  CHECK(out[17] == 2u);
  CHECK(out[18] == 0x80000000u);
  CHECK(out[19] == 40u);
  banklab::emu::device_free(out);
}

TEST_CASE("half precision: cuda_fp16.h's arithmetic on halves, rounded to nearest with ties to even") {
  unsigned short* out = device_array<unsigned short>(16);
  run_clean("half_arithmetic", banklab::emu::launch(dim3(1), dim3(32), half_arithmetic, out));
  // Half bits: sign 1, exponent 5 (bias 15), mantissa 10. An H200 gives the
  // same 16 values (tests/data/gpu/probes/h200_half_arithmetic.txt).
  CHECK(out[0] == 0x4000);   // 2.0
  CHECK(out[1] == 0x3c00);   // 1.0
  CHECK(out[2] == 0x3c02);   // 1 + 2^-9
  CHECK(out[3] == 0x0010);   // 2^-20 = 16 * 2^-24, a subnormal
  CHECK(out[4] == 0x3c02);   // 1 + 2^-9
  CHECK(out[5] == 0x3555);   // 1/3 to nearest: 0.333251953125
  CHECK(static_cast<short>(out[6]) == -2);
  CHECK(out[7] == 2);
  CHECK(out[8] == 0x8000);
  CHECK(out[9] == 0x0000);
  CHECK(out[10] == 0x0002);
  CHECK(out[11] == 0x7bff);
  CHECK(out[12] == 0x7c00);
  CHECK(out[13] == 0x4400);  // 4.0
  CHECK(out[14] == 0x4600);  // 6.0
  CHECK(out[15] == 3);       // 1 < 2, and 0/0 is NaN
  banklab::emu::device_free(out);
}

namespace {
// Nsight Compute's atomic counts per profiled launch (ID): instructions and wavefronts.
std::map<int, std::pair<long, long>> measured_atomics() {
  std::ifstream in(std::string(BANKLAB_GPU_DATA) + "/h200_shared_atomics_ncu.csv");
  REQUIRE(in);
  std::map<int, std::pair<long, long>> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("\"", 0) != 0 || line.rfind("\"ID\"", 0) == 0) continue;
    // "a","b",...,"z": split on the quotes' commas (kernel names hold commas too, inside quotes)
    std::vector<std::string> fields;
    const std::string inner = line.substr(1, line.size() - 2);
    for (std::size_t start = 0;;) {
      const auto next = inner.find("\",\"", start);
      fields.push_back(inner.substr(start, next == std::string::npos ? std::string::npos : next - start));
      if (next == std::string::npos) break;
      start = next + 3;
    }
    const int id = std::stoi(fields.front());
    const std::string metric = fields[fields.size() - 3];
    const long value = std::stol(fields.back());
    if (metric == "smsp__sass_inst_executed_op_shared_atom.sum") out[id].first = value;
    if (metric == "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum") out[id].second = value;
  }
  return out;
}
}  // namespace

TEST_CASE("shared atomics cost what an H200 measures: native add, compare-and-swap, and a float add's CAS loop") {
  const auto gpu = measured_atomics();
  REQUIRE(gpu.size() == 24);
  // The probe's patterns, in its order: lane l's word.
  const std::vector<std::function<int(int)>> patterns = {
      [](int) { return 0; },          [](int l) { return l; },      [](int l) { return 2 * l; },
      [](int l) { return 32 * l; },   [](int l) { return l / 2; }, [](int l) { return l < 16 ? 0 : l; },
      [](int l) { return l % 4; },    [](int l) { return 33 * l; }};
  void (*kernels[])(const int*, int*) = {probe_atomic_add_int, probe_atomic_add_float, probe_atomic_cas_int};
  int* word = device_array<int>(32);
  int* out = device_array<int>(32);
  const int lines[] = {line_of("PROBE_ATOMIC_INT"), line_of("PROBE_ATOMIC_FLOAT"), line_of("PROBE_ATOMIC_CAS")};
  for (std::size_t p = 0; p < patterns.size(); ++p) {
    for (int l = 0; l < 32; ++l) word[l] = patterns[p](l);
    for (int k = 0; k < 3; ++k) {
      CAPTURE(p);
      CAPTURE(k);
      const LaunchReport report = banklab::emu::launch(dim3(1), dim3(32), kernels[k], word, out);
      const banklab::emu::LineStats* atomic = nullptr;
      for (const auto& l : report.lines) {
        if (l.where.line == lines[k]) atomic = &l;
      }
      INFO(banklab::emu::format_report(report));
      REQUIRE(atomic != nullptr);
      const auto [instructions, wavefronts] = gpu.at(static_cast<int>(p) * 3 + k);
      CHECK(static_cast<long>(atomic->warp_instructions) == instructions);
      CHECK(static_cast<long>(atomic->wavefronts) == wavefronts);
      // Lane l at word l (pattern 1) has no two lanes in one bank: what the
      // H200 measures there is the instruction's ideal, and no excess shows.
      CHECK(atomic->ideal_wavefronts <= atomic->wavefronts);
      if (p == 1) CHECK(static_cast<long>(atomic->ideal_wavefronts) == wavefronts);
    }
  }
  banklab::emu::device_free(word);
  banklab::emu::device_free(out);
}

TEST_CASE("races and unwritten reads are found per byte inside a word") {
  unsigned* out = device_array<unsigned>(4);
  const LaunchReport report = banklab::emu::launch(dim3(1), dim3(32), bytes_of_words, out);
  INFO(banklab::emu::format_report(report));
  CHECK(out[0] == 0x04030201u);  // bytes 1, 2, 3, 4 from threads 0-3, little-endian
  // No race among the 32 byte writes of one interval: each thread its own byte.
  const auto* uninitialised = finding(report, FindingKind::kUninitializedSharedRead);
  REQUIRE(uninitialised != nullptr);
  CHECK(uninitialised->where.line == line_of("PARTLY_WRITTEN_READ"));
  CHECK(uninitialised->details.at(0).find("byte 32 of") != std::string::npos);
  const auto* race = finding(report, FindingKind::kSharedRace);
  REQUIRE(race != nullptr);
  CHECK(race->where.line == line_of("WORD_OF_RACE"));
  CHECK(race->other.line == line_of("BYTE_OF_RACE"));
  int races = 0;
  for (const auto& f : report.findings) races += f.kind == FindingKind::kSharedRace ? 1 : 0;
  CHECK(races == 1);
  banklab::emu::device_free(out);
}

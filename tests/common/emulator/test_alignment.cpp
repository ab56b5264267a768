// Shared arrays are as aligned as their declaration guarantees, no more: a
// vector access (float4, double2) through an array declared with less
// alignment is a misaligned-access finding that stops the launch, as the GPU
// would in another layout, even where this layout happens to align it.
#include <doctest/doctest.h>

#include <cstring>
#include <fstream>
#include <string>

#include "banklab/emulator.hpp"

void float4_cast_of_float_array(float* out);
void float4_cast_of_aligned_float_array(float* out);
void float_reads_of_float4_array(float* out);
void double2_cast_of_double_array(double* out);
void float2_cast_of_float_array(float* out);
void aligned_after_float(float* out);

using banklab::emu::FindingKind;
using banklab::emu::LaunchReport;

namespace {

int marker_line(const std::string& marker) {
  std::ifstream in(std::string(BANKLAB_KERNEL_DIR) + "/alignment_kernels.cu");
  std::string text;
  for (int line = 1; std::getline(in, text); ++line) {
    if (text.find("// " + marker) != std::string::npos) return line;
  }
  FAIL("marker " << marker << " not in alignment_kernels.cu");
  return 0;
}

template <class T>
T* device_zeros(std::size_t count) {
  void* p = banklab::emu::device_malloc(count * sizeof(T));
  REQUIRE(p != nullptr);
  std::memset(p, 0, count * sizeof(T));
  return static_cast<T*>(p);
}

int misaligned_findings(const LaunchReport& report) {
  int n = 0;
  for (const auto& f : report.findings) n += f.kind == FindingKind::kMisalignedShared;
  return n;
}

}  // namespace

TEST_CASE("a float4 cast of a float array is a misaligned-access finding even at offset 0, and stops the launch") {
  float* out = device_zeros<float>(128);
  const auto report = banklab::emu::launch(dim3(1), dim3(128), float4_cast_of_float_array, out);
  INFO(banklab::emu::format_report(report, true));
  REQUIRE(misaligned_findings(report) == 1);
  const auto& f = report.findings.front();
  CHECK(f.kind == FindingKind::kMisalignedShared);
  CHECK(f.where.line == marker_line("FLOAT4_OF_FLOAT"));
  CHECK(f.message.find("read of 16 bytes through a variable declared with only 4-byte alignment") != std::string::npos);
  REQUIRE(f.details.size() == 2);
  CHECK(f.details[0].find("'staged' (shared offset 0)") != std::string::npos);
  CHECK(f.details[1].find("__align__(16)") != std::string::npos);
  CHECK_FALSE(report.completed);
  banklab::emu::device_free(out);
}

TEST_CASE("a double2 cast of a double array is a finding: 16 bytes through an 8-byte aligned declaration") {
  double* out = device_zeros<double>(32);
  const auto report = banklab::emu::launch(dim3(1), dim3(32), double2_cast_of_double_array, out);
  INFO(banklab::emu::format_report(report, true));
  REQUIRE(misaligned_findings(report) == 1);
  CHECK(report.findings.front().where.line == marker_line("DOUBLE2_OF_DOUBLE"));
  CHECK(report.findings.front().message.find("declared with only 8-byte alignment") != std::string::npos);
  banklab::emu::device_free(out);
}

TEST_CASE("a float2 cast of a float array is a finding: 8 bytes through a 4-byte aligned declaration") {
  float* out = device_zeros<float>(32);
  const auto report = banklab::emu::launch(dim3(1), dim3(32), float2_cast_of_float_array, out);
  INFO(banklab::emu::format_report(report, true));
  REQUIRE(misaligned_findings(report) == 1);
  CHECK(report.findings.front().where.line == marker_line("FLOAT2_OF_FLOAT"));
  CHECK(report.findings.front().message.find("read of 8 bytes through a variable declared with only 4-byte alignment") !=
        std::string::npos);
  CHECK_FALSE(report.completed);
  banklab::emu::device_free(out);
}

TEST_CASE("the declarations that guarantee the alignment (__align__(16), a float4 array) are not findings") {
  float* out = device_zeros<float>(128);
  const auto aligned = banklab::emu::launch(dim3(1), dim3(128), float4_cast_of_aligned_float_array, out);
  INFO(banklab::emu::format_report(aligned, true));
  CHECK(aligned.findings.empty());
  CHECK(aligned.completed);
  for (int t = 0; t < 32; ++t) CHECK(out[t] == static_cast<float>(4 * (4 * t) + 6));  // 4t + (4t+1) + (4t+2) + (4t+3)
  const auto quads = banklab::emu::launch(dim3(1), dim3(128), float_reads_of_float4_array, out);
  INFO(banklab::emu::format_report(quads, true));
  CHECK(quads.findings.empty());
  CHECK(out[4] == 1.0f);  // float 4 is quads[1].x
  CHECK(out[7] == 1.0f);  // float 7 is quads[1].w, thread 1's index
  banklab::emu::device_free(out);
}

TEST_CASE("an __align__(16) array after a float is placed at offset 16, as nvcc places it") {
  float* out = device_zeros<float>(32);
  const auto report = banklab::emu::launch(dim3(1), dim3(32), aligned_after_float, out);
  INFO(banklab::emu::format_report(report, true));
  CHECK(report.findings.empty());
  REQUIRE(report.shared_variables.size() == 2);
  CHECK(report.shared_variables[0].offset == 0);
  CHECK(report.shared_variables[1].offset == 16);
  CHECK(out[0] == 3.0f);
  banklab::emu::device_free(out);
}

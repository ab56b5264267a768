// The grader, not the runner, decides: forged prices and forged verdicts in a
// runner's answer are ignored (raw_answers.hpp), and a runner's raw data is
// priced and judged as the bank model and the reference say.
#include <doctest/doctest.h>

#include <cstring>
#include <vector>

#include "../../grader/labs/common/raw_data.hpp"
#include "../../grader/labs/common/transpose_data.hpp"
#include "raw_answers.hpp"

using banklab::grader::judge_output;
using banklab::grader::judge_transpose_run;
using banklab::grader::parse_runner_answer;
using banklab::grader::price_line;
using nlohmann::json;

namespace {

// A raw line of a report: `count` warp loads of tile[lane][0] with the given row pitch (floats).
json column_line(int pitch, int count, json forged = json::object()) {
  std::vector<int> offsets;
  for (int lane = 0; lane < 32; ++lane) offsets.push_back(4 * pitch * lane);
  json line = {{"file", "transpose.cu"}, {"line", 12},
               {"patterns", {{{"width", 4}, {"op", "ld"}, {"offsets", offsets}, {"shift", 0}, {"count", count},
                              {"first", "block (0,0,0) warp 0"}}}},
               {"unrecorded_loads", 0}, {"unrecorded_stores", 0}};
  line.update(forged);
  return line;
}

}  // namespace

TEST_CASE("a line is priced from its patterns by the bank model, whatever price the runner wrote") {
  const json forged = {{"wavefronts", 1}, {"ideal_wavefronts", 1}, {"warp_instructions", 1}, {"worst_wavefronts", 1}};
  json answer = {{"backend", "cpu"}, {"runs", {{{"report", {{"completed", true}, {"lines", {column_line(32, 3, forged)}}}}}}}};
  const auto priced = parse_runner_answer(answer.dump())["runs"][0]["report"]["lines"][0];
  CHECK(priced["warp_instructions"] == 3);
  CHECK(priced["wavefronts"] == 3 * 32);  // tile[32][32]'s column: 32-way
  CHECK(priced["ideal_wavefronts"] == 3);
  CHECK(priced["worst_wavefronts"] == 32);
  CHECK(priced["loads"] == 3 * 32);
  CHECK(priced["worst_context"] == "block (0,0,0) warp 0");
  // The padded tile's column is conflict-free.
  CHECK(price_line(column_line(33, 5)).wavefronts == 5);
}

TEST_CASE("a forged report anywhere in an answer is priced too, and a line with no patterns costs nothing") {
  json answer = {{"backend", "cpu"},
                 {"puzzles", {{{"report", {{"lines", {{{"file", "x.cu"}, {"line", 3}, {"wavefronts", 1}, {"loads", 32},
                                                       {"warp_instructions", 1}}}}}}}}}};
  const auto line = parse_runner_answer(answer.dump())["puzzles"][0]["report"]["lines"][0];
  CHECK(line["warp_instructions"] == 0);
  CHECK(line["wavefronts"] == 0);
  CHECK(line["loads"] == 0);
}

TEST_CASE("the shift restores the first instance's offsets, and a shift that is not a multiple of 128 is not priced") {
  json line = column_line(33, 1);
  line["patterns"][0]["shift"] = 256;
  const auto priced = price_line(line);
  CHECK(priced.worst_access.offsets[0] == 256);
  CHECK(priced.worst_access.offsets[1] == 256 + 132);
  line["patterns"][0]["shift"] = 4;  // would move lanes to other banks
  const auto refused = price_line(line);
  CHECK(refused.warp_instructions == 0);
  CHECK(refused.unpriced_loads == 1);
  CHECK(refused.unpriced_why.find("malformed access pattern") != std::string::npos);
}

TEST_CASE("warp instructions past the pattern cap are reported unpriced, never as free") {
  json line = column_line(33, 2);
  line["unrecorded_stores"] = 7;
  const auto priced = price_line(line);
  CHECK(priced.unpriced_stores == 7);
  CHECK(priced.unpriced_why.find("different access patterns") != std::string::npos);
}

TEST_CASE("a compare-and-swap atomic is priced per lane on the busiest bank") {
  json line = column_line(1, 1);  // lanes 0-31 on 32 different banks
  line["patterns"][0]["atomic"] = "cas-loop";
  line["patterns"][0]["op"] = "st";
  CHECK(price_line(line).wavefronts == 2);
  json same_bank = column_line(32, 1);  // all lanes in bank 0: 32 passes, 32 instructions
  same_bank["patterns"][0]["atomic"] = "cas-loop";
  same_bank["patterns"][0]["op"] = "st";
  CHECK(price_line(same_bank).wavefronts == 64);
  CHECK(price_line(same_bank).warp_instructions == 32);
  CHECK(price_line(same_bank).store_instructions == 32);
}

TEST_CASE("a transpose run is judged from its raw output: a claimed \"mismatches\": 0 is not read") {
  const harness::Shape s{31, 33};
  const std::uint64_t seed = 7;
  const std::vector<std::uint32_t> in = harness::transpose_input<std::uint32_t>(s, seed);
  std::vector<std::uint32_t> out(in.size());
  for (int y = 0; y < s.height; ++y) {
    for (int x = 0; x < s.width; ++x) out[static_cast<std::size_t>(x) * s.height + y] = in[static_cast<std::size_t>(y) * s.width + x];
  }
  json run = {{"width", s.width}, {"height", s.height}, {"element_bytes", 4}, {"mismatches", 0},
              {"output", harness::base64_encode(out.data(), out.size() * 4)}};
  CHECK(judge_transpose_run(run, seed)["mismatches"] == 0);
  out[5] = 0x7fc00000u;  // one element left NaN
  std::memset(&out[40], 0, 4);
  run["output"] = harness::base64_encode(out.data(), out.size() * 4);
  const json verdict = judge_transpose_run(run, seed);
  CHECK(verdict["mismatches"] == 2);
  CHECK(verdict["first_mismatches"][0]["row"] == 0);
  CHECK(verdict["first_mismatches"][0]["col"] == 5);
  CHECK(verdict["first_mismatches"][0]["got"].is_null());  // NaN: "never written"
  // Another seed's input is not this output's transpose.
  CHECK(judge_transpose_run(run, seed + 1)["mismatches"] > 2);
  // No output, a short one, or not base64: not checked, never right.
  run.erase("output");
  CHECK(judge_transpose_run(run, seed).contains("error"));
  run["output"] = harness::base64_encode(out.data(), 40);
  CHECK(judge_transpose_run(run, seed).contains("error"));
  run["output"] = "not base64!";
  CHECK(judge_transpose_run(run, seed).contains("error"));
}

TEST_CASE("an output is compared element by element: one wrong element is found at every index, first and last too") {
  for (const int width : {2, 4, 8}) {
    for (const std::size_t count : {std::size_t{1}, std::size_t{2}, std::size_t{7}}) {
      std::vector<unsigned char> expected(count * static_cast<std::size_t>(width));
      for (std::size_t i = 0; i < expected.size(); ++i) expected[i] = static_cast<unsigned char>(17 + 29 * i);
      json run = {{"output", harness::base64_encode(expected.data(), expected.size())}};
      CHECK(judge_output(run, expected, width)["mismatches"] == 0);
      for (std::size_t index = 0; index < count; ++index) {
        for (int byte = 0; byte < width; ++byte) {  // any byte of the element, low or high
          std::vector<unsigned char> got = expected;
          got[index * static_cast<std::size_t>(width) + static_cast<std::size_t>(byte)] ^= 0x40;
          run["output"] = harness::base64_encode(got.data(), got.size());
          const json verdict = judge_output(run, expected, width);
          INFO("width ", width, ", count ", count, ", index ", index, ", byte ", byte);
          CHECK(verdict["mismatches"] == 1);
          REQUIRE(verdict["first_mismatches"].size() == 1);
          CHECK(verdict["first_mismatches"][0]["index"] == index);
        }
      }
      // One element short or long: not compared, never right.
      std::vector<unsigned char> shorter(expected.begin(), expected.end() - width);
      run["output"] = harness::base64_encode(shorter.data(), shorter.size());
      CHECK(judge_output(run, expected, width).contains("error"));
      std::vector<unsigned char> longer = expected;
      longer.resize(expected.size() + static_cast<std::size_t>(width));
      run["output"] = harness::base64_encode(longer.data(), longer.size());
      CHECK(judge_output(run, expected, width).contains("error"));
    }
  }
}

TEST_CASE("base64 round-trips every length, and the answer parser keeps outputs exact") {
  for (std::size_t n = 0; n < 10; ++n) {
    std::vector<unsigned char> bytes(n);
    for (std::size_t i = 0; i < n; ++i) bytes[i] = static_cast<unsigned char>(251 - 37 * i);
    std::vector<unsigned char> back;
    REQUIRE(harness::base64_decode(harness::base64_encode(bytes.data(), n), &back));
    CHECK(back == bytes);
  }
  const std::string text = R"({"backend":"cpu","runs":[{"output":"AAECAw==","note":"\"output\":\"x\""}]})";
  const json answer = parse_runner_answer(text);
  CHECK(answer["runs"][0]["output"] == "AAECAw==");
  CHECK(answer["runs"][0]["note"] == "\"output\":\"x\"");
}

// The bank model's interface: validation errors, the explanation and the bank
// map, CSV reading, and another architecture from parameters alone.
#include <doctest/doctest.h>

#include <sstream>

#include "banklab/access_csv.hpp"
#include "banklab/bank_json.hpp"
#include "banklab/bank_model.hpp"

using banklab::AccessError;
using banklab::MemOp;
using banklab::WarpAccess;

namespace {

std::vector<std::int64_t> lanes_times(std::int64_t step, std::size_t count = 32) {
  std::vector<std::int64_t> offsets(count);
  for (std::size_t lane = 0; lane < count; ++lane) offsets[lane] = static_cast<std::int64_t>(lane) * step;
  return offsets;
}

std::string error_of(auto&& call) {
  try {
    call();
  } catch (const AccessError& error) {
    return error.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("bad input is rejected with a message that says what is wrong") {
  CHECK(error_of([] { WarpAccess::make(3, MemOp::kLoad, lanes_times(3)); }).find("1, 2, 4, 8 or 16") !=
        std::string::npos);
  CHECK(error_of([] { WarpAccess::make(4, MemOp::kLoad, lanes_times(4, 31)); }).find("exactly 32") !=
        std::string::npos);
  CHECK(error_of([] { WarpAccess::make(4, MemOp::kLoad, lanes_times(4, 33)); }).find("got 33") != std::string::npos);
  auto misaligned = lanes_times(8);
  misaligned[5] = 44;
  const std::string message = error_of([&] { WarpAccess::make(8, MemOp::kLoad, misaligned); });
  CHECK(message.find("lane 5") != std::string::npos);
  CHECK(message.find("not a multiple") != std::string::npos);
  auto negative = lanes_times(4);
  negative[2] = -8;
  CHECK(error_of([&] { WarpAccess::make(4, MemOp::kLoad, negative); }).find("negative") != std::string::npos);
  CHECK(error_of([] { banklab::parse_mem_op("read"); }).find("'ld' or 'st'") != std::string::npos);
  CHECK(error_of([] { banklab::parse_lane_offsets("0 4 x"); }).find("'x'") != std::string::npos);
}

TEST_CASE("inactive lanes are written - or -1") {
  const auto offsets = banklab::parse_lane_offsets("0 - -1 12");
  REQUIRE(offsets.size() == 4);
  CHECK(offsets[1] == banklab::kInactive);
  CHECK(offsets[2] == banklab::kInactive);
  CHECK(offsets[3] == 12);
}

TEST_CASE("stride 32 puts every lane in bank 0: the explanation names the bank and 32 words") {
  const auto cost = banklab::price(banklab::strided_access(4, MemOp::kLoad, 32));
  REQUIRE(cost.groups.size() == 1);
  CHECK(cost.groups[0].worst_bank() == 0);
  CHECK(cost.groups[0].bank_words[0].size() == 32);
  const std::string text = banklab::format_explanation(cost);
  CHECK(text.find("bank 0 must deliver 32 different words") != std::string::npos);
  const std::string map = banklab::format_bank_map(cost);
  // 32 wavefront rows, lane k alone in bank 0 in wavefront k.
  CHECK(map.find("wf 31   31   .") != std::string::npos);
}

TEST_CASE("a broadcast is listed as lanes sharing a word") {
  const auto cost = banklab::price(banklab::strided_access(4, MemOp::kLoad, 0));
  CHECK(cost.wavefronts == 1);
  CHECK(banklab::format_explanation(cost).find("word 0 (byte 0) lanes 0-31") != std::string::npos);
  CHECK(banklab::format_bank_map(cost).find(" 0*") != std::string::npos);
}

TEST_CASE("8-byte accesses are served in half-warps, 16-byte in quarter-warps") {
  CHECK(banklab::price(banklab::strided_access(8, MemOp::kStore, 1)).groups.size() == 2);
  CHECK(banklab::price(banklab::strided_access(16, MemOp::kStore, 1)).groups.size() == 4);
  const auto merged = banklab::price(banklab::strided_access(8, MemOp::kLoad, 0));
  CHECK(merged.pair_merge_distance == 1);
  CHECK(merged.groups.size() == 1);
}

TEST_CASE("JSON holds the numbers and one map row per wavefront") {
  const auto cost = banklab::price(banklab::strided_access(4, MemOp::kStore, 2));
  const auto json = banklab::to_json(cost);
  CHECK(json["wavefronts"] == 2);
  CHECK(json["bank_conflicts"] == 1);
  CHECK(json["op"] == "st");
  REQUIRE(json["map"].size() == 2);
  CHECK(json["map"][0].size() == 32);
  CHECK(json["map"][1][0] == nlohmann::json::array({16}));
}

TEST_CASE("CSV errors name the file and the line") {
  std::istringstream in("name,width_bytes,op,lane_byte_offsets\nok,4,ld,0 4\n");
  const std::string message = error_of([&] { banklab::read_access_csv(in, "p.csv"); });
  CHECK(message.find("p.csv:2:") == 0);
  std::istringstream short_row("x,4\n");
  CHECK(error_of([&] { banklab::read_access_csv(short_row, "q.csv"); }).find("q.csv:1: expected at least 4") == 0);
}

TEST_CASE("a 16-bank architecture is one more constant: stride 16 conflicts there, half-warps for 4 bytes") {
  constexpr banklab::BankArchitecture kSixteenBanks{"16 banks", 16, 4, false};
  const auto cost = banklab::price(banklab::strided_access(4, MemOp::kLoad, 16), kSixteenBanks);
  CHECK(cost.groups.size() == 2);
  CHECK(cost.wavefronts == 32);
  CHECK(banklab::price(banklab::strided_access(4, MemOp::kLoad, 1), kSixteenBanks).wavefronts == 2);
}

TEST_CASE("a 16-byte lane asks four consecutive banks for four words") {
  const auto cost = banklab::price(banklab::strided_access(16, MemOp::kStore, 1));
  const banklab::LaneGroup& first = cost.groups[0];
  for (int bank = 0; bank < 32; ++bank) {
    REQUIRE(first.bank_words[bank].size() == 1);
    CHECK(first.bank_words[bank][0].word == static_cast<std::uint32_t>(bank));
    CHECK(first.bank_words[bank][0].lanes == banklab::LaneMask{1} << (bank / 4));
  }
}

// The asynchronous copies an H100 ran under Nsight Compute
// (tests/data/gpu/h100_async_copy/: l1tex__data_pipe_lsu_wavefronts_mem_shared
// less the read-back loads, the three never-run `@!PT LDS` of each warp and 2
// per LDGSTS): the 4- and 8-byte copies cost their lanes per bank, lanes on
// one word included.
TEST_CASE("an asynchronous copy's shared write merges no lanes: one word written by 32 lanes costs 32 (H100, LDGSTS)") {
  struct Case {
    int width;
    std::int64_t stride;
    int lanes, measured;
  };
  const Case cases[] = {{4, 4, 32, 1},   {4, 8, 32, 2},    {4, 128, 32, 32}, {4, 132, 32, 1}, {4, 0, 32, 32},
                        {4, 128, 8, 8},  {8, 8, 32, 2},    {8, 16, 32, 4},   {8, 128, 32, 32}, {8, 136, 32, 2},
                        {8, 0, 32, 32}};
  for (const Case& c : cases) {
    INFO(c.width << "-byte copies at lane * " << c.stride << ", " << c.lanes << " lanes");
    std::vector<std::int64_t> offsets = lanes_times(c.stride);
    for (int lane = c.lanes; lane < 32; ++lane) offsets[static_cast<std::size_t>(lane)] = banklab::kInactive;
    const WarpAccess store = WarpAccess::make(c.width, MemOp::kStore, offsets);
    CHECK(banklab::count_wavefronts(banklab::lanes_unmerged(store)).wavefronts == c.measured);
    // A plain store merges lanes on one word: 1 (32 lanes) or 2 (8-byte) for the broadcast rows.
    if (c.stride == 0) CHECK(banklab::count_wavefronts(store).wavefronts < c.measured);
  }
}

TEST_CASE("a group's worst bank is the lowest of the banks that tie for the most words") {
  // Conflict-free: every bank one word, so bank 0 is named (in the JSON too).
  const auto flat = banklab::price(banklab::strided_access(4, MemOp::kLoad, 1));
  REQUIRE(flat.groups.size() == 1);
  CHECK(flat.groups[0].worst_bank() == 0);
  CHECK(banklab::to_json(flat)["groups"][0]["worst_bank"] == 0);
  // Stride 2: the even banks tie at two words each; the first of them is named.
  const auto two_way = banklab::price(banklab::strided_access(4, MemOp::kLoad, 2));
  CHECK(two_way.groups[0].worst_bank() == 0);
  CHECK(banklab::format_explanation(two_way).find("bank 0 must deliver 2 different words") != std::string::npos);
  // Lanes 0-15 at stride 1 from word 5: banks 5-20 tie at one word; bank 5 is named.
  std::vector<std::int64_t> shifted(32, banklab::kInactive);
  for (std::size_t lane = 0; lane < 16; ++lane) shifted[lane] = 20 + 4 * static_cast<std::int64_t>(lane);
  const auto cost = banklab::price(WarpAccess::make(4, MemOp::kLoad, shifted));
  CHECK(cost.groups[0].worst_bank() == 5);
}

TEST_CASE("lane lists name runs of three or more as a range, two neighbours one by one") {
  CHECK(banklab::format_lanes(0b11u) == "0 1");
  CHECK(banklab::format_lanes(0b111u) == "0-2");
  CHECK(banklab::format_lanes(0b101u) == "0 2");
  CHECK(banklab::format_lanes(0xC0000003u) == "0 1 30 31");
  CHECK(banklab::format_lanes(0xFFFFFFFFu) == "0-31");
}

// The bank model against 388 one-warp accesses measured with Nsight Compute
// on an H200 (tests/data/h200_shared_access.csv, see tests/data/README.md).
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>

#include "banklab/access_csv.hpp"

namespace {

std::vector<banklab::AccessRow> calibration_rows(const std::string& file = "h200_shared_access.csv") {
  const std::string path = std::string(BANKLAB_TEST_DATA_DIR) + "/" + file;
  std::ifstream in(path);
  REQUIRE_MESSAGE(in.good(), "cannot open " << path);
  return banklab::read_access_csv(in, path);
}

}  // namespace

TEST_CASE("every H200 calibration row is reproduced: wavefronts and bank conflicts") {
  const auto rows = calibration_rows();
  REQUIRE(rows.size() == 388);
  int matched = 0;
  for (const auto& row : rows) {
    REQUIRE(row.wavefronts.has_value());
    REQUIRE(row.bank_conflicts.has_value());
    const auto cost = banklab::price(row.access);
    INFO(row.name << " (line " << row.line << "): " << row.access << "\n" << cost);
    CHECK(cost.wavefronts == *row.wavefronts);
    CHECK(cost.bank_conflicts == *row.bank_conflicts);
    if (cost.wavefronts == *row.wavefronts && cost.bank_conflicts == *row.bank_conflicts) ++matched;
  }
  MESSAGE("calibration rows reproduced: " << matched << "/" << rows.size());
  CHECK(matched == 388);
}

TEST_CASE("the calibration covers every width, both directions and the pair-merge") {
  const auto rows = calibration_rows();
  for (int width : {1, 2, 4, 8, 16}) {
    for (auto op : {banklab::MemOp::kLoad, banklab::MemOp::kStore}) {
      const auto n = std::count_if(rows.begin(), rows.end(), [&](const banklab::AccessRow& r) {
        return r.access.width_bytes == width && r.access.op == op;
      });
      INFO("width " << width << " op " << banklab::to_string(op));
      CHECK(n >= 4);
    }
  }
  // Rows where the merge changes the answer, so that rule 4 is really tested.
  int merge_matters = 0;
  for (const auto& row : rows) {
    const auto cost = banklab::price(row.access);
    if (cost.pair_merge_distance == 0) continue;
    banklab::WarpAccess as_store = row.access;
    as_store.op = banklab::MemOp::kStore;
    if (banklab::price(as_store).wavefronts != cost.wavefronts) ++merge_matters;
  }
  CHECK(merge_matters >= 10);
}

TEST_CASE("290 further H200 measurements (random, pairs, sparse lanes, strides with a base) are reproduced") {
  const auto rows = calibration_rows("h200_extra_patterns.csv");
  REQUIRE(rows.size() == 290);
  for (const auto& row : rows) {
    const auto cost = banklab::price(row.access);
    INFO(row.name << " (line " << row.line << "): " << row.access << "\n" << cost);
    CHECK(cost.wavefronts == *row.wavefronts);
    CHECK(cost.bank_conflicts == *row.bank_conflicts);
  }
}

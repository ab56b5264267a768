// banksim as a student or script runs it: worked examples, JSON that parses,
// a batch over the calibration file, and errors with exit status 2.
#include <doctest/doctest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "banklab/access_csv.hpp"
#include "run_command.hpp"

namespace {

using Result = banklab::test::CommandResult;

Result run_banksim(const std::string& args) {
  return banklab::test::run_command(std::string(BANKSIM_PATH) + " " + args + " 2>&1");
}

}  // namespace

TEST_CASE("banksim shows stride 32 as a 32-way conflict and stride 33 as none") {
  const auto conflicted = run_banksim("--width 4 --stride 32");
  CHECK(conflicted.status == 0);
  CHECK(conflicted.out.find("wavefronts: 32   ideal: 1   bank conflicts: 31   (worst group: 32-way)") !=
        std::string::npos);
  const auto padded = run_banksim("--width 4 --stride 33");
  CHECK(padded.status == 0);
  CHECK(padded.out.find("wavefronts: 1   ideal: 1   bank conflicts: 0") != std::string::npos);
}

TEST_CASE("banksim --op takes ld, st and their long names load and store") {
  for (const char* op : {"ld", "load", "st", "store"}) {
    INFO(op);
    const auto r = run_banksim(std::string("--width 4 --stride 2 --op ") + op + " --format json");
    REQUIRE(r.status == 0);
    const auto json = nlohmann::json::parse(r.out);
    CHECK(json["wavefronts"] == 2);
    CHECK(json["op"] == (op[0] == 'l' ? "ld" : "st"));
  }
}

TEST_CASE("banksim --format json lists a group's active lanes only: --lanes even gives the 16 even lanes") {
  const auto r = run_banksim("--width 4 --stride 1 --lanes even --format json");
  REQUIRE(r.status == 0);
  const auto json = nlohmann::json::parse(r.out);
  REQUIRE(json["groups"].size() == 1);
  const auto& active = json["groups"][0]["active_lanes"];
  REQUIRE(active.size() == 16);
  for (std::size_t i = 0; i < active.size(); ++i) CHECK(active[i] == 2 * i);
}

TEST_CASE("banksim --format json prints one object that parses") {
  const auto result = run_banksim("--width 8 --stride 1 --lanes 0-15 --op st --format json");
  REQUIRE(result.status == 0);
  const auto json = nlohmann::json::parse(result.out);
  CHECK(json["wavefronts"] == 1);
  CHECK(json["offsets"][16].is_null());
  CHECK(json["map"].size() == 1);
  // A conflicted access: its wavefronts, the ideal and the conflicts are three different numbers.
  const auto column = run_banksim("--width 4 --stride 32 --format json");
  REQUIRE(column.status == 0);
  const auto conflicted = nlohmann::json::parse(column.out);
  CHECK(conflicted["wavefronts"] == 32);
  CHECK(conflicted["ideal_wavefronts"] == 1);
  CHECK(conflicted["bank_conflicts"] == 31);
  CHECK(conflicted["map"].size() == 32);
}

TEST_CASE("banksim --batch over the calibration file reproduces every measured row") {
  const std::string path = std::string(BANKLAB_TEST_DATA_DIR) + "/h200_shared_access.csv";
  const auto result = run_banksim("--batch " + path);
  REQUIRE(result.status == 0);
  std::ifstream in(path);
  const auto rows = banklab::read_access_csv(in, path);
  std::istringstream out(result.out);
  std::string line;
  std::getline(out, line);
  CHECK(line == "name,wavefronts,bank_conflicts");
  std::size_t n = 0;
  while (std::getline(out, line)) {
    REQUIRE(n < rows.size());
    const std::string expected =
        rows[n].name + "," + std::to_string(*rows[n].wavefronts) + "," + std::to_string(*rows[n].bank_conflicts);
    CHECK(line == expected);
    ++n;
  }
  CHECK(n == rows.size());
}

TEST_CASE("banksim rejects bad arguments in one line with exit status 2") {
  for (const char* args :
       {"--width 3 --stride 1", "--width 4 --offsets \"0 4 8\"",
        "--width 8 --offsets \"4 - - - - - "
        "- - - - - - - - - - - - - - - - - - - - - - - - - -\"",
        "--stride 1 --lanes 40", "--stride", "--op read --stride 1", "--batch /nonexistent.csv", "--frobnicate", ""}) {
    const auto result = run_banksim(args);
    INFO("banksim " << args << "\n" << result.out);
    CHECK(result.status == 2);
    CHECK(result.out.rfind("banksim: error: ", 0) == 0);
    CHECK(std::count(result.out.begin(), result.out.end(), '\n') == 1);
  }
}

namespace {
std::size_t count_of(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}
}  // namespace

TEST_CASE("banksim --format svg draws the bank map: a row per wavefront, the conflicts framed in red, valid XML") {
  const auto conflicted = banklab::test::run_command(std::string(BANKSIM_PATH) + " --width 4 --stride 32 --format svg");
  REQUIRE(conflicted.status == 0);
  const std::string& svg = conflicted.out;
  CHECK(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0) == 0);
  CHECK(svg.find(">banksim --width 4 --stride 32</text>") != std::string::npos);  // the command as title
  CHECK(svg.find("32 wavefronts, ideal 1, 31 bank conflicts") != std::string::npos);
  CHECK(count_of(svg, ">wf ") == 32);                    // one row per wavefront
  CHECK(count_of(svg, "stroke=\"#d62728\"") == 31);      // every wavefront after the first: a conflict
  const std::string path = std::string(BANKLAB_TEST_TMP) + "/stride32.svg";
  std::ofstream(path) << svg;
  CHECK(std::system(("xmllint --noout " + path).c_str()) == 0);
  // Conflict-free, and two half-warp groups of 8-byte accesses: nothing red.
  const auto clean = banklab::test::run_command(std::string(BANKSIM_PATH) + " --width 8 --stride 1 --format svg");
  CHECK(count_of(clean.out, ">wf ") == 2);
  CHECK(count_of(clean.out, "stroke=\"#d62728\"") == 0);
  CHECK(clean.out.find("2 groups") != std::string::npos);
  // The lane offsets in a title are escaped for XML.
  const auto offsets = banklab::test::run_command(std::string(BANKSIM_PATH) +
                                                  " --width 4 --offsets \"0 - - - - - - - - - - - - - - - - - - - - - "
                                                  "- - - - - - - - - 4\" --format=svg");
  CHECK(offsets.status == 0);
  CHECK(offsets.out.find("--offsets &quot;0 - -") != std::string::npos);
}

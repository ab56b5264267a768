// The source check on a machine without libclang (BANKLAB_NO_LIBCLANG stands
// in for one): a file is graded only with a verdict recorded for its exact
// bytes by a grader that had libclang; a changed byte is refused again.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "grader_test.hpp"
#include "sha256.hpp"

namespace fs = std::filesystem;
using banklab::test::run_command;

TEST_CASE("sha256_hex matches FIPS 180-4's examples") {
  using banklab::grader::sha256_hex;
  CHECK(sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  CHECK(sha256_hex(std::string(1000, 'a')) == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3");
}

namespace {

// A fresh copy of the reference of stage 1 in its own folder (a new path:
// no earlier record of the grader's matches it), with `extra` appended.
std::string fresh_copy(const std::string& name, const std::string& extra) {
  const fs::path folder = fs::path(BANKLAB_TEST_TMP) / "source_verdicts" / name;
  fs::remove_all(folder);
  fs::create_directories(folder);
  const fs::path file = folder / "bank_mapping.cu";
  fs::copy_file(fs::path(BANKLAB_SOURCE_DIR) / "solutions/01-bank-mapping/bank_mapping.cu", file);
  std::ofstream(file, std::ios::app) << extra;
  return file.string();
}

}  // namespace

TEST_CASE("without libclang a file is graded only with a verdict recorded for its bytes") {
  const std::string nonce = std::to_string(std::random_device{}());
  const std::string unchecked = fresh_copy("unchecked", "// " + nonce + "\n");
  const auto refused = run_command("BANKLAB_NO_LIBCLANG=1 " + std::string(GRADER_PATH) +
                                   " --lab 1 --backend cpu --seed 1 --impl " + unchecked + " 2>&1");
  CHECK(refused.status == 2);
  CHECK(refused.out.find("bank_mapping.cu cannot be graded on this machine: the source check needs libclang") !=
        std::string::npos);
  CHECK(refused.out.find("the grader never grades a file whose source was not checked") != std::string::npos);
  CHECK(refused.out.find("Score:") == std::string::npos);

  // A grader with libclang records the verdict (--build-only is enough) ...
  const auto recorded = run_command(std::string(GRADER_PATH) + " --lab 1 --build-only --impl " + unchecked + " 2>&1");
  REQUIRE(recorded.status == 0);
  // ... which a copy of the same bytes elsewhere is graded with, saying so.
  const std::string same = fresh_copy("same_bytes", "// " + nonce + "\n");
  const auto graded = run_command("BANKLAB_NO_LIBCLANG=1 " + std::string(GRADER_PATH) +
                                  " --lab 1 --backend cpu --seed 1 --impl " + same + " 2>&1");
  CHECK(graded.status == 0);
  CHECK(graded.out.find("source check: verdict recorded by ") != std::string::npos);
  CHECK(graded.out.find("libclang cannot be loaded here") != std::string::npos);

  // One byte more: no verdict, refused.
  const std::string changed = fresh_copy("changed", "// " + nonce + "\n ");
  const auto again = run_command("BANKLAB_NO_LIBCLANG=1 " + std::string(GRADER_PATH) +
                                 " --lab 1 --backend cpu --seed 1 --impl " + changed + " 2>&1");
  CHECK(again.status == 2);
  CHECK(again.out.find("holds no verdict for this file") != std::string::npos);
}

TEST_CASE("without libclang a record is a verdict only for the checker it names, whatever its file is called") {
  // A record's name is a hash of the file's bytes and the checker (rules,
  // contract, kit headers); its contents say both again. A record whose
  // contents name another checker (copied or renamed from another stage's,
  // or edited) is no verdict, though its name matches.
  const std::string nonce = std::to_string(std::random_device{}());
  const std::string file = fresh_copy("relabelled", "// " + nonce + "\n");
  const auto recorded = run_command(std::string(GRADER_PATH) + " --lab 1 --build-only --impl " + file + " 2>&1");
  REQUIRE(recorded.status == 0);
  std::ostringstream bytes;
  bytes << std::ifstream(file, std::ios::binary).rdbuf();
  const std::string content = banklab::grader::sha256_hex("file " + banklab::grader::sha256_hex(bytes.str()) + "\n");
  fs::path record;
  for (const auto& e : fs::directory_iterator(fs::path(GRADER_PATH).parent_path() / "source_verdicts")) {
    std::ifstream in(e.path());
    const auto j = nlohmann::json::parse(in, nullptr, false);
    if (!j.is_discarded() && j.value("content_sha256", "") == content) record = e.path();
  }
  REQUIRE(!record.empty());
  std::ifstream in(record);
  nlohmann::json j = nlohmann::json::parse(in);
  in.close();
  j["checker_sha256"] = std::string(64, '0');
  std::ofstream(record) << j.dump(1) << '\n';
  // The same bytes elsewhere (the grader's cache of source checks is by path).
  const std::string same = fresh_copy("relabelled_same_bytes", "// " + nonce + "\n");
  const auto refused = run_command("BANKLAB_NO_LIBCLANG=1 " + std::string(GRADER_PATH) +
                                   " --lab 1 --backend cpu --seed 1 --impl " + same + " 2>&1");
  INFO(refused.out);
  CHECK(refused.status == 2);
  CHECK(refused.out.find("holds no verdict for this file") != std::string::npos);
  CHECK(refused.out.find("Score:") == std::string::npos);
}

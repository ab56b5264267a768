// Variants per student (--variant-from): the derivation is deterministic and
// spreads over the stage's table, correct files written for any variant get
// full marks on two of them, a file hard-coded for one variant fails another
// (and the test names the checks), the gradebook records each variant, and a
// stage without variants says so. Stage 3 (rows per block, two predicted
// tiles) and stage 2 (four predicted strides) have variants.
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "grader_test.hpp"

namespace {

namespace fs = std::filesystem;
using banklab::test::GraderRun;
using banklab::test::run_command;
using banklab::test::run_grader;
using banklab::test::source_dir;

const std::string kSalt = "--variant-salt test-salt";

// axis -> value, read from --show-variant ("  block_rows = 4  (BANKLAB_BLOCK_ROWS): ...").
std::map<std::string, int> shown_variant(const std::string& name, const std::string& salt_args = kSalt) {
  const GraderRun r = run_grader("--lab 3 --variant-from '" + name + "' " + salt_args + " --show-variant");
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  std::map<std::string, int> values;
  const std::regex line(R"(^  ([a-z_0-9]+) = (-?[0-9]+)  \()");
  std::istringstream lines(r.out);
  for (std::string text; std::getline(lines, text);) {
    std::smatch m;
    if (std::regex_search(text, m, line)) values[m[1]] = std::stoi(m[2]);
  }
  return values;
}

nlohmann::json graded(const std::string& file, const std::string& student, int expected_status, int lab = 3) {
  const GraderRun r = run_grader("--lab " + std::to_string(lab) + " --impl " + file + " --variant-from " + student + " " + kSalt +
                                 " --backend cpu --seed 1 --time-limit 10 --format json");
  INFO(file << " as " << student << "\n" << r.out << r.err);
  REQUIRE(r.status == expected_status);
  return nlohmann::json::parse(r.out);
}

std::string text_of(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

const std::string kHardcoded = source_dir() + "/tests/grader/lab03/variants/hardcoded_8_rows.cu";
const std::string kGeneric = source_dir() + "/tests/grader/lab03/variants/generic_blockdim.cu";
const std::string kSolution = source_dir() + "/solutions/03-padded-transpose/transpose.cu";
const std::string kP1 = "prediction P1: the column read of float tile[32][BANKLAB_P1_ROW]";
const std::string kP2 = "prediction P2: the column read of float tile[32][BANKLAB_P2_ROW]";

}  // namespace

TEST_CASE("a student's variant is the same every time, depends on the salt and spreads over the stage's table") {
  const std::map<std::string, std::set<int>> table = {
      {"block_rows", {8, 4, 16}}, {"p1_row", {32, 48, 40, 36}}, {"p2_row", {33, 34, 31, 38}}};
  std::map<std::string, std::set<int>> seen;
  std::set<std::map<std::string, int>> distinct;
  int salt_changed = 0;
  for (int i = 0; i < 24; ++i) {
    const std::string name = "student" + std::to_string(i);
    const std::map<std::string, int> v = shown_variant(name);
    REQUIRE(v.size() == table.size());
    CHECK(shown_variant(name) == v);               // deterministic
    CHECK(shown_variant("  " + name + " ") == v);  // spaces around a name are not part of it
    for (const auto& [axis, value] : v) {
      CHECK_MESSAGE(table.at(axis).count(value) == 1, axis << " = " << value << " is not in the table");
      seen[axis].insert(value);
    }
    distinct.insert(v);
    if (shown_variant(name, "--variant-salt other-course") != v) ++salt_changed;
  }
  for (const auto& [axis, values] : table) CHECK_MESSAGE(seen[axis] == values, axis << ": not every value drawn");
  CHECK(distinct.size() >= 12);  // 48 variants; 24 names draw many of them
  CHECK(salt_changed >= 12);     // another course's salt gives most students another variant
  // The names the tests below grade, and their variants under test-salt.
  CHECK(shown_variant("ada") == std::map<std::string, int>{{"block_rows", 8}, {"p1_row", 36}, {"p2_row", 38}});
  CHECK(shown_variant("bob") == std::map<std::string, int>{{"block_rows", 8}, {"p1_row", 32}, {"p2_row", 31}});
  CHECK(shown_variant("cy") == std::map<std::string, int>{{"block_rows", 4}, {"p1_row", 48}, {"p2_row", 31}});
  CHECK(shown_variant("dan") == std::map<std::string, int>{{"block_rows", 16}, {"p1_row", 32}, {"p2_row", 33}});
}

TEST_CASE("the salt can come from BANKLAB_VARIANT_SALT, and without one --show-variant says anyone can derive it") {
  const auto r = run_command("BANKLAB_VARIANT_SALT=test-salt " + std::string(GRADER_PATH) +
                             " --lab 3 --variant-from cy --show-variant");
  CHECK(r.status == 0);
  CHECK(r.out.find("block_rows = 4") != std::string::npos);
  CHECK(r.out.find("p1_row = 48") != std::string::npos);
  const GraderRun plain = run_grader("--lab 3 --variant-from cy --show-variant");
  CHECK(plain.status == 0);
  CHECK(plain.out.find("no course salt") != std::string::npos);
}

TEST_CASE("a stage without variants, the quiz, --lab all and the GPU backend refuse --variant-from and say why") {
  for (const char* lab : {"1", "4", "5"}) {
    const GraderRun r = run_grader(std::string("--lab ") + lab + " --variant-from ada --show-variant");
    INFO(r.err);
    CHECK(r.status == 2);
    CHECK(r.err.find("stage " + std::string(lab) + " has no variants: every student gets the same stage") !=
          std::string::npos);
    CHECK(r.err.find("stages with variants: 2, 3") != std::string::npos);
  }
  const GraderRun batch = run_grader("--lab 4 --submissions " + std::string(BANKLAB_TEST_TMP) + " --variant-from-name");
  CHECK(batch.status == 2);
  CHECK(batch.err.find("stage 4 has no variants") != std::string::npos);
  CHECK(batch.err.find("--variant-from-name") != std::string::npos);
  const GraderRun quiz = run_grader("--lab quiz --variant-from ada");
  CHECK(quiz.status == 2);
  CHECK(quiz.err.find("the quiz has no variants") != std::string::npos);
  const GraderRun all = run_grader("--lab all --variant-from ada");
  CHECK(all.status == 2);
  CHECK(all.err.find("give one lab") != std::string::npos);
  const GraderRun gpu = run_grader("--lab 3 --solutions --variant-from ada --backend gpu");
  CHECK(gpu.status == 2);
  CHECK(gpu.err.find("variants are graded on the CPU emulator (--backend cpu)") != std::string::npos);
  const GraderRun empty = run_grader("--lab 3 --variant-from ' ' --show-variant");
  CHECK(empty.status == 2);
  CHECK(empty.err.find("give the student's name or id") != std::string::npos);
}

TEST_CASE("the reference and a differently written generic file get full marks on two different variants") {
  for (const std::string& student : {"cy", "dan"}) {
    for (const std::string& file : {kSolution, kGeneric}) {
      const nlohmann::json report = graded(file, student, 0);
      CHECK(report["score"] == 90);
      CHECK(report["variant"]["from"] == student);
    }
  }
  const nlohmann::json cy = graded(kSolution, "cy", 0);
  CHECK(cy["variant"] == nlohmann::json{{"from", "cy"}, {"block_rows", 4}, {"p1_row", 48}, {"p2_row", 31}});
}

TEST_CASE("a file hard-coded for one variant gets full marks there and fails another variant's checks") {
  // bob's variant asks what the file has written in: 8 rows, P1 32 (tile[32][32]) and P2 1 (tile[32][31]).
  CHECK(graded(kHardcoded, "bob", 0)["score"] == 90);
  // cy's block has 4 rows: a kernel that steps by 8 leaves half the rows unwritten; and P1 is tile[32][48].
  const nlohmann::json cy = graded(kHardcoded, "cy", 1);
  const std::set<std::string> cy_fails = banklab::test::failing_checks(cy);
  CHECK(cy_fails.count("transpose of a 32x32 matrix") == 1);
  CHECK(cy_fails.count("transpose of 1024x2048 and 2048x1024") == 1);
  CHECK(cy_fails.count(kP1) == 1);
  CHECK(cy_fails.count(kP2) == 0);  // tile[32][31] costs 1 wavefront, as tile[32][33] does
  const std::string p1 = banklab::test::check_output(cy, kP1);
  CHECK(p1.find("your variant: the column read of float tile[32][48]; yours: 32, expected: 16 wavefronts") !=
        std::string::npos);
  CHECK(banklab::test::check_output(cy, "transpose of a 32x32 matrix").find("NaN (never written)") != std::string::npos);
  // dan's block has 16 rows: rows threadIdx.y + 24 run past the 32-row tile.
  const nlohmann::json dan = graded(kHardcoded, "dan", 1);
  const std::set<std::string> dan_fails = banklab::test::failing_checks(dan);
  CHECK(dan_fails.count("no out-of-bounds memory access") == 1);
  CHECK(banklab::test::check_output(dan, "no out-of-bounds memory access").find("out-of-bounds shared access") !=
        std::string::npos);
  CHECK(dan_fails.count(kP1) == 0);
  CHECK(dan["score"].get<double>() < 90);
  // ada's block has the stage's 8 rows, but both tiles differ: tile[32][36] (4) and tile[32][38] (2).
  const nlohmann::json ada = graded(kHardcoded, "ada", 1);
  CHECK(banklab::test::failing_checks(ada) == std::set<std::string>{kP1, kP2});
  CHECK(banklab::test::check_output(ada, kP2).find("your variant: the column read of float tile[32][38]; yours: 1, "
                                                   "expected: 2 wavefronts") != std::string::npos);
  CHECK(ada["score"] == 80);
}

TEST_CASE("without --variant-from the stage is graded as it always was") {
  const GraderRun r = run_grader("--lab 3 --solutions --backend cpu --seed 1 --time-limit 10 --format json");
  REQUIRE(r.status == 0);
  const nlohmann::json report = nlohmann::json::parse(r.out);
  CHECK_FALSE(report.contains("variant"));
  CHECK(report["score"] == 90);
  std::set<std::string> names;
  for (const auto& c : report["checks"]) names.insert(c["name"].get<std::string>());
  CHECK(names.count("prediction P1: the column read of float tile[32][32]") == 1);
  CHECK(names.count("prediction P2: the column read of float tile[32][33]") == 1);
  // The hard-coded file is right for the stage's own parameters.
  const GraderRun own = run_grader("--lab 3 --impl " + kHardcoded + " --backend cpu --seed 1 --time-limit 10");
  CHECK(own.status == 0);
  CHECK(own.out.find("variant:") == std::string::npos);
  // --list of a variant names the predictions by their macros.
  const GraderRun list = run_grader("--lab 3 --list --variant-from cy " + kSalt);
  CHECK(list.status == 0);
  CHECK(list.out.find(kP1) != std::string::npos);
}

TEST_CASE("--submissions --variant-from-name grades each student on their variant and the gradebook records it") {
  const fs::path dir = fs::path(BANKLAB_TEST_TMP) / "variant_class";
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::copy_file(kHardcoded, dir / "bob.cu");
  fs::copy_file(kSolution, dir / "cy.cu");
  fs::copy_file(kHardcoded, dir / "dan.cu");
  const std::string args = "--lab 3 --backend cpu --seed 3 --time-limit 10 -j 2 --variant-from-name --submissions " +
                           dir.string();
  const GraderRun first = run_grader(args + " " + kSalt);
  INFO(first.out << first.err);
  REQUIRE(first.status == 0);
  const nlohmann::json book = nlohmann::json::parse(text_of(dir / "gradebook.json"));
  std::map<std::string, nlohmann::json> rows;
  for (const auto& row : book["submissions"]) rows[row["student"].get<std::string>()] = row;
  CHECK(rows["bob"]["variant"] == nlohmann::json{{"from", "bob"}, {"block_rows", 8}, {"p1_row", 32}, {"p2_row", 31}});
  CHECK(rows["cy"]["variant"] == nlohmann::json{{"from", "cy"}, {"block_rows", 4}, {"p1_row", 48}, {"p2_row", 31}});
  CHECK(rows["dan"]["variant"]["block_rows"] == 16);
  CHECK(rows["bob"]["score"] == 90);
  CHECK(rows["cy"]["score"] == 90);
  CHECK(rows["dan"]["score"].get<double>() < 90);  // bob's file does not fit dan's variant
  const std::string csv = text_of(dir / "gradebook.csv");
  CHECK(csv.rfind("student,score,max_score,status,backend,variant,seed,", 0) == 0);
  CHECK(csv.find("\ncy,90.0,90.0,graded,cpu,block_rows=4 p1_row=48 p2_row=31,3,") != std::string::npos);
  // Each student's report says the variant.
  CHECK(text_of(dir / "gradebook-reports" / "cy.txt").find("variant: block_rows=4 p1_row=48 p2_row=31 (of cy)") !=
        std::string::npos);
  CHECK(nlohmann::json::parse(text_of(dir / "gradebook-reports" / "dan.json"))["variant"]["block_rows"] == 16);
  // The same salt again: nothing to grade; another salt: every student again.
  const GraderRun same = run_grader(args + " " + kSalt);
  CHECK(same.err.find("3 submissions in " + dir.string() + ", 0 to grade") != std::string::npos);
  const GraderRun other = run_grader(args + " --variant-salt another-salt");
  CHECK(other.err.find("3 submissions in " + dir.string() + ", 3 to grade") != std::string::npos);
}

TEST_CASE("a gradebook without variants has no variant column") {
  const fs::path dir = fs::path(BANKLAB_TEST_TMP) / "plain_class";
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::copy_file(kHardcoded, dir / "bob.cu");
  const GraderRun r =
      run_grader("--lab 3 --backend cpu --seed 3 --time-limit 10 --submissions " + dir.string());
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  CHECK(text_of(dir / "gradebook.csv").rfind("student,score,max_score,status,backend,seed,", 0) == 0);
  const nlohmann::json book = nlohmann::json::parse(text_of(dir / "gradebook.json"));
  CHECK_FALSE(book["submissions"][0].contains("variant"));
}

TEST_CASE("stage 2: four predictions ask about the variant's strides, and written-in answers fail another variant") {
  const std::string lab02 = source_dir() + "/tests/grader/lab02/variants/";
  const std::string solution = source_dir() + "/solutions/02-stride-gcd/stride.cu";
  const std::string p3 = "prediction P3: lane l reads word R l (R = BANKLAB_P3_STRIDE)";
  const std::string p5 = "prediction P5: lane l reads word R l (R = BANKLAB_P5_STRIDE)";
  const GraderRun shown = run_grader("--lab 2 --variant-from ada " + kSalt + " --show-variant");
  REQUIRE(shown.status == 0);
  CHECK(shown.out.find("p3_stride = 16") != std::string::npos);
  CHECK(shown.out.find("p5_stride = 96") != std::string::npos);
  for (const std::string& student : {"ada", "dan"}) {
    CHECK(graded(solution, student, 0, 2)["score"] == 90);
    CHECK(graded(lab02 + "generic_alternative.cu", student, 0, 2)["score"] == 90);
  }
  // ada: P3 is stride 16 (16 wavefronts, not 8) and P5 stride 96 (32, not 16); P4 stride 33 and P10 stride 16
  // have the stage's own answers.
  const nlohmann::json ada = graded(lab02 + "hardcoded_predictions.cu", "ada", 1, 2);
  CHECK(banklab::test::failing_checks(ada) == std::set<std::string>{p3, p5});
  CHECK(banklab::test::check_output(ada, p3).find("your variant: lane l reads word 16 l (stride 16). yours: 8, "
                                                  "expected: 16 wavefronts") != std::string::npos);
  CHECK(ada["score"] == 86);
  // dan: all four differ (P3 stride 4, P4 30, P5 20, P10 32).
  const nlohmann::json dan = graded(lab02 + "hardcoded_predictions.cu", "dan", 1, 2);
  CHECK(banklab::test::failing_checks(dan) ==
        std::set<std::string>{p3, "prediction P4: lane l reads word R l (R = BANKLAB_P4_STRIDE)", p5,
                              "prediction P10: only lanes 0-15 are active; lane l reads word R l (R = BANKLAB_P10_STRIDE)"});
  CHECK(dan["score"] == 82);
  // Without a variant the written-in answers are the right ones, under the stage's own names.
  const GraderRun own = run_grader("--lab 2 --impl " + lab02 + "hardcoded_predictions.cu --backend cpu --seed 1");
  CHECK(own.status == 0);
  CHECK(own.out.find("prediction P3: lane l reads word 8 l (stride 8): OK") != std::string::npos);
}

TEST_CASE("a file that reads the variant's macros without defaults builds on its variant, for nvcc's check too") {
  // generic_blockdim.cu without its #ifndef defaults: only a variant defines BANKLAB_P1_ROW and BANKLAB_P2_ROW.
  std::string text = text_of(kGeneric);
  const std::size_t from = text.find("#ifndef BANKLAB_P1_ROW");
  const std::size_t to = text.find("__global__");
  REQUIRE(from != std::string::npos);
  text.erase(from, to - from);
  const fs::path file = fs::path(BANKLAB_TEST_TMP) / "macros_only" / "transpose.cu";
  fs::create_directories(file.parent_path());
  std::ofstream(file) << text;
  CHECK(graded(file.string(), "cy", 0)["score"] == 90);
  const GraderRun plain = run_grader("--lab 3 --impl " + file.string() + " --backend cpu --seed 1");
  CHECK(plain.status == 2);  // without a variant the macros are not defined: the compiler says so
  CHECK(plain.err.find("BANKLAB_P1_ROW") != std::string::npos);
}

// Every format answers, and each follows its documented form: a file that
// does not build is a JSON report, one failed JUnit test and a Gradescope,
// PrairieLearn and Autolab result with the compiler's message; JUnit
// validates against tests/grader/junit.xsd (times decimal); Gradescope's
// visibility comes from the rubric and --visibility; PrairieLearn's score is
// in [0, 1] with the bank map drawn; Autolab's last line is its scores. And
// the grader's edges: limits and seeds that are not numbers of their kind,
// --impl of a folder.
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>

#include "grader_test.hpp"

namespace {

namespace fs = std::filesystem;
using banklab::test::GraderRun;
using banklab::test::run_grader;
using banklab::test::source_dir;

const std::string kSchema = source_dir() + "/tests/grader/junit.xsd";

std::string tmp(const std::string& name) {
  fs::create_directories(BANKLAB_TEST_TMP);
  return std::string(BANKLAB_TEST_TMP) + "/" + name;
}

// A lab-3 file with a compile error in its kernel.
std::string broken_file() {
  const std::string path = tmp("formats_broken.cu");
  std::ofstream(path) << "__global__ void transpose_padded(float* out, const float* in, int w, int h) { oops; }\n";
  return path;
}

// xmllint --schema junit.xsd on `xml`: 0 when it validates.
int validate_junit(const std::string& xml, const std::string& name) {
  const std::string path = tmp(name);
  std::ofstream(path) << xml;
  return std::system(("xmllint --noout --schema " + kSchema + " " + path + " 2>" + path + ".log").c_str());
}

// JUnit's root counts what its suites count: tests and failures summed.
void check_root_sums(const std::string& xml) {
  const std::regex suite("<testsuite name=\"[^\"]*\" tests=\"(\\d+)\" failures=\"(\\d+)\"");
  long tests = 0, failures = 0, suites = 0;
  for (auto it = std::sregex_iterator(xml.begin(), xml.end(), suite); it != std::sregex_iterator(); ++it) {
    tests += std::stol((*it)[1]);
    failures += std::stol((*it)[2]);
    ++suites;
  }
  INFO(xml);
  CHECK(suites > 0);
  CHECK(xml.find("<testsuites name=\"BankLab\" tests=\"" + std::to_string(tests) + "\" failures=\"" +
                 std::to_string(failures) + "\"") != std::string::npos);
}

std::string last_line(const std::string& text) {
  std::string trimmed = text;
  while (!trimmed.empty() && trimmed.back() == '\n') trimmed.pop_back();
  return trimmed.substr(trimmed.rfind('\n') + 1);
}

const std::string kLab3 = "--lab 3 --backend cpu --seed 1 --time-limit 10 ";

}  // namespace

TEST_CASE("the JUnit schema refuses what CI systems refuse: an exponent in a time, a test without a name") {
  // The schema itself must be able to fail, or validating against it proves nothing.
  CHECK(validate_junit("<testsuites><testsuite name=\"a\" tests=\"1\"><testcase name=\"x\" time=\"6.089e-06\"/>"
                       "</testsuite></testsuites>\n",
                       "junit_exponent.xml") != 0);
  CHECK(validate_junit("<testsuites><testsuite name=\"a\" tests=\"1\"><testcase time=\"0.1\"/></testsuite>"
                       "</testsuites>\n",
                       "junit_unnamed.xml") != 0);
  CHECK(validate_junit("<testsuites><testsuite name=\"a\" tests=\"1\"><testcase name=\"x\" time=\"0.000006\">"
                       "<failure message=\"m\">why</failure></testcase></testsuite></testsuites>\n",
                       "junit_fine.xml") == 0);
}

TEST_CASE("a file that does not build answers in JSON, JUnit, Gradescope, PrairieLearn and Autolab") {
  const std::string impl = "--impl " + broken_file() + " ";
  SUBCASE("json: a report of 0 with the compiler's message") {
    const GraderRun r = run_grader(kLab3 + impl + "--format json");
    CHECK(r.status == 2);
    const auto report = nlohmann::json::parse(r.out);
    CHECK(report["status"] == "does not build");
    CHECK(report["score"] == 0);
    CHECK(report["max_score"] == 90);  // the CPU emulator's points of stage 3
    CHECK(report["skipped_points"] == 20);
    CHECK(report["message"].get<std::string>().find("was not declared") != std::string::npos);
    CHECK(report["checks"].empty());
  }
  SUBCASE("junit: one failed test carrying the message, valid against the schema") {
    const GraderRun r = run_grader(kLab3 + impl + "--format junit");
    CHECK(r.status == 2);
    CHECK(validate_junit(r.out, "junit_broken.xml") == 0);
    CHECK(r.out.find("tests=\"1\" failures=\"1\"") != std::string::npos);
    CHECK(r.out.find("<testsuites name=\"BankLab\" tests=\"1\" failures=\"1\"") != std::string::npos);
    check_root_sums(r.out);
    CHECK(r.out.find("name=\"the file builds\"") != std::string::npos);
    CHECK(r.out.find("<failure message=") != std::string::npos);
    CHECK(r.out.find("was not declared") != std::string::npos);
  }
  SUBCASE("gradescope: score 0 and one failed, visible test with the message") {
    const GraderRun r = run_grader(kLab3 + impl + "--format gradescope");
    CHECK(r.status == 2);
    const auto json = nlohmann::json::parse(r.out);
    CHECK(json["score"] == 0);
    REQUIRE(json["tests"].size() == 1);
    CHECK(json["tests"][0]["status"] == "failed");
    CHECK(json["tests"][0]["max_score"] == 90);
    CHECK(json["tests"][0]["visibility"] == "visible");
    CHECK(json["tests"][0]["output"].get<std::string>().find("was not declared") != std::string::npos);
    // Nothing ran: the points left out are the GPU checks, named as such.
    CHECK(json["output"].get<std::string>().find(
              "lab 3: Score: 0/90 (out of the 90 points checked on the cpu backend; 20 points of GPU checks "
              "skipped); backend cpu, seed 1\n") != std::string::npos);
  }
  SUBCASE("prairielearn: not gradable (no attempt lost), score 0, the message") {
    const GraderRun r = run_grader(kLab3 + impl + "--format prairielearn");
    CHECK(r.status == 2);
    const auto json = nlohmann::json::parse(r.out);
    CHECK(json["gradable"] == false);
    CHECK(json["score"] == 0);
    CHECK(json["message"].get<std::string>().find("was not declared") != std::string::npos);
  }
  SUBCASE("autolab: the report, then the scores line of zeros") {
    const GraderRun r = run_grader(kLab3 + impl + "--format autolab");
    CHECK(r.status == 2);
    CHECK(r.out.find("the file does not build:") != std::string::npos);
    CHECK(r.out.find("Score: 0/90 (out of the 90 points checked on the cpu backend; 20 points of GPU checks skipped)\n") !=
          std::string::npos);
    const auto json = nlohmann::json::parse(last_line(r.out));
    CHECK(json["scores"]["lab3 correctness"] == 0);
    CHECK(json["scoreboard"][0] == 0);
  }
  SUBCASE("text: stdout stays empty, the message is on stderr, as before") {
    const GraderRun r = run_grader(kLab3 + impl);
    CHECK(r.status == 2);
    CHECK(r.out.empty());
    CHECK(r.err.find("was not declared") != std::string::npos);
  }
}

TEST_CASE("a file the source check refuses answers in every format too") {
  const std::string refused = tmp("formats_refused.cu");
  std::ofstream(refused) << "#include <cstdio>\nint main() { std::puts(\"host code\"); }\n";
  const GraderRun json = run_grader(kLab3 + "--impl " + refused + " --format json");
  CHECK(json.status == 2);
  const auto report = nlohmann::json::parse(json.out);
  CHECK(report["status"] == "does not build");
  CHECK(report["message"].get<std::string>().find("main") != std::string::npos);
  const GraderRun junit = run_grader(kLab3 + "--impl " + refused + " --format junit");
  CHECK(validate_junit(junit.out, "junit_refused.xml") == 0);
}

TEST_CASE("JUnit of a graded lab validates against the schema, every time a plain decimal") {
  const GraderRun r = run_grader(kLab3 + "--format junit");
  CHECK(r.status == 1);
  CHECK(validate_junit(r.out, "junit_skeleton.xml") == 0);
  CHECK(r.out.find("e-0") == std::string::npos);
  CHECK(r.out.find("<testsuites name=\"BankLab\" tests=\"16\" failures=\"4\"") != std::string::npos);
  check_root_sums(r.out);
}

TEST_CASE("--list gives each lab's total, and --lab all the sum") {
  const GraderRun one = run_grader("--lab 3 --list");
  CHECK(one.status == 0);
  CHECK(one.out.find("total: 110 points (90 on the CPU emulator, the rest needs a GPU)") != std::string::npos);
  const GraderRun all = run_grader("--lab all --list");
  CHECK(all.status == 0);
  double sum = 0, cpu = 0;
  for (std::size_t at = all.out.find("total: "); at != std::string::npos; at = all.out.find("total: ", at + 1)) {
    sum += std::stod(all.out.substr(at + 7));
    cpu += std::stod(all.out.substr(all.out.find('(', at) + 1));
  }
  std::ostringstream expected;
  expected << "all labs: " << sum << " points (" << cpu << " on the CPU emulator)";
  CHECK(all.out.find(expected.str()) != std::string::npos);
}

TEST_CASE("Gradescope visibility: predictions after the due date, skipped GPU checks hidden, --visibility overrides") {
  const GraderRun r = run_grader(kLab3 + "--format gradescope");
  CHECK(r.status == 1);
  const auto json = nlohmann::json::parse(r.out);
  std::set<std::string> kinds;
  for (const auto& t : json["tests"]) {
    const std::string name = t["name"].get<std::string>();
    INFO(name);
    const bool skipped = t["output"].get<std::string>().rfind("skipped: ", 0) == 0;
    if (skipped) {
      // A Gradescope student can neither run a GPU check nor act on its advice.
      CHECK(t["visibility"] == "hidden");
      CHECK(t["max_score"] == 0);
      CHECK(!t.contains("status"));
    } else if (name.find(": prediction ") != std::string::npos) {
      CHECK(t["visibility"] == "after_due_date");
    } else {
      CHECK(t["visibility"] == "visible");
    }
    kinds.insert(t["visibility"].get<std::string>());
  }
  CHECK(kinds.size() == 3);
  // A part's name (predictions, correctness) sets each of its checks; a
  // name ending in '*' the checks it starts; later settings win.
  const GraderRun changed = run_grader(kLab3 + "--format gradescope --visibility predictions=visible "
                                       "--visibility correctness=hidden --visibility 'transpose of*=after_published'");
  REQUIRE(changed.status == 1);
  const auto changed_json = nlohmann::json::parse(changed.out);  // kept: the loop reads into it
  int predictions = 0, transposes = 0, correctness_hidden = 0;
  for (const auto& t : changed_json["tests"]) {
    const std::string name = t["name"].get<std::string>();
    INFO(name);
    if (name.find(": prediction ") != std::string::npos) {
      CHECK(t["visibility"] == "visible");
      ++predictions;
    } else if (name.rfind("lab 3: transpose of", 0) == 0) {
      CHECK(t["visibility"] == "after_published");
      ++transposes;
    } else if (name == "lab 3: no out-of-bounds memory access") {
      CHECK(t["visibility"] == "hidden");  // the rest of the correctness part
      ++correctness_hidden;
    } else if (t["output"].get<std::string>().rfind("skipped: ", 0) != 0) {
      CHECK(t["visibility"] == "visible");
    }
  }
  CHECK(predictions == 2);
  CHECK(transposes == 4);
  CHECK(correctness_hidden == 1);
  const GraderRun wrong = run_grader(kLab3 + "--format gradescope --visibility predictions=later");
  CHECK(wrong.status == 2);
  CHECK(wrong.err.find("WHEN one of visible, hidden, after_due_date, after_published") != std::string::npos);
}

TEST_CASE("PrairieLearn: score in [0, 1], a test per check that ran, the bank map of a conflict as an SVG image") {
  const GraderRun r =
      run_grader(kLab3 + banklab::test::test_submission(3, "wrong", "conflicted_tile.cu") + " --format prairielearn");
  CHECK(r.status == 1);
  const auto json = nlohmann::json::parse(r.out);
  CHECK(json["gradable"] == true);
  double points = 0, max_points = 0;
  for (const auto& t : json["tests"]) {
    CHECK(t["name"].is_string());
    CHECK(t["message"].is_string());
    points += t["points"].get<double>();
    max_points += t["max_points"].get<double>();
  }
  CHECK(json["tests"].size() == 13);  // the 16 checks less the 3 GPU checks skipped on the CPU
  CHECK(max_points == 90);
  CHECK(json["score"].get<double>() == doctest::Approx(points / max_points));
  CHECK(json["score"].get<double>() >= 0);
  CHECK(json["score"].get<double>() < 1);
  // The tile read's 32-way conflict, drawn.
  REQUIRE(json.contains("images"));
  const std::string url = json["images"][0]["url"].get<std::string>();
  const std::string prefix = "data:image/svg+xml;base64,";
  REQUIRE(url.rfind(prefix, 0) == 0);
  const std::string encoded = tmp("pl_image.b64");
  std::ofstream(encoded) << url.substr(prefix.size());
  const auto svg = banklab::test::run_command("base64 -d " + encoded);
  CHECK(svg.status == 0);
  CHECK(svg.out.find("<svg") != std::string::npos);
  CHECK(json["images"][0]["label"] == "bank map: 32 wavefronts");
}

TEST_CASE("Autolab: the text report, then a last line of scores per part and the scoreboard") {
  const GraderRun r = run_grader(kLab3 + "--format autolab");
  CHECK(r.status == 1);
  CHECK(r.out.find("Score: 60/90") != std::string::npos);
  const auto json = nlohmann::json::parse(last_line(r.out));
  REQUIRE(json["scores"].is_object());
  double sum = 0;
  for (const auto& [part, points] : json["scores"].items()) {
    CHECK(part.rfind("lab3 ", 0) == 0);
    sum += points.get<double>();
  }
  CHECK(sum == 60);
  CHECK(json["scoreboard"] == nlohmann::json::array({60, 90}));
}

TEST_CASE("limits that are not numbers of seconds are refused in words, the range given") {
  for (const char* value : {"1e20", "nan", "inf", "-1", "0", "ten"}) {
    INFO("--time-limit " << value);
    const GraderRun r = run_grader(std::string("--lab 3 --list --time-limit ") + value);
    CHECK(r.status == 2);
    CHECK(r.err.find("give more than 0 and at most 86400 seconds") != std::string::npos);
    CHECK(r.err.find("179769") == std::string::npos);  // no 309-digit number
  }
  const GraderRun memory = run_grader("--lab 3 --list --memory-limit -1");
  CHECK(memory.status == 2);
  CHECK(memory.err.find("give from 0 to 4096 GiB") != std::string::npos);
  CHECK(run_grader("--lab 3 --list --time-limit 0.5").status == 0);
}

TEST_CASE("--seed -5 is refused, not wrapped around to 18446744073709551611") {
  for (const char* value : {"-5", "1.5", "18446744073709551616", "x"}) {
    INFO("--seed " << value);
    const GraderRun r = run_grader(std::string("--lab 3 --list --seed ") + value);
    CHECK(r.status == 2);
    CHECK(r.err.find("is not a seed; give a whole number from 0 to 18446744073709551615") != std::string::npos);
  }
  CHECK(run_grader("--lab 3 --list --seed 18446744073709551615").status == 0);
}

TEST_CASE("--impl of a folder says it is a folder and names the lab's file in it") {
  const fs::path folder = tmp("impl_folder");
  fs::create_directories(folder);
  std::ofstream(folder / "transpose.cu") << "// empty\n";
  const GraderRun r = run_grader("--lab 3 --backend cpu --impl " + folder.string());
  CHECK(r.status == 2);
  CHECK(r.err.find("is a folder; give the lab's file itself: --impl " + (folder / "transpose.cu").string()) !=
        std::string::npos);
  const GraderRun missing = run_grader("--lab 3 --backend cpu --impl " + (folder / "nothing.cu").string());
  CHECK(missing.status == 2);
  CHECK(missing.err.find("no such file") != std::string::npos);
}

TEST_CASE("PrairieLearn's way: the run script grades /grade/student into /grade/results/results.json") {
  const fs::path root = tmp("pl_grade");
  fs::remove_all(root);
  fs::create_directories(root / "student");
  fs::create_directories(root / "tests");
  std::ofstream(root / "tests" / "banklab-lab.txt") << "3\n";
  std::ofstream(root / "tests" / "banklab-file.txt") << "transpose.cu\n";
  const std::string run = "BANKLAB_GRADE_ROOT=" + root.string() + " BANKLAB_GRADER=" + GRADER_PATH + " sh " +
                          source_dir() + "/common/scripts/prairielearn/run";
  auto results = [&] {
    std::ifstream in(root / "results" / "results.json");
    return nlohmann::json::parse(in);
  };
  CHECK(banklab::test::run_command(run + " 2>&1").status == 0);
  CHECK(results()["gradable"] == false);  // nothing submitted
  CHECK(results()["message"].get<std::string>().find("No transpose.cu") != std::string::npos);
  fs::copy_file(source_dir() + "/solutions/03-padded-transpose/transpose.cu", root / "student" / "transpose.cu");
  CHECK(banklab::test::run_command(run + " 2>&1").status == 0);
  CHECK(results()["gradable"] == true);
  CHECK(results()["score"] == 1);
  std::ofstream(root / "student" / "transpose.cu", std::ios::trunc) << "not CUDA\n";
  CHECK(banklab::test::run_command(run + " 2>&1").status == 0);
  CHECK(results()["gradable"] == false);
  CHECK(results()["score"] == 0);
}

TEST_CASE("Autolab's way: make in a folder with the handin and the autograde Makefile, scores on the last line") {
  const fs::path dir = tmp("autolab_vm");
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::copy_file(source_dir() + "/common/scripts/autolab/autograde-Makefile", dir / "Makefile");
  fs::copy_file(source_dir() + "/labs/03-padded-transpose/transpose.cu", dir / "transpose.cu");
  const auto r = banklab::test::run_command("cd " + dir.string() + " && make -s GRADER=" + GRADER_PATH +
                                            " 2>/dev/null");
  INFO(r.out);
  const auto json = nlohmann::json::parse(last_line(r.out));
  CHECK(json["scores"]["lab3 correctness"] == 40);
  CHECK(!json["scores"].contains("lab3 performance"));  // GPU checks only: not scored on the CPU
  CHECK(json["scoreboard"][0] == 60);
  CHECK(r.out.find("Score: 60/90") != std::string::npos);
}

TEST_CASE("PrairieLearn: every bank map drawn shows the wavefronts banksim prints for its command, partial warps too") {
  // The stage-2 skeleton's predictions are all wrong: each message shows the
  // banksim command of its access, P8 and P9 with --lanes (a partial warp).
  const GraderRun r = run_grader("--lab 2 --backend cpu --seed 1 --format prairielearn");
  const auto json = nlohmann::json::parse(r.out);
  int drawn = 0, partial = 0;
  for (const auto& t : json["tests"]) {
    if (!t.contains("images")) continue;
    std::vector<std::string> commands;
    std::istringstream lines(t["message"].get<std::string>());
    for (std::string line; std::getline(lines, line);) {
      const auto at = line.find("banksim --width ");
      if (at == std::string::npos) continue;
      std::string command = line.substr(at + 8);
      while (!command.empty() && (command.back() == ')' || command.back() == ' ')) command.pop_back();
      commands.push_back(command);
    }
    REQUIRE(t["images"].size() <= commands.size());
    for (std::size_t i = 0; i < t["images"].size(); ++i) {
      const auto b = banklab::test::run_command(std::string(BANKSIM_PATH) + " " + commands[i]);
      INFO(t["name"].get<std::string>() << ": banksim " << commands[i] << "\n" << b.out);
      REQUIRE(b.status == 0);
      const auto at = b.out.find("wavefronts: ");
      REQUIRE(at != std::string::npos);
      const std::string wavefronts = b.out.substr(at + 12, b.out.find_first_not_of("0123456789", at + 12) - at - 12);
      CHECK(t["images"][i]["label"] == "bank map: " + wavefronts + " wavefronts");
      ++drawn;
      partial += commands[i].find("--lanes") != std::string::npos;
    }
  }
  CHECK(drawn >= 8);
  CHECK(partial >= 2);
}

TEST_CASE("Gradescope, JUnit, PrairieLearn and Autolab outputs of graded files match their golden files, times masked") {
  // Every status (pass, fail, skip), points, message, visibility and image as
  // each system receives them: the stage-3 skeleton (tile and prediction
  // points lost, GPU checks skipped), a conflicted tile (its bank map) and
  // stage 5's skeleton (wide-type ideals). (A file that does not build has
  // the compiler's words, which depend on its version and locale: the case
  // above reads them.)
  const std::vector<std::pair<std::string, std::string>> files = {
      {"lab03_skeleton", "--lab 3"},
      {"lab03_conflicted_tile", "--lab 3 --impl " + source_dir() + "/tests/grader/lab03/wrong/conflicted_tile.cu"},
      {"lab05_skeleton", "--lab 5"},
  };
  const auto neutral = [](std::string text) {
    text = std::regex_replace(text, std::regex(R"(time="[0-9.]+")"), "time=\"T\"");
    text = std::regex_replace(text, std::regex(R"(\(\d+\.\ds\))"), "(T)");
    text = std::regex_replace(text, std::regex(R"("execution_time": [0-9.e+-]+)"), "\"execution_time\": T");
    text = std::regex_replace(text, std::regex(R"(\nsandbox: [^\n]*)"), "\nsandbox: S");
    text = std::regex_replace(text, std::regex(R"(\nsource check: [^\n]*)"), "");
    text = std::regex_replace(text, std::regex(R"(sandbox: [^\n"<]*)"), "sandbox: S");
    return banklab::test::machine_neutral(text);
  };
  for (const auto& [name, args] : files) {
    for (const std::string format : {"gradescope", "junit", "prairielearn", "autolab"}) {
      CAPTURE(name);
      CAPTURE(format);
      const GraderRun r = run_grader(args + " --backend cpu --seed 1 --time-limit 10 --format " + format);
      CHECK((r.status == 0 || r.status == 1 || r.status == 2));
      banklab::test::check_golden("formats/" + name + "." + format, neutral(r.out));
    }
  }
}

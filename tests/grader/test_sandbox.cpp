// The sandbox around runners and builds (grader/src/sandbox.*): each attack
// of sandbox_probe succeeds when run plainly and fails confined, under
// bubblewrap and under the fallback (uid, Landlock, seccomp).
//
// The attacks are made by a test program driven through the grader's own
// run_process, not by lab files: the source check refuses host code in a
// lab file before the build, and these tests are about what the sandbox
// stops if code gets that far. The end-to-end test at the bottom uses a lab
// file whose attack still builds today.
#include <doctest/doctest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "process.hpp"
#include "run_command.hpp"

namespace fs = std::filesystem;
using banklab::grader::ProcessOptions;
using banklab::grader::ProcessResult;
using banklab::grader::run_process;
using banklab::grader::SandboxMode;
using banklab::grader::SandboxView;

namespace {

const std::string kSource = BANKLAB_SOURCE_DIR;
const std::string kBuild = BANKLAB_BUILD_DIR;
const std::string kProbe = SANDBOX_PROBE_PATH;
const std::string kSolution = kSource + "/solutions/03-padded-transpose/transpose.cu";
// A line of the reference solution that a leak would show.
const std::string kSolutionLine = "__shared__ float tile[TILE_DIM][TILE_DIM + 1];";

// Runs the probe plainly (no confinement) or confined in `mode`, seeing its
// own folder, as a runner sees its cache folder.
ProcessResult probe(const std::vector<std::string>& args, std::optional<SandboxMode> mode) {
  std::vector<std::string> argv = {kProbe};
  argv.insert(argv.end(), args.begin(), args.end());
  ProcessOptions options;
  if (mode) {
    SandboxView view;
    view.read_only = {fs::path(kProbe).parent_path().string()};
    options.sandbox = view;
    options.sandbox_mode = mode;
  }
  ProcessResult r = run_process(argv, 30, options);
  INFO(r.out << r.err);
  CHECK(r.exited);
  return r;
}

bool starts(const std::string& text, const std::string& prefix) { return text.rfind(prefix, 0) == 0; }

int count_lines_starting(const std::string& text, const std::string& prefix) {
  int count = 0;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) count += starts(line, prefix) ? 1 : 0;
  return count;
}

// Whether bubblewrap starts here (not in a container without user namespaces).
bool bubblewrap_works() {
  ProcessOptions options;
  options.sandbox = SandboxView{};
  options.sandbox_mode = SandboxMode::kBubblewrap;
  return run_process({"/usr/bin/true"}, 20, options).ok();
}

std::vector<std::pair<SandboxMode, const char*>> modes() {
  std::vector<std::pair<SandboxMode, const char*>> found;
  if (bubblewrap_works()) {
    found.emplace_back(SandboxMode::kBubblewrap, "bubblewrap");
  } else {
    MESSAGE("bubblewrap cannot start on this machine: only the fallback is tested");
  }
  found.emplace_back(SandboxMode::kFallback, "fallback");
  return found;
}

}  // namespace

TEST_CASE("a confined runner cannot read solutions/") {
  const ProcessResult plain = probe({"read", kSolution}, std::nullopt);
  CHECK(starts(plain.out, "ok read"));
  CHECK(plain.out.find(kSolutionLine) != std::string::npos);
  for (const auto& [mode, name_text] : modes()) {
    const std::string name = name_text;
    INFO(name);
    const ProcessResult r = probe({"read", kSolution}, mode);
    CHECK(starts(r.out, "denied read"));
    CHECK(r.out.find(kSolutionLine) == std::string::npos);
    // nor the grader's build folder (the cache of other runners)
    CHECK(starts(probe({"read", kBuild + "/grader/grader_config.json"}, mode).out, "denied read"));
  }
}

TEST_CASE("a confined runner writes only its scratch folder, which is deleted afterwards") {
  const std::string in_source = kSource + "/tests/grader/sandbox_probe_wrote_this.txt";
  const std::string in_build = kBuild + "/sandbox_probe_wrote_this.txt";
  for (const std::string& target : {in_source, in_build}) {
    INFO(target);
    fs::remove(target);
    CHECK(starts(probe({"write", target}, std::nullopt).out, "ok write"));
    CHECK(fs::exists(target));
    fs::remove(target);
    for (const auto& [mode, name_text] : modes()) {
    const std::string name = name_text;
      INFO(name);
      CHECK(starts(probe({"write", target}, mode).out, "denied write"));
      CHECK(!fs::exists(target));
    }
  }
  // Its working folder is writable, private and gone after the run.
  const fs::path scratch_parent = fs::path(BANKLAB_TEST_TMP) / "sandbox_scratch";
  fs::remove_all(scratch_parent);
  fs::create_directories(scratch_parent);
  const char* old = std::getenv("TMPDIR");
  const std::string saved = old == nullptr ? "" : old;
  setenv("TMPDIR", scratch_parent.c_str(), 1);
  for (const auto& [mode, name_text] : modes()) {
    const std::string name = name_text;
    INFO(name);
    CHECK(starts(probe({"write", "here.txt"}, mode).out, "ok write"));
    CHECK(fs::is_empty(scratch_parent));
  }
  if (old == nullptr) {
    unsetenv("TMPDIR");
  } else {
    setenv("TMPDIR", saved.c_str(), 1);
  }
}

TEST_CASE("a confined runner cannot reach the network") {
  const int listener = socket(AF_INET, SOCK_STREAM, 0);
  REQUIRE(listener >= 0);
  sockaddr_in address = {};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
  REQUIRE(listen(listener, 16) == 0);
  socklen_t size = sizeof address;
  REQUIRE(getsockname(listener, reinterpret_cast<sockaddr*>(&address), &size) == 0);
  const std::string port = std::to_string(ntohs(address.sin_port));
  CHECK(starts(probe({"connect", port}, std::nullopt).out, "ok connect"));
  for (const auto& [mode, name_text] : modes()) {
    const std::string name = name_text;
    INFO(name);
    CHECK(starts(probe({"connect", port}, mode).out, "denied"));
  }
  close(listener);
}

TEST_CASE("a confined runner can make no socket but AF_UNIX: no UDP, netlink or packet socket") {
  // Landlock (the fallback) stops TCP connects only, a network namespace
  // (bubblewrap) routes nowhere: the seccomp filter is what refuses these.
  CHECK(starts(probe({"sockets"}, std::nullopt).out, "ok sockets udp"));
  for (const auto& [mode, name_text] : modes()) {
    const std::string name = name_text;
    INFO(name);
    CHECK(starts(probe({"sockets"}, mode).out, "denied sockets"));
  }
}

TEST_CASE("a confined runner's system calls past its process are refused: io_uring, keys, kcmp, bpf, perf, typing into a terminal, ...") {
  // Unconfined, the probe's harmless calls reach the kernel here (io_uring
  // could submit opens and sockets the filter never sees; a machine that
  // refuses some already, a container's own filter, shows fewer); confined,
  // every one is refused with EPERM.
  const std::string plain = probe({"syscalls"}, std::nullopt).out;
  CHECK(std::count(plain.begin(), plain.end(), '\n') == 15);
  MESSAGE("unconfined, the kernel ran " << count_lines_starting(plain, "reached") << " of the 15 calls");
  for (const auto& [mode, name_text] : modes()) {
    const std::string name = name_text;
    INFO(name);
    const std::string confined = probe({"syscalls"}, mode).out;
    CHECK(count_lines_starting(confined, "denied") == 15);
  }
}

TEST_CASE("a confined runner cannot see another process, trace one or make namespaces") {
  const std::string me = std::to_string(getpid());  // the test: not the probe's
  CHECK(starts(probe({"proc", me}, std::nullopt).out.substr(probe({"proc", me}, std::nullopt).out.find('\n') + 1),
               "ok read"));
  CHECK(starts(probe({"ptrace"}, std::nullopt).out, "ok ptrace"));
  CHECK(starts(probe({"unshare"}, std::nullopt).out, "ok unshare"));
  CHECK(starts(probe({"clone"}, std::nullopt).out, "ok clone"));
  for (const auto& [mode, name_text] : modes()) {
    const std::string name = name_text;
    INFO(name);
    const std::string seen = probe({"proc", me}, mode).out;
    CHECK(seen.find("denied read /proc/" + me) != std::string::npos);
    if (mode == SandboxMode::kBubblewrap) {
      // its own PID namespace: bubblewrap's init and the probe
      CHECK(seen.find("processes listed 2\n") != std::string::npos);
    } else {
      CHECK(seen.find("processes listed 0\n") != std::string::npos);  // Landlock: /proc/self only
    }
    CHECK(starts(probe({"ptrace"}, mode).out, "denied ptrace"));
    CHECK(starts(probe({"unshare"}, mode).out, "denied unshare"));
    // clone(CLONE_NEWUSER) makes the same namespace where unshare is refused.
    CHECK(starts(probe({"clone"}, mode).out, "denied clone"));
  }
}

// Whether a process whose command line holds `marker` is alive.
bool running(const std::string& marker) {
  for (const auto& entry : fs::directory_iterator("/proc")) {
    std::ifstream in(entry.path() / "cmdline");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (text.find(marker) != std::string::npos && text.find("sleeping") != std::string::npos) return true;
  }
  return false;
}

TEST_CASE("a confined runner's detached child ends with the run") {
  banklab::grader::adopt_orphans();  // as the grader does; the fallback relies on it
  for (const auto& [mode, name_text] : modes()) {
    const std::string name = name_text;
    INFO(name);
    const std::string marker = "banklab-marker-" + name + std::to_string(getpid());
    CHECK(starts(probe({"detach", marker}, mode).out, "ok detach"));
    CHECK(!running(marker));
  }
}

TEST_CASE("what the emulator needs still works confined: threads, timers, the affinity mask") {
  CHECK(starts(probe({"threads"}, std::nullopt).out, "ok threads 42"));
  for (const auto& [mode, name_text] : modes()) {
    const std::string name = name_text;
    INFO(name);
    CHECK(starts(probe({"threads"}, mode).out, "ok threads 42"));
  }
}

TEST_CASE("a confined runner has the character devices its libraries read: null, zero, full, random, urandom") {
  // std::random_device, the C library and the CUDA runtime open these; a
  // runner without them fails in ways that are no fault of the submission.
  for (const auto& [mode, name_text] : modes()) {
    const std::string name = name_text;
    INFO(name);
    const ProcessResult r = probe({"devices"}, mode);
    CHECK(r.exit_code == 0);
    for (const std::string device : {"/dev/null 0", "/dev/zero 16", "/dev/full 16", "/dev/random 16", "/dev/urandom 16"})
      CHECK(r.out.find("ok device " + device + "\n") != std::string::npos);
    CHECK(r.out.find("ok write /dev/full ENOSPC\n") != std::string::npos);
    CHECK(r.out.find("ok urandom differs\n") != std::string::npos);
  }
}

TEST_CASE("a lab file that prints the reference solution from a static constructor gets nothing of it") {
  // tests/grader/hostile/transpose_reads_solution.cu reads the solution in
  // host code (which builds today; once the source check refuses host code
  // the file does not build, and the tests above carry the sandbox).
  const std::string file = kSource + "/tests/grader/hostile/transpose_reads_solution.cu";
  auto grade = [&](const std::string& sandbox) {
    const auto r = banklab::test::run_command("BANKLAB_SANDBOX=" + sandbox + " " +
                                              GRADER_PATH + " --lab 3 --backend cpu --seed 1 --format json --impl " +
                                              file + " 2>&1");
    return r.out;
  };
  const std::string plain = grade("off");
  // The source check refuses host code before any build: then only the
  // confined runs are left to show that nothing leaks.
  const bool builds = plain.find("does not build") == std::string::npos && plain.find("refused before the build") == std::string::npos;
  if (builds) {
    CHECK(plain.find("leaked:") != std::string::npos);  // unconfined, the leak works
    CHECK(plain.find(kSolutionLine) != std::string::npos);
  } else {
    MESSAGE("the source check refuses the file: its unconfined leak is not shown");
  }
  for (const char* mode : {"bubblewrap", "fallback"}) {
    if (std::string(mode) == "bubblewrap" && !bubblewrap_works()) continue;
    INFO(mode);
    const std::string confined = grade(mode);
    CHECK(confined.find("leaked:") == std::string::npos);
    CHECK(confined.find(kSolutionLine) == std::string::npos);
    if (builds) CHECK(confined.find("cannot read the solution") != std::string::npos);
  }
}

namespace {

// The stage 3 bundle unpacked as Gradescope unpacks it, in a folder the
// test lays out as /autograder (BANKLAB_AUTOGRADER_ROOT).
fs::path unpacked_bundle() {
  const fs::path work = fs::path(BANKLAB_TEST_TMP) / "gradescope_sandbox";
  fs::remove_all(work);
  fs::create_directories(work / "autograder" / "source");
  const auto made = banklab::test::run_command("sh " + kSource + "/common/scripts/gradescope/make_bundle.sh 3 " +
                                               work.string() + " 2>&1");
  INFO(made.out);
  REQUIRE(made.status == 0);
  REQUIRE(banklab::test::run_command("cd " + (work / "autograder" / "source").string() + " && cmake -E tar xf " +
                                     (work / "banklab-lab3-gradescope.zip").string())
              .status == 0);
  return work / "autograder";
}

// A hostile file with the test's autograder folder written in.
std::string hostile_for(const std::string& name, const fs::path& root) {
  std::ifstream in(kSource + "/tests/grader/hostile/" + name);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (auto at = text.find("@AUTOGRADER_ROOT@"); at != std::string::npos; at = text.find("@AUTOGRADER_ROOT@"))
    text.replace(at, 17, root.string());
  const std::string path = std::string(BANKLAB_TEST_TMP) + "/gradescope_" + name;
  std::ofstream(path) << text;
  return path;
}

// run_autograder on one file; results.json.
nlohmann::json autograde(const fs::path& root, const std::string& file, const std::string& sandbox) {
  fs::remove_all(root / "submission");
  fs::remove_all(root / "results");
  fs::create_directories(root / "submission");
  fs::copy_file(file, root / "submission" / "transpose.cu");
  const auto r = banklab::test::run_command("BANKLAB_SANDBOX=" + sandbox + " BANKLAB_AUTOGRADER_ROOT=" +
                                            root.string() + " BANKLAB_GRADER=" + GRADER_PATH + " sh " +
                                            (root / "source" / "run_autograder").string() + " 2>/dev/null");
  CHECK(r.status == 0);
  std::ifstream in(root / "results" / "results.json");
  REQUIRE(in.good());
  return nlohmann::json::parse(in);
}

std::string confined_mode() { return bubblewrap_works() ? "bubblewrap" : "fallback"; }

}  // namespace

TEST_CASE("the Gradescope bundle holds no reference solutions") {
  const fs::path root = unpacked_bundle();
  CHECK(fs::exists(root / "source" / "banklab" / "grader" / "src" / "main.cpp"));
  CHECK(fs::exists(root / "source" / "banklab" / "labs" / "03-padded-transpose" / "transpose.cu"));
  CHECK(!fs::exists(root / "source" / "banklab" / "solutions"));
}

TEST_CASE("on Gradescope a submission cannot replace results.json") {
  const fs::path root = unpacked_bundle();
  const std::string forger = hostile_for("transpose_forges_results.cu", root);
  // Unconfined, the constructor reaches the results folder.
  const auto plain = autograde(root, forger, "off");
  // Unless the source check refuses its host code before the build.
  const bool refused = plain.dump().find("refused before the build") != std::string::npos;
  CHECK(fs::exists(root / "results" / "forged-by-submission") != refused);
  for (const std::string mode : {confined_mode(), std::string("fallback")}) {
    INFO(mode);
    const auto report = autograde(root, forger, mode);
    CHECK(report["score"] == (refused ? 0 : 60));  // the lab file's honest grade
    if (!refused) CHECK(report["output"].get<std::string>().find("Your code ran in a sandbox: ") != std::string::npos);
    CHECK(!fs::exists(root / "results" / "forged-by-submission"));
    CHECK(!fs::exists(root / "results" / "forged.json"));
  }
  (void)plain;
}

TEST_CASE("on Gradescope a submission cannot read the bundle") {
  const fs::path root = unpacked_bundle();
  const std::string reader = hostile_for("transpose_reads_bundle.cu", root);
  auto feedback = [](const nlohmann::json& report) {
    std::string all = report["output"].get<std::string>();
    for (const auto& test : report["tests"]) all += test["output"].get<std::string>();
    return all;
  };
  const auto plain = autograde(root, reader, "off");
  // Unless the source check refuses its host code before the build.
  const bool refused = plain.dump().find("refused before the build") != std::string::npos;
  CHECK((refused || feedback(plain).find("leaked: // grader:") != std::string::npos));
  for (const std::string mode : {confined_mode(), std::string("fallback")}) {
    INFO(mode);
    const auto report = autograde(root, reader, mode);
    CHECK(report["score"] == 0);  // it crashes: every check fails
    CHECK(feedback(report).find("leaked:") == std::string::npos);
    if (!refused) CHECK(feedback(report).find("cannot read the bundle") != std::string::npos);
  }
}

TEST_CASE("a compile cannot include solutions/, even from a file whose folder holds it") {
  // A lab file in the kit's top folder: the source check takes files of its
  // own folder for its own includes, so only the sandbox (which shows
  // solutions/ and build/ empty below that folder) stops the include.
  const std::string file = kSource + "/sandbox_test_includes_solution.cu";
  std::ofstream(file) << "#include \"solutions/03-padded-transpose/transpose.cu\"\n// " << getpid() << "\n";
  auto grade = [&](const std::string& sandbox) {
    return banklab::test::run_command("BANKLAB_SANDBOX=" + sandbox + " " + GRADER_PATH +
                                      " --lab 3 --backend cpu --seed 1 --impl " + file + " 2>&1");
  };
  // Confined first: an unconfined build would be in the cache for them.
  for (const std::string mode : {confined_mode(), std::string("fallback")}) {
    INFO(mode);
    const auto r = grade(mode);
    INFO(r.out);
    CHECK(r.status == 2);
    // bubblewrap shows an empty solutions/ (the source check then names the
    // hidden file); Landlock refuses the open
    CHECK((r.out.find("solutions/03-padded-transpose/transpose.cu, which the build of a lab file does not see") !=
               std::string::npos ||
           r.out.find("solutions/03-padded-transpose/transpose.cu: Permission denied") != std::string::npos));
  }
  const auto plain = grade("off");
  // Unconfined, it compiles the solution (and the source check reads it as the file's own code).
  CHECK((plain.out.find("Score: 90/90") != std::string::npos || plain.out.find("refused before the build") != std::string::npos));
  fs::remove(file);
}

TEST_CASE("a lab file in a private folder (mktemp -d) builds confined with the header beside it, and messages name its own path") {
  // mkdtemp's folder is 0700: with a root grader the sandbox's uid cannot
  // enter it, so bubblewrap shows a copy at the same path. The header is
  // 0600 as well.
  std::string pattern = std::string(BANKLAB_TEST_TMP) + "/private-XXXXXX";
  fs::create_directories(BANKLAB_TEST_TMP);
  REQUIRE(mkdtemp(pattern.data()) != nullptr);
  const fs::path dir = pattern;
  std::string text;
  {
    std::ifstream in(kSolution);
    std::ostringstream all;
    all << in.rdbuf();
    text = all.str();
  }
  const std::string tile = "__shared__ float tile[TILE_DIM][TILE_DIM + 1];";
  REQUIRE(text.find(tile) != std::string::npos);
  text.replace(text.find(tile), tile.size(), "__shared__ float tile[TILE_DIM][TILE_DIM + kTilePad];");
  const fs::path file = dir / "transpose.cu", header = dir / "tile_pad.cuh";
  std::ofstream(file) << "#include \"tile_pad.cuh\"\n" << text;
  auto write_header = [&](const std::string& body) {
    std::ofstream(header) << "#pragma once\n" << body << "\n";
    fs::permissions(header, fs::perms::owner_read | fs::perms::owner_write);
  };
  auto grade = [&](const std::string& sandbox) {
    return banklab::test::run_command("BANKLAB_SANDBOX=" + sandbox + " " + GRADER_PATH +
                                      " --lab 3 --backend cpu --seed 1 --impl " + file.string() + " 2>&1");
  };
  write_header("constexpr int kTilePad = 1;");
  const auto confined = grade(confined_mode());
  INFO(confined.out);
  CHECK(confined.status == 0);
  CHECK(confined.out.find("Score: 90/90") != std::string::npos);
  CHECK(confined.out.find("banklab-stage-") == std::string::npos);

  // A mistake in the header: the compiler's message names the header where the student keeps it.
  write_header("constexpr int kTilePad = ;");
  const auto broken = grade(confined_mode());
  INFO(broken.out);
  CHECK(broken.status == 2);
  CHECK(broken.out.find(header.string() + ":2") != std::string::npos);
  CHECK(broken.out.find("banklab-stage-") == std::string::npos);
  CHECK(broken.out.find("could not be checked") == std::string::npos);

  if (geteuid() == 0) {
    // The fallback has no mount namespace to show a copy in: it says what to
    // do, and does not blame the file or nvcc (a header not graded before:
    // nothing comes from the cache).
    write_header("constexpr int kTilePad = 1;  // fallback");
    const auto fallback = grade("fallback");
    INFO(fallback.out);
    CHECK(fallback.status == 2);
    CHECK(fallback.out.find(dir.string() + " cannot be read by the sandbox's user (uid 65534)") != std::string::npos);
    CHECK(fallback.out.find("put it in a folder others can read") != std::string::npos);
    CHECK(fallback.out.find("does not build") == std::string::npos);
    CHECK(fallback.out.find("fix the error above") == std::string::npos);
  }
  fs::remove_all(dir);
}

// The runtime limits every runner runs under (grader/src/process.cpp, the
// options GradeContext::call sets): a fork loop, a runaway allocation, an
// endless loop, a huge file and a detached child are each stopped, plainly
// and under both confinements. The lab files that used to test them
// (tests/grader/lab03/hostile/fork_loop.cu, memory_hog.cu, detached_child.cu)
// are refused by the source check before they run, so these attacks come
// from sandbox_probe, driven through run_process as a runner is.
#include <doctest/doctest.h>

#include <signal.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "process.hpp"

namespace fs = std::filesystem;
using banklab::grader::ProcessOptions;
using banklab::grader::ProcessResult;
using banklab::grader::run_process;
using banklab::grader::SandboxMode;
using banklab::grader::SandboxView;

namespace {

const std::string kProbe = SANDBOX_PROBE_PATH;

// The limits of a runner (GradeContext::call: 32 processes, a file size
// limit) with a memory limit of 64 MiB and 3 seconds, small enough for a test.
ProcessOptions runner_limits(std::optional<SandboxMode> mode) {
  ProcessOptions options;
  options.memory_bytes = std::size_t{64} << 20;
  options.file_bytes = std::size_t{8} << 20;
  options.max_processes = 32;
  if (mode) {
    SandboxView view;
    view.read_only = {fs::path(kProbe).parent_path().string()};
    options.sandbox = view;
    options.sandbox_mode = mode;
  }
  return options;
}

ProcessResult probe(const std::vector<std::string>& args, std::optional<SandboxMode> mode, double seconds = 3) {
  std::vector<std::string> argv = {kProbe};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_process(argv, seconds, runner_limits(mode));
}

std::vector<std::pair<std::optional<SandboxMode>, const char*>> modes() {
  std::vector<std::pair<std::optional<SandboxMode>, const char*>> found = {{std::nullopt, "unconfined"}};
  ProcessOptions options;
  options.sandbox = SandboxView{};
  options.sandbox_mode = SandboxMode::kBubblewrap;
  if (run_process({"/usr/bin/true"}, 20, options).ok()) {
    found.emplace_back(SandboxMode::kBubblewrap, "bubblewrap");
  } else {
    MESSAGE("bubblewrap cannot start on this machine: the fallback and the plain run are tested");
  }
  found.emplace_back(SandboxMode::kFallback, "fallback");
  return found;
}

bool printed_ok(const ProcessResult& r) { return r.out.find("ok ") != std::string::npos; }

}  // namespace

TEST_CASE("a fork loop is stopped at the runner's 32 processes") {
  banklab::grader::adopt_orphans();
  for (const auto& [mode, name] : modes()) {
    INFO(name);
    const ProcessResult r = probe({"fork-loop"}, mode, 20);
    INFO(r.out << r.err);
    CHECK(r.too_many_processes);
    CHECK(!printed_ok(r));
    CHECK(!r.timed_out);
    CHECK(r.describe(20).find("32") != std::string::npos);
  }
}

TEST_CASE("a runner killed by a signal is described by the signal's number and name") {
  // What a student reads when the kernel's code crashes the runner.
  for (const auto& [mode, name] : modes()) {
    INFO(name);
    for (const auto& [signal, text] : {std::pair{SIGSEGV, "killed by signal 11 (Segmentation fault)"},
                                       std::pair{SIGABRT, "killed by signal 6 (Aborted)"},
                                       std::pair{SIGFPE, "killed by signal 8 (Floating point exception)"}}) {
      const ProcessResult r = probe({"raise", std::to_string(signal)}, mode, 20);
      INFO(r.out << r.err);
      CHECK(r.signal == signal);
      CHECK(!r.ok());
      CHECK(r.describe(20) == text);
    }
  }
}

TEST_CASE("a runner may start 31 processes in every confinement: the sandbox's own do not count against its 32") {
  for (const auto& [mode, name] : modes()) {
    INFO(name);
    const ProcessResult few = probe({"fork", "30"}, mode, 20);  // 31 processes with the probe itself
    INFO(few.out << few.err);
    CHECK(!few.too_many_processes);
    CHECK(few.out.find("ok fork 30") != std::string::npos);
    const ProcessResult many = probe({"fork", "40"}, mode, 20);
    INFO(many.out << many.err);
    CHECK(many.too_many_processes);
  }
}

TEST_CASE("an allocation past the memory limit is stopped") {
  for (const auto& [mode, name] : modes()) {
    INFO(name);
    const ProcessResult r = probe({"hog", "512"}, mode, 20);
    INFO(r.out << r.err);
    CHECK(r.out_of_memory);
    CHECK(!printed_ok(r));
    CHECK(!r.timed_out);
  }
}

TEST_CASE("an endless loop is stopped at the time limit") {
  for (const auto& [mode, name] : modes()) {
    INFO(name);
    const ProcessResult r = probe({"spin", "15"}, mode, 1);
    INFO(r.out << r.err);
    CHECK(r.timed_out);
    CHECK(!printed_ok(r));
    CHECK(r.seconds < 10);
  }
}

TEST_CASE("a file past the size limit is not written") {
  for (const auto& [mode, name] : modes()) {
    INFO(name);
    const ProcessResult r = probe({"big-file", "64"}, mode, 20);
    fs::remove("big-file.bin");  // unconfined, the probe writes in our own folder (confined, in its scratch)
    INFO(r.out << r.err);
    CHECK(!printed_ok(r));
    CHECK(!r.ok());
  }
}

TEST_CASE("a child that leaves the session with setsid() ends with the run, unconfined too") {
  banklab::grader::adopt_orphans();  // as the grader does
  for (const auto& [mode, name] : modes()) {
    INFO(name);
    const std::string marker = std::string("banklab-limits-") + name + std::to_string(getpid());
    const ProcessResult r = probe({"detach", marker}, mode, 20);
    INFO(r.out << r.err);
    CHECK(printed_ok(r));
    // Nothing runs with the marker on its command line any more.
    bool found = false;
    for (const auto& entry : fs::directory_iterator("/proc")) {
      std::ifstream cmdline(entry.path() / "cmdline");
      std::string text((std::istreambuf_iterator<char>(cmdline)), std::istreambuf_iterator<char>());
      if (text.find(marker) != std::string::npos) found = true;
    }
    CHECK(!found);
  }
}

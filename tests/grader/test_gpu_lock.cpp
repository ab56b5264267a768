// The per-GPU lock (grader/src/gpu_lock.*), without a GPU: worker processes
// that take the lock of one fake GPU never hold it at the same time (their
// log's intervals are disjoint), workers on two fake GPUs do overlap, and
// CUDA_VISIBLE_DEVICES values split as CUDA reads them.
#include <doctest/doctest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "gpu_lock.hpp"
#include "process.hpp"

namespace {

namespace fs = std::filesystem;
using banklab::grader::GpuLock;

struct Hold {
  std::string key;
  long long pid = 0, start = 0, end = 0;
};

// Runs `workers` processes; worker w takes the lock of keys[w] `rounds`
// times, holding it `hold_ms` each; returns the log's holds.
std::vector<Hold> run_workers(const std::vector<std::string>& keys, int rounds, int hold_ms, const std::string& name) {
  const fs::path dir = fs::path(BANKLAB_TEST_TMP) / ("gpu_lock_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string log = (dir / "holds.log").string();
  setenv("BANKLAB_GPU_LOCK_DIR", (dir / "locks").c_str(), 1);
  setenv("BANKLAB_GPU_LOCK_LOG", log.c_str(), 1);
  std::vector<pid_t> children;
  for (const std::string& key : keys) {
    const pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      for (int r = 0; r < rounds; ++r) {
        const GpuLock turn(key, "test round " + std::to_string(r));
        std::this_thread::sleep_for(std::chrono::milliseconds(hold_ms));
      }
      _exit(0);
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    waitpid(pid, &status, 0);
    CHECK(WIFEXITED(status));
  }
  unsetenv("BANKLAB_GPU_LOCK_LOG");
  unsetenv("BANKLAB_GPU_LOCK_DIR");
  std::vector<Hold> holds;
  std::ifstream in(log);
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    Hold h;
    fields >> h.key >> h.pid >> h.start >> h.end;
    REQUIRE_MESSAGE(fields, "log line: " << line);
    holds.push_back(h);
  }
  return holds;
}

// Whether any two holds of `key` overlap in time.
bool any_overlap(std::vector<Hold> holds) {
  std::sort(holds.begin(), holds.end(), [](const Hold& a, const Hold& b) { return a.start < b.start; });
  for (std::size_t i = 1; i < holds.size(); ++i) {
    if (holds[i].start < holds[i - 1].end) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("four workers on one fake GPU never hold its lock at the same time (the log's intervals are disjoint)") {
  const std::vector<Hold> holds = run_workers({"fake0", "fake0", "fake0", "fake0"}, 3, 60, "one_gpu");
  REQUIRE(holds.size() == 12);
  CHECK_FALSE(any_overlap(holds));
  // Each hold lasted its sleep: the lock was really held, not skipped.
  for (const Hold& h : holds) CHECK(h.end - h.start >= 60000);
  // Twelve holds of 60 ms one after another: at least 720 ms from first to last.
  long long first = holds[0].start, last = holds[0].end;
  for (const Hold& h : holds) first = std::min(first, h.start), last = std::max(last, h.end);
  CHECK(last - first >= 12 * 60000);
}

TEST_CASE("workers on two fake GPUs do overlap: the lock is per GPU, and the overlap test sees an overlap") {
  const std::vector<Hold> holds = run_workers({"fake0", "fake1"}, 3, 150, "two_gpus");
  REQUIRE(holds.size() == 6);
  CHECK(any_overlap(holds));
  std::vector<Hold> gpu0, gpu1;
  for (const Hold& h : holds) (h.key == "fake0" ? gpu0 : gpu1).push_back(h);
  CHECK(gpu0.size() == 3);
  CHECK(gpu1.size() == 3);
  CHECK_FALSE(any_overlap(gpu0));
  CHECK_FALSE(any_overlap(gpu1));
}

TEST_CASE("CUDA_VISIBLE_DEVICES splits as CUDA reads it") {
  using banklab::grader::split_visible_devices;
  CHECK(split_visible_devices("0,1,2") == std::vector<std::string>{"0", "1", "2"});
  CHECK(split_visible_devices(" GPU-ab12 , GPU-cd34") == std::vector<std::string>{"GPU-ab12", "GPU-cd34"});
  CHECK(split_visible_devices("").empty());
  CHECK(split_visible_devices("-1").empty());
  CHECK(split_visible_devices("NoDevFiles").empty());
  CHECK(split_visible_devices("2,-1,3") == std::vector<std::string>{"2"});
}

TEST_CASE("the lock of CUDA_VISIBLE_DEVICES's first GPU is the one a grader takes") {
  // Without nvidia-smi (CI) the entry itself names the lock.
  if (std::system("nvidia-smi -L >/dev/null 2>&1") == 0) {
    MESSAGE("nvidia-smi answers here: the key is the GPU's UUID, not checked against the entry");
    return;
  }
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    setenv("CUDA_VISIBLE_DEVICES", "GPU-fake-3,GPU-fake-4", 1);
    _exit(banklab::grader::gpu_lock_key() == "GPU-fake-3" ? 0 : 1);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
}

TEST_CASE("a child's environment gets the settings a batch worker adds (its CUDA_VISIBLE_DEVICES)") {
  banklab::grader::ProcessOptions options;
  options.environment = {"CUDA_VISIBLE_DEVICES=GPU-worker-2"};
  const auto r = banklab::grader::run_process({"/bin/sh", "-c", "echo \"$CUDA_VISIBLE_DEVICES\""}, 10, options);
  REQUIRE(r.ok());
  CHECK(r.out == "GPU-worker-2\n");
  const auto plain = banklab::grader::run_process({"/bin/sh", "-c", "echo \"${CUDA_VISIBLE_DEVICES-unset}\""}, 10);
  CHECK(plain.out == (std::getenv("CUDA_VISIBLE_DEVICES") ? std::string(std::getenv("CUDA_VISIBLE_DEVICES")) : "unset") + "\n");
}

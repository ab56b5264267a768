// The per-GPU lock and the node's GPUs (gpu_lock.hpp).
#include "gpu_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "process.hpp"

namespace banklab::grader {

namespace {

long long now_us() {
  return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string trim(const std::string& text) {
  const std::size_t a = text.find_first_not_of(" \t\r\n");
  if (a == std::string::npos) return "";
  return text.substr(a, text.find_last_not_of(" \t\r\n") - a + 1);
}

bool all_digits(const std::string& text) {
  return !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
}

// nvidia-smi's UUID lines for `args`, or none where it is missing or fails.
std::vector<std::string> nvidia_smi_uuids(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {"nvidia-smi", "--query-gpu=uuid", "--format=csv,noheader"};
  argv.insert(argv.end(), args.begin(), args.end());
  const ProcessResult r = run_process(argv, 20);
  std::vector<std::string> uuids;
  if (!r.ok()) return uuids;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) {
    line = trim(line);
    if (line.rfind("GPU-", 0) == 0) uuids.push_back(line);
  }
  return uuids;
}

}  // namespace

std::vector<std::string> split_visible_devices(const std::string& value) {
  std::vector<std::string> entries;
  std::istringstream in(value);
  for (std::string entry; std::getline(in, entry, ',');) {
    entry = trim(entry);
    if (entry.empty()) continue;
    // CUDA stops at the first entry that names no device.
    if (entry == "-1" || entry == "NoDevFiles") break;
    entries.push_back(entry);
  }
  return entries;
}

std::string gpu_lock_key() {
  static const std::string key = [] {
  const char* visible = std::getenv("CUDA_VISIBLE_DEVICES");
  const std::vector<std::string> entries = split_visible_devices(visible != nullptr ? visible : "");
  const std::string first = visible != nullptr && !entries.empty() ? entries[0] : "0";
  if (all_digits(first)) {
    const std::vector<std::string> uuid = nvidia_smi_uuids({"-i", first});
    if (uuid.size() == 1) return uuid[0];
  }
  return first;
  }();
  return key;
}

std::string gpu_lock_dir() {
  if (const char* dir = std::getenv("BANKLAB_GPU_LOCK_DIR"); dir != nullptr && *dir != '\0') return dir;
  return "/tmp/banklab-gpu-locks";
}

GpuLock::GpuLock(const std::string& key, std::string what) : key_(key), what_(std::move(what)) {
  const std::string dir = gpu_lock_dir();
  if (mkdir(dir.c_str(), 0777) == 0) chmod(dir.c_str(), 01777);  // as /tmp: shared, sticky
  std::string name;
  for (char c : key_) name += std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' ? c : '_';
  const std::string path = dir + "/gpu-" + name + ".lock";
  fd_ = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  if (fd_ < 0) {
    static bool said = false;
    if (!said) {
      std::cerr << "grader: warning: cannot open the GPU lock " << path << ": " << std::strerror(errno)
                << "; timing without it (another grader on this GPU would disturb the timings; set "
                   "BANKLAB_GPU_LOCK_DIR to a writable folder)\n";
      said = true;
    }
    return;
  }
  fchmod(fd_, 0666);  // graders of other users lock the same file
  while (flock(fd_, LOCK_EX) != 0 && errno == EINTR) {
  }
  start_us_ = now_us();
}

GpuLock::~GpuLock() {
  if (fd_ < 0) return;
  const long long end_us = now_us();
  if (const char* log = std::getenv("BANKLAB_GPU_LOCK_LOG"); log != nullptr && *log != '\0') {
    // One write of one line with O_APPEND: lines of several graders never mix.
    std::ostringstream line;
    line << key_ << ' ' << getpid() << ' ' << start_us_ << ' ' << end_us << ' ' << what_ << '\n';
    const std::string text = line.str();
    const int out = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
    if (out >= 0) {
      [[maybe_unused]] const ssize_t written = write(out, text.data(), text.size());
      close(out);
    }
  }
  flock(fd_, LOCK_UN);
  close(fd_);
}

std::vector<std::string> node_gpus() {
  if (const char* visible = std::getenv("CUDA_VISIBLE_DEVICES"); visible != nullptr)
    return split_visible_devices(visible);
  return nvidia_smi_uuids({});
}

}  // namespace banklab::grader

// fork/exec with pipes, a deadline, a memory watchdog, a process-group kill
// and the reaping of whatever detached from the group.
#include "process.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <mutex>
#include <set>

namespace banklab::grader {

namespace {

// Resident memory of a process in bytes (0 if it is gone).
std::size_t resident_bytes(pid_t pid) {
  std::ifstream statm("/proc/" + std::to_string(pid) + "/statm");
  std::size_t size = 0, resident = 0;
  if (!(statm >> size >> resident)) return 0;
  return resident * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
}

// `root` and its descendants (threads are not counted), from
// /proc/<pid>/task/<tid>/children; at most `stop_after` + 1 of them.
std::vector<pid_t> process_tree(pid_t root, int stop_after) {
  std::vector<pid_t> pending = {root}, found;
  while (!pending.empty() && static_cast<int>(found.size()) <= stop_after) {
    const pid_t pid = pending.back();
    pending.pop_back();
    found.push_back(pid);
    const std::string tasks = "/proc/" + std::to_string(pid) + "/task";
    DIR* dir = opendir(tasks.c_str());
    if (dir == nullptr) continue;
    while (dirent* entry = readdir(dir)) {
      if (entry->d_name[0] == '.') continue;
      std::ifstream children(tasks + "/" + entry->d_name + "/children");
      pid_t child = 0;
      while (children >> child) pending.push_back(child);
    }
    closedir(dir);
  }
  return found;
}

// Resident memory of a process tree in bytes: a sandboxed program runs
// below bubblewrap's two processes, and a forked child counts too.
std::size_t tree_resident_bytes(pid_t root) {
  std::size_t total = 0;
  for (const pid_t pid : process_tree(root, 1000)) total += resident_bytes(pid);
  return total;
}

// The environment of a confined process: nothing of the grader's but the
// search path, the locale and what the GPU driver reads.
std::vector<std::string> confined_environment(const ProcessOptions& options, const std::string& scratch,
                                              SandboxMode mode) {
  std::vector<std::string> env;
  for (const char* name : {"PATH", "LANG", "LC_ALL"}) {
    if (const char* value = std::getenv(name)) env.push_back(std::string(name) + "=" + value);
  }
  if (options.sandbox->gpu) {
    for (const char* name : {"CUDA_VISIBLE_DEVICES", "NVIDIA_VISIBLE_DEVICES", "NVIDIA_DRIVER_CAPABILITIES",
                             "LD_LIBRARY_PATH", "CUDA_HOME"}) {
      if (const char* value = std::getenv(name)) env.push_back(std::string(name) + "=" + value);
    }
  }
  const bool inside = mode == SandboxMode::kBubblewrap;  // the scratch folder is /scratch there
  env.push_back("HOME=" + (inside ? std::string("/scratch") : scratch));
  // The private scratch folder, not /tmp: a lab file kept in /tmp has its
  // folder shown read-only over the sandbox's own /tmp (compile_view).
  env.push_back("TMPDIR=" + (inside ? std::string("/scratch") : scratch));
  for (const std::string& setting : options.environment) env.push_back(setting);
  if (options.answer_channel) env.push_back("BANKLAB_ANSWER_FD=3");
  if (!options.secret.empty()) env.push_back("BANKLAB_SECRET_FD=4");
  return env;
}

// The children run_process started and has not reaped yet (several run at
// once in batch grading): never taken for orphans.
std::mutex g_live_mutex;
std::set<pid_t> g_live;

// Our children that run_process did not start: orphans adopted from a
// finished check (we are their subreaper).
std::vector<pid_t> children(pid_t except) {
  std::vector<pid_t> found;
  DIR* proc = opendir("/proc");
  if (proc == nullptr) return found;
  const pid_t self = getpid();
  while (dirent* entry = readdir(proc)) {
    const pid_t pid = static_cast<pid_t>(std::atoi(entry->d_name));
    if (pid <= 0 || pid == except) continue;
    {
      const std::lock_guard<std::mutex> lock(g_live_mutex);
      if (g_live.count(pid) != 0) continue;
    }
    std::ifstream stat(std::string("/proc/") + entry->d_name + "/stat");
    std::string line;
    if (!std::getline(stat, line)) continue;
    const auto close_paren = line.rfind(')');
    if (close_paren == std::string::npos) continue;
    char state = 0;
    int ppid = 0;
    if (std::sscanf(line.c_str() + close_paren + 1, " %c %d", &state, &ppid) == 2 && ppid == self)
      found.push_back(pid);
  }
  closedir(proc);
  return found;
}

// Kills and reaps every orphan a finished check left us, and the orphans
// those leave in turn.
void end_orphans() {
  for (int round = 0; round < 50; ++round) {
    const std::vector<pid_t> left = children(0);
    if (left.empty()) return;
    for (const pid_t pid : left) {
      kill(-pid, SIGKILL);  // its group, if it made one
      kill(pid, SIGKILL);
    }
    for (const pid_t pid : left) waitpid(pid, nullptr, 0);
  }
}

void append_capped(std::string& sink, const char* data, std::size_t n, std::size_t cap, bool* truncated) {
  if (cap == 0 || sink.size() + n <= cap) {
    sink.append(data, n);
    return;
  }
  if (sink.size() < cap) sink.append(data, cap - sink.size());
  *truncated = true;
}

}  // namespace

void adopt_orphans() { prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); }

std::string ProcessResult::describe(double limit_seconds) const {
  if (failed_to_start) return "could not start: " + err;
  if (out_of_memory) {
    char text[64];
    std::snprintf(text, sizeof text, "%.2f GiB", static_cast<double>(memory_limit) / (1u << 30));
    return std::string("was stopped for using more than ") + text + " of memory (--memory-limit)";
  }
  if (too_many_processes)
    return "was stopped for starting more than " + std::to_string(process_limit) + " processes (a fork loop?)";
  if (timed_out) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", limit_seconds);
    return std::string("did not finish within the time limit of ") + text + " s";
  }
  if (signal != 0) return "killed by signal " + std::to_string(signal) + " (" + strsignal(signal) + ")";
  return "exit status " + std::to_string(exit_code);
}

ProcessResult run_process(const std::vector<std::string>& argv, double limit_seconds, const ProcessOptions& options) {
  ProcessResult result;
  result.memory_limit = options.memory_bytes;
  result.process_limit = options.max_processes;
  const auto start = std::chrono::steady_clock::now();
  // The confinement, prepared before fork (the child only makes system calls).
  std::unique_ptr<SandboxLaunch> launch;
  std::string scratch;
  std::vector<std::string> env_strings;
  std::vector<char*> envp;
  SandboxMode mode = SandboxMode::kNone;
  if (options.sandbox) {
    try {
      mode = options.sandbox_mode ? *options.sandbox_mode : sandbox_mode();
      scratch = make_scratch();
      launch = std::make_unique<SandboxLaunch>(*options.sandbox, argv, scratch, mode);
    } catch (const std::exception& error) {
      if (!scratch.empty()) remove_scratch(scratch);
      result.failed_to_start = true;
      result.sandbox_failed = true;
      result.err = std::string("the sandbox could not be prepared: ") + error.what();
      return result;
    }
    if (mode != SandboxMode::kNone) {
      env_strings = confined_environment(options, scratch, mode);
      for (std::string& e : env_strings) envp.push_back(e.data());
      envp.push_back(nullptr);
    }
  }
  const std::vector<std::string>& command = launch ? launch->argv() : argv;
  const int max_processes =
      options.max_processes == 0 ? 0 : options.max_processes + (launch ? launch->extra_processes() : 0);
  int out_pipe[2], err_pipe[2], answer_pipe[2] = {-1, -1}, secret_pipe[2] = {-1, -1};
  const bool secret = !options.secret.empty();
  if (pipe2(out_pipe, O_CLOEXEC) != 0 || pipe2(err_pipe, O_CLOEXEC) != 0 ||
      (options.answer_channel && pipe2(answer_pipe, O_CLOEXEC) != 0) ||
      (secret && pipe2(secret_pipe, O_CLOEXEC) != 0)) {
    result.failed_to_start = true;
    result.err = std::strerror(errno);
    return result;
  }
  // Held across fork so that no other thread's orphan sweep sees the new
  // child before it is registered.
  std::vector<std::string> extra_environment = options.environment;  // putenv keeps the pointers: copies made here
  std::unique_lock<std::mutex> registering(g_live_mutex);
  const pid_t pid = fork();
  if (pid == 0) {
    setpgid(0, 0);
    dup2(out_pipe[1], 1);
    dup2(err_pipe[1], 2);
    // Descriptor 3 for the answer, 4 for the secret: first moved out of the
    // way (either pipe may already sit on 3 or 4), then put in place (dup2
    // clears close-on-exec).
    const int answer_high = options.answer_channel ? fcntl(answer_pipe[1], F_DUPFD, 100) : -1;
    const int secret_high = secret ? fcntl(secret_pipe[0], F_DUPFD, 100) : -1;
    if (options.answer_channel) {
      dup2(answer_high, 3);
      setenv("BANKLAB_ANSWER_FD", "3", 1);
    } else {
      unsetenv("BANKLAB_ANSWER_FD");
    }
    if (secret) {
      dup2(secret_high, 4);
      setenv("BANKLAB_SECRET_FD", "4", 1);
    } else {
      unsetenv("BANKLAB_SECRET_FD");
    }
    if (answer_high >= 0) close(answer_high);
    if (secret_high >= 0) close(secret_high);
    for (std::string& setting : extra_environment) putenv(setting.data());
    if (options.file_bytes != 0) {
      const rlimit limit = {options.file_bytes, options.file_bytes};
      setrlimit(RLIMIT_FSIZE, &limit);
    }
    std::vector<char*> args;
    for (const std::string& a : command) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    if (launch) {
      const char* what = "";
      const int error = launch->enter(&what);
      if (error != 0) {
        const std::string message = std::string("the sandbox could not be entered: ") + what + ": " +
                                    std::strerror(error) + "\n";
        (void)!write(2, message.data(), message.size());
        _exit(127);
      }
    }
    if (!envp.empty()) {
      execvpe(args[0], args.data(), envp.data());
    } else {
      execvp(args[0], args.data());
    }
    const std::string message = std::string("cannot run ") + command[0] + ": " + std::strerror(errno) + "\n";
    (void)!write(2, message.data(), message.size());
    _exit(127);
  }
  close(out_pipe[1]);
  close(err_pipe[1]);
  if (options.answer_channel) close(answer_pipe[1]);
  if (secret) {
    // A few dozen bytes: the pipe holds them without blocking.
    const std::string line = options.secret + "\n";
    (void)!write(secret_pipe[1], line.data(), line.size());
    close(secret_pipe[1]);
    close(secret_pipe[0]);
  }
  if (pid < 0) {
    result.failed_to_start = true;
    result.err = std::strerror(errno);
    close(out_pipe[0]);
    close(err_pipe[0]);
    if (options.answer_channel) close(answer_pipe[0]);
    if (!scratch.empty()) remove_scratch(scratch);
    return result;
  }
  setpgid(pid, pid);
  g_live.insert(pid);
  registering.unlock();
  const auto deadline = start + std::chrono::duration<double>(limit_seconds);
  pollfd fds[3] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}, {answer_pipe[0], POLLIN, 0}};
  std::string* sinks[3] = {&result.out, &result.err, &result.answer};
  const std::size_t caps[3] = {options.output_cap, options.output_cap, std::size_t{64} << 20};
  int open_fds = options.answer_channel ? 3 : 2;
  const int watched = open_fds;
  char buffer[65536];
  int status = 0;
  bool reaped = false;
  // Read until every pipe is closed, or the child is gone and its pipes are
  // drained (a descendant that keeps a pipe open must not hold us up).
  while (open_fds > 0) {
    if (!reaped && waitpid(pid, &status, WNOHANG) == pid) reaped = true;
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      result.timed_out = true;
      kill(-pid, SIGKILL);
      break;
    }
    if (options.memory_bytes != 0 &&
        (launch ? tree_resident_bytes(pid) : resident_bytes(pid)) > options.memory_bytes) {
      result.out_of_memory = true;
      kill(-pid, SIGKILL);
      break;
    }
    if (max_processes != 0 && !reaped &&
        static_cast<int>(process_tree(pid, max_processes).size()) > max_processes) {
      result.too_many_processes = true;
      kill(-pid, SIGKILL);
      break;
    }
    const bool watching = options.memory_bytes != 0 || options.max_processes != 0;
    const int wait_ms = reaped ? 0 : watching ? 100 : 1000;
    const int ready = poll(fds, watched, static_cast<int>(std::min<long long>(left.count(), wait_ms)));
    if (ready < 0 && errno != EINTR) break;
    if (reaped && ready == 0) break;  // the child has ended and nothing more is waiting
    for (int i = 0; i < watched; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      const ssize_t n = read(fds[i].fd, buffer, sizeof buffer);
      if (n > 0) {
        append_capped(*sinks[i], buffer, static_cast<std::size_t>(n), caps[i], &result.output_truncated);
      } else {
        close(fds[i].fd);
        fds[i].fd = -1;
        --open_fds;
      }
    }
  }
  for (int i = 0; i < watched; ++i) {
    if (fds[i].fd >= 0) close(fds[i].fd);
  }
  if (!reaped) waitpid(pid, &status, 0);
  {
    const std::lock_guard<std::mutex> lock(g_live_mutex);
    g_live.erase(pid);
  }
  kill(-pid, SIGKILL);  // anything the child left behind in its group
  end_orphans();        // and anything that left the group (setsid) and was adopted by us
  if (!scratch.empty()) remove_scratch(scratch);  // what the child wrote goes with it
  if (WIFEXITED(status) && mode == SandboxMode::kBubblewrap && WEXITSTATUS(status) > 128 &&
      WEXITSTATUS(status) < 128 + 65 && !result.timed_out && !result.out_of_memory && !result.too_many_processes) {
    // bubblewrap exits with 128 + the signal that killed the program.
    result.signal = WEXITSTATUS(status) - 128;
  } else if (WIFEXITED(status)) {
    result.exited = true;
    result.exit_code = WEXITSTATUS(status);
    // bubblewrap's own failure (before the program ran): exit status 1 and
    // its message first. The caller decides whether to believe it (a
    // program's output could start the same way).
    result.sandbox_failed = mode == SandboxMode::kBubblewrap && result.exit_code == 1 && result.err.rfind("bwrap: ", 0) == 0;
  } else if (WIFSIGNALED(status) && !result.timed_out && !result.out_of_memory && !result.too_many_processes) {
    result.signal = WTERMSIG(status);
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

std::string shell_quote(const std::vector<std::string>& argv) {
  std::string out;
  for (const std::string& a : argv) {
    if (!out.empty()) out += ' ';
    if (a.find_first_of(" \t\"'$`\\*?;&|<>()") == std::string::npos && !a.empty()) {
      out += a;
    } else {
      out += '\'';
      for (char c : a) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
      out += '\'';
    }
  }
  return out;
}

}  // namespace banklab::grader

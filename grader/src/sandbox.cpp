// bubblewrap's command line, the seccomp filter (libseccomp) and the
// fallback's uid change and Landlock rules (raw system calls).
#include "sandbox.hpp"

#include <fcntl.h>
#include <grp.h>
#include <linux/landlock.h>
#include <linux/sched.h>
#include <seccomp.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/filter.h>
#include <linux/seccomp.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <mutex>
#include <sstream>
#include <stdexcept>

#include "process.hpp"

namespace banklab::grader {

namespace fs = std::filesystem;

namespace {

// Rights newer than Debian 12's kernel headers (the running kernel may have them).
constexpr unsigned long long kFsTruncate = 1ULL << 14;   // ABI 3
constexpr unsigned long long kFsIoctlDev = 1ULL << 15;   // ABI 5
constexpr unsigned long long kNetBindTcp = 1ULL << 0;    // ABI 4
constexpr unsigned long long kNetConnectTcp = 1ULL << 1;
constexpr unsigned long long kScopeAbstractUnix = 1ULL << 0;  // ABI 6
constexpr unsigned long long kScopeSignal = 1ULL << 1;

constexpr unsigned long long kFsRead =
    LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR;
constexpr unsigned long long kFsFileRights =
    LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_READ_FILE | kFsTruncate |
    kFsIoctlDev;

// The ruleset attribute as the newest kernels read it; older ones read a prefix.
struct RulesetAttr {
  unsigned long long handled_access_fs;
  unsigned long long handled_access_net;
  unsigned long long scoped;
};

int landlock_abi() {
  const long abi = syscall(SYS_landlock_create_ruleset, nullptr, 0, LANDLOCK_CREATE_RULESET_VERSION);
  return abi < 0 ? 0 : static_cast<int>(abi);
}

unsigned long long handled_fs(int abi) {
  unsigned long long all = (1ULL << 13) - 1;  // ABI 1: execute .. make_sym
  if (abi >= 2) all |= LANDLOCK_ACCESS_FS_REFER;
  if (abi >= 3) all |= kFsTruncate;
  if (abi >= 5) all |= kFsIoctlDev;
  return all;
}

// The seccomp filter as a BPF program, built once with libseccomp. The
// default is to allow: the emulator needs threads, timers (timer_create
// with SIGEV_THREAD_ID), signals, mmap/mprotect for fiber stacks and
// sched_getaffinity; what a runner or a compiler never needs, and what would
// let code reach past its process, fails with EPERM.
const std::string& filter_program() {
  static const std::string program = [] {
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
    if (ctx == nullptr) throw std::runtime_error("seccomp_init failed");
    auto deny = [&](int call, unsigned arg_count = 0, const scmp_arg_cmp* args = nullptr, int error = EPERM) {
      if (call < 0) return;  // not a system call of this architecture
      if (seccomp_rule_add_array(ctx, SCMP_ACT_ERRNO(error), call, arg_count, args) != 0)
        throw std::runtime_error("seccomp_rule_add failed for system call " + std::to_string(call));
    };
    for (const char* name :
         {"ptrace", "process_vm_readv", "process_vm_writev", "process_madvise", "pidfd_getfd", "kcmp", "unshare",
          "setns", "mount", "umount2", "pivot_root", "chroot", "move_mount", "open_tree", "fsopen", "fsconfig",
          "fsmount", "fspick", "mount_setattr", "bpf", "perf_event_open", "keyctl", "add_key", "request_key",
          "kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module", "io_uring_setup",
          "io_uring_enter", "io_uring_register", "userfaultfd", "open_by_handle_at", "name_to_handle_at",
          "fanotify_init", "swapon", "swapoff", "reboot", "acct", "quotactl", "syslog", "vhangup", "iopl", "ioperm",
          "uselib", "lookup_dcookie"}) {
      deny(seccomp_syscall_resolve_name(name));
    }
    // personality: only the query (0xffffffff) that some runtimes make.
    const scmp_arg_cmp not_query = SCMP_A0(SCMP_CMP_NE, 0xffffffffu);
    deny(SCMP_SYS(personality), 1, &not_query);
    // clone with any namespace flag (one rule per flag: a rule's comparisons
    // all have to hold). CLONE_NEWTIME shares its bit with the exit signal.
    for (const unsigned long long flag : {CLONE_NEWNS, CLONE_NEWUTS, CLONE_NEWIPC, CLONE_NEWUSER, CLONE_NEWPID,
                                          CLONE_NEWNET, CLONE_NEWCGROUP}) {
      const scmp_arg_cmp with_flag = SCMP_A0(SCMP_CMP_MASKED_EQ, flag, flag);
      deny(SCMP_SYS(clone), 1, &with_flag);
    }
    // clone3 passes its flags in memory, which a filter cannot read: ENOSYS
    // makes the C library fall back to clone, which the rules above see.
    deny(SCMP_SYS(clone3), 0, nullptr, ENOSYS);
    // Sockets: AF_UNIX only (no network, no netlink, no packet sockets).
    const scmp_arg_cmp not_unix = SCMP_A0(SCMP_CMP_NE, AF_UNIX);
    deny(SCMP_SYS(socket), 1, &not_unix);
    deny(SCMP_SYS(socketpair), 1, &not_unix);
    // Typing into the grader's terminal.
    for (const unsigned long request : {static_cast<unsigned long>(TIOCSTI), static_cast<unsigned long>(TIOCLINUX)}) {
      const scmp_arg_cmp is_request = SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffu, request);
      deny(SCMP_SYS(ioctl), 1, &is_request);
    }
    const int fd = memfd_create("banklab-seccomp", MFD_CLOEXEC);
    if (fd < 0 || seccomp_export_bpf(ctx, fd) != 0) {
      seccomp_release(ctx);
      throw std::runtime_error("cannot export the seccomp filter: " + std::string(std::strerror(errno)));
    }
    seccomp_release(ctx);
    std::string bytes;
    char buffer[4096];
    lseek(fd, 0, SEEK_SET);
    for (ssize_t n; (n = read(fd, buffer, sizeof buffer)) > 0;) bytes.append(buffer, static_cast<std::size_t>(n));
    close(fd);
    return bytes;
  }();
  return program;
}

// What every confined process sees read-only: the system's programs and
// libraries, and the few /etc files the loader and the compilers read.
std::vector<std::string> system_paths() {
  return {"/usr", "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/alternatives"};
}
const char* const kTopLinks[] = {"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"};
const char* const kDevices[] = {"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom"};

// The GPU's devices and the NVIDIA software outside /usr.
std::vector<std::string> gpu_devices() {
  std::vector<std::string> found;
  std::error_code error;
  for (fs::directory_iterator it("/dev", error), end; !error && it != end; it.increment(error)) {
    if (it->path().filename().string().rfind("nvidia", 0) == 0) found.push_back(it->path().string());
  }
  return found;
}
std::vector<std::string> gpu_paths() {
  std::vector<std::string> found = {"/sys"};
  std::error_code error;
  // /usr/local is in the view already, with /usr (system_paths): bound again,
  // its links (/usr/local/cuda -> cuda-13.0) stop bubblewrap.
  for (const char* parent : {"/opt"}) {
    for (fs::directory_iterator it(parent, error), end; !error && it != end; it.increment(error)) {
      const std::string name = it->path().filename().string();
      if (name.rfind("cuda", 0) == 0 || name.rfind("nvidia", 0) == 0) found.push_back(it->path().string());
    }
  }
  return found;
}

bool exists(const std::string& path) {
  struct stat st;
  return lstat(path.c_str(), &st) == 0;
}

// Whether `inner` is `outer` or below it (lexically).
bool within(const std::string& inner, const std::string& outer) {
  return inner == outer || (inner.size() > outer.size() && inner.compare(0, outer.size(), outer) == 0 &&
                            inner[outer.size()] == '/');
}

// Whether the sandbox's uid (not owner, not in the group) can reach `path`:
// every folder above it searchable by others, and `path` itself readable
// (and searchable, for a folder). Only asked when the grader is root.
bool others_can_read(const std::string& path) {
  const fs::path p = fs::path(path).lexically_normal();
  fs::path walked;
  for (const fs::path& part : p) {
    walked /= part;
    struct stat st;
    if (stat(walked.c_str(), &st) != 0) return true;  // not there: bubblewrap skips it, not our question
    const bool own = st.st_uid == kSandboxUid, group = st.st_gid == kSandboxUid;
    auto allowed = [&](mode_t owner_bit, mode_t group_bit, mode_t others_bit) {
      return (st.st_mode & (own ? owner_bit : group ? group_bit : others_bit)) != 0;
    };
    const bool last = walked == p;
    if (S_ISDIR(st.st_mode) && !allowed(S_IXUSR, S_IXGRP, S_IXOTH)) return false;
    if (last && !allowed(S_IRUSR, S_IRGRP, S_IROTH)) return false;
  }
  return true;
}

// Readable (and, where the owner may, executable) by every uid: the
// sandbox uid reads the runners from their cache folders.
void share(const fs::path& path) {
  std::error_code error;
  const fs::perms p = fs::symlink_status(path, error).permissions();
  if (error || fs::is_symlink(fs::symlink_status(path, error))) return;
  fs::perms add = fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read;
  if ((p & fs::perms::owner_exec) != fs::perms::none) add |= fs::perms::group_exec | fs::perms::others_exec;
  fs::permissions(path, add, fs::perm_options::add, error);
}

// Copies of what a confined process must read but the sandbox's uid cannot
// reach (a submission in a private folder, such as mktemp -d's, with a root
// grader): bubblewrap shows the copy at the original path, so the compiler
// and every message still name the student's own file. One copy per path per
// grader process, removed at exit.
class Staging {
 public:
  ~Staging() {
    std::error_code ignored;
    if (!root_.empty()) fs::remove_all(root_, ignored);
  }

  // The path to bind for `path` (itself where others can read it). `hidden`:
  // folders below it left out of a copy (solutions/, the build folder).
  std::string source_for(const std::string& path, const std::vector<std::string>& hidden) {
    if (geteuid() != 0 || others_can_read(path)) return path;
    std::lock_guard<std::mutex> hold(lock_);
    if (const auto found = copies_.find(path); found != copies_.end()) return found->second;
    if (root_.empty()) {
      const char* base = std::getenv("TMPDIR");
      std::string pattern = std::string(base != nullptr && *base != '\0' ? base : "/tmp") + "/banklab-stage-XXXXXX";
      if (mkdtemp(pattern.data()) == nullptr) {
        throw std::runtime_error("cannot create a folder for copies of " + path + ": " + std::strerror(errno));
      }
      root_ = pattern;
      chmod(root_.c_str(), 0755);
      if (!others_can_read(root_)) {
        throw std::runtime_error(unreachable(path) + " (and its copy in " + root_ + " is not readable either: set TMPDIR to a folder others can read)");
      }
    }
    const fs::path copy = fs::path(root_) / std::to_string(copies_.size());
    std::uintmax_t bytes = 0;
    std::error_code error;
    if (fs::is_directory(path, error)) {
      fs::create_directory(copy, error);
      for (fs::recursive_directory_iterator it(path, error), end; !error && it != end; it.increment(error)) {
        const std::string inner = it->path().string();
        bool skip = false;  // a hidden folder below the copied one (not one the copied folder is in)
        for (const std::string& h : hidden) skip = skip || (h != path && within(h, path) && within(inner, h));
        if (skip) {
          it.disable_recursion_pending();
          continue;
        }
        const fs::path target = copy / fs::relative(it->path(), path);
        const fs::file_status st = it->symlink_status();
        if (fs::is_symlink(st)) {
          fs::copy_symlink(it->path(), target, error);  // a link, as it was: it resolves inside the sandbox's view
        } else if (fs::is_directory(st)) {
          fs::create_directory(target, error);
        } else if (fs::is_regular_file(st)) {
          bytes += it->file_size();
          if (bytes > kMaxBytes) throw std::runtime_error(unreachable(path) + ", and it holds more than 64 MiB to copy");
          fs::copy_file(it->path(), target, error);
        }
        if (!error) share(target);
      }
    } else {
      fs::copy_file(path, copy, error);
    }
    if (error) throw std::runtime_error(unreachable(path) + ", and copying it failed: " + error.message());
    share(copy);
    copies_[path] = copy.string();
    return copy.string();
  }

  static std::string unreachable(const std::string& path) {
    return path + " cannot be read by the sandbox's user (uid " + std::to_string(kSandboxUid) +
           "): it or a folder above it is private to its owner (put it in a folder others can read, or chmod o+r the file "
           "and o+x the folders above it)";
  }

 private:
  static constexpr std::uintmax_t kMaxBytes = std::uintmax_t{64} << 20;
  std::mutex lock_;
  std::string root_;
  std::map<std::string, std::string> copies_;
};

Staging& staging() {
  static Staging s;
  return s;
}

SandboxMode probe(std::string* why) {
  const char* env = std::getenv("BANKLAB_SANDBOX");
  const std::string asked = env == nullptr ? "" : env;
  if (asked == "off" || asked == "none") {
    *why = "BANKLAB_SANDBOX=" + asked;
    return SandboxMode::kNone;
  }
  if (asked == "fallback") {
    *why = "bubblewrap skipped: BANKLAB_SANDBOX=fallback";
    return SandboxMode::kFallback;
  }
  if (!asked.empty() && asked != "bubblewrap") {
    throw std::runtime_error("BANKLAB_SANDBOX=" + asked + ": use bubblewrap, fallback or off");
  }
  ProcessOptions options;
  options.sandbox = SandboxView{};
  options.sandbox_mode = SandboxMode::kBubblewrap;
  const ProcessResult r = run_process({"/usr/bin/true"}, 20, options);
  if (r.ok()) return SandboxMode::kBubblewrap;
  std::string message = r.failed_to_start ? r.err : r.out + r.err;
  message = message.substr(0, message.find('\n'));
  if (message.empty()) message = r.describe(20);
  *why = "bubblewrap could not start: " + message;
  if (asked == "bubblewrap") throw std::runtime_error("BANKLAB_SANDBOX=bubblewrap, but " + *why);
  return SandboxMode::kFallback;
}

struct Choice {
  SandboxMode mode;
  std::string description;
};

const Choice& choice() {
  static const Choice chosen = [] {
    std::string why;
    const SandboxMode mode = probe(&why);
    const bool root = geteuid() == 0;
    const std::string uid = std::to_string(kSandboxUid);
    switch (mode) {
      case SandboxMode::kBubblewrap:
        return Choice{mode, "bubblewrap + seccomp (uid " + uid + ", no network, private /proc, /tmp and working "
                            "folder, read-only view of what each step needs)"};
      case SandboxMode::kFallback: {
        const int abi = landlock_abi();
        std::string text = root ? "uid " + uid + " + " : "";
        text += "no_new_privs + ";
        text += abi > 0 ? "Landlock ABI " + std::to_string(abi) + " + " : "";
        text += "seccomp (" + why;
        if (!root) text += "; the grader is not root, so the uid stays the grader's";
        if (abi == 0) text += "; this kernel has no Landlock: the filesystem is NOT confined";
        const char* omit = std::getenv("BANKLAB_SANDBOX_OMIT");
        if (omit != nullptr && *omit != '\0') text += "; DEBUGGING: BANKLAB_SANDBOX_OMIT=" + std::string(omit);
        return Choice{mode, text + ")"};
      }
      case SandboxMode::kNone:
        break;
    }
    return Choice{mode, "NONE: " + why + " (for debugging only: submission code runs with the grader's rights)"};
  }();
  return chosen;
}

}  // namespace

SandboxMode sandbox_mode() { return choice().mode; }

SandboxView compile_view(const Config& config, const std::string& source) {
  SandboxView view;
  const fs::path file = fs::absolute(source).lexically_normal();
  view.read_only = config.kernel_include_dirs;
  view.read_only.push_back(file.parent_path().string());  // the files it may include
  view.read_only.push_back(file.string());
  view.hidden = {config.source_dir + "/solutions", config.build_dir};
  // The compiler itself, wherever it is installed.
  view.read_only_after = {fs::path(config.cxx).parent_path().string()};
  return view;
}
const std::string& sandbox_description() { return choice().description; }

SandboxLaunch::SandboxLaunch(const SandboxView& view, const std::vector<std::string>& argv, const std::string& scratch,
                             SandboxMode mode)
    : mode_(mode), scratch_(scratch) {
  const std::string& program = filter_program();
  if (mode_ == SandboxMode::kBubblewrap) {
    // A fresh descriptor per launch: bubblewrap reads it from its offset.
    const int fd = memfd_create("banklab-seccomp", MFD_CLOEXEC);
    if (fd >= 0) {
      (void)!write(fd, program.data(), program.size());
      lseek(fd, 0, SEEK_SET);
      filter_fd_ = fcntl(fd, F_DUPFD_CLOEXEC, 100);
      close(fd);
    }
    const std::string uid = std::to_string(kSandboxUid);
    // No --new-session needed for the kill: the whole sandbox is a PID
    // namespace whose init dies with bubblewrap (--die-with-parent), and
    // run_process kills bubblewrap's group. It is used: without a
    // controlling terminal the code cannot type into the grader's.
    argv_ = {"/usr/bin/bwrap", "--unshare-all", "--unshare-user", "--die-with-parent", "--new-session",
             "--hostname", "banklab", "--uid", uid, "--gid", uid, "--cap-drop", "ALL"};
    auto add = [&](std::initializer_list<std::string> words) { argv_.insert(argv_.end(), words); };
    for (const std::string& path : system_paths()) {
      if (exists(path)) add({"--ro-bind", path, path});
    }
    // A symbolic link is made again as a link (bubblewrap would bind its
    // target onto it: a link to a folder outside the view fails).
    auto link_or_bind = [&](const std::string& path) {
      char target[4096];
      const ssize_t n = readlink(path.c_str(), target, sizeof target - 1);
      if (n > 0) {
        add({"--symlink", std::string(target, static_cast<std::size_t>(n)), path});
      } else if (exists(path)) {
        add({"--ro-bind", path, path});
      }
    };
    for (const char* link : kTopLinks) link_or_bind(link);
    add({"--proc", "/proc"});
    for (const char* device : kDevices) add({"--dev-bind", device, device});
    add({"--tmpfs", "/dev/shm", "--tmpfs", "/tmp"});
    if (view.gpu) {
      for (const std::string& device : gpu_devices()) add({"--dev-bind", device, device});
      for (const std::string& path : gpu_paths()) link_or_bind(path);
    }
    for (const std::string& path : view.read_only) {
      if (exists(path)) add({"--ro-bind", staging().source_for(path, view.hidden), path});
    }
    std::vector<std::string> emptied;
    for (const std::string& path : view.hidden) {
      bool shown = false;  // only where a bound folder would show it
      for (const std::string& bound : view.read_only) shown = shown || (within(path, bound) && path != bound);
      if (shown && exists(path)) {
        add({"--tmpfs", path});
        emptied.push_back(path);
      }
    }
    for (const std::string& path : view.read_only_after) {
      if (exists(path)) add({"--ro-bind", staging().source_for(path, view.hidden), path});
    }
    for (const std::string& path : view.writable) add({"--bind", path, path});
    add({"--bind", scratch_, "/scratch", "--chdir", "/scratch", "--setenv", "HOME", "/scratch"});
    // Read-only at the end, once the mounts below them are made: the hidden
    // folders, and the root with the folders made for mount points.
    for (const std::string& path : emptied) add({"--remount-ro", path});
    add({"--remount-ro", "/"});
    if (filter_fd_ >= 0) add({"--seccomp", "10"});
    add({"--"});
    argv_.insert(argv_.end(), argv.begin(), argv.end());
    return;
  }
  argv_ = argv;
  if (mode_ != SandboxMode::kFallback) return;
  // Landlock's rules: read-only what the process needs, read-write its
  // scratch folder and output folders. A folder that holds a hidden one is
  // left out (Landlock cannot take a right back below a rule): the files
  // that matter in it are named one by one by the callers.
  auto rule = [&](const std::string& path, unsigned long long access) {
    rule_paths_.push_back(path);
    rule_access_.push_back(access);
  };
  for (const std::string& path : system_paths()) rule(path, kFsRead);
  for (const char* link : kTopLinks) rule(link, kFsRead);
  for (const char* device : kDevices) rule(device, kFsRead | LANDLOCK_ACCESS_FS_WRITE_FILE);
  rule("/proc/self", kFsRead);  // resolved in the child: its own /proc entry only
  if (view.gpu) {
    for (const std::string& device : gpu_devices()) rule(device, kFsRead | LANDLOCK_ACCESS_FS_WRITE_FILE | kFsIoctlDev);
    for (const std::string& path : gpu_paths()) rule(path, kFsRead);
    rule("/proc", kFsRead);  // the driver reads /proc/driver/nvidia
    // and writes below its own /proc entry: without it cudaMalloc fails with
    // "OS call failed" (cudaErrorOperatingSystem; seen on the H200, where
    // write access to /proc made it pass and no other folder did).
    rule("/proc/self", kFsRead | LANDLOCK_ACCESS_FS_WRITE_FILE | kFsTruncate);  // fopen(..., "w") truncates
  }
  for (const std::string& path : view.read_only) {
    // No mount namespace here to show a copy at the path the command names.
    if (geteuid() == 0 && exists(path) && !others_can_read(path)) throw std::runtime_error(Staging::unreachable(path));
    bool holds_hidden = false;
    for (const std::string& hidden : view.hidden) holds_hidden = holds_hidden || within(hidden, path);
    if (!holds_hidden) rule(path, kFsRead);
  }
  for (const std::string& path : view.read_only_after) {
    if (geteuid() == 0 && exists(path) && !others_can_read(path)) throw std::runtime_error(Staging::unreachable(path));
    rule(path, kFsRead);
  }
  for (const std::string& path : view.writable) rule(path, ~0ULL);
  rule(scratch_, ~0ULL);
  if (const char* extra = std::getenv("BANKLAB_SANDBOX_DEBUG_RW"); extra != nullptr && view.gpu) {
    std::stringstream list(extra);  // debugging: more folders a GPU step may write
    for (std::string path; std::getline(list, path, ':');) {
      if (!path.empty()) rule(path, ~0ULL);
    }
  }
}

SandboxLaunch::~SandboxLaunch() {
  if (filter_fd_ >= 0) close(filter_fd_);
}

int SandboxLaunch::enter(const char** what) const {
  const int null = open("/dev/null", O_RDONLY);  // no input, and no terminal to read
  if (null >= 0) {
    dup2(null, 0);
    if (null != 0) close(null);
  }
  if (mode_ == SandboxMode::kNone) {
    *what = "chdir to the scratch folder";
    return chdir(scratch_.c_str()) == 0 ? 0 : errno;
  }
  if (mode_ == SandboxMode::kBubblewrap) {
    // Unprivileged outside too: bubblewrap then makes a user namespace as
    // uid 65534, so nothing in it maps to root.
    if (geteuid() == 0) {
      *what = "change to uid 65534";
      if (setgroups(0, nullptr) != 0 || setgid(kSandboxUid) != 0 || setuid(kSandboxUid) != 0) return errno;
    }
    *what = "pass the seccomp filter to bubblewrap";
    if (filter_fd_ < 0 || dup2(filter_fd_, 10) != 10) return filter_fd_ < 0 ? EBADF : errno;
    return 0;
  }
  *what = "chdir to the scratch folder";
  if (chdir(scratch_.c_str()) != 0) return errno;
  *what = "prctl(PR_SET_NO_NEW_PRIVS)";
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return errno;
  // BANKLAB_SANDBOX_OMIT=landlock|seccomp|uid (debugging a machine where a
  // confined step fails; the report then names what was left out).
  const char* omit_env = std::getenv("BANKLAB_SANDBOX_OMIT");
  const std::string omit = omit_env == nullptr ? "" : omit_env;
  const int abi = omit.find("landlock") != std::string::npos ? 0 : landlock_abi();
  if (abi > 0) {
    RulesetAttr attr = {handled_fs(abi),
                        abi >= 4 && omit.find("net") == std::string::npos ? kNetBindTcp | kNetConnectTcp : 0,
                        abi >= 6 && omit.find("scope") == std::string::npos ? kScopeAbstractUnix | kScopeSignal : 0};
    const std::size_t size = abi >= 6 ? sizeof attr : abi >= 4 ? 2 * sizeof(unsigned long long)
                                                               : sizeof(unsigned long long);
    *what = "landlock_create_ruleset";
    const int ruleset = static_cast<int>(syscall(SYS_landlock_create_ruleset, &attr, size, 0));
    if (ruleset < 0) return errno;
    for (std::size_t i = 0; i < rule_paths_.size(); ++i) {
      const int fd = open(rule_paths_[i].c_str(), O_PATH | O_CLOEXEC);
      if (fd < 0) continue;  // not on this machine
      struct stat st;
      landlock_path_beneath_attr beneath = {};
      beneath.parent_fd = fd;
      beneath.allowed_access = rule_access_[i] & attr.handled_access_fs;
      if (fstat(fd, &st) == 0 && !S_ISDIR(st.st_mode)) beneath.allowed_access &= kFsFileRights;
      *what = "landlock_add_rule";
      const long added = syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &beneath, 0);
      const int error = errno;
      close(fd);
      if (added != 0) return error;
    }
    *what = "landlock_restrict_self";
    if (syscall(SYS_landlock_restrict_self, ruleset, 0) != 0) return errno;
    close(ruleset);
  }
  if (geteuid() == 0 && omit.find("uid") == std::string::npos) {
    *what = "change to uid 65534";
    if (setgroups(0, nullptr) != 0 || setgid(kSandboxUid) != 0 || setuid(kSandboxUid) != 0) return errno;
  }
  if (omit.find("seccomp") != std::string::npos) return 0;
  const std::string& program = filter_program();
  sock_fprog prog = {static_cast<unsigned short>(program.size() / sizeof(sock_filter)),
                     reinterpret_cast<sock_filter*>(const_cast<char*>(program.data()))};
  *what = "install the seccomp filter";
  if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0) return errno;
  return 0;
}

std::string make_scratch() {
  const char* base = std::getenv("TMPDIR");
  std::string pattern = std::string(base != nullptr && *base != '\0' ? base : "/tmp") + "/banklab-run-XXXXXX";
  if (mkdtemp(pattern.data()) == nullptr) {
    throw std::runtime_error("cannot create a scratch folder from " + pattern + ": " + std::strerror(errno));
  }
  lend_folder(pattern);
  return pattern;
}

void remove_scratch(const std::string& path) {
  std::error_code ignored;
  fs::remove_all(path, ignored);
}

void lend_folder(const std::string& folder) {
  if (geteuid() == 0) (void)!chown(folder.c_str(), kSandboxUid, kSandboxUid);
}

void give_back_folder(const std::string& folder) {
  if (geteuid() != 0) return;
  std::error_code error;
  (void)!lchown(folder.c_str(), 0, 0);
  share(folder);
  for (fs::recursive_directory_iterator it(folder, error), end; !error && it != end; it.increment(error)) {
    (void)!lchown(it->path().c_str(), 0, 0);
    share(it->path());
  }
}

}  // namespace banklab::grader

// The attacks a runner's code could make, one per command, for
// test_sandbox.cpp: run confined they must fail, run plainly they succeed
// (so the tests that use it can fail). Prints "ok ..." or "denied ...".
//   sandbox_probe read FILE | write FILE | connect PORT | sockets | proc PID | ptrace | unshare | clone | threads
//   sandbox_probe syscalls   (system calls a runner never needs, each with harmless arguments)
//   sandbox_probe fork-loop | fork N | hog MIB | spin SECONDS | big-file MIB   (what the runtime limits stop:
//   each prints "ok ..." only if it got to the end)
#include <arpa/inet.h>
#include <dirent.h>
#include <fcntl.h>
#include <linux/netlink.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <sys/ptrace.h>
#include <sys/ioctl.h>
#include <sys/personality.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

namespace {

int denied(const std::string& what) {
  std::printf("denied %s: %s\n", what.c_str(), std::strerror(errno));
  return 0;
}

// Prints the file's text: what a submission would copy into its feedback.
int read_file(const char* path) {
  FILE* f = std::fopen(path, "rb");
  if (f == nullptr) return denied(std::string("read ") + path);
  std::printf("ok read %s\n", path);
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, f)) > 0;) std::fwrite(buffer, 1, n, stdout);
  std::fclose(f);
  return 0;
}

int write_file(const char* path) {
  FILE* f = std::fopen(path, "w");
  if (f == nullptr) return denied(std::string("write ") + path);
  std::fputs("written by sandbox_probe\n", f);
  std::fclose(f);
  std::printf("ok write %s\n", path);
  return 0;
}

int connect_to(int port) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return denied("socket(AF_INET)");
  sockaddr_in address = {};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<unsigned short>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) return denied("connect");
  std::printf("ok connect %d\n", port);
  return 0;
}

// Sockets of every family a runner could misuse where TCP connects are
// stopped some other way (Landlock restricts TCP only): a UDP socket, a raw
// netlink socket (the kernel's routing and audit interfaces), a packet socket.
// "ok sockets" if any could be made, with the ones that could.
int sockets() {
  const struct {
    int domain, type;
    const char* name;
  } kinds[] = {{AF_INET, SOCK_DGRAM, "udp"}, {AF_INET6, SOCK_DGRAM, "udp6"}, {AF_NETLINK, SOCK_RAW, "netlink"},
               {AF_PACKET, SOCK_DGRAM, "packet"}};
  std::string made;
  for (const auto& k : kinds) {
    const int fd = socket(k.domain, k.type, 0);
    if (fd < 0) continue;
    made += std::string(made.empty() ? "" : ",") + k.name;
    close(fd);
  }
  if (made.empty()) return denied("sockets");
  std::printf("ok sockets %s\n", made.c_str());
  return 0;
}

// Another process's command line, and how many processes /proc lists.
int proc(const char* pid) {
  int listed = 0;
  if (DIR* dir = opendir("/proc")) {
    while (dirent* entry = readdir(dir)) listed += entry->d_name[0] >= '0' && entry->d_name[0] <= '9';
    closedir(dir);
  }
  std::printf("processes listed %d\n", listed);
  const std::string path = std::string("/proc/") + pid + "/cmdline";
  FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return denied("read " + path);
  char buffer[256] = {};
  const std::size_t n = std::fread(buffer, 1, sizeof buffer - 1, f);
  std::fclose(f);
  if (n == 0) return denied("read " + path + " (empty)");
  std::printf("ok read %s: %s\n", path.c_str(), buffer);
  return 0;
}

// Attaches to a child of its own: the least a debugger-style attack needs.
int trace() {
  const pid_t child = fork();
  if (child == 0) {
    pause();
    _exit(0);
  }
  const long attached = ptrace(PTRACE_ATTACH, child, nullptr, nullptr);
  const int error = errno;
  kill(child, SIGKILL);
  waitpid(child, nullptr, 0);
  errno = error;
  if (attached != 0) return denied("ptrace(PTRACE_ATTACH)");
  std::printf("ok ptrace\n");
  return 0;
}

// System calls the seccomp filter refuses, made with arguments that do no
// harm where they are allowed: one line each, "denied NAME" where the call
// failed with EPERM (the filter's answer, or the kernel's for want of a
// privilege), "reached NAME (...)" where the kernel ran it.
int syscalls() {
  struct Call {
    const char* name;
    long (*make)();
  };
  static unsigned char params[120];  // struct io_uring_params, zeroed
  static unsigned char handle[64] = {8};  // struct file_handle with 8 bytes of room
  const Call calls[] = {
      {"io_uring_setup", [] { return syscall(SYS_io_uring_setup, 1, params); }},
      {"io_uring_enter", [] { return syscall(SYS_io_uring_enter, -1, 0, 0, 0, nullptr, 0); }},
      {"io_uring_register", [] { return syscall(SYS_io_uring_register, -1, 0, nullptr, 0); }},
      {"keyctl", [] { return syscall(SYS_keyctl, 0 /* KEYCTL_GET_KEYRING_ID */, -3 /* session */, 0); }},
      {"add_key", [] { return syscall(SYS_add_key, "banklab-no-such-type", "x", nullptr, 0, -3); }},
      {"request_key", [] { return syscall(SYS_request_key, "banklab-no-such-type", "x", nullptr, 0); }},
      {"kcmp", [] { return syscall(SYS_kcmp, getpid(), getpid(), 1 /* KCMP_VM */, 0, 0); }},
      {"process_vm_readv", [] { return syscall(SYS_process_vm_readv, getpid(), nullptr, 0, nullptr, 0, 0); }},
      {"pidfd_getfd", [] { return syscall(SYS_pidfd_getfd, -1, 0, 0); }},
      {"name_to_handle_at", [] {
         int mount_id = 0;
         return syscall(SYS_name_to_handle_at, AT_FDCWD, "/", handle, &mount_id, 0);
       }},
      {"perf_event_open", [] { return syscall(SYS_perf_event_open, nullptr, 0, -1, -1, 0); }},
      {"bpf", [] { return syscall(SYS_bpf, -1, nullptr, 0); }},
      {"personality", [] { return syscall(SYS_personality, PER_LINUX); }},
      // Typing into a terminal (on no file: unconfined the kernel answers EBADF).
      {"ioctl(TIOCSTI)", [] {
         static char c = 'x';
         return syscall(SYS_ioctl, -1, TIOCSTI, &c);
       }},
      {"ioctl(TIOCLINUX)", [] {
         static char sub = 6;
         return syscall(SYS_ioctl, -1, TIOCLINUX, &sub);
       }},
  };
  for (const Call& c : calls) {
    errno = 0;
    const long result = c.make();
    if (result < 0 && errno == EPERM) {
      std::printf("denied %s\n", c.name);
    } else {
      std::printf("reached %s (%s)\n", c.name, result < 0 ? std::strerror(errno) : "succeeded");
      if (result > 2 && (std::strcmp(c.name, "io_uring_setup") == 0)) close(static_cast<int>(result));
    }
  }
  return 0;
}

int new_namespace() {
  if (unshare(CLONE_NEWUSER) != 0) return denied("unshare(CLONE_NEWUSER)");
  std::printf("ok unshare\n");
  return 0;
}

// The same namespace through clone(): a child in a user namespace of its own
// (root there), which exits at once.
int clone_namespace() {
  const long child = syscall(SYS_clone, CLONE_NEWUSER | SIGCHLD, 0, nullptr, nullptr, 0);
  if (child < 0) return denied("clone(CLONE_NEWUSER)");
  if (child == 0) _exit(0);
  waitpid(static_cast<pid_t>(child), nullptr, 0);
  std::printf("ok clone\n");
  return 0;
}

// What the emulator needs must still work: threads, a timer that signals a
// thread, the affinity mask.
int threads() {
  int value = 0;
  std::thread([&] { value = 42; }).join();
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return denied("sched_getaffinity");
  timer_t timer;
  sigevent event = {};
  event.sigev_notify = SIGEV_SIGNAL;
  event.sigev_signo = SIGUSR1;
  signal(SIGUSR1, SIG_IGN);
  if (timer_create(CLOCK_MONOTONIC, &event, &timer) != 0) return denied("timer_create");
  timer_delete(timer);
  std::printf("ok threads %d\n", value);
  return 0;
}

// A child that leaves the process group and the session and sleeps, marked
// on its command line so that the test can look for it afterwards.
int detach(char* self, char* marker) {
  const pid_t child = fork();
  if (child == 0) {
    setsid();
    char sleeping[] = "sleeping";
    char* args[] = {self, sleeping, marker, nullptr};
    execv("/proc/self/exe", args);
    _exit(1);
  }
  std::printf("ok detach\n");
  return 0;
}

// Forks children that sleep, one every 5 ms, up to 200 of them: a fork loop
// slow enough that the process count (checked every 100 ms) sees it.
int fork_loop() {
  for (int i = 0; i < 200; ++i) {
    const pid_t child = fork();
    if (child < 0) return denied("fork");
    if (child == 0) {
      sleep(60);
      _exit(0);
    }
    usleep(5000);
  }
  std::printf("ok fork-loop 200\n");
  return 0;
}

// Starts `n` children that live 2 seconds together (the process count is
// checked every 100 ms), waits for them, and says so: `n` just over or under
// a process limit.
int fork_children(int n) {
  for (int i = 0; i < n; ++i) {
    const pid_t child = fork();
    if (child < 0) return denied("fork");
    if (child == 0) {
      sleep(2);
      _exit(0);
    }
  }
  while (wait(nullptr) > 0) {
  }
  std::printf("ok fork %d\n", n);
  return 0;
}

// Allocates and touches `mib` MiB, 16 MiB every 20 ms.
int hog(int mib) {
  for (int done = 0; done < mib; done += 16) {
    auto* chunk = static_cast<char*>(std::malloc(std::size_t{16} << 20));
    if (chunk == nullptr) return denied("malloc");
    std::memset(chunk, 1, std::size_t{16} << 20);
    usleep(20000);
  }
  std::printf("ok hog %d\n", mib);
  return 0;
}

// Busy for `seconds` seconds.
int spin(int seconds) {
  const time_t end = time(nullptr) + seconds;
  volatile unsigned long n = 0;
  while (time(nullptr) < end) ++n;
  std::printf("ok spin %d\n", seconds);
  return 0;
}

// Writes a file of `mib` MiB in its working folder.
int big_file(int mib) {
  FILE* f = std::fopen("big-file.bin", "wb");
  if (f == nullptr) return denied("write big-file.bin");
  static char block[1 << 20];
  for (int i = 0; i < mib; ++i) {
    if (std::fwrite(block, 1, sizeof block, f) != sizeof block || std::fflush(f) != 0) {
      std::fclose(f);
      return denied("write past " + std::to_string(i) + " MiB");
    }
  }
  std::fclose(f);
  std::printf("ok big-file %d\n", mib);
  return 0;
}

// The character devices a runner's libraries use: each opened and read (16
// bytes), /dev/full written (it must refuse with ENOSPC), two reads of
// /dev/urandom compared (they differ).
int devices() {
  for (const char* path : {"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom"}) {
    FILE* f = std::fopen(path, "rb");
    if (f == nullptr) return denied(std::string("open ") + path);
    unsigned char bytes[16] = {};
    const std::size_t n = std::fread(bytes, 1, sizeof bytes, f);
    std::fclose(f);
    std::printf("ok device %s %zu\n", path, n);
  }
  FILE* full = std::fopen("/dev/full", "wb");
  if (full == nullptr) return denied("open /dev/full for writing");
  const bool refused = std::fputs("x", full) == EOF || std::fflush(full) != 0;
  const int error = errno;
  std::fclose(full);
  std::printf("%s write /dev/full%s\n", refused ? "ok" : "unexpected", refused && error == ENOSPC ? " ENOSPC" : "");
  unsigned char a[16] = {}, b[16] = {};
  FILE* u = std::fopen("/dev/urandom", "rb");
  if (u == nullptr) return denied("open /dev/urandom");
  const bool read_both = std::fread(a, 1, sizeof a, u) == sizeof a && std::fread(b, 1, sizeof b, u) == sizeof b;
  std::fclose(u);
  std::printf("%s urandom differs\n", read_both && std::memcmp(a, b, sizeof a) != 0 ? "ok" : "unexpected");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string command = argc > 1 ? argv[1] : "";
  if (command == "read" && argc == 3) return read_file(argv[2]);
  if (command == "write" && argc == 3) return write_file(argv[2]);
  if (command == "connect" && argc == 3) return connect_to(std::atoi(argv[2]));
  if (command == "sockets") return sockets();
  if (command == "syscalls") return syscalls();
  if (command == "proc" && argc == 3) return proc(argv[2]);
  if (command == "ptrace") return trace();
  if (command == "unshare") return new_namespace();
  if (command == "clone") return clone_namespace();
  if (command == "threads") return threads();
  if (command == "devices") return devices();
  if (command == "detach" && argc == 3) return detach(argv[0], argv[2]);
  if (command == "sleeping") return sleep(60), 0;
  if (command == "fork-loop") return fork_loop();
  if (command == "fork" && argc == 3) return fork_children(std::atoi(argv[2]));
  if (command == "hog" && argc == 3) return hog(std::atoi(argv[2]));
  if (command == "spin" && argc == 3) return spin(std::atoi(argv[2]));
  if (command == "big-file" && argc == 3) return big_file(std::atoi(argv[2]));
  if (command == "raise" && argc == 3) return raise(std::atoi(argv[2])), 0;
  std::fprintf(stderr, "usage: sandbox_probe read FILE | write FILE | connect PORT | sockets | proc PID | ptrace | unshare | clone | "
               "threads | devices | fork-loop | fork N | hog MIB | spin SECONDS | big-file MIB | raise SIGNAL\n");
  return 2;
}

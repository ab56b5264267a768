// banklab run: profile the shared-memory banks of any CUDA program on a CPU.
// Builds the program for the emulator (launches rewritten, CUDA's headers and
// runtime API answered by the emulator), runs it with its arguments, and
// prints per kernel and source line the shared-memory instructions,
// wavefronts, ideal wavefronts and conflicts, and the findings.
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "launch_rewrite.hpp"

namespace fs = std::filesystem;

namespace {

// Set by CMake (CMakeLists.txt in this folder): how the kit builds CUDA files
// for the emulator. Lists are separated by '\037'.
std::vector<std::string> split(const char* list) {
  std::vector<std::string> out;
  std::string item;
  for (const char* c = list; *c != '\0'; ++c) {
    if (*c == '\037') {
      if (!item.empty()) out.push_back(item);
      item.clear();
    } else {
      item += *c;
    }
  }
  if (!item.empty()) out.push_back(item);
  return out;
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::uint64_t fnv(const std::string& text, std::uint64_t h = 1469598103934665603ull) {
  for (unsigned char c : text) h = (h ^ c) * 1099511628211ull;
  return h;
}

std::string quoted(const std::vector<std::string>& argv) {
  std::string out;
  for (const auto& a : argv) {
    if (!out.empty()) out += ' ';
    if (a.find_first_of(" \t'\"$\\") == std::string::npos) {
      out += a;
    } else {
      out += '\'';
      for (char c : a) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
      out += '\'';
    }
  }
  return out;
}

// Runs a build step; returns its exit status, with what it printed in `output`.
int run_step(const std::vector<std::string>& argv, std::string& output) {
  std::string command = quoted(argv) + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return 127;
  char buffer[4096];
  while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) output += buffer;
  const int status = pclose(pipe);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

fs::path cache_root() {
  if (const char* cache = std::getenv("BANKLAB_CACHE_DIR")) return cache;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME")) return fs::path(xdg) / "banklab";
  if (const char* home = std::getenv("HOME")) return fs::path(home) / ".cache" / "banklab";
  return fs::temp_directory_path() / "banklab-cache";
}

// A CUDA Toolkit program: in BANKLAB_CUDA_BIN if set (only there), else on
// PATH, else in /usr/local/cuda/bin. "" if not found.
std::string find_tool(const std::string& name) {
  if (const char* bin = std::getenv("BANKLAB_CUDA_BIN")) {
    const fs::path tool = fs::path(bin) / name;
    return access(tool.c_str(), X_OK) == 0 ? tool.string() : "";
  }
  if (const char* path = std::getenv("PATH")) {
    std::istringstream dirs(path);
    std::string dir;
    while (std::getline(dirs, dir, ':')) {
      if (!dir.empty() && access((fs::path(dir) / name).c_str(), X_OK) == 0) return (fs::path(dir) / name).string();
    }
  }
  const fs::path fallback = fs::path("/usr/local/cuda/bin") / name;
  return access(fallback.c_str(), X_OK) == 0 ? fallback.string() : "";
}

// nvcc's own shared-memory instructions of the program: nvcc -cubin for sm_90
// with line information, then nvdisasm -g. Writes DIR/nvcc.sass, or
// DIR/nvcc.sass.missing with the reason it could not (one line).
void disassemble_with_nvcc(const fs::path& source, const fs::path& dir) {
  const std::string nvcc = find_tool("nvcc"), nvdisasm = find_tool("nvdisasm");
  std::string reason;
  std::string output;
  if (nvcc.empty()) {
    reason = "nvcc not found (the CUDA Toolkit's compiler)";
  } else if (nvdisasm.empty()) {
    reason = "nvdisasm not found (the CUDA Toolkit's disassembler; Debian: nvidia-cuda-toolkit, NVIDIA: cuda-nvdisasm)";
  } else if (run_step({nvcc, "-cubin", "-arch=sm_90", "-lineinfo", "-I" + source.parent_path().string(), "-o",
                       (dir / "program.cubin").string(), source.string()},
                      output) != 0) {
    reason = "nvcc -cubin -arch=sm_90 did not compile the program";
  } else {
    output.clear();
    // -gi: line information with inlining (an atomicAdd's instruction at the
    // caller's line, not in the CUDA header that defines it).
    if (run_step({nvdisasm, "-gi", "-c", (dir / "program.cubin").string()}, output) != 0) {
      reason = "nvdisasm failed on nvcc's code";
    } else {
      std::ofstream(dir / "nvcc.sass") << output;
      return;
    }
  }
  std::ofstream(dir / "nvcc.sass.missing") << reason;
}

struct RunOptions {
  std::string program;
  std::vector<std::string> args;
  std::string kernel;
  std::uint64_t blocks = 0;
  unsigned jobs = 0;  // 0: one per core
  double time_limit = 60.0;
  std::string format = "text";
  bool verbose = false;
  bool rebuild = false;
};

// Builds `program` for the emulator (cached); returns the executable, or
// exits with 2 and the compiler's messages.
fs::path build(const RunOptions& o) {
  const fs::path source = fs::absolute(o.program);
  std::error_code error;
  if (!fs::is_regular_file(source, error)) {
    std::cerr << "banklab run: " << o.program << ": no such file (give the path of a CUDA source file, like prog.cu)\n";
    std::exit(2);
  }
  banklab::cli::Rewritten rewritten;
  try {
    rewritten = banklab::cli::rewrite_launches(read_file(source));
  } catch (const banklab::cli::RewriteError& e) {
    std::cerr << o.program << ":" << e.line << ": " << e.what() << "\n";
    std::exit(2);
  }
  const std::vector<std::string> flags = split(BANKLAB_RUN_KERNEL_FLAGS);
  const std::vector<std::string> includes = split(BANKLAB_RUN_INCLUDE_DIRS);
  const std::vector<std::string> libraries = split(BANKLAB_RUN_LIBRARIES);
  // The key: the rewritten source, the headers beside it, the flags and the kit's libraries.
  std::uint64_t key = fnv(rewritten.text);
  key = fnv(source.string(), key);
  for (const auto& f : flags) key = fnv(f, key);
  for (const auto& dir : includes) key = fnv(dir, key);
  std::vector<fs::path> inputs;
  for (const auto& entry : fs::directory_iterator(source.parent_path(), error)) {
    const std::string ext = entry.path().extension().string();
    if (ext == ".h" || ext == ".hpp" || ext == ".cuh" || ext == ".inl") inputs.push_back(entry.path());
  }
  for (const auto& lib : libraries) inputs.push_back(lib);
  inputs.push_back(BANKLAB_RUN_DYNAMIC_SHARED_SCRIPT);
  for (const auto& dir : includes) {
    for (const auto& entry : fs::recursive_directory_iterator(dir, error)) {
      if (entry.is_regular_file()) inputs.push_back(entry.path());
    }
  }
  std::sort(inputs.begin(), inputs.end());
  for (const auto& input : inputs) key = fnv(input.string() + "\n" + read_file(input), key);
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(key));
  const fs::path final_dir = cache_root() / "run" / (source.stem().string() + "-" + hex);
  const fs::path final_executable = final_dir / source.stem();
  if (!o.rebuild && fs::exists(final_executable, error)) return final_executable;
  // Built in a folder of its own, then renamed into place: two runs of the
  // same program at once never see a half-written build.
  const fs::path dir = final_dir.string() + ".building-" + std::to_string(getpid());
  const fs::path executable = dir / source.stem();
  fs::remove_all(dir, error);
  fs::create_directories(dir, error);
  if (error) {
    std::cerr << "banklab run: cannot create the build folder " << dir << ": " << error.message()
              << " (set BANKLAB_CACHE_DIR to a writable folder)\n";
    std::exit(2);
  }
  // The rewritten copy keeps the original's name and lines for every message.
  const fs::path copy = dir / (source.stem().string() + ".rewritten.cpp");
  {
    std::ofstream out(copy);
    out << "#line 1 \"" << source.string() << "\"\n" << rewritten.text;
  }
  // Headers beside the program that launch kernels are rewritten too, into a
  // folder searched before the program's own.
  const fs::path rewritten_headers = dir / "include";
  fs::create_directories(rewritten_headers, error);
  for (const auto& header : inputs) {
    if (header.parent_path() != source.parent_path()) continue;
    const std::string text = read_file(header);
    if (text.find("<<<") == std::string::npos) continue;
    try {
      const banklab::cli::Rewritten h = banklab::cli::rewrite_launches(text);
      std::ofstream out(rewritten_headers / header.filename());
      out << "#line 1 \"" << header.string() << "\"\n" << h.text;
      rewritten.launches += h.launches;
    } catch (const banklab::cli::RewriteError& e) {
      std::cerr << header.string() << ":" << e.line << ": " << e.what() << "\n";
      fs::remove_all(dir, error);
      std::exit(2);
    }
  }
  std::cerr << "banklab run: building " << source.filename().string() << " for the CPU emulator ("
            << rewritten.launches << " kernel launch" << (rewritten.launches == 1 ? "" : "es") << ")\n";
  std::vector<std::string> compile = {BANKLAB_RUN_CXX,     "-std=c++17",
                                      "-iquote",           rewritten_headers.string(),
                                      "-iquote",           source.parent_path().string(),
                                      "-I" + rewritten_headers.string(),
                                      "-I" + source.parent_path().string()};
  for (const auto& inc : includes) compile.push_back("-I" + inc);
  compile.insert(compile.end(), flags.begin(), flags.end());
  compile.insert(compile.end(), {"-include", "banklab/cuda_launch.hpp", "-x", "c++", "-c", copy.string(), "-o",
                                 (dir / "program.o").string()});
  const std::vector<std::vector<std::string>> steps = {
      compile,
      {"sh", BANKLAB_RUN_DYNAMIC_SHARED_SCRIPT, (dir / "dynamic_shared.cpp").string(), (dir / "program.o").string()},
      {BANKLAB_RUN_CXX, "-c", (dir / "dynamic_shared.cpp").string(), "-o", (dir / "dynamic_shared.o").string()},
  };
  for (const auto& step : steps) {
    std::string output;
    if (run_step(step, output) != 0) {
      std::cerr << output << "banklab run: " << source.filename().string()
                << " does not build for the CPU emulator (the messages above name the line)\n";
      fs::remove_all(dir, error);
      std::exit(2);
    }
    if (!output.empty() && &step == &steps.front()) std::cerr << output;
  }
  std::vector<std::string> link = {BANKLAB_RUN_CXX, "-o", executable.string(), (dir / "program.o").string(),
                                   (dir / "dynamic_shared.o").string()};
  link.insert(link.end(), libraries.begin(), libraries.end());
  link.insert(link.end(), {"-ldl", "-lpthread", "-Wl,--emit-relocs"});
  std::string output;
  if (run_step(link, output) != 0) {
    std::cerr << output << "banklab run: " << source.filename().string() << " does not link (see above)\n";
    fs::remove_all(dir, error);
    std::exit(2);
  }
  disassemble_with_nvcc(source, dir);
  if (o.rebuild) fs::remove_all(final_dir, error);
  fs::rename(dir, final_dir, error);
  if (error) {
    // Another run finished the same build first: use that one.
    fs::remove_all(dir, error);
  }
  return final_executable;
}

int run(const RunOptions& o) {
  const fs::path executable = build(o);
  char report_path[] = "/tmp/banklab-report-XXXXXX";
  const int report_fd = mkstemp(report_path);
  if (report_fd < 0) {
    std::perror("banklab run: cannot create a temporary file");
    return 2;
  }
  close(report_fd);
  std::ostringstream settings;
  settings << "format=" << o.format << ";verbose=" << (o.verbose ? 1 : 0) << ";time_limit=" << o.time_limit
           << ";blocks=" << o.blocks << ";jobs=" << o.jobs << ";report=" << report_path;
  if (!o.kernel.empty()) settings << ";kernel=" << o.kernel;
  // What nvcc makes of the same program, for the lines it compiles differently.
  const fs::path sass = executable.parent_path() / "nvcc.sass";
  std::error_code exists_error;
  if (fs::exists(sass, exists_error)) {
    settings << ";sass=" << sass.string();
  } else {
    std::string reason = read_file(executable.parent_path() / "nvcc.sass.missing");
    std::replace(reason.begin(), reason.end(), ';', ',');
    settings << ";sass_missing=" << (reason.empty() ? "not made" : reason);
  }
  std::fflush(stdout);
  const pid_t pid = fork();
  if (pid == 0) {
    setenv("BANKLAB_RUN", settings.str().c_str(), 1);
    // With --format json, stdout carries only the report: the program's own
    // output goes to stderr.
    if (o.format == "json") dup2(2, 1);
    std::vector<std::string> argv = {executable.string()};
    argv.insert(argv.end(), o.args.begin(), o.args.end());
    std::vector<char*> args;
    for (auto& a : argv) args.push_back(a.data());
    args.push_back(nullptr);
    execv(args[0], args.data());
    std::perror("banklab run: cannot start the program");
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  const std::string report = read_file(report_path);
  std::remove(report_path);
  std::cout << report << std::flush;
  if (WIFSIGNALED(status)) {
    std::cerr << "banklab run: the program was killed by signal " << WTERMSIG(status) << " (" << strsignal(WTERMSIG(status))
              << ")" << (report.empty() ? " before it could write its report (a crash in host code?)" : "") << "\n";
    return 128 + WTERMSIG(status);
  }
  if (report.empty()) {
    std::cerr << "banklab run: the program ended without its report (did it call _exit or abort?)\n";
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"BankLab: CUDA shared-memory bank conflicts, on any Linux machine"};
  app.require_subcommand(1);
  RunOptions o;
  CLI::App* run_command = app.add_subcommand(
      "run",
      "Build a CUDA program for the CPU emulator, run it with its arguments, and print per kernel and source line "
      "its shared-memory instructions, wavefronts, ideal wavefronts and bank conflicts (as Nsight Compute's source "
      "view counts them on an H200), with races, uninitialised reads and out-of-bounds accesses. Options go before "
      "the program; everything after it is the program's.");
  run_command->add_option("--kernel", o.kernel, "trace only kernels whose name contains NAME (the others run, untraced)");
  run_command->add_option("--blocks", o.blocks,
                          "trace at most N blocks of each launch, spread over the grid (big launches); every block "
                          "still runs")
      ->check(CLI::PositiveNumber);
  run_command->add_option("--jobs,-j", o.jobs,
                          "run the blocks of a launch on N cores at once (default: every core); the report is the "
                          "same for any N")
      ->check(CLI::Range(1u, 1024u));
  run_command->add_option("--time-limit", o.time_limit, "seconds each launch may run (default 60)")
      ->check(CLI::PositiveNumber);
  run_command->add_option("--format", o.format, "text (default) or json (the program's own output then goes to stderr)")
      ->check(CLI::IsMember({"text", "json"}));
  run_command->add_flag("--verbose,-v", o.verbose, "show each line's worst warp instruction and its bank map");
  run_command->add_flag("--rebuild", o.rebuild, "build again even if a cached build exists");
  run_command->prefix_command();  // the program and everything after it are left in remaining()
  run_command->footer(
      "Usage: banklab run [OPTIONS] PROGRAM.cu [PROGRAM ARGUMENTS...]\n"
      "Example: banklab run --verbose matmul.cu 512\n"
      "The build is cached (BANKLAB_CACHE_DIR, else ~/.cache/banklab). Exit status: the program's; 2 when it does "
      "not build.");
  CLI11_PARSE(app, argc, argv);
  if (run_command->parsed()) {
    const auto rest = run_command->remaining();
    if (rest.empty()) {
      std::cerr << "banklab run: give the CUDA program to run, e.g. banklab run prog.cu (see banklab run --help)\n";
      return 2;
    }
    o.program = rest.front();
    o.args.assign(rest.begin() + 1, rest.end());
    return run(o);
  }
  return 0;
}

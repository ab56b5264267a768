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
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "banklab/guarded_calls.hpp"
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
// PATH, else in /usr/local/cuda/bin, else in the build's cuda-tools/bin
// (where setup.sh puts NVIDIA's nvdisasm from PyPI). "" if not found.
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
  for (const fs::path& dir : {fs::path("/usr/local/cuda/bin"), fs::path(BANKLAB_CUDA_TOOLS_DIR)}) {
    if (access((dir / name).c_str(), X_OK) == 0) return (dir / name).string();
  }
  return "";
}

// "13.0" of a CUDA tool's --version ("... release 13.0, V13.0.88"), or "".
std::string tool_release(const std::string& tool) {
  std::string output;
  if (run_step({tool, "--version"}, output) != 0) return "";
  const auto at = output.find("release ");
  if (at == std::string::npos) return "";
  const auto end = output.find_first_of(", \n", at + 8);
  return output.substr(at + 8, end == std::string::npos ? std::string::npos : end - at - 8);
}

// nvcc's own shared-memory instructions of the program: each CUDA file
// compiled by nvcc -cubin for sm_90 with line information, then nvdisasm -gi.
// Writes DIR/nvcc.sass, or DIR/nvcc.sass.missing with the reason it could
// not (one line).
void disassemble_with_nvcc(const std::vector<fs::path>& sources, const std::vector<std::string>& user_flags,
                           const fs::path& dir) {
  const std::string nvcc = find_tool("nvcc"), nvdisasm = find_tool("nvdisasm");
  std::string reason;
  std::string sass;
  if (nvcc.empty()) {
    reason = "nvcc not found (the CUDA Toolkit's compiler)";
  } else if (nvdisasm.empty()) {
    reason =
        "nvdisasm not found (the CUDA Toolkit's disassembler; sh common/scripts/setup.sh --deps-only installs "
        "NVIDIA's nvidia-cuda-nvdisasm from PyPI into the build's cuda-tools/, or install cuda-nvdisasm)";
  }
  for (std::size_t i = 0; reason.empty() && i < sources.size(); ++i) {
    if (sources[i].extension() != ".cu") continue;  // host code: nothing for nvcc to disassemble
    const std::string cubin = (dir / ("program" + std::to_string(i) + ".cubin")).string();
    std::vector<std::string> compile = {nvcc, "-cubin", "-arch=sm_90", "-lineinfo",
                                        "-I" + sources[i].parent_path().string()};
    compile.insert(compile.end(), user_flags.begin(), user_flags.end());
    compile.insert(compile.end(), {"-o", cubin, sources[i].string()});
    std::string output;
    if (run_step(compile, output) != 0) {
      reason = "nvcc -cubin -arch=sm_90 did not compile " + sources[i].filename().string();
      break;
    }
    output.clear();
    // -gi: line information with inlining (an atomicAdd's instruction at the
    // caller's line, not in the CUDA header that defines it).
    if (run_step({nvdisasm, "-gi", "-c", cubin}, output) != 0) {
      reason = "nvdisasm failed on nvcc's code for " + sources[i].filename().string();
      break;
    }
    sass += output;
  }
  if (reason.empty()) {
    std::ofstream(dir / "nvcc.sass") << sass;
    // Which tools made it, for the report: nvdisasm may be a newer release
    // than nvcc (PyPI has no nvdisasm for every nvcc); it reads older cubins.
    std::ofstream(dir / "nvcc.sass.tools")
        << "nvcc " << tool_release(nvcc) << ", nvdisasm " << tool_release(nvdisasm) << " (" << nvdisasm << ")";
  } else {
    std::ofstream(dir / "nvcc.sass.missing") << reason;
  }
}

struct RunOptions {
  std::vector<std::string> sources;  // the program's files: .cu, .cpp, ...
  std::vector<std::string> args;
  std::vector<std::string> include_dirs;  // -I
  std::vector<std::string> defines;       // -D
  std::vector<std::string> libraries;     // -l
  std::vector<std::string> library_dirs;  // -L
  bool cublas = false;                    // -lcublas: the emulator's cuBLAS
  std::string kernel;
  std::uint64_t blocks = 0;
  unsigned jobs = 0;  // 0: one per core
  double time_limit = 60.0;
  std::string format = "text";
  bool verbose = false;
  bool rebuild = false;
  bool as_compiled = false;
};

bool is_source_file(const std::string& arg) {
  const std::string ext = fs::path(arg).extension().string();
  return ext == ".cu" || ext == ".cpp" || ext == ".cc" || ext == ".cxx" || ext == ".C";
}

// "file:line" of line `line` (1-based) of preprocessed text, from its line markers.
std::string origin_of(const std::string& text, int line) {
  std::string file = "?";
  long at = line;
  std::istringstream in(text);
  std::string l;
  for (int n = 1; n < line && std::getline(in, l); ++n) {
    // # 12 "file" flags
    if (l.size() > 2 && l[0] == '#' && l[1] == ' ' && std::isdigit(static_cast<unsigned char>(l[2]))) {
      const auto open = l.find('"'), close = l.rfind('"');
      if (open != std::string::npos && close > open) {
        file = l.substr(open + 1, close - open - 1);
        at = std::strtol(l.c_str() + 2, nullptr, 10) - (n + 1) + line;
      }
    }
  }
  return file + ":" + std::to_string(at);
}

// Builds the program for the emulator (cached); returns the executable, or
// exits with 2 and the compiler's messages.
//
// Each file is preprocessed as it is (its includes resolve as nvcc would
// resolve them, through the kit's CUDA headers), every launch of the whole
// translation unit, headers included, is rewritten, and the result is
// compiled; line markers keep every message and every report line at the
// original file and line. The cache key is the rewritten text, so a change in
// any header, wherever it is, rebuilds.
fs::path build(const RunOptions& o) {
  std::vector<fs::path> sources;
  std::error_code error;
  for (const auto& name : o.sources) {
    const fs::path source = fs::absolute(name);
    if (!fs::is_regular_file(source, error)) {
      std::cerr << "banklab run: " << name << ": no such file (give the path of a CUDA source file, like prog.cu)\n";
      std::exit(2);
    }
    sources.push_back(source);
  }
  const fs::path& main_source = sources.front();
  const std::vector<std::string> flags = split(BANKLAB_RUN_KERNEL_FLAGS);
  const std::vector<std::string> includes = split(BANKLAB_RUN_INCLUDE_DIRS);
  const std::vector<std::string> libraries = split(BANKLAB_RUN_LIBRARIES);
  std::vector<std::string> user_flags;  // -I and -D, for both compilers
  for (const auto& dir : o.include_dirs) user_flags.push_back("-I" + fs::absolute(dir).string());
  for (const auto& define : o.defines) user_flags.push_back("-D" + define);
  // The flags for compiling preprocessed text: the kit's, without its -include.
  std::vector<std::string> compile_flags;
  for (std::size_t i = 0; i < flags.size(); ++i) {
    if (flags[i] == "-include") {
      ++i;
      continue;
    }
    compile_flags.push_back(flags[i]);
  }
  // Preprocessed into a scratch folder, which becomes the build folder when
  // the build is not cached yet; renamed into place at the end, so two runs
  // of the same program at once never see a half-written build.
  const fs::path runs = cache_root() / "run";
  const fs::path dir = runs / (main_source.stem().string() + ".building-" + std::to_string(getpid()));
  fs::remove_all(dir, error);
  fs::create_directories(dir, error);
  if (error) {
    std::cerr << "banklab run: cannot create the build folder " << dir << ": " << error.message()
              << " (set BANKLAB_CACHE_DIR to a writable folder)\n";
    std::exit(2);
  }
  auto fail = [&](const std::string& output, const std::string& what) {
    std::cerr << output << "banklab run: " << what << "\n";
    fs::remove_all(dir, error);
    std::exit(2);
  };
  std::uint64_t key = fnv(BANKLAB_RUN_CXX);
  for (const auto& f : flags) key = fnv(f, key);
  for (const auto& f : user_flags) key = fnv(f, key);
  for (const char* name : banklab::emu::kGuardedCalls) key = fnv(name, key);
  int launches = 0;
  int graph_kernels = 0;
  std::vector<fs::path> units;  // rewritten preprocessed files
  for (std::size_t i = 0; i < sources.size(); ++i) {
    const fs::path preprocessed = dir / (sources[i].stem().string() + "." + std::to_string(i) + ".ii");
    std::vector<std::string> preprocess = {BANKLAB_RUN_CXX, "-std=c++17", "-E"};
    preprocess.insert(preprocess.end(), user_flags.begin(), user_flags.end());
    for (const auto& inc : includes) preprocess.push_back("-I" + inc);
    // A CUDA file gets what nvcc gives every CUDA file: its macros and the
    // CUDA headers, included before the first line. A host file (.cpp ...),
    // which nvcc leaves to the host compiler, gets nothing: it sees CUDA only
    // through the headers it includes itself.
    const bool cuda_file = sources[i].extension() == ".cu";
    const std::vector<std::string>& file_flags = cuda_file ? flags : compile_flags;  // with or without -include
    preprocess.insert(preprocess.end(), file_flags.begin(), file_flags.end());
    if (cuda_file) {
      preprocess.insert(preprocess.end(), {"-D__CUDACC__", "-D__NVCC__", "-include", "banklab/cuda_launch.hpp"});
    }
    preprocess.insert(preprocess.end(), {"-x", "c++", sources[i].string(), "-o", preprocessed.string()});
    std::string output;
    if (run_step(preprocess, output) != 0) {
      fail(output,
           sources[i].filename().string() + " does not build for the CPU emulator (the messages above name the line)");
    }
    const std::string text = read_file(preprocessed);
    banklab::cli::Rewritten rewritten;
    try {
      rewritten = banklab::cli::rewrite_launches(text, includes);
    } catch (const banklab::cli::RewriteError& e) {
      std::cerr << origin_of(text, e.line) << ": " << e.what() << "\n";
      fs::remove_all(dir, error);
      std::exit(2);
    }
    launches += rewritten.launches;
    graph_kernels += rewritten.graph_kernels;
    std::ofstream(preprocessed) << rewritten.text;
    key = fnv(rewritten.text, key);
    units.push_back(preprocessed);
  }
  for (const auto& input : libraries) key = fnv(input + "\n" + read_file(input), key);
  // The program's own libraries (-L, -l): their names, and the files they resolve to now.
  std::vector<std::string> user_link;
  for (const auto& folder : o.library_dirs) {
    const std::string absolute = fs::absolute(folder).string();
    user_link.insert(user_link.end(), {"-L" + absolute, "-Wl,-rpath," + absolute});
  }
  for (const auto& name : o.libraries) {
    user_link.push_back("-l" + name);
    for (const auto& folder : o.library_dirs) {
      for (const char* form : {".a", ".so"}) {
        const fs::path file = fs::path(folder) / ("lib" + name + form);
        if (fs::exists(file, error)) key = fnv(file.string() + "\n" + read_file(file.string()), key);
      }
    }
  }
  if (o.cublas) {
    for (const auto& library : split(BANKLAB_RUN_CUBLAS_LIBRARIES)) {
      user_link.push_back(library);
      key = fnv(library + "\n" + read_file(library), key);
    }
  }
  for (const auto& flag : user_link) key = fnv(flag, key);
  key = fnv(find_tool("nvcc") + "\n" + find_tool("nvdisasm"), key);  // a comparison made, or not, with these
  key = fnv(read_file(BANKLAB_RUN_DYNAMIC_SHARED_SCRIPT), key);
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(key));
  const fs::path final_dir = runs / (main_source.stem().string() + "-" + hex);
  const fs::path final_executable = final_dir / main_source.stem();
  if (!o.rebuild && fs::exists(final_executable, error)) {
    fs::remove_all(dir, error);
    return final_executable;
  }
  std::cerr << "banklab run: building " << main_source.filename().string()
            << (sources.size() > 1
                    ? " and " + std::to_string(sources.size() - 1) + " more file" + (sources.size() > 2 ? "s" : "")
                    : "")
            << " for the CPU emulator (" << launches << " kernel launch" << (launches == 1 ? "" : "es")
            << (graph_kernels > 0 ? ", " + std::to_string(graph_kernels) + " function" +
                                        (graph_kernels == 1 ? "" : "s") + " for graph nodes"
                                  : "")
            << ")\n";
  std::vector<std::string> objects;
  for (const auto& unit : units) {
    const std::string object = fs::path(unit).replace_extension(".o").string();
    std::vector<std::string> compile = {BANKLAB_RUN_CXX, "-std=c++17"};
    compile.insert(compile.end(), compile_flags.begin(), compile_flags.end());
    compile.insert(compile.end(), {"-x", "c++-cpp-output", "-c", unit.string(), "-o", object});
    std::string output;
    if (run_step(compile, output) != 0) {
      fail(output, unit.filename().string().substr(0, unit.filename().string().find('.')) +
                       " does not build for the CPU emulator (the messages above name the line)");
    }
    std::cerr << output;
    // The library calls that touch memory inside the library (memcpy into
    // shared memory, modff's second result, ...) go to the emulator's checked
    // versions, which price them as the kernel's own accesses.
    std::vector<std::string> redirect = {"objcopy"};
    for (const char* name : banklab::emu::kGuardedCalls) {
      redirect.push_back(std::string("--redefine-sym=") + name + "=" + banklab::emu::kGuardedPrefix + name);
    }
    redirect.push_back(object);
    if (run_step(redirect, output) != 0) fail(output, "objcopy could not prepare " + object + " (binutils)");
    objects.push_back(object);
  }
  std::vector<std::string> shared = {"sh", BANKLAB_RUN_DYNAMIC_SHARED_SCRIPT, (dir / "dynamic_shared.cpp").string()};
  shared.insert(shared.end(), objects.begin(), objects.end());
  for (const auto& step : std::vector<std::vector<std::string>>{
           shared,
           {BANKLAB_RUN_CXX, "-c", (dir / "dynamic_shared.cpp").string(), "-o", (dir / "dynamic_shared.o").string()}}) {
    std::string output;
    if (run_step(step, output) != 0) fail(output, "the dynamic shared memory of the program could not be defined");
  }
  const fs::path executable = dir / main_source.stem();
  std::vector<std::string> link = {BANKLAB_RUN_CXX, "-o", executable.string()};
  link.insert(link.end(), objects.begin(), objects.end());
  link.push_back((dir / "dynamic_shared.o").string());
  link.insert(link.end(), user_link.begin(), user_link.end());
  link.insert(link.end(), libraries.begin(), libraries.end());
  link.insert(link.end(), {"-ldl", "-lpthread", "-Wl,--emit-relocs"});
  std::string output;
  if (run_step(link, output) != 0) {
    if (!o.cublas && output.find("undefined reference to `cublas") != std::string::npos) {
      fail(output, main_source.filename().string() +
                       " calls cuBLAS: link it as nvcc does, with -lcublas (banklab run "
                       "-lcublas " +
                       main_source.filename().string() + ")");
    }
    fail(output,
         main_source.filename().string() + " does not link (see above" +
             (sources.size() == 1 ? "; a program of several files: banklab run main.cu other.cu ... -- ARGS" : "") +
             "; a host library it needs: -l NAME, and -L DIR where it is)");
  }
  disassemble_with_nvcc(sources, user_flags, dir);
  std::ofstream(dir / "launches.txt") << launches + graph_kernels << "\n";  // for run()'s verdict on a run without launches
  if (o.rebuild) fs::remove_all(final_dir, error);
  fs::rename(dir, final_dir, error);
  if (error) {
    // Another run finished the same build first: use that one.
    fs::remove_all(dir, error);
  }
  return final_executable;
}

// --time-limit: a plain number of seconds, 0.001 to 86400; "nan", "inf",
// "1e20" and "-1" are refused with the range in words.
CLI::Validator seconds_option() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        char* end = nullptr;
        errno = 0;
        const double value = std::strtod(text.c_str(), &end);
        if (text.empty() || end == text.c_str() || *end != '\0' || errno == ERANGE || !std::isfinite(value) ||
            value < 0.001 || value > 86400) {
          return "'" + text + "' is not a number of seconds from 0.001 to 86400";
        }
        return "";
      },
      "SECONDS");
}

// The exit status of a run stopped at --time-limit (as timeout(1) has it).
constexpr int kTimeLimitStatus = 124;

// CUDA's runtime and driver libraries named with -l are the emulator itself
// (dropped, as is -lcurand), -lcublas is the emulator's cuBLAS (compat/cublas_api.h) where
// this build has OpenBLAS; CUDA's other libraries are refused by name.
bool link_libraries_usable(RunOptions& o) {
  // -lcurand too: cuRAND (curand_kernel.h, curand.h) is part of the emulator.
  static const std::set<std::string> runtime = {"cudart", "cudart_static", "cuda", "cudadevrt", "curand"};
  static const std::set<std::string> absent = {"cublasLt", "cufft", "cusparse", "cusolver",
                                               "nppc",     "nvrtc", "cudnn",    "nvjpeg"};
  std::vector<std::string> kept;
  for (const std::string& name : o.libraries) {
    if (runtime.count(name) != 0) continue;
    if (name == "cublas") {
      if (std::string(BANKLAB_RUN_CUBLAS_LIBRARIES).empty()) {
        std::cerr
            << "banklab run: -lcublas: this build of the kit has no cuBLAS, because OpenBLAS was not found when "
               "it was configured: install it (apt-get install libopenblas-dev), then configure and build again\n";
        return false;
      }
      o.cublas = true;
      continue;
    }
    if (absent.count(name) != 0) {
      std::cerr << "banklab run: -l" << name << ": the CPU emulator has no lib" << name
                << " (CUDA's libraries run on a GPU only); run the kernels that use it on a GPU, or leave it out and "
                   "check the program's results another way\n";
      return false;
    }
    kept.push_back(name);
  }
  o.libraries = kept;
  return true;
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
  if (o.as_compiled) settings << ";as_compiled=1";
  // What nvcc makes of the same program, for the lines it compiles differently.
  const fs::path sass = executable.parent_path() / "nvcc.sass";
  std::error_code exists_error;
  if (fs::exists(sass, exists_error)) {
    settings << ";sass=" << sass.string();
    std::string tools = read_file(executable.parent_path() / "nvcc.sass.tools");
    std::replace(tools.begin(), tools.end(), ';', ',');
    if (!tools.empty()) settings << ";sass_tools=" << tools;
  } else {
    std::string reason = read_file(executable.parent_path() / "nvcc.sass.missing");
    std::replace(reason.begin(), reason.end(), ';', ',');
    settings << ";sass_missing=" << (reason.empty() ? "not made" : reason);
  }
  std::fflush(stdout);
  const pid_t pid = fork();
  if (pid == 0) {
    setenv("BANKLAB_RUN", settings.str().c_str(), 1);
    // With --format json or csv, stdout carries only the report: the
    // program's own output goes to stderr.
    if (o.format != "text") dup2(2, 1);
    std::vector<std::string> argv = {executable.string()};
    argv.insert(argv.end(), o.args.begin(), o.args.end());
    std::vector<char*> args;
    for (auto& a : argv) args.push_back(a.data());
    args.push_back(nullptr);
    execv(args[0], args.data());
    std::perror("banklab run: cannot start the program");
    _exit(127);
  }
  // The whole program, host code included, has --time-limit; each launch
  // stops at it by itself (with its line in the report), so the program gets
  // a little longer to write that report before it is stopped.
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::duration<double>(o.time_limit + std::min(5.0, 0.1 * o.time_limit + 1.0));
  int status = 0;
  bool stopped = false;
  while (waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() >= deadline) {
      // SIGTERM first: the program flushes what it printed and writes the
      // report of what ran; SIGKILL if it has not ended 2 s later.
      kill(pid, SIGTERM);
      const auto grace = std::chrono::steady_clock::now() + std::chrono::seconds(2);
      while (waitpid(pid, &status, WNOHANG) == 0) {
        if (std::chrono::steady_clock::now() >= grace) {
          kill(pid, SIGKILL);
          waitpid(pid, &status, 0);
          break;
        }
        usleep(10000);
      }
      stopped = true;
      break;
    }
    usleep(10000);
  }
  const std::string report = read_file(report_path);
  const std::string run_status = read_file(std::string(report_path) + ".status");
  std::remove(report_path);
  std::remove((std::string(report_path) + ".status").c_str());
  std::cout << report << std::flush;
  auto status_value = [&](const std::string& key) -> unsigned long long {
    const auto at = run_status.find(key + "=");
    return at == std::string::npos ? 0 : std::strtoull(run_status.c_str() + at + key.size() + 1, nullptr, 10);
  };
  std::ostringstream limit;
  limit << o.time_limit;
  if (stopped) {
    std::cerr << "banklab run: the program ran past the time limit of " << limit.str()
              << " s (the whole program, host code included) and was stopped: an endless loop? raise --time-limit"
              << (report.empty() ? "; it had no time to write its report" : "") << "\n";
    return kTimeLimitStatus;
  }
  if (status_value("stopped") > 0) {
    std::cerr << "banklab run: " << status_value("stopped") << " launch"
              << (status_value("stopped") == 1 ? " was" : "es were") << " stopped at the time limit of " << limit.str()
              << " s (the report names the kernel and its line): an endless loop, or more work than the emulator does "
                 "in that time? raise --time-limit\n";
    return kTimeLimitStatus;
  }
  if (WIFSIGNALED(status)) {
    std::cerr << "banklab run: the program was killed by signal " << WTERMSIG(status) << " ("
              << strsignal(WTERMSIG(status)) << ")"
              << (report.empty() ? " before it could write its report (a crash in host code?)" : "") << "\n";
    return 128 + WTERMSIG(status);
  }
  const int exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
  const std::string built_launches = read_file(executable.parent_path() / "launches.txt");
  if (!built_launches.empty() && std::strtoul(built_launches.c_str(), nullptr, 10) == 0 &&
      status_value("launches") == 0) {
    std::cerr << "banklab run: the program has no kernel launch (kernel<<<grid, block>>>(...) or cudaLaunchKernel) "
                 "for the emulator to trace: there is nothing to report\n";
  } else if (!run_status.empty() && status_value("launches") == 0) {
    std::cerr << "banklab run: the program ended (exit status " << exit_status << ") before its first kernel launch";
    if (status_value("failed_allocations") > 0) {
      std::cerr << ": " << status_value("failed_allocations") << " cudaMalloc call"
                << (status_value("failed_allocations") == 1 ? "" : "s") << " failed (the largest asked for "
                << status_value("largest_failed_allocation")
                << " bytes; the emulator's device memory is the host's memory: ask for less, or check the size)";
    } else {
      std::cerr << "; its own messages, above, say why";
    }
    std::cerr << "\n";
  } else if (report.empty()) {
    std::cerr << "banklab run: the program ended without its report (did it call _exit or abort?)\n";
  }
  return exit_status;
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
  run_command
      ->add_option("-I,--include-dir", o.include_dirs,
                   "a folder to search for #include files, as for nvcc (repeatable; the program's own folder "
                   "is searched already)")
      ->allow_extra_args(false);
  run_command->add_option("-D,--define", o.defines, "a macro NAME or NAME=VALUE, as for nvcc (repeatable)")
      ->allow_extra_args(false);
  run_command
      ->add_option("-l,--library", o.libraries,
                   "a host library to link the program with, as for nvcc (-lglut, -l m; repeatable); CUDA's "
                   "runtime (cudart, cuda) is the emulator itself, and -lcublas its cuBLAS (GEMM, GEMV, geam "
                   "and the axpy/dot family in float and double, on the CPU)")
      ->allow_extra_args(false);
  run_command
      ->add_option("-L,--library-dir", o.library_dirs,
                   "a folder to search for -l libraries, as for nvcc (repeatable; also searched when the "
                   "program runs)")
      ->allow_extra_args(false);
  run_command->add_option("--kernel", o.kernel,
                          "trace only kernels whose name contains NAME (the others run, untraced)");
  run_command
      ->add_option("--blocks", o.blocks,
                   "trace at most N blocks of each launch, spread over the grid (big launches); every block "
                   "still runs")
      ->check(CLI::PositiveNumber);
  run_command
      ->add_option("--jobs,-j", o.jobs,
                   "run the blocks of a launch on N cores at once (default: every core); the report is the "
                   "same for any N")
      ->check(CLI::Range(1u, 1024u));
  run_command
      ->add_option("--time-limit", o.time_limit,
                   "seconds the whole program may run, host code included; a launch still running then is "
                   "stopped at its line (default 60, at most 86400; exit status 124 when stopped)")
      ->check(seconds_option());
  run_command
      ->add_option("--format", o.format,
                   "text (default), json, or csv (a row per kernel and source line); with json or csv the program's "
                   "own output goes to stderr")
      ->check(CLI::IsMember({"text", "json", "csv"}));
  run_command->add_flag("--verbose,-v", o.verbose, "show each line's worst warp instruction and its bank map");
  run_command->add_flag("--rebuild", o.rebuild, "build again even if a cached build exists");
  run_command->add_flag("--as-compiled", o.as_compiled,
                        "also price each line as nvcc compiled it (nvdisasm of nvcc -arch=sm_90: adjacent accesses "
                        "merged into LDS.64/LDS.128, reloads and register-kept values dropped, atomics apart), as "
                        "Nsight Compute's source view counts it; needs nvcc and nvdisasm");
  run_command->prefix_command();  // the program and everything after it are left in remaining()
  run_command->footer(
      "Usage: banklab run [OPTIONS] PROGRAM.cu [MORE.cu|.cpp ...] [--] [PROGRAM ARGUMENTS...]\n"
      "The leading .cu/.cpp/.cc/.cxx files are the program (its main in any of them); the first other argument, or "
      "what follows --, starts the program's arguments.\n"
      "Examples: banklab run --verbose matmul.cu 512\n"
      "          banklab run -I ../../Common main.cpp bitonicSort.cu -- 1024\n"
      "The build is cached (BANKLAB_CACHE_DIR, else ~/.cache/banklab). Exit status: the program's; 2 when it does "
      "not build; 124 when it, or one of its launches, ran past --time-limit.");
  CLI11_PARSE(app, argc, argv);
  if (run_command->parsed()) {
    const auto rest = run_command->remaining();
    if (rest.empty()) {
      std::cerr << "banklab run: give the CUDA program to run, e.g. banklab run prog.cu (see banklab run --help)\n";
      return 2;
    }
    auto arg = rest.begin();
    if (*arg == "--" && rest.size() > 1) ++arg;
    o.sources.push_back(*arg++);
    while (arg != rest.end() && *arg != "--" && is_source_file(*arg)) o.sources.push_back(*arg++);
    if (arg != rest.end() && *arg == "--") ++arg;
    o.args.assign(arg, rest.end());
    if (!link_libraries_usable(o)) return 2;
    return run(o);
  }
  return 0;
}

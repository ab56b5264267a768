// The nvcc step of the integrity check (nvcc_check.hpp).
#include "nvcc_check.hpp"

#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "builder.hpp"
#include "process.hpp"
#include "sandbox.hpp"

namespace banklab::grader {

namespace fs = std::filesystem;

namespace {

std::string file_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string fnv(const std::string& text) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  std::ostringstream out;
  out << std::hex << h;
  return out.str();
}

// nvcc (EDG) writes "/path/transpose.cu(12): error: ..."; a compiler user
// and an editor expect "transpose.cu:12: error: ...". Paths of the student's
// own folder are shown by name, others (CUDA's headers) in full.
std::string student_lines(const std::string& output, const std::string& source) {
  const std::string folder = fs::path(source).parent_path().string() + "/";
  static const std::regex location(R"(^(\S[^(\n]*)\((\d+)\): )");
  std::istringstream in(output);
  std::string line, out;
  while (std::getline(in, line)) {
    std::smatch m;
    if (std::regex_search(line, m, location)) {
      std::string file = m[1];
      if (file.rfind(folder, 0) == 0) file = file.substr(folder.size());
      line = file + ":" + m[2].str() + ": " + m.suffix().str();
    }
    out += line + "\n";
  }
  return out;
}

}  // namespace

void check_with_nvcc(const Config& config, const std::string& source, const std::vector<std::string>& own_includes,
                     double limit_seconds) {
  if (config.nvcc.empty()) return;
  const std::string arch = config.cuda_architectures.empty() ? "90" : config.cuda_architectures.front();
  // The GPU build's language flags (builder.cpp: -std=c++17 -rdc=true, so
  // that a stage's __device__ functions may be called from another file),
  // stopping at PTX: cudafe++ and cicc report device-side errors, ptxas and
  // the host compiler are not run.
  std::vector<std::string> flags = {"-std=c++17", "-rdc=true", "-arch=compute_" + arch, "-ptx"};
  // A student's variant: the macros its file is built with (variant.hpp).
  flags.insert(flags.end(), config.variant_defines.begin(), config.variant_defines.end());
  std::string key = fs::path(config.nvcc).filename().string() + "\n" + source + "\n" + file_text(source);
  for (const auto& flag : flags) key += "\n" + flag;
  for (const auto& file : own_includes) key += "\n" + file + "\n" + file_text(file);
  const std::string record = config.cache_dir() + "/nvcc-" + fnv(key);
  if (fs::exists(record)) return;

  std::string scratch = (fs::temp_directory_path() / "banklab-nvcc-XXXXXX").string();
  if (mkdtemp(scratch.data()) == nullptr) return;  // no scratch space: the GPU build will say what nvcc says
  std::vector<std::string> cmd = {config.nvcc};
  cmd.insert(cmd.end(), flags.begin(), flags.end());
  cmd.insert(cmd.end(), {source, "-o", scratch + "/lab.ptx"});
  ProcessOptions options;
  options.output_cap = std::size_t{256} << 10;
  options.sandbox = compile_view(config, source);  // nvcc reads the submission: no view of solutions/ or build/
  options.sandbox->writable.push_back(scratch);
  lend_folder(scratch);  // the confined nvcc writes there as the sandbox's own user
  const ProcessResult r = run_process(cmd, limit_seconds, options);
  std::error_code ignored;
  fs::remove_all(scratch, ignored);
  const std::string name = fs::path(source).filename().string();
  if (r.sandbox_failed) {
    // The machine, not the file: nvcc never read it.
    throw BuildError(name + " could not be checked with nvcc: " + r.err.substr(0, r.err.find_last_not_of('\n') + 1),
                     "$ " + shell_quote(cmd), false);
  }
  if (r.failed_to_start || (r.exited && r.exit_code == 127)) return;  // nvcc is not really there
  if (!r.ok()) {
    const std::string said = student_lines(r.out + r.err, source);
    if (!r.exited) {
      // As the builder words it: the machine, not the file (raise --build-time-limit).
      throw BuildError(name + " for nvcc's check could not be built: the build " + r.describe(limit_seconds),
                       "$ " + shell_quote(cmd) + "\n" + said, false);
    }
    // The first error names the line; the rest follows as the build output.
    std::string first = said.substr(0, said.find('\n'));
    std::istringstream lines(said);
    for (std::string line; std::getline(lines, line);) {
      if (line.find(": error: ") != std::string::npos) {
        first = line;
        break;
      }
    }
    throw BuildError(name + " does not build with nvcc: " + first,
                     said + "\nnvcc compiles the file for a GPU; the emulator's compiler accepts more than "
                            "nvcc does (for example a kernel calling a function without __device__). Fix it so "
                            "that nvcc accepts it:\n$ " + shell_quote(cmd),
                     true);
  }
  fs::create_directories(config.cache_dir(), ignored);
  std::ofstream(record) << "nvcc accepted " << source << "\n";
}

std::string find_nvdisasm(const Config& config) {
  std::vector<fs::path> dirs;
  // Beside nvcc first: the disassembler of the same toolkit.
  if (config.nvcc.find('/') != std::string::npos) dirs.push_back(fs::path(config.nvcc).parent_path());
  if (const char* path = std::getenv("PATH")) {
    std::istringstream list(path);
    for (std::string dir; std::getline(list, dir, ':');) {
      if (!dir.empty()) dirs.emplace_back(dir);
    }
  }
  // Where common/scripts/setup.sh puts NVIDIA's nvdisasm from PyPI.
  dirs.emplace_back("/usr/local/cuda/bin");
  dirs.push_back(fs::path(config.build_dir) / "cuda-tools" / "bin");
  for (const fs::path& dir : dirs) {
    const fs::path tool = dir / "nvdisasm";
    if (access(tool.c_str(), X_OK) == 0) return tool.string();
  }
  return "";
}

std::string sass_architecture(const Config& config) {
  const std::vector<std::string>& archs = config.cuda_architectures;
  return archs.empty() || std::find(archs.begin(), archs.end(), "90") != archs.end() ? "90" : archs.front();
}

std::string disassemble_lab_file(const Config& config, const std::string& source,
                                 const std::vector<std::string>& own_includes, const std::string& destination,
                                 double limit_seconds) {
  if (config.nvcc.empty()) return "the build found no nvcc";
  const std::string nvdisasm = find_nvdisasm(config);
  if (nvdisasm.empty()) {
    return "nvdisasm not found beside nvcc, on PATH or in the build's cuda-tools/ (sh common/scripts/setup.sh "
           "--deps-only installs it)";
  }
  const std::string arch = sass_architecture(config);
  std::string scratch = (fs::temp_directory_path() / "banklab-sass-XXXXXX").string();
  if (mkdtemp(scratch.data()) == nullptr) return "no scratch folder for nvcc's code";
  lend_folder(scratch);
  std::error_code ignored;
  // The GPU runner's compile of the file (builder.cpp: -O2 -std=c++17
  // -rdc=true), to a cubin with line information: the same instructions.
  const std::string cubin = scratch + "/lab.cubin";
  const std::vector<std::string> compile = {config.nvcc, "-O2", "-std=c++17", "-rdc=true", "-cubin",
                                            "-arch=sm_" + arch, "-lineinfo", fs::absolute(source).string(),
                                            "-o", cubin};
  const std::string toolkit = fs::weakly_canonical(config.nvcc).parent_path().parent_path().string();
  ProcessOptions options;
  options.sandbox = compile_view(config, source);
  options.sandbox->read_only_after.push_back(toolkit);
  options.sandbox->read_only_after.insert(options.sandbox->read_only_after.end(), own_includes.begin(),
                                          own_includes.end());
  options.sandbox->writable.push_back(scratch);
  ProcessResult r = run_process(compile, limit_seconds, options);
  std::string problem;
  if (!r.ok()) {
    problem = "nvcc -cubin -arch=sm_" + arch + " -lineinfo did not compile it (" + r.describe(limit_seconds) + ")";
  } else {
    // nvdisasm reads nvcc's output only: it sees the toolkit and that file.
    ProcessOptions read;
    read.output_cap = std::size_t{64} << 20;
    read.sandbox = SandboxView{};
    read.sandbox->read_only = {cubin};
    read.sandbox->read_only_after = {toolkit, fs::path(nvdisasm).parent_path().string(),
                                     fs::weakly_canonical(nvdisasm).parent_path().string()};
    // -gi: line information with inlining (an access in a __device__ helper at the kernel's line).
    r = run_process({nvdisasm, "-gi", "-c", cubin}, limit_seconds, read);
    if (!r.ok() || r.output_truncated) {
      problem = "nvdisasm -gi -c failed on nvcc's code (" + r.describe(limit_seconds) + ")";
    } else {
      // Written whole, then renamed: a runner never reads half a file.
      const std::string part = destination + ".part";
      std::ofstream(part, std::ios::binary) << r.out;
      fs::rename(part, destination, ignored);
      if (ignored) problem = "nvcc's code could not be written to " + destination;
    }
  }
  fs::remove_all(scratch, ignored);
  return problem;
}

}  // namespace banklab::grader

// On-the-spot builds of runners, cached under build/grader/cache/<hash>/.
#include "builder.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "contract.hpp"
#include "link_check.hpp"
#include "process.hpp"
#include "source_check.hpp"

namespace banklab::grader {

namespace fs = std::filesystem;

namespace {


std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// FNV-1a, 64 bits: a cache key, not a security boundary. Paths are hashed
// relative to the source and build folders, so a copied tree (with its build
// folder) finds its runners again.
struct Hash {
  std::string source_dir, build_dir;
  std::uint64_t value = 1469598103934665603ull;
  void add_arg(std::string text) {
    for (const auto& [from, to] :
         {std::pair{build_dir, std::string("<build>")}, std::pair{source_dir, std::string("<src>")}}) {
      // The search goes on after the replacement: "<build>" holds "build".
      for (auto at = text.find(from); !from.empty() && at != std::string::npos; at = text.find(from, at + to.size())) {
        text.replace(at, from.size(), to);
      }
    }
    add(text);
  }
  void add(const std::string& text) {
    for (unsigned char c : text) {
      value ^= c;
      value *= 1099511628211ull;
    }
    value ^= 0xff;  // separates consecutive inputs
    value *= 1099511628211ull;
  }
  [[nodiscard]] std::string hex() const {
    std::ostringstream out;
    out << std::hex << value;
    return out.str();
  }
};

// The FNV-1a digest of a kit file the cache key covers (a library, a harness
// header, a script), remembered under the cache folder by the file's path,
// size, modification time and inode: a grading reads the tens of megabytes
// of kit libraries only after they changed, trusting a file's stat as make
// does. The submission and the files it includes are always read afresh.
std::string kit_file_digest(const Config& config, const std::string& path) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) return "missing";
  std::ostringstream id;
  id << st.st_size << " " << st.st_mtim.tv_sec << "." << st.st_mtim.tv_nsec << " " << st.st_ino << " " << st.st_dev;
  Hash name{"", ""};
  name.add(path);
  const fs::path record = fs::path(config.cache_dir()) / "kit-digests" / name.hex();
  {
    std::ifstream in(record);
    std::string known_path, known_id, digest;
    if (std::getline(in, known_path) && std::getline(in, known_id) && std::getline(in, digest) &&
        known_path == path && known_id == id.str() && !digest.empty()) {
      return digest;
    }
  }
  Hash content{"", ""};
  content.add(read_file(path));
  const std::string digest = content.hex();
  std::error_code error;
  fs::create_directories(record.parent_path(), error);
  const std::string temp = record.string() + ".tmp" + std::to_string(getpid());
  {
    std::ofstream out(temp, std::ios::trunc);
    out << path << "\n" << id.str() << "\n" << digest << "\n";
  }
  fs::rename(temp, record, error);  // another grader writing the same record: either copy is right
  if (error) fs::remove(temp, error);
  return digest;
}

// Runs the steps in `dir` unless `product` exists already; on failure removes
// the partial product and throws with the failing step's output. Step i is
// confined to views[i] (sandbox.hpp) and may write only the product's folder.
void build_cached(const std::vector<std::vector<std::string>>& steps, const std::string& product,
                  const std::string& what, double limit_seconds, const std::vector<SandboxView>& views) {
  if (fs::exists(product)) return;
  const std::string folder = fs::path(product).parent_path().string();
  fs::create_directories(folder);
  lend_folder(folder);
  std::cerr << "grader: building " << what << " ..." << std::endl;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const auto& step = steps[i];
    ProcessOptions options;
    options.sandbox = views.at(i);
    options.sandbox->writable.push_back(folder);
    const ProcessResult r = run_process(step, limit_seconds, options);
    if (!r.ok()) {
      give_back_folder(folder);
      std::error_code ignored;
      fs::remove(product, ignored);
      if (r.sandbox_failed) {  // the compiler never ran: the machine's problem, not the file's
        throw BuildError(what + " could not be built: " + r.err.substr(0, r.err.find_last_not_of('\n') + 1),
                         "$ " + shell_quote(step), false);
      }
      const bool compiler_error = r.exited && r.exit_code != 127;
      throw BuildError(what + (compiler_error ? " does not build (" : " could not be built: the build ") +
                           r.describe(limit_seconds) + (compiler_error ? ")" : ""),
                       "$ " + shell_quote(step) + "\n" + r.out + r.err, compiler_error);
    }
  }
  give_back_folder(folder);
}

void require_source(const std::string& source) {
  if (!fs::is_regular_file(source)) {
    throw BuildError("no such file: " + source,
                     "check the path given to --impl (it must be a lab file, like transpose.cu)");
  }
}

}  // namespace

std::string grader_code_digest(const Config& config) {
  std::error_code error;
  const fs::path exe = fs::canonical("/proc/self/exe", error);
  if (error) return "unknown grader";
  return kit_file_digest(config, exe.string()) + " " +
         kit_file_digest(config, (exe.parent_path() / "libbanklab_ast_check.so").string());
}

std::vector<fs::path> kit_headers(const Config& config) {
  std::vector<fs::path> headers;
  for (const std::string& dir : config.kernel_include_dirs) {
    std::error_code error;
    for (fs::recursive_directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) {
      if (it->is_regular_file()) headers.push_back(it->path());
    }
  }
  std::sort(headers.begin(), headers.end());
  return headers;
}

std::string RunnerBuilder::cpu_runner(const LabFiles& lab, const std::string& source) const {
  require_source(source);
  const std::string absolute = fs::absolute(source).string();
  // -fmax-errors: a file that is not C++ at all (random bytes) stops after 20
  // errors in milliseconds; without it GCC reports every token and a 3 MB
  // file takes ten minutes, past any build time limit.
  std::vector<std::string> compile = {config_.cxx, "-std=c++17", "-fmax-errors=20"};
  for (const std::string& dir : config_.kernel_include_dirs) compile.push_back("-I" + dir);
  compile.insert(compile.end(), config_.kernel_flags.begin(), config_.kernel_flags.end());
  compile.insert(compile.end(), {"-x", "c++", "-c", absolute});
  const Contract* contract = contract_for(lab.number);
  const SourceReport source_report = check_source(config_, source, time_limit_, contract);
  const std::vector<std::string>& own_includes = source_report.own_includes;
  // Weak fallbacks for the contract's declarations the file gets wrong, so
  // that it links and the checks that do not need them are graded (the
  // others fail with the declaration's message, never reading a fallback).
  std::string fallbacks;
  if (contract != nullptr) {
    for (const auto& item : contract->items) {
      if (source_report.declaration_problems.count(item.name)) fallbacks += "__attribute__((weak)) " + item.fallback + "\n";
    }
  }
  Hash hash{config_.source_dir, config_.build_dir};
  hash.add(fallbacks);
  hash.add("cpu");
  // A build made unconfined (BANKLAB_SANDBOX=off) could read what a
  // confined one cannot: never reused by a confined grader.
  hash.add(sandbox_mode() == SandboxMode::kNone ? "unconfined" : "confined");
  for (const auto& a : compile) hash.add_arg(a);
  hash.add(read_file(absolute));
  for (const auto& file : own_includes) hash.add(read_file(file));  // files the submission includes
  hash.add(kit_file_digest(config_, lab.cpu_runner_library));
  for (const auto& lib : config_.cpu_libraries) hash.add(kit_file_digest(config_, lib));
  hash.add(kit_file_digest(config_, config_.dynamic_shared_script));
  for (const auto& flag : config_.cpu_link_flags) hash.add_arg(flag);
  hash.add("link: runner library first, -u main");  // the link order the secret relies on
  hash.add(lab_object_allowlist());                  // the link check and the guard's marking
  hash.add(grader_code_digest(config_));             // the link check's and the guard's code
  hash.add("guard: data renamed, memcpy/memmove/memset/printf redirected, sanitizer constructor removed");
  // The compatibility headers compiled into every runner: a kit update that
  // changes them must rebuild the runners.
  for (const auto& header : kit_headers(config_)) {
    hash.add_arg(header.string());
    hash.add(kit_file_digest(config_, header.string()));
  }
  const std::string dir = config_.cache_dir() + "/cpu-" + hash.hex();
  const std::string compiled = dir + "/kernel.o";
  const std::string object = dir + "/kernel_guarded.o";
  const std::string runner = dir + "/runner";
  compile.insert(compile.end(), {"-o", compiled});
  const std::string what = fs::path(source).filename().string() + " for the CPU emulator";
  // The compile sees the submission (and the files it includes); the later
  // steps read only objects, the kit's libraries and script.
  SandboxView compile_sees = compile_view(config_, source);
  compile_sees.read_only_after.insert(compile_sees.read_only_after.end(), own_includes.begin(), own_includes.end());
  SandboxView link_sees;
  link_sees.read_only = {fs::path(config_.cxx).parent_path().string(), config_.dynamic_shared_script,
                         lab.cpu_runner_library};
  link_sees.read_only.insert(link_sees.read_only.end(), config_.cpu_libraries.begin(), config_.cpu_libraries.end());
  std::vector<std::string> mark;
  if (!fs::exists(runner)) {
    // The compiled object is checked (what it calls and defines, no
    // constructors: link_check.cpp) before anything of it is linked, and
    // its data marked for the emulator's memory guard.
    build_cached({compile}, compiled, what, time_limit_, {compile_sees});
    mark = check_lab_object(compiled, source, object, time_limit_);
  }
  // The file's extern __shared__ arrays get their definitions (one block).
  const std::string dynamic = dir + "/dynamic_shared.cpp";
  const std::vector<std::string> define_dynamic = {"sh", config_.dynamic_shared_script, dynamic, object};
  const std::vector<std::string> compile_dynamic = {config_.cxx, "-c", dynamic, "-o", dir + "/dynamic_shared.o"};
  // The runner's own objects first (-u main pulls its main out of the
  // library before the file under test): its .preinit_array entry, which
  // takes the grader's secret, runs before any code of that file.
  std::vector<std::string> link = {config_.cxx, "-o", runner, "-Wl,-u,main", lab.cpu_runner_library, object,
                                   dir + "/dynamic_shared.o", lab.cpu_runner_library};
  std::vector<std::vector<std::string>> steps = {mark, define_dynamic, compile_dynamic};
  if (!fallbacks.empty()) {
    // Written now (build_cached makes no folder for a source it does not run).
    fs::create_directories(dir);
    const std::string stub = dir + "/contract_fallbacks.cpp";
    std::ofstream(stub) << "// Fallbacks for the contract's declarations " << fs::path(source).filename().string()
                        << " gets wrong (see the grader's report).\n" << fallbacks;
    std::vector<std::string> compile_stub = {config_.cxx, "-std=c++17"};
    for (const std::string& include : config_.kernel_include_dirs) compile_stub.push_back("-I" + include);
    compile_stub.insert(compile_stub.end(), {"-include", "banklab/cuda_host.hpp", "-c", stub, "-o", dir + "/contract_fallbacks.o"});
    steps.push_back(compile_stub);
    link.insert(link.begin() + 8, dir + "/contract_fallbacks.o");
  }
  link.insert(link.end(), config_.cpu_libraries.begin(), config_.cpu_libraries.end());
  link.insert(link.end(), config_.cpu_link_flags.begin(), config_.cpu_link_flags.end());
  steps.push_back(link);
  std::vector<SandboxView> views(steps.size(), link_sees);
  if (!fallbacks.empty()) {
    // The fallbacks' compile (the step before the link) reads the kit's headers.
    views[steps.size() - 2].read_only.insert(views[steps.size() - 2].read_only.end(),
                                             config_.kernel_include_dirs.begin(), config_.kernel_include_dirs.end());
  }
  build_cached(steps, runner, what, time_limit_, views);
  return runner;
}

std::string RunnerBuilder::gpu_runner(const LabFiles& lab, const std::string& source) const {
  require_source(source);
  if (config_.nvcc.empty()) {
    throw BuildError("no CUDA compiler: the build found no nvcc",
                     "install the CUDA Toolkit and reconfigure (cmake --preset default)");
  }
  const std::string absolute = fs::absolute(source).string();
  std::vector<std::string> arch;
  for (const std::string& a : config_.cuda_architectures)
    arch.push_back("-gencode=arch=compute_" + a + ",code=sm_" + a);
  // The reference kernels: compiled from solutions/ (the instructor's tree),
  // or the compiled object the student kit ships, or none (stage 1).
  // A runner that calls no reference kernel (stage 6 times the shipped
  // kernels of labs/) links none: the reference's kernels have the
  // student's names.
  const std::string solution = config_.lab_file(lab, true);
  const bool needs_reference = gpu_runner_needs_reference(lab);
  const bool from_source = needs_reference && fs::exists(solution);
  const std::string shipped = reference_object_path(lab);
  if (!from_source && needs_reference && !fs::exists(shipped)) {
    throw BuildError("the GPU runner of stage " + std::to_string(lab.number) +
                         " needs the reference kernels, and this kit has neither solutions/ nor " + shipped,
                     "ask the instructor to make the kit again with nvcc installed (common/scripts/make_student_kit.sh compiles them), "
                     "or grade on the CPU: --backend cpu",
                     false);
  }
  const std::vector<std::string> own_includes =
      check_source(config_, source, time_limit_, contract_for(lab.number)).own_includes;
  Hash hash{config_.source_dir, config_.build_dir};
  hash.add("gpu");
  hash.add(sandbox_mode() == SandboxMode::kNone ? "unconfined" : "confined");
  for (const auto& file : own_includes) hash.add(read_file(file));
  hash.add(fs::path(config_.nvcc).filename().string());
  for (const auto& a : arch) hash.add(a);
  hash.add(read_file(absolute));
  const std::vector<std::string> shipped_objects = needs_reference ? reference_objects(lab) : std::vector<std::string>{};
  if (from_source) {
    hash.add(read_file(solution));
  } else {
    hash.add("compiled reference");
    for (const auto& object : shipped_objects) hash.add(kit_file_digest(config_, object));
  }
  // Everything in the stage's grader folder (runners, harness headers) and
  // the libraries the runner links.
  std::vector<fs::path> harness;
  std::vector<std::string> folders = {lab.harness_dir};
  folders.insert(folders.end(), lab.gpu_include_dirs.begin(), lab.gpu_include_dirs.end());
  for (const auto& folder : folders) {
    if (!fs::is_directory(folder)) continue;  // solutions/ in the student kit
    for (const auto& entry : fs::directory_iterator(folder)) {
      if (entry.is_regular_file()) harness.push_back(entry.path());
    }
  }
  std::sort(harness.begin(), harness.end());
  for (const auto& file : harness) {
    hash.add_arg(file.string());
    hash.add(kit_file_digest(config_, file.string()));
  }
  for (const auto& library : lab.gpu_libraries) hash.add(kit_file_digest(config_, library));
  // The runner's main, also where a config names one outside that folder.
  hash.add_arg(lab.gpu_runner_source);
  hash.add(kit_file_digest(config_, lab.gpu_runner_source));
  const std::string dir = config_.cache_dir() + "/gpu-" + hash.hex();
  const std::string runner = dir + "/runner";
  auto nvcc = [&](std::vector<std::string> extra) {
    // Relocatable device code: a runner's kernels call the student's
    // __device__ functions across translation units (stages 1 and 2).
    std::vector<std::string> cmd = {config_.nvcc, "-O2", "-std=c++17", "-rdc=true"};
    cmd.insert(cmd.end(), arch.begin(), arch.end());
    cmd.insert(cmd.end(), extra.begin(), extra.end());
    return cmd;
  };
  std::vector<std::string> solution_step = nvcc(lab.solution_renames);
  solution_step.insert(solution_step.end(), {"-c", solution, "-o", dir + "/solution.o"});
  std::vector<std::string> link = {"-I" + lab.harness_dir};
  for (const auto& include : lab.gpu_include_dirs) link.push_back("-I" + include);
  link.insert(link.end(), {lab.gpu_runner_source, dir + "/student.o"});
  if (from_source) link.push_back(dir + "/solution.o");
  else link.insert(link.end(), shipped_objects.begin(), shipped_objects.end());
  link.insert(link.end(), lab.gpu_libraries.begin(), lab.gpu_libraries.end());
  link.insert(link.end(), {"-o", runner});
  // The student's compile sees the submission and the toolkit, not the
  // solution; the solution's compile and the link see no submission source.
  const std::string toolkit = fs::weakly_canonical(config_.nvcc).parent_path().parent_path().string();
  SandboxView student_sees = compile_view(config_, source);
  student_sees.read_only_after.push_back(toolkit);
  student_sees.read_only_after.insert(student_sees.read_only_after.end(), own_includes.begin(), own_includes.end());
  SandboxView solution_sees;
  solution_sees.read_only = {toolkit, fs::path(solution).parent_path().string()};
  SandboxView link_sees;
  link_sees.read_only = {toolkit, lab.harness_dir, lab.gpu_runner_source};
  link_sees.read_only.insert(link_sees.read_only.end(), lab.gpu_include_dirs.begin(), lab.gpu_include_dirs.end());
  link_sees.read_only.insert(link_sees.read_only.end(), lab.gpu_libraries.begin(), lab.gpu_libraries.end());
  if (!from_source) link_sees.read_only.insert(link_sees.read_only.end(), shipped_objects.begin(), shipped_objects.end());
  std::vector<std::vector<std::string>> steps = {nvcc({"-c", absolute, "-o", dir + "/student.o"})};
  std::vector<SandboxView> views = {student_sees};
  if (from_source) {
    steps.push_back(solution_step);
    views.push_back(solution_sees);
  }
  steps.push_back(nvcc(link));
  views.push_back(link_sees);
  build_cached(steps, runner, fs::path(source).filename().string() + " for the GPU", time_limit_, views);
  return runner;
}

void RunnerBuilder::reference_object(const LabFiles& lab, const std::vector<std::string>& architectures,
                                     const std::string& object) const {
  reference_object_of(lab, config_.lab_file(lab, true), lab.solution_renames, architectures, object);
  // Another stage's reference that the runner includes as source (stage 4
  // times stage 3's padded transpose): compiled too, its names prefixed
  // stageN_ instead of solution_ (the runner declares them so in the kit).
  for (const std::string& folder : lab.gpu_include_dirs) {
    for (const auto& [number, other] : config_.labs) {
      if (folder != config_.source_dir + "/solutions/" + other.folder) continue;
      std::vector<std::string> renames;
      for (std::string rename : other.solution_renames) {
        const auto at = rename.find("=solution_");
        if (at != std::string::npos) rename.replace(at, 10, "=stage" + std::to_string(number) + "_");
        renames.push_back(rename);
      }
      reference_object_of(other, config_.lab_file(other, true), renames, architectures,
                          (fs::path(object).parent_path() / ("stage" + std::to_string(number) + "_gpu.o")).string());
    }
  }
}

void RunnerBuilder::reference_object_of(const LabFiles& lab, const std::string& solution,
                                        const std::vector<std::string>& renames,
                                        const std::vector<std::string>& architectures, const std::string& object) const {
  if (config_.nvcc.empty()) {
    throw BuildError("no CUDA compiler: the build found no nvcc", "install the CUDA Toolkit and reconfigure", false);
  }
  require_source(solution);
  if (architectures.empty()) throw BuildError("no CUDA architectures given for the reference kernels", "", false);
  // -fdata-sections puts each host variable in a section of its own, so that
  // the reference's prediction arrays can be removed whole below.
  std::vector<std::string> compile = {config_.nvcc, "-O2", "-std=c++17", "-rdc=true", "-Xcompiler", "-fdata-sections"};
  for (const std::string& a : architectures) compile.push_back("-gencode=arch=compute_" + a + ",code=sm_" + a);
  compile.push_back("-gencode=arch=compute_" + architectures.front() + ",code=compute_" + architectures.front());
  compile.insert(compile.end(), renames.begin(), renames.end());
  const std::string compiled = object + ".full.o";
  compile.insert(compile.end(), {"-c", solution, "-o", compiled});
  fs::create_directories(fs::path(object).parent_path());
  const ProcessResult r = run_process(compile, time_limit_);
  if (!r.ok()) {
    throw BuildError("the reference of stage " + std::to_string(lab.number) + " does not build for the GPU (" +
                         r.describe(time_limit_) + ")",
                     "$ " + shell_quote(compile) + "\n" + r.out + r.err);
  }
  // Host data of the reference is no kernel the runner calls: its answers
  // to the prediction tasks go (the renamed arrays' sections), with the
  // debug information that would name its lines.
  std::vector<std::string> strip = {"objcopy", "--strip-debug"};
  for (const std::string& rename : renames) {
    const auto eq = rename.find('=');
    if (eq == std::string::npos) continue;
    const std::string renamed = rename.substr(eq + 1);
    if (renamed.find("predicted") != std::string::npos) strip.push_back("--remove-section=.data." + renamed);
  }
  strip.insert(strip.end(), {compiled, object});
  const ProcessResult s = run_process(strip, time_limit_);
  std::error_code ignored;
  fs::remove(compiled, ignored);
  if (!s.ok()) {
    throw BuildError("objcopy could not strip the reference of stage " + std::to_string(lab.number),
                     "$ " + shell_quote(strip) + "\n" + s.out + s.err, false);
  }
}

std::string reference_object_path(const LabFiles& lab) { return lab.harness_dir + "/reference/solution_gpu.o"; }

std::vector<std::string> reference_objects(const LabFiles& lab) {
  std::vector<std::string> objects;
  std::error_code error;
  for (fs::directory_iterator it(lab.harness_dir + "/reference", error), end; !error && it != end; it.increment(error)) {
    if (it->path().extension() == ".o") objects.push_back(it->path().string());
  }
  std::sort(objects.begin(), objects.end());
  return objects;
}

bool gpu_runner_needs_reference(const LabFiles& lab) {
  return read_file(lab.gpu_runner_source).find("solution_") != std::string::npos;
}

bool has_gpu_reference(const Config& config, const LabFiles& lab) {
  return fs::exists(config.lab_file(lab, true)) || !gpu_runner_needs_reference(lab) ||
         fs::exists(reference_object_path(lab));
}

}  // namespace banklab::grader

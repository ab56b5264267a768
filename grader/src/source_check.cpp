// The submission checks of source_check.hpp.
#include "source_check.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <nlohmann/json.hpp>
#include <sstream>

#include "ast_check.hpp"
#include "ast_verdicts.hpp"
#include "builder.hpp"
#include "nvcc_check.hpp"
#include "process.hpp"

namespace banklab::grader {

namespace fs = std::filesystem;

namespace {

struct Preprocessed {
  std::vector<std::pair<int, std::string>> own;  ///< (line, text) of the submission's own lines
  std::set<std::string> files;                   ///< every file the preprocessor opened
};

// `cxx -E` output, split by its line markers (# LINE "FILE" FLAGS).
Preprocessed split(const std::string& output, const std::string& source) {
  Preprocessed p;
  std::istringstream in(output);
  std::string line, file;
  int number = 0;
  while (std::getline(in, line)) {
    if (line.rfind("# ", 0) == 0 && line.size() > 2 && std::isdigit(static_cast<unsigned char>(line[2]))) {
      std::istringstream marker(line.substr(2));
      marker >> number;
      const auto open = line.find('"'), close = line.rfind('"');
      if (open != std::string::npos && close > open) file = line.substr(open + 1, close - open - 1);
      // Not files: <built-in>, <command-line>, and the working directory
      // GCC records for -g ("/path//").
      if (!file.empty() && file[0] != '<' && file.back() != '/') p.files.insert(file);
      continue;
    }
    if (file == source) {
      std::string text = line;
      text.erase(std::remove_if(text.begin(), text.end(), [](unsigned char c) { return std::isspace(c); }),
                 text.end());
      if (!text.empty()) p.own.emplace_back(number, text);
    }
    ++number;
  }
  return p;
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

std::string file_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

bool under(const fs::path& file, const fs::path& folder) {
  const auto f = fs::weakly_canonical(file).string(), d = fs::weakly_canonical(folder).string();
  return f.size() > d.size() && f.compare(0, d.size(), d) == 0 && f[d.size()] == '/';
}

// The contract as text, for the cache key.
std::string contract_text(const Contract* contract) {
  if (contract == nullptr) return "no contract";
  std::string out = std::to_string(contract->lab);
  for (const auto& item : contract->items) {
    out += "\n" + std::to_string(static_cast<int>(item.kind)) + " " + item.name + " " + item.type + " " +
           item.declaration;
  }
  return out;
}

// What the syntax-tree check refuses, as one build error.
void refuse(const std::vector<AstFinding>& findings) {
  const AstFinding& first = findings.front();
  std::string details;
  for (const auto& f : findings) {
    details += f.file + ":" + std::to_string(f.line) + ": " + f.what + "\n    what to do: " + f.todo + "\n";
  }
  details += "A lab file holds kernels, __device__ functions, types and constants; the grader builds and runs "
             "them in its own program, so host code of the file (main, static constructors, calls to the C "
             "library) is refused before the build.";
  throw BuildError(first.file + ":" + std::to_string(first.line) + ": " + first.what +
                       (findings.size() > 1 ? " (and " + std::to_string(findings.size() - 1) + " more below)" : ""),
                   details);
}

// The rules of the syntax-tree check itself: a change to ast_check.cpp that
// changes verdicts must change this, so that no cached verdict survives it.
constexpr const char* kAstRulesVersion = "ast rules 1";

}  // namespace

namespace {
SourceReport check_source_impl(const Config& config, const std::string& source, double limit_seconds,
                               const Contract* contract, bool whole);
}  // namespace

SourceReport check_source(const Config& config, const std::string& source, double limit_seconds,
                          const Contract* contract) {
  return check_source_impl(config, source, limit_seconds, contract, true);
}

std::string check_source_tree_only(const Config& config, const std::string& source, double limit_seconds,
                                   const Contract* contract) {
  check_source_impl(config, source, limit_seconds, contract, false);
  return source_check_description(source);
}

namespace {
SourceReport check_source_impl(const Config& config, const std::string& source, double limit_seconds,
                               const Contract* contract, bool whole) {
  const std::string absolute = fs::absolute(source).lexically_normal().string();
  // A file that passed before, unchanged with everything it includes, passes
  // again without preprocessing (grading a cached build stays fast).
  std::string key_text = absolute + "\n" + config.cxx + "\n" + file_text(absolute);
  for (const auto& flag : config.kernel_flags) key_text += "\n" + flag;
  // and the kit's CUDA headers, which decide what the preprocessor sees
  static const std::string headers = [&] {
    std::string all;
    for (const auto& f : kit_headers(config)) all += f.string() + fnv(file_text(f.string()));
    return fnv(all);
  }();
  key_text += "\n" + headers + "\n" + kAstRulesVersion + "\n" + contract_text(contract);
  key_text += "\nnvcc " + config.nvcc;  // a record without the nvcc step is no record of it
  key_text += "\n" + grader_code_digest(config);  // the checks' own code, not only kAstRulesVersion
  const std::string record = config.cache_dir() + "/source-" + fnv(key_text) + ".json";
  {
    // {"includes": {file: hash}, "problems": {item: message}}
    std::ifstream in(record);
    SourceReport cached;
    bool valid = in.good();
    try {
      const nlohmann::json j = valid ? nlohmann::json::parse(in) : nlohmann::json();
      for (const auto& [file, hash] : j.at("includes").items()) {
        if (fnv(file_text(file)) != hash.get<std::string>()) valid = false;
        cached.own_includes.push_back(file);
      }
      cached.declaration_problems = j.at("problems").get<std::map<std::string, std::string>>();
      record_source_check_description(absolute, j.value("how", std::string("checked earlier")));
    } catch (const nlohmann::json::exception&) {
      valid = false;
    }
    if (valid && whole) return cached;
  }
  auto compiler = [&](bool as_device, const char* mode) {
    std::vector<std::string> cmd = {config.cxx, "-std=c++17", mode};
    for (const std::string& dir : config.kernel_include_dirs) cmd.push_back("-I" + dir);
    for (std::size_t i = 0; i < config.kernel_flags.size(); ++i) {
      const std::string& flag = config.kernel_flags[i];
      // What a GPU build has not: the emulator's header, included into every
      // lab file with the system headers it needs (thousands of macros nvcc
      // does not define), and the sanitizer's macros (__SANITIZE_THREAD__).
      if (as_device && flag == "-include") {
        ++i;
        continue;
      }
      if (as_device && flag.rfind("-fsanitize", 0) == 0) continue;
      cmd.push_back(flag);
    }
    if (as_device) cmd.insert(cmd.end(), {"-D__CUDACC__=1", "-D__NVCC__=1", "-D__CUDA_ARCH__=900"});
    cmd.insert(cmd.end(), {"-x", "c++", absolute});
    return cmd;
  };
  auto preprocess = [&](bool as_device) {
    // Directives only: the file's own lines as written, each kept or dropped
    // by the conditionals, and its #defines. Macros are not expanded, so the
    // emulator's spelling of __global__ and the others does not differ from
    // the device view's, which lacks its header; a conditional on any macro
    // the two builds define differently keeps other lines.
    std::vector<std::string> cmd = compiler(as_device, "-E");
    cmd.insert(cmd.begin() + 3, "-fdirectives-only");
    ProcessOptions options;
    options.output_cap = std::size_t{256} << 20;  // a preprocessed file with the C++ library is megabytes
    options.sandbox = compile_view(config, absolute);  // an #include cannot reach solutions/ or build/
    const ProcessResult r = run_process(cmd, limit_seconds, options);
    if (r.output_truncated) {
      throw BuildError(fs::path(source).filename().string() + " could not be checked: its preprocessed text is "
                           "larger than 256 MiB",
                       "include fewer headers");
    }
    if (!r.ok()) {
      // An #include of a file that exists but lies outside what the
      // preprocessing may see (solutions/, the kit's other folders) is
      // refused in words; any other error is reported by the build itself.
      const std::string marker = ": fatal error: ";
      const std::string& err = r.err;
      for (std::size_t at = err.find(marker); at != std::string::npos; at = err.find(marker, at + 1)) {
        const std::size_t start = at + marker.size(), end = err.find(": No such file or directory", start);
        if (end == std::string::npos || err.find('\n', start) < end) continue;
        const fs::path named = fs::path(absolute).parent_path() / err.substr(start, end - start);
        std::error_code error;
        if (!fs::exists(named, error)) continue;
        const std::string shown = fs::weakly_canonical(named).string();
        if (under(named, fs::path(absolute).parent_path())) {  // solutions/ or build/ below the file's folder
          throw BuildError(fs::path(source).filename().string() + " includes " + shown +
                               ", which the build of a lab file does not see (solutions/ and build/ are hidden from it)",
                           "remove the #include (and copy what you need into your file)");
        }
        throw BuildError(fs::path(source).filename().string() + " includes " + shown +
                             ", outside its own folder: a lab file may include system and CUDA headers and files "
                             "next to it",
                         "remove the #include (and copy what you need into your file)");
      }
      return Preprocessed{};
    }
    return split(r.out, absolute);
  };
  const Preprocessed emulator = preprocess(false);
  const Preprocessed device = preprocess(true);
  // Includes: system headers (outside the kit), the emulator's CUDA headers,
  // and the submission's own folder.
  const fs::path own_folder = fs::path(absolute).parent_path();
  std::vector<std::string> own_includes;
  for (const std::string& file : emulator.files) {
    const fs::path path(file);
    if (file == absolute) continue;
    if (under(path, own_folder)) {
      own_includes.push_back(fs::weakly_canonical(path).string());
      continue;
    }
    const std::string canonical = fs::weakly_canonical(path).string();
    bool allowed = canonical.rfind("/usr/", 0) == 0 && !under(path, config.source_dir) && !under(path, config.build_dir);
    for (const std::string& dir : config.kernel_include_dirs) allowed = allowed || under(path, dir);
    if (!allowed) {
      throw BuildError(fs::path(source).filename().string() + " includes " + canonical +
                           ", outside its own folder: a lab file may include system and CUDA headers and files "
                           "next to it",
                       "remove the #include (and copy what you need into your file)");
    }
  }
  // Same code for the emulator and for a GPU.
  const std::size_t n = std::min(emulator.own.size(), device.own.size());
  for (std::size_t i = 0; i <= n; ++i) {
    const bool end_e = i == emulator.own.size(), end_d = i == device.own.size();
    if (end_e && end_d) break;
    if (!end_e && !end_d && emulator.own[i].second == device.own[i].second) continue;
    const int line = !end_e ? emulator.own[i].first : device.own[i].first;
    throw BuildError(fs::path(source).filename().string() + ":" + std::to_string(line) +
                         ": this code is not the same for the CPU emulator and for a GPU",
                     "a preprocessor test (on __CUDA_ARCH__, __CUDACC__ or a macro of the build) chooses different "
                     "code for the two builds; the grader grades one kernel: make the code the same for both");
  }
  std::sort(own_includes.begin(), own_includes.end());
  SourceReport report;
  report.own_includes = own_includes;
  // The syntax tree, as clang reads the emulator build (the kernel flags
  // that change what the preprocessor sees; GCC's code-generation flags
  // mean nothing to the check).
  if (!emulator.own.empty() || !emulator.files.empty()) {
    std::vector<std::string> defines_and_includes;
    for (std::size_t i = 0; i < config.kernel_flags.size(); ++i) {
      const std::string& flag = config.kernel_flags[i];
      if (flag == "-include" && i + 1 < config.kernel_flags.size()) {
        defines_and_includes.insert(defines_and_includes.end(), {flag, config.kernel_flags[++i]});
      } else if (flag.rfind("-D", 0) == 0 || flag.rfind("-U", 0) == 0) {
        defines_and_includes.push_back(flag);
      }
    }
    std::string how;
    const AstResult ast = check_ast_anywhere(config, absolute, own_includes, defines_and_includes, contract, &how);
    record_source_check_description(absolute, how);
    if (!ast.parsed) {
      // Where GCC refuses the file too, the build reports it in GCC's words;
      // a file only clang refuses cannot be checked, and is refused.
      ProcessOptions confined;
      confined.sandbox = compile_view(config, absolute);
      const ProcessResult gcc = run_process(compiler(false, "-fsyntax-only"), limit_seconds, confined);
      if (!gcc.ok()) return report;
      throw BuildError(fs::path(source).filename().string() +
                           " could not be checked: the grader's source check (clang) does not accept code the GCC "
                           "build accepts",
                       ast.parse_error + "\nwrite standard CUDA C++ that both compilers (and nvcc) accept");
    }
    if (!ast.refused.empty()) refuse(ast.refused);
    report.declaration_problems = ast.declaration_problems;
  }
  if (!whole) return report;
  check_with_nvcc(config, absolute, own_includes, limit_seconds);  // what nvcc refuses is refused
  std::error_code ignored;
  fs::create_directories(config.cache_dir(), ignored);
  nlohmann::json j = {{"includes", nlohmann::json::object()},
                      {"problems", report.declaration_problems},
                      {"how", source_check_description(absolute)}};
  for (const auto& file : own_includes) j["includes"][file] = fnv(file_text(file));
  std::ofstream(record) << j.dump(1) << '\n';
  return report;
}

}  // namespace

}  // namespace banklab::grader

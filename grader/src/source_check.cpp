// The submission checks of source_check.hpp.
#include "source_check.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "builder.hpp"
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

}  // namespace

std::vector<std::string> check_source(const Config& config, const std::string& source, double limit_seconds) {
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
  key_text += "\n" + headers;
  const std::string record = config.cache_dir() + "/source-" + fnv(key_text);
  {
    std::ifstream in(record);
    std::string file, hash;
    std::vector<std::string> includes;
    bool valid = in.good();
    while (valid && in >> file >> hash) {
      if (fnv(file_text(file)) != hash) valid = false;
      includes.push_back(file);
    }
    if (valid) return includes;
  }
  auto preprocess = [&](bool as_device) {
    std::vector<std::string> cmd = {config.cxx, "-std=c++17", "-E"};
    for (const std::string& dir : config.kernel_include_dirs) cmd.push_back("-I" + dir);
    cmd.insert(cmd.end(), config.kernel_flags.begin(), config.kernel_flags.end());
    if (as_device) cmd.insert(cmd.end(), {"-D__CUDACC__=1", "-D__NVCC__=1", "-D__CUDA_ARCH__=900"});
    cmd.insert(cmd.end(), {"-x", "c++", absolute});
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
      // A file the preprocessor rejects is reported by the build itself.
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
  std::error_code ignored;
  fs::create_directories(config.cache_dir(), ignored);
  std::ofstream out(record);
  for (const auto& file : own_includes) out << file << ' ' << fnv(file_text(file)) << '\n';
  return own_includes;
}

}  // namespace banklab::grader

// The source check through libclang or a recorded verdict (ast_verdicts.hpp).
#include "ast_verdicts.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>

#include "builder.hpp"
#include "sha256.hpp"

namespace banklab::grader {

namespace fs = std::filesystem;

namespace {

// The rules of the syntax-tree check: a change to ast_check.cpp that
// changes verdicts must change this (the library's bytes are hashed too).
constexpr const char* kRulesVersion = "ast rules 1";

using Entry = void (*)(const AstRequest*, AstResult*, std::string*);

std::string bytes_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

std::string library_path() {
  std::error_code error;
  const fs::path exe = fs::canonical("/proc/self/exe", error);
  return (exe.parent_path() / "libbanklab_ast_check.so").string();
}

struct Library {
  Entry entry = nullptr;
  std::string why_not;  ///< dlopen's message, when it did not load
};

const Library& library() {
  static const Library loaded = [] {
    Library l;
    const char* refuse = std::getenv("BANKLAB_NO_LIBCLANG");  // tests: a machine without libclang
    if (refuse != nullptr && *refuse != '\0') {
      l.why_not = "BANKLAB_NO_LIBCLANG is set";
      return l;
    }
    void* handle = dlopen(library_path().c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
      const char* message = dlerror();
      l.why_not = message != nullptr ? message : "dlopen failed";
      return l;
    }
    l.entry = reinterpret_cast<Entry>(dlsym(handle, "banklab_ast_check_v1"));
    if (l.entry == nullptr) l.why_not = library_path() + " has no banklab_ast_check_v1";
    return l;
  }();
  return loaded;
}

// The checker: its rules, its compiled code, the contract it verifies, the
// flags it parses with and the kit's CUDA headers it reads (by content and
// name below their folder, so that a copied tree has the same checker).
std::string checker_sha(const Config& config, const std::vector<std::string>& defines_and_includes,
                        const Contract* contract) {
  std::string text = std::string(kRulesVersion) + "\n" + sha256_hex(bytes_of(library_path())) + "\n";
  if (contract != nullptr) {
    text += "contract " + std::to_string(contract->lab) + "\n";
    for (const auto& item : contract->items) {
      text += std::to_string(static_cast<int>(item.kind)) + " " + item.name + " " + item.type + " " +
              item.declaration + "\n";
    }
  }
  for (const auto& flag : defines_and_includes) {
    std::string relative = flag;
    for (const std::string& root : {config.build_dir, config.source_dir}) {
      if (relative.rfind(root, 0) == 0) relative = "<tree>" + relative.substr(root.size());
    }
    text += "flag " + relative + "\n";
  }
  for (const auto& dir : config.kernel_include_dirs) {
    for (const auto& header : kit_headers(config)) {
      const std::string name = header.string();
      if (name.rfind(dir + "/", 0) != 0) continue;
      text += "header " + name.substr(dir.size()) + " " + sha256_hex(bytes_of(name)) + "\n";
    }
  }
  return sha256_hex(text);
}

// The submission: the file's bytes and those of each file it includes from
// its own folder (by name below that folder).
std::string content_sha(const std::string& file, const std::vector<std::string>& own_includes) {
  std::string text = "file " + sha256_hex(bytes_of(file)) + "\n";
  const std::string folder = fs::path(file).parent_path().string() + "/";
  for (const auto& include : own_includes) {
    const std::string name = include.rfind(folder, 0) == 0 ? include.substr(folder.size()) : include;
    text += "include " + name + " " + sha256_hex(bytes_of(include)) + "\n";
  }
  return sha256_hex(text);
}

nlohmann::json to_json(const AstResult& r) {
  nlohmann::json refused = nlohmann::json::array();
  for (const auto& f : r.refused) refused.push_back({{"file", f.file}, {"line", f.line}, {"what", f.what}, {"todo", f.todo}});
  return {{"parsed", r.parsed}, {"parse_error", r.parse_error}, {"refused", refused},
          {"declaration_problems", r.declaration_problems}};
}

AstResult from_json(const nlohmann::json& j) {
  AstResult r;
  r.parsed = j.at("parsed").get<bool>();
  r.parse_error = j.at("parse_error").get<std::string>();
  for (const auto& f : j.at("refused")) {
    r.refused.push_back({f.at("file").get<std::string>(), f.at("line").get<int>(), f.at("what").get<std::string>(),
                         f.at("todo").get<std::string>()});
  }
  r.declaration_problems = j.at("declaration_problems").get<std::map<std::string, std::string>>();
  return r;
}

std::string host_name() {
  char name[256] = {};
  return gethostname(name, sizeof name - 1) == 0 ? name : "?";
}

std::mutex descriptions_mutex;
std::map<std::string, std::string>& descriptions() {
  static std::map<std::string, std::string> map;
  return map;
}

std::string key_of(const std::string& file) { return fs::absolute(file).lexically_normal().string(); }

}  // namespace

std::string verdict_dir(const Config& config) { return config.build_dir + "/grader/source_verdicts"; }

AstResult check_ast_anywhere(const Config& config, const std::string& file,
                             const std::vector<std::string>& own_includes,
                             const std::vector<std::string>& defines_and_includes, const Contract* contract,
                             std::string* how) {
  const std::string content = content_sha(file, own_includes);
  const std::string checker = checker_sha(config, defines_and_includes, contract);
  const std::string record = verdict_dir(config) + "/" + sha256_hex(content + " " + checker) + ".json";
  const std::string name = fs::path(file).filename().string();
  const Library& clang = library();
  if (clang.entry != nullptr) {
    AstRequest request{file, config.kernel_include_dirs, defines_and_includes, contract};
    AstResult result;
    std::string version;
    clang.entry(&request, &result, &version);
    *how = "libclang on this machine (" + version + ")";
    // The verdict, for a machine without libclang (written whole, then renamed).
    const nlohmann::json j = {{"file", name},
                              {"content_sha256", content},
                              {"checker_sha256", checker},
                              {"made_by", version + " on " + host_name()},
                              {"result", to_json(result)}};
    std::error_code ignored;
    fs::create_directories(verdict_dir(config), ignored);
    const std::string temporary = record + ".tmp" + std::to_string(getpid());
    std::ofstream(temporary) << j.dump(1) << '\n';
    fs::rename(temporary, record, ignored);
    return result;
  }
  std::ifstream in(record);
  if (in) {
    try {
      const nlohmann::json j = nlohmann::json::parse(in);
      if (j.at("content_sha256") == content && j.at("checker_sha256") == checker) {
        *how = "verdict recorded by " + j.at("made_by").get<std::string>() + " for this file (SHA-256 " +
               content.substr(0, 16) + "...) and this checker; libclang cannot be loaded here";
        return from_json(j.at("result"));
      }
    } catch (const nlohmann::json::exception&) {
      // a damaged record is no verdict: refused below
    }
  }
  throw BuildError(
      name + " cannot be graded on this machine: the source check needs libclang, which the grader cannot load "
             "here (" + clang.why_not + "), and " + verdict_dir(config) +
          " holds no verdict for this file (content SHA-256 " + content + ") and this checker",
      "grade it on a machine with libclang (Debian libclang-dev), or record its verdict there: from the same "
      "build, run `grader --lab N --impl FILE --build-only` on that machine and bring its build/grader/"
      "source_verdicts/ along; the grader never grades a file whose source was not checked",
      false);
}

std::string source_check_description(const std::string& file) {
  const std::lock_guard<std::mutex> lock(descriptions_mutex);
  const auto it = descriptions().find(key_of(file));
  return it == descriptions().end() ? "" : it->second;
}

void record_source_check_description(const std::string& file, const std::string& how) {
  const std::lock_guard<std::mutex> lock(descriptions_mutex);
  descriptions()[key_of(file)] = how;
}

}  // namespace banklab::grader

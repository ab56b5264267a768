// Loading grader_config.json and re-rooting its paths when the tree moved.
#include "config.hpp"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

namespace banklab::grader {

namespace fs = std::filesystem;

std::string Config::lab_file(const LabFiles& lab, bool solution) const {
  return source_dir + (solution ? "/solutions/" : "/labs/") + lab.folder + "/" + lab.file;
}

Config load_config(const std::string& executable_path) {
  std::error_code error;
  fs::path exe =
      fs::canonical(executable_path.find('/') == std::string::npos ? "/proc/self/exe" : executable_path, error);
  if (error) exe = fs::canonical("/proc/self/exe");
  const char* override_path = std::getenv("BANKLAB_GRADER_CONFIG");
  // Absolute, so that the build and source folders taken from it are too.
  const fs::path given = override_path != nullptr ? fs::path(override_path) : exe.parent_path() / "grader_config.json";
  fs::path path = fs::absolute(given, error);
  if (error) path = given;  // the working folder is gone: the message names the path as given
  std::ifstream in(path);
  if (!in) {
    throw ConfigError("cannot read " + path.string() +
                      ": run the grader from its build folder (build/grader/grader), "
                      "after cmake --build --preset default");
  }
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw ConfigError(path.string() + " is not valid JSON: " + e.what() +
                      "; rebuild with cmake --build --preset default");
  }
  Config c;
  // The build folder is the config's grandparent; the source tree is where
  // the build said it was, or, if that is gone (a copied tree), the folder
  // that holds the build folder.
  const std::string recorded_build = j.at("build_dir").get<std::string>();
  const std::string recorded_source = j.at("source_dir").get<std::string>();
  c.build_dir = path.parent_path().parent_path().string();
  c.source_dir = fs::exists(recorded_source + "/labs") ? recorded_source : fs::path(c.build_dir).parent_path().string();
  auto rebase = [&](std::string p) {
    if (p.rfind(recorded_build, 0) == 0) return c.build_dir + p.substr(recorded_build.size());
    if (p.rfind(recorded_source, 0) == 0) return c.source_dir + p.substr(recorded_source.size());
    return p;
  };
  auto rebase_all = [&](const nlohmann::json& list) {
    std::vector<std::string> out;
    for (const auto& item : list) out.push_back(rebase(item.get<std::string>()));
    return out;
  };
  c.cxx = j.at("cxx").get<std::string>();
  c.kernel_flags = j.at("kernel_flags").get<std::vector<std::string>>();
  c.kernel_include_dirs = rebase_all(j.at("kernel_include_dirs"));
  c.cpu_libraries = rebase_all(j.at("cpu_libraries"));
  c.cpu_link_flags = j.at("cpu_link_flags").get<std::vector<std::string>>();
  c.dynamic_shared_script = rebase(j.at("dynamic_shared_script").get<std::string>());
  c.nvcc = j.at("nvcc").get<std::string>();
  if (!c.nvcc.empty() && !fs::exists(c.nvcc)) c.nvcc = "nvcc";  // another machine: take it from PATH
  c.cuda_architectures = j.at("cuda_architectures").get<std::vector<std::string>>();
  c.gpu_probe = j.contains("gpu_probe") ? rebase(j.at("gpu_probe").get<std::string>())
                                        : c.build_dir + "/grader/grader_gpu_probe";
  for (const auto& lab : j.at("labs")) {
    LabFiles f;
    f.number = lab.at("number").get<int>();
    f.name = lab.at("name").get<std::string>();
    f.folder = lab.at("folder").get<std::string>();
    f.file = lab.at("file").get<std::string>();
    f.cpu_runner_library = rebase(lab.at("cpu_runner_library").get<std::string>());
    f.gpu_runner_source = rebase(lab.at("gpu_runner_source").get<std::string>());
    f.harness_dir = rebase(lab.at("harness_dir").get<std::string>());
    f.gpu_libraries = rebase_all(lab.at("gpu_libraries"));
    f.gpu_include_dirs = rebase_all(lab.at("gpu_include_dirs"));
    f.solution_renames = lab.at("solution_renames").get<std::vector<std::string>>();
    c.labs[f.number] = f;
  }
  return c;
}

}  // namespace banklab::grader

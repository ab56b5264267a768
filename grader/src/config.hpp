// Where the grader finds its compilers, flags, libraries and labs: written by
// CMake next to the grader executable (grader_config.json). Paths inside the
// build or source tree follow the tree when it is moved or copied.
#pragma once

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace banklab::grader {

class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct LabFiles {
  int number = 0;
  std::string name;                           ///< "padded transpose"
  std::string folder;                         ///< "03-padded-transpose"
  std::string file;                           ///< "transpose.cu": the file a student hands in
  std::string cpu_runner_library;             ///< the runner's main for the emulator (a static library)
  std::string gpu_runner_source;              ///< the runner's main for the GPU (.cu)
  std::string harness_dir;                    ///< the stage's grader folder: runners, harness headers
  std::vector<std::string> gpu_libraries;     ///< prebuilt CUDA libraries the GPU runner links (cycle probe)
  std::vector<std::string> gpu_include_dirs;  ///< their headers
  std::vector<std::string> solution_renames;  ///< -D flags that rename the solution's kernels
};

struct Config {
  std::string source_dir;
  std::string build_dir;
  std::string cxx;
  std::vector<std::string> kernel_flags;
  std::vector<std::string> kernel_include_dirs;
  std::vector<std::string> cpu_libraries;
  std::vector<std::string> cpu_link_flags;
  std::string dynamic_shared_script;  ///< writes the definitions of extern __shared__ arrays
  std::string nvcc;  ///< "" when the build found no CUDA compiler
  /// The program that says whether a GPU is usable (one JSON line, as
  /// grader/src/gpu_probe.cu prints): the build's grader_gpu_probe unless
  /// the config names another ("gpu_probe"; the tests' stand-in GPU).
  std::string gpu_probe;
  std::vector<std::string> cuda_architectures;
  std::map<int, LabFiles> labs;
  /// A student's variant as -D flags (variant.hpp), set by the grader for
  /// --variant-from; also appended to kernel_flags. Not in the JSON file.
  std::vector<std::string> variant_defines;

  [[nodiscard]] std::string lab_file(const LabFiles& lab, bool solution) const;
  [[nodiscard]] std::string cache_dir() const { return build_dir + "/grader/cache"; }
};

/// Reads grader_config.json from beside the executable (or BANKLAB_GRADER_CONFIG).
Config load_config(const std::string& executable_path);

}  // namespace banklab::grader

// The exported program of export_program.hpp.
#include "export_program.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace banklab::grader {

namespace fs = std::filesystem;

namespace {

std::string text_of(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

void write(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

}  // namespace

std::string export_program(const Config& config, const LabFiles& lab, const std::string& implementation,
                           const std::string& dir) {
  const fs::path folder(dir);
  std::error_code error;
  if (fs::exists(folder) && !fs::is_empty(folder, error)) {
    throw std::invalid_argument("--export-program " + dir + ": the folder exists and is not empty; give a new one");
  }
  const fs::path program = fs::path(lab.harness_dir) / "program.cu";
  // A stage made of whole programs (stage 6) has them beside its lab file already.
  const fs::path programs = fs::path(config.source_dir) / "labs" / lab.folder / "programs";
  if (!fs::exists(program) && fs::is_directory(programs)) {
    std::vector<std::string> files;
    for (const auto& entry : fs::directory_iterator(programs)) {
      if (entry.path().extension() == ".cu") files.push_back(entry.path().filename().string());
    }
    std::sort(files.begin(), files.end());
    std::string names;
    for (const auto& f : files) names += (names.empty() ? "" : ", ") + f;
    throw std::invalid_argument("--export-program: stage " + std::to_string(lab.number) +
                                " is made of whole programs already, which include your " + lab.file + ": " +
                                (fs::path("labs") / lab.folder / "programs").string() + "/ (" + names +
                                "); run one with `banklab run " + (fs::path("labs") / lab.folder / "programs").string() +
                                "/NAME.cu`, or build it with nvcc");
  }
  if (!fs::exists(program)) throw std::runtime_error("stage " + std::to_string(lab.number) + " has no program.cu");
  if (!fs::is_regular_file(implementation)) throw std::invalid_argument("no such file: " + implementation);
  fs::create_directories(folder);
  // The lab file under its own name (the program includes it), the stage's
  // headers (student_api.hpp and what it includes) and the shared helpers.
  fs::copy_file(implementation, folder / lab.file, fs::copy_options::overwrite_existing);
  for (const auto& entry : fs::directory_iterator(lab.harness_dir)) {
    if (entry.path().extension() == ".hpp") fs::copy_file(entry.path(), folder / entry.path().filename());
  }
  const fs::path common = fs::path(lab.harness_dir).parent_path() / "common" / "program_common.cuh";
  fs::copy_file(common, folder / "program_common.cuh");
  std::string source = text_of(program);
  for (auto at = source.find("@LAB_FILE@"); at != std::string::npos; at = source.find("@LAB_FILE@", at)) {
    source.replace(at, 10, lab.file);
  }
  write(folder / "program.cu", source);
  std::string arch = config.cuda_architectures.empty() ? "90" : config.cuda_architectures.front();
  std::ostringstream readme;
  readme << "# Stage " << lab.number << " (" << lab.name << ") as a program\n\n"
         << "Written by `grader --lab " << lab.number << " --export-program` from " << lab.file
         << ": `program.cu` includes your file and launches your kernels the way the grader launches them "
            "(same blocks and threads, seeded inputs), once each, and says whether each result is right.\n"
            "Edit " << lab.file << " here or export again after editing the lab's file.\n\n"
         << "On the CPU emulator (no GPU needed), per line: instructions, wavefronts, conflicts:\n\n"
         << "    banklab run program.cu\n\n"
         << "On an NVIDIA GPU (sm_" << arch << " here; use your GPU's compute capability):\n\n"
         << "    nvcc -O2 -std=c++17 -lineinfo -arch=sm_" << arch << " program.cu -o program\n"
         << "    ./program\n"
         << "    ncu --metrics smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,"
            "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum ./program\n"
         << "    compute-sanitizer --tool memcheck ./program\n"
         << "    compute-sanitizer --tool racecheck ./program\n\n"
         << "The counts of `ncu` above are the instrumented ones, which the grader's Nsight Compute check "
            "compares with the emulator's prediction.\n";
  write(folder / "README.md", readme.str());
  return readme.str();
}

}  // namespace banklab::grader

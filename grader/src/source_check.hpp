// What the grader checks in a submission before it builds it: that it is the
// same code for the CPU emulator and for a GPU (no preprocessor test can tell
// the two builds apart), and that it includes nothing but system and CUDA
// headers and files of its own folder (not the solution, not the kit).
#pragma once

#include <string>
#include <vector>

#include "config.hpp"

namespace banklab::grader {

/// Preprocesses `source` twice with the emulator's flags: once as the
/// emulator builds it, once as nvcc's device pass would see it (__CUDACC__,
/// __CUDA_ARCH__, __NVCC__ defined). Throws BuildError naming the first line
/// that differs, or an include outside the allowed places. Returns the
/// submission's own included files (to hash into the runner cache key).
std::vector<std::string> check_source(const Config& config, const std::string& source, double limit_seconds);

}  // namespace banklab::grader

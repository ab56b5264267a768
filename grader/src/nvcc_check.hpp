// The integrity check's CUDA compiler step: where nvcc is installed, a lab file
// must also compile for a GPU (device code, no GPU needed), so that code the
// emulator's host compiler accepts but nvcc refuses (a kernel calling a host
// function) cannot score on the CPU backend.
#pragma once

#include <string>
#include <vector>

#include "config.hpp"

namespace banklab::grader {

/// Compiles `source` (an absolute path) with config.nvcc to PTX for the first
/// of config.cuda_architectures (front end and device code generation only:
/// no ptxas, no host compile, no link). Throws BuildError with nvcc's
/// messages, their file(line) turned into file:line at the student's file,
/// when nvcc refuses it. Does nothing where the build has no nvcc or nvcc
/// does not start. A file that passed, unchanged with `own_includes`, passes
/// again from a cache record without running nvcc.
void check_with_nvcc(const Config& config, const std::string& source, const std::vector<std::string>& own_includes,
                     double limit_seconds);

/// nvdisasm of the CUDA Toolkit: beside config.nvcc, on PATH, in
/// /usr/local/cuda/bin or in the build's cuda-tools/bin (setup.sh); "" if none.
std::string find_nvdisasm(const Config& config);

/// The architecture whose code the Nsight Compute check prices: "90" where
/// the build makes sm_90 code (the H200 the kit is measured on) or names no
/// architecture, else the first of config.cuda_architectures.
std::string sass_architecture(const Config& config);

/// nvcc's code of the lab file `source`, compiled as the GPU runner compiles
/// it (-O2 -std=c++17 -rdc=true) to a cubin for sm_<sass_architecture> with -lineinfo,
/// then `nvdisasm -gi -c`, written to `destination`. Both steps run confined
/// (nvcc as the build does; nvdisasm sees the cubin and the toolkit only).
/// Returns "" when written, else why not (a clause: "nvdisasm not found ...").
std::string disassemble_lab_file(const Config& config, const std::string& source,
                                 const std::vector<std::string>& own_includes, const std::string& destination,
                                 double limit_seconds);
}  // namespace banklab::grader

// `kernel<<<grid, block, shared, stream>>>(args)` is not C++: before a CUDA
// program is compiled for the CPU emulator, each launch is rewritten, on the
// same line, as
//   kernel | ::banklab::emu::LaunchConfig(grid, block, shared, stream)
//          | ::banklab::emu::launch_arguments(args)
// (banklab/cuda_launch.hpp). The first argument of cudaLaunchKernel and
// cudaLaunchCooperativeKernel loses a `(void*)`, `(const void*)` or
// `reinterpret_cast<void*>` cast, and in `x.func = (void*)kernel` the cast
// becomes `::banklab::emu::node_func_cast->*` (banklab/cuda_graph.hpp), so
// that the kernel's parameter types reach the emulator. Comments, string and
// character literals are left alone.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace banklab::cli {

/// A launch the rewrite cannot read, with its 1-based line.
struct RewriteError : std::runtime_error {
  int line;
  RewriteError(int at, const std::string& what) : std::runtime_error(what), line(at) {}
};

struct Rewritten {
  std::string text;
  int launches = 0;      ///< <<<...>>> launches and cudaLaunchKernel calls
  int graph_kernels = 0;  ///< `x.func = (void*)f`: functions for graph nodes (kernel or host)
};

/// Rewrites every launch of `source`; throws RewriteError for `<<<` without
/// its `>>>(`. In preprocessed text, the parts whose line markers
/// (`# 12 "file"`) name a file under one of `kit_dirs` (the kit's own CUDA
/// headers) are left as they are, and not counted.
Rewritten rewrite_launches(const std::string& source, const std::vector<std::string>& kit_dirs = {});

}  // namespace banklab::cli

// `kernel<<<grid, block, shared, stream>>>(args)` is not C++: before a CUDA
// program is compiled for the CPU emulator, each launch is rewritten, on the
// same line, as
//   kernel | ::banklab::emu::LaunchConfig(grid, block, shared, stream)
//          | ::banklab::emu::launch_arguments(args)
// (banklab/cuda_launch.hpp). Comments, string and character literals are
// left alone.
#pragma once

#include <stdexcept>
#include <string>

namespace banklab::cli {

/// A launch the rewrite cannot read, with its 1-based line.
struct RewriteError : std::runtime_error {
  int line;
  RewriteError(int at, const std::string& what) : std::runtime_error(what), line(at) {}
};

struct Rewritten {
  std::string text;
  int launches = 0;
};

/// Rewrites every launch of `source`; throws RewriteError for `<<<` without
/// its `>>>(`.
Rewritten rewrite_launches(const std::string& source);

}  // namespace banklab::cli

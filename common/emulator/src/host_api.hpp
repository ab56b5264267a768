// The runtime API's error state, shared with the launches of `banklab run`.
#pragma once

#include <cstddef>

#include "banklab/cuda_runtime_api.hpp"

namespace banklab::emu::detail {

/// Records what a launch did for cudaGetLastError (sticky: every later call
/// fails, as after a kernel fault on a GPU).
void set_launch_error(cudaError_t error, bool sticky);

/// cudaSuccess, or the sticky error of a crashed kernel.
cudaError_t status();

/// Called first by every runtime API function: made from kernel code (a
/// CUDA thread is running), it stops the launch with a finding naming `call`.
void host_only(const char* call);

/// The device allocations (cudaMalloc and its kin) that failed so far, for
/// `banklab run`'s verdict on a program that ended without a launch.
struct FailedAllocations {
  std::size_t count = 0;
  std::size_t largest_bytes = 0;
};
FailedAllocations& failed_allocations();

}  // namespace banklab::emu::detail

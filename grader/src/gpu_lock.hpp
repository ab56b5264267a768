// One GPU, one timed kernel at a time: an exclusive lock per GPU (flock on a
// file named after the device), held by a grader while its GPU runner or
// Nsight Compute runs, so that graders working side by side (the workers of
// --submissions, or separate grader commands) never time kernels on the
// same GPU at once; and the GPUs a batch spreads its workers over.
#pragma once

#include <string>
#include <vector>

namespace banklab::grader {

/// The GPU this process's CUDA device 0 is: the first entry of
/// CUDA_VISIBLE_DEVICES ("0" when unset). An index is turned into the GPU's
/// UUID where nvidia-smi answers, so that "1" and "GPU-3f2a..." name one lock.
std::string gpu_lock_key();

/// The folder of the lock files: BANKLAB_GPU_LOCK_DIR, else
/// /tmp/banklab-gpu-locks (created writable by everyone, sticky, as /tmp is,
/// so that the graders of several users share it).
std::string gpu_lock_dir();

/// Holds the lock of GPU `key` from construction (waiting for it as long as
/// another holder keeps it) to destruction. Where BANKLAB_GPU_LOCK_LOG names
/// a file, each hold appends a line "KEY PID START_US END_US WHAT" to it
/// (microseconds since the epoch): the record that holds never overlapped.
/// A lock that cannot be opened is not taken (and says so on stderr once):
/// grading goes on.
class GpuLock {
 public:
  GpuLock(const std::string& key, std::string what);
  ~GpuLock();
  GpuLock(const GpuLock&) = delete;
  GpuLock& operator=(const GpuLock&) = delete;

 private:
  std::string key_, what_;
  int fd_ = -1;
  long long start_us_ = 0;
};

/// The GPUs a batch spreads its workers over, as CUDA_VISIBLE_DEVICES values:
/// the entries of CUDA_VISIBLE_DEVICES where it is set (a Slurm job's GPUs),
/// else every GPU nvidia-smi lists (by UUID), else none (the child graders
/// then use CUDA's device 0).
std::vector<std::string> node_gpus();

/// The entries of a CUDA_VISIBLE_DEVICES value ("0,1", "GPU-ab..,GPU-cd..";
/// empty, "-1" or "NoDevFiles": none).
std::vector<std::string> split_visible_devices(const std::string& value);

}  // namespace banklab::grader

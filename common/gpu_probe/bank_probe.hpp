// The interface between bank_probe's host program (C++20) and its kernels.
#pragma once

/// Shared bytes the probe kernel declares; offsets must stay below this.
inline constexpr int kSharedBytes = 48 * 1024;

/// Launches one warp whose active lanes (offset >= 0) each issue exactly one
/// shared access of width_bytes at their offset, and waits for it. Exits the
/// program with a message on a CUDA error.
void probe_one_access(int width_bytes, bool store, const long long* lane_offsets);

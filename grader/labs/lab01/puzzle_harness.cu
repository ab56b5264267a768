// Stage 1's harness kernel, built for the CPU emulator like a lab file: one
// warp, each lane one shared load at the byte offset the student's puzzle
// function returns for it.
#include "student_api.hpp"

template <class T>
__global__ void puzzle_access(int puzzle, T* sink) {
  __shared__ __align__(16) unsigned char shared_bytes[lab01::kSharedBytes];
  const int lane = static_cast<int>(threadIdx.x);
  for (int i = lane; i < lab01::kSharedBytes / 4; i += 32) reinterpret_cast<unsigned*>(shared_bytes)[i] = i;
  __syncwarp();
  const int offset = lab01::kPuzzleFunctions[puzzle](lane);
  if (offset >= 0) sink[lane] = *reinterpret_cast<const T*>(shared_bytes + offset);  // the puzzle's load
}

template __global__ void puzzle_access<unsigned char>(int, unsigned char*);
template __global__ void puzzle_access<unsigned short>(int, unsigned short*);
template __global__ void puzzle_access<unsigned>(int, unsigned*);

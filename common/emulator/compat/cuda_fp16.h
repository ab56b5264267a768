// Lets `#include <cuda.h, cuda_fp16.h or cuda_runtime.h>` in lab code resolve to the CPU emulator's
// compatibility header when the file is built for the emulator.
#pragma once
#include "banklab/cuda_host.hpp"

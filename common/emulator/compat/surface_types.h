// Lets `#include <surface_types.h>` resolve to the CPU emulator's surface objects
// (banklab/cuda_texture.hpp, which every CUDA file and <cuda_runtime.h> get).
#pragma once
#include "banklab/cuda_texture.hpp"

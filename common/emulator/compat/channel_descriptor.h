// Lets `#include <channel_descriptor.h>` resolve to the CPU emulator's texture objects
// (banklab/cuda_texture.hpp, which every CUDA file and <cuda_runtime.h> get).
#pragma once
#include "banklab/cuda_texture.hpp"

// Lets `#include <surface_indirect_functions.h>` resolve to the CPU emulator's
// surf1Dread ... surf3Dwrite (banklab/cuda_texture.hpp).
#pragma once
#include "banklab/cuda_texture.hpp"

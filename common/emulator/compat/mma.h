// <mma.h> for the CPU emulator: nvcuda::wmma (banklab/cuda_wmma.hpp).
#pragma once
#include "banklab/cuda_wmma.hpp"

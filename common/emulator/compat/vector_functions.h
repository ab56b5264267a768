// Lets `#include <vector_functions.h>` resolve to the CPU emulator's compatibility header.
#pragma once
#include "banklab/cuda_host.hpp"

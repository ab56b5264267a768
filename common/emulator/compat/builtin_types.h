// Lets `#include <builtin_types.h>` resolve to the CPU emulator's compatibility header.
#pragma once
#include "banklab/cuda_host.hpp"

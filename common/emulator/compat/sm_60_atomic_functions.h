// Lets `#include <sm_60_atomic_functions.h>` resolve to the CPU emulator's compatibility header.
#pragma once
#include "banklab/cuda_host.hpp"

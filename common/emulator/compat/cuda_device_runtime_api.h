// Lets `#include <cuda_device_runtime_api.h>` resolve to the CPU emulator's compatibility header.
#pragma once
#include "banklab/cuda_host.hpp"

// Lets `#include <device_launch_parameters.h>` resolve to the CPU emulator's compatibility header.
#pragma once
#include "banklab/cuda_host.hpp"

// <cuda_pipeline_primitives.h> for the CPU emulator: the same primitives as <cuda_pipeline.h>.
#pragma once

#include "cuda_pipeline.h"

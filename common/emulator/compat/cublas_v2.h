// Lets `#include <cublas_v2.h>` resolve to the CPU emulator's cuBLAS
// (cublas_api.h; `banklab run -lcublas`).
#pragma once
#include "cublas_api.h"

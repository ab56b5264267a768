// CUDA's math_constants.h: the constants programs use most.
#pragma once
#define CUDART_PI_F 3.141592654f
#define CUDART_PI 3.1415926535897931e+0
#define CUDART_PIO2_F 1.570796327f
#define CUDART_2_OVER_PI_F 0.636619772f
#define CUDART_SQRT_HALF_F 0.707106781f
#define CUDART_INF_F __int_as_float(0x7f800000)
#define CUDART_NAN_F __int_as_float(0x7fffffff)
#define CUDART_MIN_DENORM_F __int_as_float(0x00000001)
#define CUDART_MAX_NORMAL_F __int_as_float(0x7f7fffff)
#define CUDART_NEG_ZERO_F __int_as_float(0x80000000)
#define CUDART_ZERO_F 0.0f
#define CUDART_ONE_F 1.0f
#define CUDART_INF __longlong_as_double(0x7ff0000000000000ULL)
#define CUDART_NAN __longlong_as_double(0xfff8000000000000ULL)
#include "banklab/cuda_host.hpp"

// Uses __constant__ memory, which the CPU emulator does not run: building it
// for the emulator must fail with a message that names the construct.
__constant__ float coefficients[4];

__global__ void scale(float* out) { out[threadIdx.x] *= coefficients[threadIdx.x % 4]; }

// Uses __managed__ memory, which the CPU emulator does not run: building it
// for the emulator must fail with a message that names the construct.
__managed__ float coefficients[4];

__global__ void scale(float* data) { data[threadIdx.x] *= coefficients[threadIdx.x % 4]; }

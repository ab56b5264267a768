// Surface objects: a 2D float array written and read by kernels through
// surf2Dwrite/surf2Dread (x in bytes), a 1D int array with the three
// boundary modes, the flags cudaArrayGetInfo gives back, and a surface of an
// array made without cudaArraySurfaceLoadStore (an H100 makes it).
#include <cstdio>
#include <cstring>

// out(x, y) = in(x, y) * 2 + 1, in place through one surface; then a copy shifted one
// column right into `shifted`, with the left column clamped.
__global__ void scale(cudaSurfaceObject_t surface, int width, int height) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  float v = 0;
  surf2Dread(&v, surface, x * static_cast<int>(sizeof(float)), y);
  surf2Dwrite(v * 2 + 1, surface, x * static_cast<int>(sizeof(float)), y);
}

__global__ void shift(cudaSurfaceObject_t from, float* shifted, int width, int height) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  shifted[y * width + x] = surf2Dread<float>(from, (x - 1) * 4, y, cudaBoundaryModeClamp);
}

// Lane l reads element l - 2 and writes element l + 2 of an 8-element array, zero mode.
__global__ void edges(cudaSurfaceObject_t surface, int* read) {
  const int l = threadIdx.x;
  read[l] = surf1Dread<int>(surface, (l - 2) * 4, cudaBoundaryModeZero);
  __syncthreads();
  surf1Dwrite(100 + l, surface, (l + 2) * 4, cudaBoundaryModeZero);
}

// Past the last column with the default mode (cudaBoundaryModeTrap): the GPU stops the kernel.
__global__ void past_the_end(cudaSurfaceObject_t surface, int width, float* out) {
  out[threadIdx.x] = surf2Dread<float>(surface, (width + static_cast<int>(threadIdx.x)) * 4, 0);
}

cudaSurfaceObject_t surface_of(cudaArray_t array) {
  cudaResourceDesc resource;
  std::memset(&resource, 0, sizeof resource);
  resource.resType = cudaResourceTypeArray;
  resource.res.array.array = array;
  cudaSurfaceObject_t surface = 0;
  const cudaError_t e = cudaCreateSurfaceObject(&surface, &resource);
  if (e != cudaSuccess) std::printf("cudaCreateSurfaceObject: %s\n", cudaGetErrorName(e));
  return surface;
}

int main(int argc, char** argv) {
  const int width = 37, height = 5;
  float host[width * height];
  for (int i = 0; i < width * height; ++i) host[i] = static_cast<float>(i);
  const cudaChannelFormatDesc f = cudaCreateChannelDesc<float>();
  cudaArray_t array = nullptr;
  cudaMallocArray(&array, &f, width, height, cudaArraySurfaceLoadStore);
  cudaMemcpy2DToArray(array, 0, 0, host, width * sizeof(float), width * sizeof(float), height, cudaMemcpyHostToDevice);
  const cudaSurfaceObject_t surface = surface_of(array);
  scale<<<dim3(3, 2), dim3(16, 4)>>>(surface, width, height);
  float* shifted = nullptr;
  cudaMalloc(&shifted, sizeof host);
  shift<<<dim3(3, 2), dim3(16, 4)>>>(surface, shifted, width, height);
  float back[width * height], moved[width * height];
  cudaMemcpy2DFromArray(back, width * sizeof(float), array, 0, 0, width * sizeof(float), height, cudaMemcpyDeviceToHost);
  cudaMemcpy(moved, shifted, sizeof moved, cudaMemcpyDeviceToHost);
  if (argc > 1 && std::strcmp(argv[1], "trap") == 0) {
    past_the_end<<<1, 4>>>(surface, width, shifted);
    std::printf("past the end, trap mode: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    return 0;
  }
  int wrong = 0;
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      wrong += back[y * width + x] != host[y * width + x] * 2 + 1;
      wrong += moved[y * width + x] != back[y * width + (x > 0 ? x - 1 : 0)];
    }
  }
  std::printf("scaled in place and read shifted with clamping: %s (%d wrong)\n", wrong == 0 ? "OK" : "WRONG", wrong);

  const cudaChannelFormatDesc i32 = cudaCreateChannelDesc<int>();
  cudaArray_t line = nullptr;
  cudaMallocArray(&line, &i32, 8, 0, cudaArraySurfaceLoadStore);
  int start[8] = {10, 11, 12, 13, 14, 15, 16, 17};
  cudaMemcpy2DToArray(line, 0, 0, start, sizeof start, sizeof start, 1, cudaMemcpyHostToDevice);
  const cudaSurfaceObject_t line_surface = surface_of(line);
  int* read = nullptr;
  cudaMalloc(&read, 8 * sizeof(int));
  edges<<<1, 8>>>(line_surface, read);
  int got[8], after[8];
  cudaMemcpy(got, read, sizeof got, cudaMemcpyDeviceToHost);
  cudaMemcpy2DFromArray(after, sizeof after, line, 0, 0, sizeof after, 1, cudaMemcpyDeviceToHost);
  std::printf("zero mode reads:");
  for (int v : got) std::printf(" %d", v);
  std::printf("\nzero mode writes:");
  for (int v : after) std::printf(" %d", v);
  std::printf("\n");

  cudaArray_t plain = nullptr;
  cudaMallocArray(&plain, &f, 4, 4);
  std::printf("a surface of an array without cudaArraySurfaceLoadStore: ");
  if (surface_of(plain) != 0) std::printf("made\n");
  unsigned flags = 99, plain_flags = 99;
  cudaArrayGetInfo(nullptr, nullptr, &flags, line);
  cudaArrayGetInfo(nullptr, nullptr, &plain_flags, plain);
  std::printf("array flags: %u with cudaArraySurfaceLoadStore, %u without\n", flags, plain_flags);
  std::printf("destroying a surface: %s\n", cudaGetErrorName(cudaDestroySurfaceObject(line_surface)));
  return wrong == 0 ? 0 : 1;
}

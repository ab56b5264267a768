// Handout 1's worked example (no lab grades it): a warp reads one field of an
// array of structures in shared memory. Which bank serves each lane depends
// on the structure's size in words. Run it on a CPU:
//   build/common/cli/banklab run handouts/examples/01-struct-fields.cu
#include <cstddef>
#include <cstdio>
#include <cuda_runtime.h>

struct Point3 { float x, y, z; };     // 12 bytes: 3 words
struct Point4 { float x, y, z, w; };  // 16 bytes: 4 words

// One warp: lane l fills points[l], then reads points[l].y.
template <typename Point>
__global__ void read_y(float* out) {
  __shared__ Point points[32];
  const int l = threadIdx.x;
  points[l].x = 0.0f;
  points[l].y = static_cast<float>(l);
  points[l].z = 0.0f;
  __syncwarp();
  out[l] = points[l].y;  // lane l: byte sizeof(Point) * l + 4
}

int main() {
  //! [field banks]
  for (int lane = 0; lane < 4; ++lane) {
    const int byte = lane * static_cast<int>(sizeof(Point3)) + static_cast<int>(offsetof(Point3, y));
    const int word = byte / 4;  // a word is 4 bytes
    std::printf("Point3, lane %d reads y: byte %d, word %d, bank %d\n", lane, byte, word, word % 32);
  }
  //! [field banks]
  float* out;
  cudaMalloc(&out, 32 * sizeof(float));
  read_y<Point3><<<1, 32>>>(out);
  read_y<Point4><<<1, 32>>>(out);
  float host[32];
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int l = 0; l < 32; ++l) wrong += host[l] != static_cast<float>(l);
  std::printf("read_y: %s\n", wrong == 0 ? "right" : "WRONG");
  cudaFree(out);
  return wrong == 0 ? 0 : 1;
}

// A 2-D memset node of a CUDA graph: 3 rows of 5 ints in a pitched buffer
// of 16 ints a row. Each row's 5 ints are set from the start of that row
// (row y at y * pitch); the rest of every row keeps its zeros.
//   banklab run graph_memset_2d.cu
#include <cstdio>

int main() {
  constexpr int kRows = 3, kWidth = 5, kPitchInts = 16;
  unsigned* buffer = nullptr;
  cudaMalloc(&buffer, kRows * kPitchInts * sizeof(unsigned));
  cudaMemset(buffer, 0, kRows * kPitchInts * sizeof(unsigned));
  cudaGraph_t graph;
  cudaGraphCreate(&graph, 0);
  cudaMemsetParams set = {};
  set.dst = buffer;
  set.pitch = kPitchInts * sizeof(unsigned);
  set.value = 0x01020304u;
  set.elementSize = 4;
  set.width = kWidth;
  set.height = kRows;
  cudaGraphNode_t node;
  const cudaError_t added = cudaGraphAddMemsetNode(&node, graph, nullptr, 0, &set);
  cudaGraphExec_t exec;
  cudaGraphInstantiate(&exec, graph, 0);
  cudaGraphLaunch(exec, 0);
  cudaStreamSynchronize(0);
  unsigned host[kRows * kPitchInts];
  cudaMemcpy(host, buffer, sizeof host, cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int y = 0; y < kRows; ++y) {
    for (int x = 0; x < kPitchInts; ++x) {
      if (host[y * kPitchInts + x] != (x < kWidth ? 0x01020304u : 0u)) ++wrong;
    }
  }
  std::printf("2-D memset node (%s): %s (%d wrong)\n", cudaGetErrorString(added), wrong == 0 ? "OK" : "WRONG", wrong);
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cudaFree(buffer);
  return wrong == 0 ? 0 : 1;
}

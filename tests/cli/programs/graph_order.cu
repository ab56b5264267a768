// Independent nodes of a graph: three host nodes with no edge between them,
// added a, b, c, and a fourth, d, after all three. CUDA leaves the order of
// independent nodes open; the emulator runs the earliest added first among
// those ready (common/emulator/README.md), so it prints "ran abcd" on every
// launch. Any GPU order keeps d last.
#include <cstdio>

char order[16];
int count = 0;
void mark(void* data) { order[count++] = *static_cast<const char*>(data); }

int main() {
  static const char names[] = "abcd";
  cudaGraph_t graph;
  cudaGraphCreate(&graph, 0);
  cudaGraphNode_t nodes[4];
  for (int i = 0; i < 4; ++i) {
    cudaHostNodeParams params = {};
    params.fn = mark;
    params.userData = const_cast<char*>(names + i);
    const int after = i == 3 ? 3 : 0;  // d depends on a, b and c
    if (cudaGraphAddHostNode(&nodes[i], graph, after > 0 ? nodes : nullptr, after, &params) != cudaSuccess) {
      std::printf("cudaGraphAddHostNode failed\n");
      return 1;
    }
  }
  cudaGraphExec_t exec;
  if (cudaGraphInstantiate(&exec, graph, 0) != cudaSuccess) return 1;
  for (int launch = 0; launch < 2; ++launch) {
    count = 0;
    cudaGraphLaunch(exec, 0);
    cudaStreamSynchronize(0);
    order[count] = '\0';
    std::printf("launch %d ran %s\n", launch + 1, order);
  }
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  return count == 4 && order[3] == 'd' ? 0 : 1;
}

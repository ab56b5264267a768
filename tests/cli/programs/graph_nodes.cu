// A CUDA graph built node by node: copies, a memset, kernels (one with a
// shared-memory tree whose interleaved addressing conflicts), a host node, an
// empty node and a child graph, with dependencies added out of the order the
// nodes were made in; then an instance's kernel parameters changed, a graph's
// kernel node given new arguments and shape before its instance is made, and the
// errors CUDA gives for a cycle and for a node of another graph.
// Each line says OK or WRONG; the last line counts the wrong ones.
#include <cstdio>
#include <vector>

#define CHECK(call)                                                                               \
  do {                                                                                            \
    const cudaError_t e = (call);                                                                 \
    if (e != cudaSuccess) {                                                                       \
      std::printf("%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e));           \
      return 1;                                                                                   \
    }                                                                                             \
  } while (0)

constexpr int kThreads = 256;

// Block sums of in[] (interleaved addressing: 2-way and worse bank conflicts).
__global__ void block_sums(int* sums, const int* in, int n) {
  __shared__ int partial[kThreads];
  const int tid = threadIdx.x;
  const int i = blockIdx.x * kThreads + tid;
  partial[tid] = i < n ? in[i] : 0;
  __syncthreads();
  for (int stride = 1; stride < kThreads; stride *= 2) {
    const int index = 2 * stride * tid;
    if (index < kThreads) partial[index] += partial[index + stride];
    __syncthreads();
  }
  if (tid == 0) sums[blockIdx.x] = partial[0];
}

// out[i] = in[i] * factor + offset.
__global__ void scale(int* out, const int* in, int n, int factor, int offset) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * factor + offset;
}

struct Log {
  int order[8];
  int count;
};
void note(void* data) {
  Log* log = static_cast<Log*>(data);
  log->order[log->count] = log->count;
  ++log->count;
}

// A member of the program's own named `func`: the `(void*)` cast `banklab
// run` changes for kernel nodes still gives a plain pointer here.
struct Callback {
  void* func;
  const void* data;
};

int wrong = 0;
void expect(bool ok, const char* what) {
  std::printf("%s %s\n", ok ? "OK" : "WRONG", what);
  wrong += ok ? 0 : 1;
}

int main() {
  const int n = 1000, blocks = (n + kThreads - 1) / kThreads;
  std::vector<int> host(n);
  for (int i = 0; i < n; ++i) host[i] = i % 17 - 5;
  int *in = nullptr, *scaled = nullptr, *sums = nullptr;
  CHECK(cudaMalloc(&in, n * sizeof(int)));
  CHECK(cudaMalloc(&scaled, n * sizeof(int)));
  CHECK(cudaMalloc(&sums, blocks * sizeof(int)));

  cudaGraph_t graph;
  CHECK(cudaGraphCreate(&graph, 0));
  // Made in this order: sum, scale, memset, upload, download, host note.
  // Run order the dependencies ask: upload -> memset -> scale -> sum -> download, with the note after the download.
  cudaGraphNode_t sum_node, scale_node, memset_node, upload, download, host_node, empty;
  int factor = 3, offset = 1, count = n;
  cudaKernelNodeParams sum_params = {};
  sum_params.func = (void*)block_sums;
  sum_params.gridDim = dim3(blocks);
  sum_params.blockDim = dim3(kThreads);
  void* sum_args[] = {&sums, &scaled, &count};
  sum_params.kernelParams = sum_args;
  CHECK(cudaGraphAddKernelNode(&sum_node, graph, nullptr, 0, &sum_params));

  cudaKernelNodeParams scale_params = {};
  scale_params.func = reinterpret_cast<void*>(scale);
  scale_params.gridDim = dim3(blocks);
  scale_params.blockDim = dim3(kThreads);
  void* scale_args[] = {&scaled, &in, &count, &factor, &offset};
  scale_params.kernelParams = scale_args;
  CHECK(cudaGraphAddKernelNode(&scale_node, graph, nullptr, 0, &scale_params));
  factor = 100;  // the node copied the arguments when it was made: this changes nothing

  cudaMemsetParams set = {};
  set.dst = scaled;
  set.value = 0x7f;
  set.elementSize = 4;
  set.width = n;
  set.height = 1;
  CHECK(cudaGraphAddMemsetNode(&memset_node, graph, nullptr, 0, &set));

  CHECK(cudaGraphAddMemcpyNode1D(&upload, graph, nullptr, 0, in, host.data(), n * sizeof(int),
                                 cudaMemcpyHostToDevice));
  std::vector<int> back_sums(blocks, -1), back_scaled(n, -1);
  cudaMemcpy3DParms down = {};
  down.srcPtr = make_cudaPitchedPtr(sums, blocks * sizeof(int), blocks, 1);
  down.dstPtr = make_cudaPitchedPtr(back_sums.data(), blocks * sizeof(int), blocks, 1);
  down.extent = make_cudaExtent(blocks * sizeof(int), 1, 1);
  down.kind = cudaMemcpyDeviceToHost;
  CHECK(cudaGraphAddMemcpyNode(&download, graph, &sum_node, 1, &down));

  Log log = {{-1, -1, -1, -1, -1, -1, -1, -1}, 0};
  cudaHostNodeParams host_params = {};
  host_params.fn = note;
  host_params.userData = &log;
  CHECK(cudaGraphAddHostNode(&host_node, graph, &download, 1, &host_params));
  CHECK(cudaGraphAddEmptyNode(&empty, graph, &upload, 1));

  const cudaGraphNode_t from[] = {empty, memset_node, scale_node};
  const cudaGraphNode_t to[] = {memset_node, scale_node, sum_node};
  CHECK(cudaGraphAddDependencies(graph, from, to, nullptr, 3));

  std::size_t nodes = 0, roots = 0;
  CHECK(cudaGraphGetNodes(graph, nullptr, &nodes));
  CHECK(cudaGraphGetRootNodes(graph, nullptr, &roots));
  expect(nodes == 7 && roots == 1, "7 nodes, one root (the upload)");
  cudaGraphNodeType type;
  CHECK(cudaGraphNodeGetType(memset_node, &type));
  expect(type == cudaGraphNodeTypeMemset, "the memset node's type");

  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  CHECK(cudaGraphLaunch(exec, 0));
  CHECK(cudaStreamSynchronize(0));
  CHECK(cudaMemcpy(back_scaled.data(), scaled, n * sizeof(int), cudaMemcpyDeviceToHost));
  bool scaled_ok = true, sums_ok = true;
  for (int i = 0; i < n; ++i) scaled_ok = scaled_ok && back_scaled[i] == host[i] * 3 + 1;
  for (int b = 0; b < blocks; ++b) {
    int s = 0;
    for (int i = b * kThreads; i < n && i < (b + 1) * kThreads; ++i) s += host[i] * 3 + 1;
    sums_ok = sums_ok && back_sums[b] == s;
  }
  expect(scaled_ok, "scale ran after the memset, with the arguments of when its node was made");
  expect(sums_ok, "the block sums ran after scale, and the 3D copy brought them back");
  expect(log.count == 1, "the host node ran once");

  // The instance's scale node with other arguments: the graph keeps the old ones.
  int factor2 = -2, offset2 = 7;
  void* scale_args2[] = {&scaled, &in, &count, &factor2, &offset2};
  scale_params.kernelParams = scale_args2;
  CHECK(cudaGraphExecKernelNodeSetParams(exec, scale_node, &scale_params));
  CHECK(cudaGraphLaunch(exec, 0));
  CHECK(cudaStreamSynchronize(0));
  CHECK(cudaMemcpy(back_scaled.data(), scaled, n * sizeof(int), cudaMemcpyDeviceToHost));
  scaled_ok = true;
  for (int i = 0; i < n; ++i) scaled_ok = scaled_ok && back_scaled[i] == host[i] * -2 + 7;
  expect(scaled_ok && log.count == 2, "the instance's new kernel parameters, the host node again");

  // A child graph: the whole graph once more, as one node of another.
  cudaGraph_t outer;
  cudaGraphNode_t child, after_child;
  CHECK(cudaGraphCreate(&outer, 0));
  CHECK(cudaGraphAddChildGraphNode(&child, outer, nullptr, 0, graph));
  CHECK(cudaGraphAddHostNode(&after_child, outer, &child, 1, &host_params));
  cudaGraphExec_t outer_exec;
  CHECK(cudaGraphInstantiate(&outer_exec, outer, 0));
  CHECK(cudaGraphLaunch(outer_exec, 0));
  CHECK(cudaStreamSynchronize(0));
  CHECK(cudaMemcpy(back_scaled.data(), scaled, n * sizeof(int), cudaMemcpyDeviceToHost));
  scaled_ok = true;
  for (int i = 0; i < n; ++i) scaled_ok = scaled_ok && back_scaled[i] == host[i] * 3 + 1;
  expect(scaled_ok && log.count == 4, "the child graph ran with the graph's own parameters, then the outer host node");

  // A graph's own kernel node given new parameters (arguments and shape) before an
  // instance is made: the instance launches with the new ones.
  cudaGraph_t lone;
  cudaGraphNode_t lone_scale;
  CHECK(cudaGraphCreate(&lone, 0));
  scale_params.kernelParams = scale_args;  // factor 100 by now, offset 1
  CHECK(cudaGraphAddKernelNode(&lone_scale, lone, nullptr, 0, &scale_params));
  int factor3 = 5, offset3 = -4;
  void* scale_args3[] = {&scaled, &in, &count, &factor3, &offset3};
  cudaKernelNodeParams changed = scale_params;
  changed.kernelParams = scale_args3;
  changed.blockDim = dim3(kThreads / 2);
  changed.gridDim = dim3((n + kThreads / 2 - 1) / (kThreads / 2));
  CHECK(cudaGraphKernelNodeSetParams(lone_scale, &changed));
  cudaGraphExec_t lone_exec;
  CHECK(cudaGraphInstantiate(&lone_exec, lone, 0));
  CHECK(cudaGraphLaunch(lone_exec, 0));
  CHECK(cudaStreamSynchronize(0));
  CHECK(cudaMemcpy(back_scaled.data(), scaled, n * sizeof(int), cudaMemcpyDeviceToHost));
  scaled_ok = true;
  for (int i = 0; i < n; ++i) scaled_ok = scaled_ok && back_scaled[i] == host[i] * 5 - 4;
  expect(scaled_ok, "a node's parameters set on the graph: its next instance uses them");

  Callback callback = {};
  callback.func = (void*)note;
  callback.data = (const void*)scale;
  expect(callback.func == reinterpret_cast<void*>(note), "a func member of the program's own keeps its void*");

  // Errors: a node of another graph as a dependency; a cycle refused at instantiation.
  cudaGraphNode_t stray;
  expect(cudaGraphAddEmptyNode(&stray, outer, &upload, 1) == cudaErrorInvalidValue,
         "a dependency from another graph: cudaErrorInvalidValue");
  cudaGraph_t loop;
  cudaGraphNode_t a, b;
  CHECK(cudaGraphCreate(&loop, 0));
  CHECK(cudaGraphAddEmptyNode(&a, loop, nullptr, 0));
  CHECK(cudaGraphAddEmptyNode(&b, loop, &a, 1));
  const cudaError_t cycle = cudaGraphAddDependencies(loop, &b, &a, nullptr, 1);
  cudaGraphExec_t loop_exec;
  const cudaError_t made = cycle == cudaSuccess ? cudaGraphInstantiate(&loop_exec, loop, 0) : cycle;
  expect(made != cudaSuccess, "a cycle is refused");
  cudaGetLastError();

  CHECK(cudaGraphExecDestroy(lone_exec));
  CHECK(cudaGraphExecDestroy(outer_exec));
  CHECK(cudaGraphDestroy(lone));
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(outer));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaGraphDestroy(loop));
  CHECK(cudaFree(in));
  CHECK(cudaFree(scaled));
  CHECK(cudaFree(sums));
  std::printf("%d wrong\n", wrong);
  return wrong == 0 ? 0 : 1;
}

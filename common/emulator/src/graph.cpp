// CUDA graphs (include/banklab/cuda_graph.hpp): nodes made by stream capture
// (each depending on the one captured before it) or added one by one with
// their dependencies; an instance runs them in an order that keeps every
// dependency, the earliest added first among those ready.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "banklab/cuda_graph.hpp"
#include "banklab/cuda_host.hpp"
#include "banklab/cuda_launch.hpp"
#include "host_api.hpp"

struct CUgraphNode_st {
  CUgraph_st* graph = nullptr;
  cudaGraphNodeType type = cudaGraphNodeTypeEmpty;
  std::function<void()> step;          // empty for an empty node
  std::vector<CUgraphNode_st*> after;  // the nodes it depends on
  cudaKernelNodeParams kernel{};       // a kernel node's parameters (kernelParams not kept: copied into step)
};
struct CUgraph_st {
  std::vector<std::unique_ptr<CUgraphNode_st>> nodes;  // in the order added
};
struct CUgraphExec_st {
  std::vector<std::pair<const CUgraphNode_st*, std::function<void()>>> steps;  // in the order they run
};

namespace {

using banklab::emu::detail::host_only;

std::mutex g_capture_mutex;
std::map<cudaStream_t, CUgraph_st*>& captures() {
  static std::map<cudaStream_t, CUgraph_st*> all;
  return all;
}

CUgraphNode_st* add_node(CUgraph_st* graph, cudaGraphNodeType type, std::function<void()> step) {
  graph->nodes.push_back(std::make_unique<CUgraphNode_st>());
  CUgraphNode_st* node = graph->nodes.back().get();
  node->graph = graph;
  node->type = type;
  node->step = std::move(step);
  return node;
}

// cudaGraphAdd*Node's checks: the graph and the node pointer given, and
// every dependency a node of this graph, named once.
cudaError_t check_add(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                      std::size_t count) {
  if (node == nullptr || graph == nullptr || (count > 0 && dependencies == nullptr)) return cudaErrorInvalidValue;
  for (std::size_t i = 0; i < count; ++i) {
    if (dependencies[i] == nullptr || dependencies[i]->graph != graph) return cudaErrorInvalidValue;
    for (std::size_t j = 0; j < i; ++j) {
      if (dependencies[j] == dependencies[i]) return cudaErrorInvalidValue;
    }
  }
  return cudaSuccess;
}

cudaError_t finish_add(cudaGraphNode_t* node, CUgraphNode_st* made, const cudaGraphNode_t* dependencies,
                       std::size_t count) {
  made->after.assign(dependencies, dependencies + count);
  *node = made;
  return cudaSuccess;
}

// The launch of a kernel node, its arguments copied now; empty when the
// kernel's parameter types are not known (a `void*` the rewrite did not see).
std::function<void()> kernel_step(const cudaKernelNodeParams& p) {
  if (p.func.bind == nullptr) return nullptr;
  const banklab::emu::LaunchConfig config(p.gridDim, p.blockDim, p.sharedMemBytes);
  return p.func.bind(p.func.address, config, p.kernelParams);
}

cudaError_t untyped_kernel_node(const char* call) {
  std::fflush(stdout);
  std::fprintf(stderr,
               "banklab run: %s was given a kernel node whose func is a plain pointer (void*) the emulator cannot "
               "call (its parameter types are unknown): assign the kernel itself where the node's parameters are "
               "set, e.g. params.func = (void*)my_kernel;\n",
               call);
  banklab::emu::detail::set_launch_error(cudaErrorInvalidDeviceFunction, false);
  return cudaErrorInvalidDeviceFunction;
}

// The graph's nodes in the order an instance runs them (Kahn's order, the
// earliest added among the ready ones first); false when the dependencies
// form a cycle.
bool run_order(const CUgraph_st& graph, std::vector<const CUgraphNode_st*>& order) {
  std::map<const CUgraphNode_st*, std::size_t> waiting;
  std::map<const CUgraphNode_st*, std::vector<const CUgraphNode_st*>> before;
  for (const auto& n : graph.nodes) {
    waiting[n.get()] = n->after.size();
    for (const CUgraphNode_st* d : n->after) before[d].push_back(n.get());
  }
  std::map<std::size_t, const CUgraphNode_st*> ready;  // by the order added
  std::map<const CUgraphNode_st*, std::size_t> index;
  for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
    index[graph.nodes[i].get()] = i;
    if (graph.nodes[i]->after.empty()) ready[i] = graph.nodes[i].get();
  }
  order.clear();
  while (!ready.empty()) {
    const CUgraphNode_st* n = ready.begin()->second;
    ready.erase(ready.begin());
    order.push_back(n);
    for (const CUgraphNode_st* next : before[n]) {
      if (--waiting[next] == 0) ready[index[next]] = next;
    }
  }
  return order.size() == graph.nodes.size();
}

cudaError_t copy_3d(const cudaMemcpy3DParms& p) {
  if (p.srcArray != nullptr || p.dstArray != nullptr) {
    std::fflush(stdout);
    std::fprintf(stderr,
                 "banklab run: cudaMemcpy3D with a CUDA array (srcArray or dstArray) is not supported by the CPU "
                 "emulator: copy between pitched pointers (srcPtr, dstPtr), or use cudaMemcpy2DToArray\n");
    return cudaErrorNotSupported;
  }
  if (p.srcPtr.ptr == nullptr || p.dstPtr.ptr == nullptr) return cudaErrorInvalidValue;
  const std::size_t src_pitch = p.srcPtr.pitch, dst_pitch = p.dstPtr.pitch;
  if (p.extent.width > src_pitch || p.extent.width > dst_pitch) return cudaErrorInvalidValue;
  const std::size_t src_rows = std::max<std::size_t>(p.srcPtr.ysize, 1), dst_rows = std::max<std::size_t>(p.dstPtr.ysize, 1);
  for (std::size_t z = 0; z < std::max<std::size_t>(p.extent.depth, 1); ++z) {
    for (std::size_t y = 0; y < std::max<std::size_t>(p.extent.height, 1); ++y) {
      const char* from = static_cast<const char*>(p.srcPtr.ptr) + ((p.srcPos.z + z) * src_rows + p.srcPos.y + y) * src_pitch + p.srcPos.x;
      char* to = static_cast<char*>(p.dstPtr.ptr) + ((p.dstPos.z + z) * dst_rows + p.dstPos.y + y) * dst_pitch + p.dstPos.x;
      const cudaError_t e = cudaMemcpy(to, from, p.extent.width, p.kind);
      if (e != cudaSuccess) return e;
    }
  }
  return cudaSuccess;
}

cudaError_t memset_2d(const cudaMemsetParams& p) {
  if (p.dst == nullptr || (p.elementSize != 1 && p.elementSize != 2 && p.elementSize != 4)) return cudaErrorInvalidValue;
  const std::size_t row_bytes = p.width * p.elementSize;
  const std::size_t height = std::max<std::size_t>(p.height, 1);
  if (height > 1 && p.pitch < row_bytes) return cudaErrorInvalidValue;
  for (std::size_t y = 0; y < height; ++y) {
    char* row = static_cast<char*>(p.dst) + y * p.pitch;
    for (std::size_t x = 0; x < p.width; ++x) {
      // The value's low elementSize bytes, in the machine's order, as the GPU's.
      std::memcpy(row + x * p.elementSize, &p.value, p.elementSize);
    }
  }
  return cudaSuccess;
}

}  // namespace

namespace banklab::emu::detail {

bool capturing(cudaStream_t stream) {
  const std::lock_guard<std::mutex> lock(g_capture_mutex);
  return captures().count(stream) > 0;
}

void capture(cudaStream_t stream, std::function<void()> step, cudaGraphNodeType type) {
  const std::lock_guard<std::mutex> lock(g_capture_mutex);
  const auto found = captures().find(stream);
  if (found == captures().end()) return;
  CUgraph_st* graph = found->second;
  CUgraphNode_st* previous = graph->nodes.empty() ? nullptr : graph->nodes.back().get();
  CUgraphNode_st* node = add_node(graph, type, std::move(step));
  if (previous != nullptr) node->after.push_back(previous);
}

}  // namespace banklab::emu::detail

cudaError_t cudaStreamBeginCapture(cudaStream_t stream, cudaStreamCaptureMode) {
  host_only("cudaStreamBeginCapture");
  // As CUDA: the legacy default stream cannot be captured.
  if (stream == nullptr) return cudaErrorStreamCaptureUnsupported;
  const std::lock_guard<std::mutex> lock(g_capture_mutex);
  if (captures().count(stream) > 0) return cudaErrorIllegalState;
  captures()[stream] = new CUgraph_st;
  return cudaSuccess;
}
cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t* graph) {
  host_only("cudaStreamEndCapture");
  const std::lock_guard<std::mutex> lock(g_capture_mutex);
  const auto found = captures().find(stream);
  if (found == captures().end()) return cudaErrorIllegalState;
  if (graph == nullptr) return cudaErrorInvalidValue;
  *graph = found->second;
  captures().erase(found);
  return cudaSuccess;
}
cudaError_t cudaStreamIsCapturing(cudaStream_t stream, cudaStreamCaptureStatus* status) {
  host_only("cudaStreamIsCapturing");
  if (status == nullptr) return cudaErrorInvalidValue;
  *status = banklab::emu::detail::capturing(stream) ? cudaStreamCaptureStatusActive : cudaStreamCaptureStatusNone;
  return cudaSuccess;
}
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void* user_data) {
  host_only("cudaLaunchHostFunc");
  if (fn == nullptr) return cudaErrorInvalidValue;
  if (banklab::emu::detail::capturing(stream)) {
    banklab::emu::detail::capture(stream, [fn, user_data] { fn(user_data); }, cudaGraphNodeTypeHost);
    return cudaSuccess;
  }
  if (banklab::emu::detail::status() != cudaSuccess) return banklab::emu::detail::status();
  fn(user_data);
  return cudaSuccess;
}
cudaError_t cudaMemcpy3D(const cudaMemcpy3DParms* p) {
  host_only("cudaMemcpy3D");
  if (p == nullptr) return cudaErrorInvalidValue;
  if (banklab::emu::detail::status() != cudaSuccess) return banklab::emu::detail::status();
  return copy_3d(*p);
}
cudaError_t cudaMemcpy3DAsync(const cudaMemcpy3DParms* p, cudaStream_t stream) {
  host_only("cudaMemcpy3DAsync");
  if (p == nullptr) return cudaErrorInvalidValue;
  if (banklab::emu::detail::capturing(stream)) {
    const cudaMemcpy3DParms copy = *p;
    banklab::emu::detail::capture(stream, [copy] { copy_3d(copy); }, cudaGraphNodeTypeMemcpy);
    return cudaSuccess;
  }
  return cudaMemcpy3D(p);
}
cudaError_t cudaGraphCreate(cudaGraph_t* graph, unsigned int) {
  host_only("cudaGraphCreate");
  if (graph == nullptr) return cudaErrorInvalidValue;
  *graph = new CUgraph_st;
  return cudaSuccess;
}
cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t* nodes, std::size_t* count) {
  host_only("cudaGraphGetNodes");
  if (graph == nullptr || count == nullptr) return cudaErrorInvalidValue;
  if (nodes != nullptr) {
    for (std::size_t i = 0; i < std::min(*count, graph->nodes.size()); ++i) nodes[i] = graph->nodes[i].get();
  }
  *count = graph->nodes.size();
  return cudaSuccess;
}
cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t* nodes, std::size_t* count) {
  host_only("cudaGraphGetRootNodes");
  if (graph == nullptr || count == nullptr) return cudaErrorInvalidValue;
  std::vector<cudaGraphNode_t> roots;
  for (const auto& n : graph->nodes) {
    if (n->after.empty()) roots.push_back(n.get());
  }
  if (nodes != nullptr) std::copy_n(roots.begin(), std::min(*count, roots.size()), nodes);
  *count = roots.size();
  return cudaSuccess;
}
cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                                   std::size_t count, const cudaKernelNodeParams* params) {
  host_only("cudaGraphAddKernelNode");
  if (const cudaError_t e = check_add(node, graph, dependencies, count); e != cudaSuccess) return e;
  if (params == nullptr || params->func.address == nullptr) return cudaErrorInvalidValue;
  if (params->extra != nullptr) return cudaErrorNotSupported;
  std::function<void()> step = kernel_step(*params);
  if (!step) return params->func.bind == nullptr ? untyped_kernel_node("cudaGraphAddKernelNode") : cudaErrorInvalidValue;
  CUgraphNode_st* made = add_node(graph, cudaGraphNodeTypeKernel, std::move(step));
  made->kernel = *params;
  made->kernel.kernelParams = nullptr;
  return finish_add(node, made, dependencies, count);
}
cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                                   std::size_t count, const cudaMemcpy3DParms* params) {
  host_only("cudaGraphAddMemcpyNode");
  if (const cudaError_t e = check_add(node, graph, dependencies, count); e != cudaSuccess) return e;
  if (params == nullptr) return cudaErrorInvalidValue;
  const cudaMemcpy3DParms copy = *params;
  return finish_add(node, add_node(graph, cudaGraphNodeTypeMemcpy, [copy] { copy_3d(copy); }), dependencies, count);
}
cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                                     std::size_t count, void* destination, const void* source, std::size_t bytes,
                                     cudaMemcpyKind kind) {
  host_only("cudaGraphAddMemcpyNode1D");
  if (const cudaError_t e = check_add(node, graph, dependencies, count); e != cudaSuccess) return e;
  if (bytes > 0 && (destination == nullptr || source == nullptr)) return cudaErrorInvalidValue;
  return finish_add(node,
                    add_node(graph, cudaGraphNodeTypeMemcpy,
                             [=] { cudaMemcpy(destination, source, bytes, kind); }),
                    dependencies, count);
}
cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                                   std::size_t count, const cudaMemsetParams* params) {
  host_only("cudaGraphAddMemsetNode");
  if (const cudaError_t e = check_add(node, graph, dependencies, count); e != cudaSuccess) return e;
  if (params == nullptr || params->dst == nullptr) return cudaErrorInvalidValue;
  const unsigned size = params->elementSize;
  if (size != 1 && size != 2 && size != 4) return cudaErrorInvalidValue;
  if (params->height > 1 && params->pitch < params->width * size) return cudaErrorInvalidValue;
  const cudaMemsetParams copy = *params;
  return finish_add(node, add_node(graph, cudaGraphNodeTypeMemset, [copy] { memset_2d(copy); }), dependencies, count);
}
cudaError_t cudaGraphAddHostNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                                 std::size_t count, const cudaHostNodeParams* params) {
  host_only("cudaGraphAddHostNode");
  if (const cudaError_t e = check_add(node, graph, dependencies, count); e != cudaSuccess) return e;
  if (params == nullptr || params->fn == nullptr) return cudaErrorInvalidValue;
  const cudaHostNodeParams copy = *params;
  return finish_add(node, add_node(graph, cudaGraphNodeTypeHost, [copy] { copy.fn(copy.userData); }), dependencies,
                    count);
}
cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                                  std::size_t count) {
  host_only("cudaGraphAddEmptyNode");
  if (const cudaError_t e = check_add(node, graph, dependencies, count); e != cudaSuccess) return e;
  return finish_add(node, add_node(graph, cudaGraphNodeTypeEmpty, nullptr), dependencies, count);
}
cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                                       std::size_t count, cudaGraph_t child) {
  host_only("cudaGraphAddChildGraphNode");
  if (const cudaError_t e = check_add(node, graph, dependencies, count); e != cudaSuccess) return e;
  if (child == nullptr || child == graph) return cudaErrorInvalidValue;
  // As CUDA: the child graph is cloned; later changes to it do not reach this node.
  std::vector<const CUgraphNode_st*> order;
  if (!run_order(*child, order)) return cudaErrorInvalidValue;
  std::vector<std::function<void()>> steps;
  for (const CUgraphNode_st* n : order) {
    if (n->step) steps.push_back(n->step);
  }
  return finish_add(node,
                    add_node(graph, cudaGraphNodeTypeGraph,
                             [steps] {
                               for (const auto& step : steps) step();
                             }),
                    dependencies, count);
}
cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t* from, const cudaGraphNode_t* to,
                                     std::size_t count) {
  host_only("cudaGraphAddDependencies");
  if (graph == nullptr || (count > 0 && (from == nullptr || to == nullptr))) return cudaErrorInvalidValue;
  for (std::size_t i = 0; i < count; ++i) {
    if (from[i] == nullptr || to[i] == nullptr || from[i]->graph != graph || to[i]->graph != graph || from[i] == to[i])
      return cudaErrorInvalidValue;
    if (std::find(to[i]->after.begin(), to[i]->after.end(), from[i]) != to[i]->after.end()) return cudaErrorInvalidValue;
  }
  for (std::size_t i = 0; i < count; ++i) to[i]->after.push_back(from[i]);
  return cudaSuccess;
}
cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t* from, const cudaGraphNode_t* to,
                                     const cudaGraphEdgeData* edge_data, std::size_t count) {
  for (std::size_t i = 0; edge_data != nullptr && i < count; ++i) {
    const cudaGraphEdgeData& e = edge_data[i];
    if (e.from_port != 0 || e.to_port != 0 || e.type != 0) {
      std::fflush(stdout);
      std::fprintf(stderr,
                   "banklab run: cudaGraphAddDependencies with a programmatic edge (edge data with a port or type "
                   "other than 0) is not supported by the CPU emulator: pass nullptr edge data\n");
      return cudaErrorNotSupported;
    }
  }
  return cudaGraphAddDependencies(graph, from, to, count);
}
cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, cudaGraphNodeType* type) {
  host_only("cudaGraphNodeGetType");
  if (node == nullptr || type == nullptr) return cudaErrorInvalidValue;
  *type = node->type;
  return cudaSuccess;
}
cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t node, cudaKernelNodeParams* params) {
  host_only("cudaGraphKernelNodeGetParams");
  if (node == nullptr || params == nullptr || node->type != cudaGraphNodeTypeKernel || node->kernel.func.address == nullptr)
    return cudaErrorInvalidValue;
  *params = node->kernel;
  return cudaSuccess;
}
cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node, const cudaKernelNodeParams* params) {
  host_only("cudaGraphKernelNodeSetParams");
  if (node == nullptr || params == nullptr || node->type != cudaGraphNodeTypeKernel || node->kernel.func.address == nullptr)
    return cudaErrorInvalidValue;
  std::function<void()> step = kernel_step(*params);
  if (!step) return params->func.bind == nullptr ? untyped_kernel_node("cudaGraphKernelNodeSetParams") : cudaErrorInvalidValue;
  node->step = std::move(step);
  node->kernel = *params;
  node->kernel.kernelParams = nullptr;
  return cudaSuccess;
}
cudaError_t cudaGraphInstantiate(cudaGraphExec_t* exec, cudaGraph_t graph, unsigned long long) {
  host_only("cudaGraphInstantiate");
  if (exec == nullptr || graph == nullptr) return cudaErrorInvalidValue;
  std::vector<const CUgraphNode_st*> order;
  if (!run_order(*graph, order)) return cudaErrorInvalidValue;  // the dependencies form a cycle
  auto* made = new CUgraphExec_st;
  for (const CUgraphNode_st* n : order) {
    if (n->step) made->steps.emplace_back(n, n->step);
  }
  *exec = made;
  return cudaSuccess;
}
cudaError_t cudaGraphInstantiate(cudaGraphExec_t* exec, cudaGraph_t graph, cudaGraphNode_t*, char*, std::size_t) {
  return cudaGraphInstantiate(exec, graph, 0ULL);
}
cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t* exec, cudaGraph_t graph, unsigned long long flags) {
  return cudaGraphInstantiate(exec, graph, flags);
}
cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                             const cudaKernelNodeParams* params) {
  host_only("cudaGraphExecKernelNodeSetParams");
  if (exec == nullptr || node == nullptr || params == nullptr || node->type != cudaGraphNodeTypeKernel)
    return cudaErrorInvalidValue;
  const auto found = std::find_if(exec->steps.begin(), exec->steps.end(),
                                  [&](const auto& s) { return s.first == node; });
  if (found == exec->steps.end()) return cudaErrorInvalidValue;
  // As CUDA: the instance's node changes, the graph's does not.
  std::function<void()> step = kernel_step(*params);
  if (!step) {
    return params->func.bind == nullptr ? untyped_kernel_node("cudaGraphExecKernelNodeSetParams")
                                        : cudaErrorInvalidValue;
  }
  found->second = std::move(step);
  return cudaSuccess;
}
cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t) {
  host_only("cudaGraphLaunch");
  if (exec == nullptr) return cudaErrorInvalidValue;
  for (const auto& step : exec->steps) {
    step.second();
    if (banklab::emu::detail::status() != cudaSuccess) break;
  }
  return banklab::emu::detail::status();
}
cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec) {
  host_only("cudaGraphExecDestroy");
  delete exec;
  return cudaSuccess;
}
cudaError_t cudaGraphDestroy(cudaGraph_t graph) {
  host_only("cudaGraphDestroy");
  delete graph;
  return cudaSuccess;
}

// CUDA graphs for the CPU emulator.
// - Stream capture: between cudaStreamBeginCapture and cudaStreamEndCapture,
//   the kernel launches, copies, memsets and host functions a program puts on
//   that stream are recorded instead of run, each depending on the one before.
// - Built node by node: kernel, memcpy, memset, host, empty and child-graph
//   nodes with their dependencies. A kernel node's `func` keeps the kernel's
//   parameter types where the program assigns the kernel itself (`banklab run`
//   turns the `(void*)` cast of `params.func = (void*)kernel` into
//   NodeFuncCast's, common/cli/launch_rewrite.cpp); its arguments are copied
//   when the node is made or its parameters set, as CUDA copies them.
// cudaGraphLaunch runs an instance's nodes one at a time in an order that
// keeps every dependency (among the nodes ready, the one added first).
#pragma once

#include <cstddef>
#include <functional>

#include "banklab/cuda_runtime_api.hpp"
#include "banklab/cuda_texture.hpp"
#include "banklab/cuda_types.hpp"

struct CUgraph_st;
using cudaGraph_t = CUgraph_st*;
struct CUgraphExec_st;
using cudaGraphExec_t = CUgraphExec_st*;
struct CUgraphNode_st;
using cudaGraphNode_t = CUgraphNode_st*;

enum cudaStreamCaptureMode {
  cudaStreamCaptureModeGlobal = 0,
  cudaStreamCaptureModeThreadLocal = 1,
  cudaStreamCaptureModeRelaxed = 2
};
enum cudaStreamCaptureStatus {
  cudaStreamCaptureStatusNone = 0,
  cudaStreamCaptureStatusActive = 1,
  cudaStreamCaptureStatusInvalidated = 2
};

enum cudaGraphNodeType {
  cudaGraphNodeTypeKernel = 0,
  cudaGraphNodeTypeMemcpy = 1,
  cudaGraphNodeTypeMemset = 2,
  cudaGraphNodeTypeHost = 3,
  cudaGraphNodeTypeGraph = 4,
  cudaGraphNodeTypeEmpty = 5
};

namespace banklab::emu {
struct LaunchConfig;
/// A kernel node's function: the kernel's address and, where the program
/// gave the kernel itself (not a `void*`), how to launch it with copies of
/// its arguments.
struct KernelRef {
  using Bind = std::function<void()> (*)(const void* kernel, const LaunchConfig& config, void** args);
  const void* address = nullptr;
  Bind bind = nullptr;
  KernelRef() = default;
  KernelRef(void* untyped) : address(untyped) {}              // NOLINT: as CUDA's `void* func`
  KernelRef(const void* untyped) : address(untyped) {}        // NOLINT
  KernelRef(std::nullptr_t) {}                                // NOLINT
  template <class... Params>
  KernelRef(void (*kernel)(Params...));                       // NOLINT: defined in cuda_launch.hpp
  operator void*() const { return const_cast<void*>(address); }  // NOLINT
};
/// What `banklab run` writes for the cast in `x.func = (void*)kernel`:
/// `x.func = ::banklab::emu::node_func_cast->*kernel`, a value that becomes a
/// typed KernelRef where `func` is a kernel node's, and the plain `void*` the
/// cast made anywhere else (a member of the program's own named `func`).
struct NodeFuncCast {};
inline constexpr NodeFuncCast node_func_cast{};
template <class F>
struct NodeFunc {
  F f;
  operator void*() const { return reinterpret_cast<void*>(f); }              // NOLINT
  operator const void*() const { return reinterpret_cast<const void*>(f); }  // NOLINT
  operator KernelRef() const { return KernelRef(f); }                        // NOLINT
};
template <class F>
NodeFunc<F> operator->*(NodeFuncCast, F f) {
  return {f};
}
}  // namespace banklab::emu

struct cudaKernelNodeParams {
  ::banklab::emu::KernelRef func;
  dim3 gridDim;
  dim3 blockDim;
  unsigned int sharedMemBytes = 0;
  void** kernelParams = nullptr;
  void** extra = nullptr;
};
struct cudaMemsetParams {
  void* dst = nullptr;
  std::size_t pitch = 0;
  unsigned int value = 0;
  unsigned int elementSize = 1;
  std::size_t width = 0;
  std::size_t height = 1;
};
using cudaHostFn_t = void (*)(void* user_data);
struct cudaHostNodeParams {
  cudaHostFn_t fn = nullptr;
  void* userData = nullptr;
};
struct cudaPitchedPtr {
  void* ptr;
  std::size_t pitch, xsize, ysize;
};
inline cudaPitchedPtr make_cudaPitchedPtr(void* d, std::size_t p, std::size_t xsz, std::size_t ysz) {
  return {d, p, xsz, ysz};
}
struct cudaPos {
  std::size_t x, y, z;
};
inline cudaPos make_cudaPos(std::size_t x, std::size_t y, std::size_t z) { return {x, y, z}; }
/// A copy between linear memory (pitched pointers); CUDA arrays are not supported here.
struct cudaMemcpy3DParms {
  cudaArray_t srcArray;
  cudaPos srcPos;
  cudaPitchedPtr srcPtr;
  cudaArray_t dstArray;
  cudaPos dstPos;
  cudaPitchedPtr dstPtr;
  cudaExtent extent;
  cudaMemcpyKind kind;
};
cudaError_t cudaMemcpy3D(const cudaMemcpy3DParms* p);
cudaError_t cudaMemcpy3DAsync(const cudaMemcpy3DParms* p, cudaStream_t stream = nullptr);
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void* user_data);

cudaError_t cudaStreamBeginCapture(cudaStream_t stream, cudaStreamCaptureMode mode);
cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t* graph);
cudaError_t cudaStreamIsCapturing(cudaStream_t stream, cudaStreamCaptureStatus* status);
cudaError_t cudaGraphCreate(cudaGraph_t* graph, unsigned int flags);
cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t* nodes, std::size_t* count);
cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t* nodes, std::size_t* count);
cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                                   std::size_t count, const cudaKernelNodeParams* params);
cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                                   std::size_t count, const cudaMemcpy3DParms* params);
cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                                     std::size_t count, void* destination, const void* source, std::size_t bytes,
                                     cudaMemcpyKind kind);
cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                                   std::size_t count, const cudaMemsetParams* params);
cudaError_t cudaGraphAddHostNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                                 std::size_t count, const cudaHostNodeParams* params);
cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                                  std::size_t count);
cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                                       std::size_t count, cudaGraph_t child);
/// An edge's ports and type (CUDA 12.3 and later); only the default edge
/// (all zero, or no edge data) is supported here.
struct cudaGraphEdgeData {
  unsigned char from_port, to_port, type, reserved[5];
};
cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t* from, const cudaGraphNode_t* to,
                                     const cudaGraphEdgeData* edge_data, std::size_t count);
/// CUDA 12's form (CUDA 13 has only the one with edge data).
cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t* from, const cudaGraphNode_t* to,
                                     std::size_t count);
cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, cudaGraphNodeType* type);
cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t node, cudaKernelNodeParams* params);
cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node, const cudaKernelNodeParams* params);
cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                             const cudaKernelNodeParams* params);
cudaError_t cudaGraphInstantiate(cudaGraphExec_t* exec, cudaGraph_t graph, unsigned long long flags = 0);
cudaError_t cudaGraphInstantiate(cudaGraphExec_t* exec, cudaGraph_t graph, cudaGraphNode_t* error_node, char* log,
                                 std::size_t log_size);
cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t* exec, cudaGraph_t graph, unsigned long long flags);
cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t stream);
cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec);
cudaError_t cudaGraphDestroy(cudaGraph_t graph);

namespace banklab::emu::detail {
/// Whether `stream` is being captured into a graph.
bool capturing(cudaStream_t stream);
/// Records `step` into the graph `stream` is captured into, as a node of
/// `type` that depends on the node captured before it.
void capture(cudaStream_t stream, std::function<void()> step, cudaGraphNodeType type = cudaGraphNodeTypeKernel);
}  // namespace banklab::emu::detail

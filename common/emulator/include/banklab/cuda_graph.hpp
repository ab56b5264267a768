// CUDA graphs for the CPU emulator, made by stream capture: between
// cudaStreamBeginCapture and cudaStreamEndCapture, the kernel launches,
// copies and memsets a program makes on that stream are recorded instead of
// run; cudaGraphLaunch runs them again, in the order they were recorded (a
// stream's order, which every launch here keeps). Graphs built node by node
// (cudaGraphAddKernelNode) are not provided: their kernels come as `void*`,
// whose parameters the emulator cannot know.
#pragma once

#include <cstddef>
#include <functional>

#include "banklab/cuda_runtime_api.hpp"

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

cudaError_t cudaStreamBeginCapture(cudaStream_t stream, cudaStreamCaptureMode mode);
cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t* graph);
cudaError_t cudaStreamIsCapturing(cudaStream_t stream, cudaStreamCaptureStatus* status);
cudaError_t cudaGraphCreate(cudaGraph_t* graph, unsigned int flags);
cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t* nodes, std::size_t* count);
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
/// Records `step` into the graph `stream` is captured into.
void capture(cudaStream_t stream, std::function<void()> step);
}  // namespace banklab::emu::detail

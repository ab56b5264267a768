// CUDA graphs made by stream capture (include/banklab/cuda_graph.hpp): a
// captured stream's launches, copies and memsets are steps of its graph, run
// in their order by every cudaGraphLaunch of an instance.
#include <map>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "banklab/cuda_graph.hpp"
#include "banklab/cuda_host.hpp"
#include "host_api.hpp"

struct CUgraph_st {
  std::vector<std::function<void()>> steps;
};
struct CUgraphExec_st {
  std::vector<std::function<void()>> steps;
};

namespace {

using banklab::emu::detail::host_only;

std::mutex g_capture_mutex;
std::map<cudaStream_t, CUgraph_st*>& captures() {
  static std::map<cudaStream_t, CUgraph_st*> all;
  return all;
}

}  // namespace

namespace banklab::emu::detail {

bool capturing(cudaStream_t stream) {
  const std::lock_guard<std::mutex> lock(g_capture_mutex);
  return captures().count(stream) > 0;
}

void capture(cudaStream_t stream, std::function<void()> step) {
  const std::lock_guard<std::mutex> lock(g_capture_mutex);
  const auto found = captures().find(stream);
  if (found != captures().end()) found->second->steps.push_back(std::move(step));
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
    for (std::size_t i = 0; i < std::min(*count, graph->steps.size()); ++i) {
      nodes[i] = reinterpret_cast<cudaGraphNode_t>(i + 1);  // opaque handles
    }
  }
  *count = graph->steps.size();
  return cudaSuccess;
}
cudaError_t cudaGraphInstantiate(cudaGraphExec_t* exec, cudaGraph_t graph, unsigned long long) {
  host_only("cudaGraphInstantiate");
  if (exec == nullptr || graph == nullptr) return cudaErrorInvalidValue;
  *exec = new CUgraphExec_st{graph->steps};
  return cudaSuccess;
}
cudaError_t cudaGraphInstantiate(cudaGraphExec_t* exec, cudaGraph_t graph, cudaGraphNode_t*, char*, std::size_t) {
  return cudaGraphInstantiate(exec, graph, 0ULL);
}
cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t* exec, cudaGraph_t graph, unsigned long long flags) {
  return cudaGraphInstantiate(exec, graph, flags);
}
cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t) {
  host_only("cudaGraphLaunch");
  if (exec == nullptr) return cudaErrorInvalidValue;
  for (const auto& step : exec->steps) step();
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

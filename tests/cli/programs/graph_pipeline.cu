// A pipeline captured into a CUDA graph and replayed: a memset, a kernel that
// reverses each block through shared memory, a kernel that adds one, and a
// copy back to the host, all on one stream between cudaStreamBeginCapture and
// cudaStreamEndCapture; the graph then runs three times. Capture records, it
// does not run: the data is untouched until the first cudaGraphLaunch.
//   banklab run graph_pipeline.cu
#include <cstdio>

constexpr int kBlock = 64;

__global__ void reverse_blocks(float* data) {
  __shared__ float staged[kBlock];
  const int base = blockIdx.x * kBlock;
  staged[threadIdx.x] = data[base + threadIdx.x];
  __syncthreads();
  data[base + threadIdx.x] = staged[kBlock - 1 - threadIdx.x];
}

__global__ void add_one(float* data, float* counter) {
  data[blockIdx.x * kBlock + threadIdx.x] += 1.0f;
  if (blockIdx.x == 0 && threadIdx.x == 0) *counter += 1.0f;
}

int main() {
  const int n = 4 * kBlock;
  float host[n], counter_host = 0;
  for (int i = 0; i < n; ++i) host[i] = static_cast<float>(i);
  float *data = nullptr, *counter = nullptr;
  cudaMalloc(&data, sizeof host);
  cudaMalloc(&counter, sizeof(float));
  cudaMemcpy(data, host, sizeof host, cudaMemcpyHostToDevice);
  cudaMemset(counter, 0, sizeof(float));
  cudaStream_t stream;
  cudaStreamCreate(&stream);

  cudaGraph_t graph;
  cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal);
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  cudaStreamIsCapturing(stream, &status);
  reverse_blocks<<<n / kBlock, kBlock, 0, stream>>>(data);
  add_one<<<n / kBlock, kBlock, 0, stream>>>(data, counter);
  float copied[n];
  cudaMemcpyAsync(copied, data, sizeof host, cudaMemcpyDeviceToHost, stream);
  cudaStreamEndCapture(stream, &graph);
  std::size_t nodes = 0;
  cudaGraphGetNodes(graph, nullptr, &nodes);
  cudaMemcpy(&counter_host, counter, sizeof(float), cudaMemcpyDeviceToHost);
  std::printf("captured %zu nodes while capturing (status %d); nothing ran: counter %g\n", nodes,
              static_cast<int>(status), counter_host);

  cudaGraphExec_t exec;
  cudaGraphInstantiate(&exec, graph, 0);
  for (int run = 0; run < 3; ++run) cudaGraphLaunch(exec, stream);
  cudaStreamSynchronize(stream);
  // Three reversals (one net reversal) and three increments.
  int wrong = 0;
  for (int i = 0; i < n; ++i) {
    const int block = i / kBlock, lane = i % kBlock;
    wrong += copied[i] != static_cast<float>(block * kBlock + kBlock - 1 - lane) + 3.0f;
  }
  cudaMemcpy(&counter_host, counter, sizeof(float), cudaMemcpyDeviceToHost);
  std::printf("graph run 3 times: %s (%d wrong), counter %g\n", wrong == 0 ? "OK" : "WRONG", wrong, counter_host);
  const cudaError_t legacy = cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal);
  std::printf("capturing the legacy stream: %s\n", cudaGetErrorName(legacy));
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cudaStreamDestroy(stream);
  cudaFree(data);
  cudaFree(counter);
  return wrong == 0 ? 0 : 1;
}

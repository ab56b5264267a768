// The CUDA runtime API for host code, answered on the CPU. Launches run to the
// end when they are made, so every stream and event is in order by
// construction; errors follow CUDA's rules (a failed launch is reported by
// the next cudaGetLastError, a crashed kernel by every later call).
#include <sys/sysinfo.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <new>
#include <string>

#include "banklab/cuda_graph.hpp"
#include "banklab/cuda_host.hpp"
#include "banklab/emulator.hpp"
#include "host_api.hpp"
#include "runtime.hpp"
#include "symbols.hpp"

namespace banklab::emu::detail {

namespace {
cudaError_t g_last_error = cudaSuccess;
cudaError_t g_sticky_error = cudaSuccess;  // a kernel that crashed: every later call fails
}  // namespace

void set_launch_error(cudaError_t error, bool sticky) {
  if (error == cudaSuccess) return;
  g_last_error = error;
  if (sticky) g_sticky_error = error;
}

cudaError_t status() { return g_sticky_error; }

void host_only(const char* call) {
  if (rt().current == nullptr) return;
  // A kernel reached host code of the runtime (a helper, a destructor): the
  // GPU has no such function to run, nvcc refuses the call, so the launch
  // stops at the kernel's line, naming the call.
  static thread_local std::string what;
  what = std::string(call) +
         " called from device code, where the emulator does not run CUDA's runtime API (on a GPU the few calls "
         "device code has need -rdc=true and the device runtime; the others do not compile for the device): look "
         "for a helper or destructor the kernel runs that makes it";
  unsupported(what.c_str());
}

FailedAllocations& failed_allocations() {
  static FailedAllocations failed;
  return failed;
}

}  // namespace banklab::emu::detail

using banklab::emu::detail::host_only;
using banklab::emu::detail::status;

struct CUstream_st {
  unsigned flags = 0;
};
struct CUevent_st {
  std::chrono::steady_clock::time_point when{};
  bool recorded = false;
};

cudaError_t cudaMalloc(void** pointer, std::size_t bytes) {
  host_only("cudaMalloc");
  if (pointer == nullptr) return cudaErrorInvalidValue;
  *pointer = banklab::emu::device_malloc(bytes);
  if (*pointer == nullptr) {
    banklab::emu::detail::FailedAllocations& failed = banklab::emu::detail::failed_allocations();
    ++failed.count;
    failed.largest_bytes = std::max(failed.largest_bytes, bytes);
    return cudaErrorMemoryAllocation;
  }
  return status();
}
cudaError_t cudaMallocManaged(void** pointer, std::size_t bytes, unsigned) {
  host_only("cudaMallocManaged");
  return cudaMalloc(pointer, bytes);
}
cudaError_t cudaMallocHost(void** pointer, std::size_t bytes) {
  host_only("cudaMallocHost");
  if (pointer == nullptr) return cudaErrorInvalidValue;
  *pointer = std::malloc(bytes == 0 ? 1 : bytes);
  return *pointer != nullptr ? cudaSuccess : cudaErrorMemoryAllocation;
}
cudaError_t cudaHostAlloc(void** pointer, std::size_t bytes, unsigned) {
  host_only("cudaHostAlloc");
  return cudaMallocHost(pointer, bytes);
}
cudaError_t cudaFree(void* pointer) {
  host_only("cudaFree");
  // As CUDA: freeing nullptr does nothing; a pointer that is not a live
  // allocation (freed twice, never cudaMalloc'ed) is an invalid value.
  if (pointer != nullptr && !banklab::emu::device_free(pointer)) return cudaErrorInvalidValue;
  return status();
}
cudaError_t cudaFreeHost(void* pointer) {
  host_only("cudaFreeHost");
  std::free(pointer);
  return cudaSuccess;
}
cudaError_t cudaMallocPitch(void** pointer, std::size_t* pitch, std::size_t width_bytes, std::size_t height) {
  host_only("cudaMallocPitch");
  if (pitch == nullptr) return cudaErrorInvalidValue;
  *pitch = (width_bytes + 511) / 512 * 512;  // rows start at 512-byte multiples, as on an H200
  return cudaMalloc(pointer, *pitch * height);
}
cudaError_t cudaMemcpy(void* destination, const void* source, std::size_t bytes, cudaMemcpyKind) {
  host_only("cudaMemcpy");
  if (bytes > 0 && (destination == nullptr || source == nullptr)) return cudaErrorInvalidValue;
  if (status() != cudaSuccess) return status();
  std::memmove(destination, source, bytes);
  return cudaSuccess;
}
cudaError_t cudaMemcpyAsync(void* destination, const void* source, std::size_t bytes, cudaMemcpyKind kind,
                            cudaStream_t stream) {
  host_only("cudaMemcpyAsync");
  if (banklab::emu::detail::capturing(stream)) {
    banklab::emu::detail::capture(stream, [=] { cudaMemcpy(destination, source, bytes, kind); },
                                  cudaGraphNodeTypeMemcpy);
    return cudaSuccess;
  }
  return cudaMemcpy(destination, source, bytes, kind);
}
cudaError_t cudaMemcpy2D(void* destination, std::size_t destination_pitch, const void* source,
                         std::size_t source_pitch, std::size_t width_bytes, std::size_t height, cudaMemcpyKind) {
  host_only("cudaMemcpy2D");
  if (width_bytes > destination_pitch || width_bytes > source_pitch) return cudaErrorInvalidValue;
  if (status() != cudaSuccess) return status();
  for (std::size_t row = 0; row < height; ++row) {
    std::memmove(static_cast<char*>(destination) + row * destination_pitch,
                 static_cast<const char*>(source) + row * source_pitch, width_bytes);
  }
  return cudaSuccess;
}
cudaError_t cudaMemset(void* pointer, int value, std::size_t bytes) {
  host_only("cudaMemset");
  if (bytes > 0 && pointer == nullptr) return cudaErrorInvalidValue;
  if (status() != cudaSuccess) return status();
  std::memset(pointer, value, bytes);
  return cudaSuccess;
}
cudaError_t cudaMemsetAsync(void* pointer, int value, std::size_t bytes, cudaStream_t stream) {
  host_only("cudaMemsetAsync");
  if (banklab::emu::detail::capturing(stream)) {
    banklab::emu::detail::capture(stream, [=] { cudaMemset(pointer, value, bytes); }, cudaGraphNodeTypeMemset);
    return cudaSuccess;
  }
  return cudaMemset(pointer, value, bytes);
}
cudaError_t cudaMemGetInfo(std::size_t* free_bytes, std::size_t* total_bytes) {
  host_only("cudaMemGetInfo");
  struct sysinfo info {};
  sysinfo(&info);
  if (free_bytes != nullptr) *free_bytes = static_cast<std::size_t>(info.freeram) * info.mem_unit;
  if (total_bytes != nullptr) *total_bytes = static_cast<std::size_t>(info.totalram) * info.mem_unit;
  return cudaSuccess;
}
cudaError_t cudaDeviceSynchronize() {
  host_only("cudaDeviceSynchronize");
  return status();
}
cudaError_t cudaThreadSynchronize() {
  host_only("cudaThreadSynchronize");
  return status();
}
cudaError_t cudaDeviceReset() {
  host_only("cudaDeviceReset");
  return cudaSuccess;
}
cudaError_t cudaGetLastError() {
  host_only("cudaGetLastError");
  const cudaError_t error = banklab::emu::detail::g_last_error;
  banklab::emu::detail::g_last_error = status();
  return error;
}
cudaError_t cudaPeekAtLastError() {
  host_only("cudaPeekAtLastError");
  return banklab::emu::detail::g_last_error;
}

const char* cudaGetErrorName(cudaError_t error) {
  host_only("cudaGetErrorName");
  switch (error) {
    case cudaSuccess: return "cudaSuccess";
    case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
    case cudaErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
    case cudaErrorInitializationError: return "cudaErrorInitializationError";
    case cudaErrorLaunchFailure: return "cudaErrorLaunchFailure";
    case cudaErrorLaunchTimeout: return "cudaErrorLaunchTimeout";
    case cudaErrorInvalidConfiguration: return "cudaErrorInvalidConfiguration";
    case cudaErrorInvalidDeviceFunction: return "cudaErrorInvalidDeviceFunction";
    case cudaErrorInvalidDevice: return "cudaErrorInvalidDevice";
    case cudaErrorInvalidResourceHandle: return "cudaErrorInvalidResourceHandle";
    case cudaErrorNotReady: return "cudaErrorNotReady";
    case cudaErrorIllegalAddress: return "cudaErrorIllegalAddress";
    case cudaErrorMisalignedAddress: return "cudaErrorMisalignedAddress";
    case cudaErrorNotSupported: return "cudaErrorNotSupported";
    case cudaErrorIllegalState: return "cudaErrorIllegalState";
    case cudaErrorStreamCaptureUnsupported: return "cudaErrorStreamCaptureUnsupported";
    default: return "cudaErrorUnknown";
  }
}
const char* cudaGetErrorString(cudaError_t error) {
  host_only("cudaGetErrorString");
  switch (error) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorInitializationError: return "initialization error";
    case cudaErrorLaunchFailure: return "unspecified launch failure";
    case cudaErrorLaunchTimeout: return "the launch timed out and was terminated";
    case cudaErrorInvalidConfiguration: return "invalid configuration argument";
    case cudaErrorInvalidDeviceFunction: return "invalid device function";
    case cudaErrorInvalidDevice: return "invalid device ordinal";
    case cudaErrorInvalidResourceHandle: return "invalid resource handle";
    case cudaErrorNotReady: return "device not ready";
    case cudaErrorIllegalAddress: return "an illegal memory access was encountered";
    case cudaErrorMisalignedAddress: return "misaligned address";
    case cudaErrorNotSupported: return "operation not supported";
    case cudaErrorIllegalState: return "the resource is not in a valid state to perform the requested operation";
    case cudaErrorStreamCaptureUnsupported: return "operation not permitted when stream is capturing";
    default: return "unknown error";
  }
}

cudaError_t cudaGetDeviceCount(int* count) {
  host_only("cudaGetDeviceCount");
  if (count == nullptr) return cudaErrorInvalidValue;
  *count = 1;
  return cudaSuccess;
}
cudaError_t cudaGetDevice(int* device) {
  host_only("cudaGetDevice");
  if (device == nullptr) return cudaErrorInvalidValue;
  *device = 0;
  return cudaSuccess;
}
cudaError_t cudaSetDevice(int device) {
  host_only("cudaSetDevice");
  return device == 0 ? cudaSuccess : cudaErrorInvalidDevice;
}

cudaError_t cudaGetDeviceProperties(cudaDeviceProp* p, int device) {
  host_only("cudaGetDeviceProperties");
  if (p == nullptr) return cudaErrorInvalidValue;
  if (device != 0) return cudaErrorInvalidDevice;
  std::memset(p, 0, sizeof *p);
  std::snprintf(p->name, sizeof p->name, "BankLab CPU emulator (NVIDIA H200 model)");
  p->totalGlobalMem = std::size_t{150} << 30;
  p->sharedMemPerBlock = 48 * 1024;
  p->sharedMemPerBlockOptin = 227 * 1024;
  p->sharedMemPerMultiprocessor = 228 * 1024;
  p->reservedSharedMemPerBlock = 1024;
  p->regsPerBlock = p->regsPerMultiprocessor = 65536;
  p->warpSize = 32;
  p->memPitch = std::size_t{1} << 31;
  p->maxThreadsPerBlock = 1024;
  p->maxThreadsDim[0] = p->maxThreadsDim[1] = 1024;
  p->maxThreadsDim[2] = 64;
  p->maxGridSize[0] = 2147483647;
  p->maxGridSize[1] = p->maxGridSize[2] = 65535;
  p->clockRate = 1980000;
  p->totalConstMem = 65536;
  p->major = 9;
  p->minor = 0;
  p->textureAlignment = 512;
  p->deviceOverlap = 1;
  p->multiProcessorCount = 132;
  p->canMapHostMemory = 1;
  p->concurrentKernels = 1;
  p->asyncEngineCount = 3;
  p->unifiedAddressing = 1;
  p->memoryClockRate = 2619000;
  p->memoryBusWidth = 6144;
  p->l2CacheSize = 60 * 1024 * 1024;
  p->maxThreadsPerMultiProcessor = 2048;
  p->maxBlocksPerMultiProcessor = 32;
  p->globalL1CacheSupported = p->localL1CacheSupported = 1;
  p->managedMemory = 1;
  p->cooperativeLaunch = 1;
  return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attribute, int device) {
  host_only("cudaDeviceGetAttribute");
  if (value == nullptr) return cudaErrorInvalidValue;
  cudaDeviceProp p;
  if (const cudaError_t e = cudaGetDeviceProperties(&p, device); e != cudaSuccess) return e;
  switch (attribute) {
    case cudaDevAttrMaxThreadsPerBlock: *value = p.maxThreadsPerBlock; break;
    case cudaDevAttrMaxBlockDimX: *value = p.maxThreadsDim[0]; break;
    case cudaDevAttrMaxBlockDimY: *value = p.maxThreadsDim[1]; break;
    case cudaDevAttrMaxBlockDimZ: *value = p.maxThreadsDim[2]; break;
    case cudaDevAttrMaxGridDimX: *value = p.maxGridSize[0]; break;
    case cudaDevAttrMaxGridDimY: *value = p.maxGridSize[1]; break;
    case cudaDevAttrMaxGridDimZ: *value = p.maxGridSize[2]; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: *value = static_cast<int>(p.sharedMemPerBlock); break;
    case cudaDevAttrTotalConstantMemory: *value = static_cast<int>(p.totalConstMem); break;
    case cudaDevAttrWarpSize: *value = p.warpSize; break;
    case cudaDevAttrMaxPitch: *value = static_cast<int>(std::min<std::size_t>(p.memPitch, 2147483647)); break;
    case cudaDevAttrMaxRegistersPerBlock: *value = p.regsPerBlock; break;
    case cudaDevAttrClockRate: *value = p.clockRate; break;
    case cudaDevAttrTextureAlignment: *value = static_cast<int>(p.textureAlignment); break;
    case cudaDevAttrGpuOverlap: *value = p.deviceOverlap; break;
    case cudaDevAttrMultiProcessorCount: *value = p.multiProcessorCount; break;
    case cudaDevAttrKernelExecTimeout: *value = p.kernelExecTimeoutEnabled; break;
    case cudaDevAttrIntegrated: *value = p.integrated; break;
    case cudaDevAttrCanMapHostMemory: *value = p.canMapHostMemory; break;
    case cudaDevAttrComputeMode: *value = p.computeMode; break;
    case cudaDevAttrConcurrentKernels: *value = p.concurrentKernels; break;
    case cudaDevAttrEccEnabled: *value = p.ECCEnabled; break;
    case cudaDevAttrMemoryClockRate: *value = p.memoryClockRate; break;
    case cudaDevAttrGlobalMemoryBusWidth: *value = p.memoryBusWidth; break;
    case cudaDevAttrL2CacheSize: *value = p.l2CacheSize; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: *value = p.maxThreadsPerMultiProcessor; break;
    case cudaDevAttrAsyncEngineCount: *value = p.asyncEngineCount; break;
    case cudaDevAttrUnifiedAddressing: *value = p.unifiedAddressing; break;
    case cudaDevAttrComputeCapabilityMajor: *value = p.major; break;
    case cudaDevAttrComputeCapabilityMinor: *value = p.minor; break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: *value = static_cast<int>(p.sharedMemPerMultiprocessor); break;
    case cudaDevAttrMaxRegistersPerMultiprocessor: *value = p.regsPerMultiprocessor; break;
    case cudaDevAttrManagedMemory: *value = p.managedMemory; break;
    case cudaDevAttrConcurrentManagedAccess: *value = p.concurrentManagedAccess; break;
    case cudaDevAttrCooperativeLaunch: *value = p.cooperativeLaunch; break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: *value = static_cast<int>(p.sharedMemPerBlockOptin); break;
    case cudaDevAttrMaxBlocksPerMultiprocessor: *value = p.maxBlocksPerMultiProcessor; break;
    default: return cudaErrorInvalidValue;
  }
  return cudaSuccess;
}
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, const void*, int block_size,
                                                          std::size_t dynamic_shared_bytes) {
  host_only("cudaOccupancyMaxActiveBlocksPerMultiprocessor");
  if (blocks == nullptr || block_size <= 0 || block_size > 1024) return cudaErrorInvalidValue;
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  const int warps = (block_size + 31) / 32;
  int n = std::min(p.maxThreadsPerMultiProcessor / (warps * 32), p.maxBlocksPerMultiProcessor);
  const std::size_t per_block = dynamic_shared_bytes + static_cast<std::size_t>(p.reservedSharedMemPerBlock);
  n = static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(n), p.sharedMemPerMultiprocessor / per_block));
  *blocks = dynamic_shared_bytes > p.sharedMemPerBlockOptin ? 0 : n;
  return cudaSuccess;
}
namespace {
// cudaFuncSetAttribute's dynamic shared memory limits, by kernel.
std::mutex g_attributes_mutex;
std::map<const void*, int>& dynamic_limits() {
  static std::map<const void*, int> limits;
  return limits;
}
}  // namespace

cudaError_t cudaFuncSetAttribute(const void* kernel, cudaFuncAttribute attribute, int value) {
  host_only("cudaFuncSetAttribute");
  if (kernel == nullptr) return cudaErrorInvalidDeviceFunction;
  if (attribute == cudaFuncAttributeMaxDynamicSharedMemorySize) {
    cudaDeviceProp p;
    cudaGetDeviceProperties(&p, 0);
    const std::size_t fixed = (banklab::emu::detail::static_shared_bytes(kernel) + 15) / 16 * 16;
    if (value < 0 || static_cast<std::size_t>(value) + fixed > p.sharedMemPerBlockOptin) return cudaErrorInvalidValue;
    const std::lock_guard<std::mutex> lock(g_attributes_mutex);
    dynamic_limits()[kernel] = value;
  } else if (attribute == cudaFuncAttributePreferredSharedMemoryCarveout) {
    if (value < -1 || value > 100) return cudaErrorInvalidValue;
  } else {
    return cudaErrorInvalidValue;
  }
  return status();
}

cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attributes, const void* kernel) {
  host_only("cudaFuncGetAttributes");
  if (attributes == nullptr) return cudaErrorInvalidValue;
  if (kernel == nullptr) return cudaErrorInvalidDeviceFunction;
  *attributes = cudaFuncAttributes{};
  // An H200 reports the layout rounded up to a multiple of 16 bytes (a float[3]
  // alone: 16; tests/data/gpu/h200_func_attributes/).
  const std::size_t fixed = (banklab::emu::detail::static_shared_bytes(kernel) + 15) / 16 * 16;
  attributes->sharedSizeBytes = fixed;
  attributes->maxThreadsPerBlock = 1024;
  attributes->numRegs = 32;
  attributes->ptxVersion = 90;
  attributes->binaryVersion = 90;
  attributes->preferredShmemCarveout = -1;
  attributes->maxDynamicSharedSizeBytes = static_cast<int>(49152 - std::min<std::size_t>(fixed, 49152));
  const std::lock_guard<std::mutex> lock(g_attributes_mutex);
  const auto set = dynamic_limits().find(kernel);
  if (set != dynamic_limits().end()) attributes->maxDynamicSharedSizeBytes = set->second;
  return status();
}
cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache) {
  host_only("cudaDeviceSetCacheConfig");
  return cudaSuccess;
}
cudaError_t cudaDeviceSetSharedMemConfig(cudaSharedMemConfig) {
  host_only("cudaDeviceSetSharedMemConfig");
  return cudaSuccess;
}
cudaError_t cudaDriverGetVersion(int* version) {
  host_only("cudaDriverGetVersion");
  if (version == nullptr) return cudaErrorInvalidValue;
  *version = 13000;
  return cudaSuccess;
}
cudaError_t cudaRuntimeGetVersion(int* version) {
  host_only("cudaRuntimeGetVersion");
  return cudaDriverGetVersion(version);
}

cudaError_t cudaStreamCreate(cudaStream_t* stream) {
  host_only("cudaStreamCreate");
  return cudaStreamCreateWithFlags(stream, cudaStreamDefault);
}
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned flags) {
  host_only("cudaStreamCreateWithFlags");
  if (stream == nullptr) return cudaErrorInvalidValue;
  *stream = new (std::nothrow) CUstream_st{flags};
  return *stream != nullptr ? cudaSuccess : cudaErrorMemoryAllocation;
}
cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  host_only("cudaStreamDestroy");
  delete stream;
  return cudaSuccess;
}
cudaError_t cudaStreamSynchronize(cudaStream_t) {
  host_only("cudaStreamSynchronize");
  return status();
}
cudaError_t cudaStreamQuery(cudaStream_t) {
  host_only("cudaStreamQuery");
  return status();
}
cudaError_t cudaStreamWaitEvent(cudaStream_t, cudaEvent_t, unsigned) {
  host_only("cudaStreamWaitEvent");
  return status();
}
cudaError_t cudaEventCreate(cudaEvent_t* event) {
  host_only("cudaEventCreate");
  return cudaEventCreateWithFlags(event, cudaEventDefault);
}
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned) {
  host_only("cudaEventCreateWithFlags");
  if (event == nullptr) return cudaErrorInvalidValue;
  *event = new (std::nothrow) CUevent_st{};
  return *event != nullptr ? cudaSuccess : cudaErrorMemoryAllocation;
}
cudaError_t cudaEventDestroy(cudaEvent_t event) {
  host_only("cudaEventDestroy");
  delete event;
  return cudaSuccess;
}
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t) {
  host_only("cudaEventRecord");
  if (event == nullptr) return cudaErrorInvalidResourceHandle;
  event->when = std::chrono::steady_clock::now();
  event->recorded = true;
  return status();
}
cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  host_only("cudaEventSynchronize");
  return event == nullptr ? cudaErrorInvalidResourceHandle : status();
}
cudaError_t cudaEventQuery(cudaEvent_t event) {
  host_only("cudaEventQuery");
  return event == nullptr ? cudaErrorInvalidResourceHandle : status();
}
cudaError_t cudaEventElapsedTime(float* milliseconds, cudaEvent_t start, cudaEvent_t end) {
  host_only("cudaEventElapsedTime");
  if (milliseconds == nullptr || start == nullptr || end == nullptr) return cudaErrorInvalidValue;
  if (!start->recorded || !end->recorded) return cudaErrorInvalidResourceHandle;
  *milliseconds = std::chrono::duration<float, std::milli>(end->when - start->when).count();
  return cudaSuccess;
}

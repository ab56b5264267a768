// The CUDA runtime API a program's host code calls, answered by the
// emulator: device memory is host memory in the emulator's guarded arena (so
// that out-of-bounds kernel accesses are caught), launches run at once on the
// CPU (streams and events are in order by construction), and the device is
// described as the H200 the bank model is calibrated on.
#pragma once

#include <cstddef>
#include <cstring>

// The include guards and version of CUDA's own runtime headers, which nvcc
// includes in every CUDA file: helper code tests them (#ifdef
// __DRIVER_TYPES_H__ ...) before using the runtime API.
#ifndef __CUDA_RUNTIME_H__
#define __CUDA_RUNTIME_H__
#endif
#ifndef __CUDA_RUNTIME_API_H__
#define __CUDA_RUNTIME_API_H__
#endif
#ifndef __DRIVER_TYPES_H__
#define __DRIVER_TYPES_H__
#endif
#ifndef __VECTOR_TYPES_H__
#define __VECTOR_TYPES_H__
#endif
#ifndef __HOST_DEFINES_H__
#define __HOST_DEFINES_H__
#endif
#ifndef __DEVICE_LAUNCH_PARAMETERS_H__
#define __DEVICE_LAUNCH_PARAMETERS_H__
#endif
#ifndef CUDART_VERSION
#define CUDART_VERSION 13000
#endif

enum cudaError_t {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3,
  cudaErrorLaunchFailure = 4,
  cudaErrorLaunchTimeout = 6,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidDeviceFunction = 98,
  cudaErrorInvalidDevice = 101,
  cudaErrorInvalidResourceHandle = 400,
  cudaErrorIllegalState = 401,
  cudaErrorNotReady = 600,
  cudaErrorIllegalAddress = 700,
  cudaErrorMisalignedAddress = 716,
  cudaErrorNotSupported = 801,
  cudaErrorStreamCaptureUnsupported = 900,
  cudaErrorUnknown = 999
};
using cudaError = cudaError_t;
enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4
};
enum cudaFuncCache { cudaFuncCachePreferNone = 0, cudaFuncCachePreferShared = 1, cudaFuncCachePreferL1 = 2, cudaFuncCachePreferEqual = 3 };
enum cudaSharedMemConfig {
  cudaSharedMemBankSizeDefault = 0,
  cudaSharedMemBankSizeFourByte = 1,
  cudaSharedMemBankSizeEightByte = 2
};
enum cudaFuncAttribute {
  cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
  cudaFuncAttributePreferredSharedMemoryCarveout = 9
};
// CUDA's numbering; cudaDeviceGetAttribute answers each from cudaDeviceProp.
enum cudaDeviceAttr {
  cudaDevAttrMaxThreadsPerBlock = 1,
  cudaDevAttrMaxBlockDimX = 2,
  cudaDevAttrMaxBlockDimY = 3,
  cudaDevAttrMaxBlockDimZ = 4,
  cudaDevAttrMaxGridDimX = 5,
  cudaDevAttrMaxGridDimY = 6,
  cudaDevAttrMaxGridDimZ = 7,
  cudaDevAttrMaxSharedMemoryPerBlock = 8,
  cudaDevAttrTotalConstantMemory = 9,
  cudaDevAttrWarpSize = 10,
  cudaDevAttrMaxPitch = 11,
  cudaDevAttrMaxRegistersPerBlock = 12,
  cudaDevAttrClockRate = 13,
  cudaDevAttrTextureAlignment = 14,
  cudaDevAttrGpuOverlap = 15,
  cudaDevAttrMultiProcessorCount = 16,
  cudaDevAttrKernelExecTimeout = 17,
  cudaDevAttrIntegrated = 18,
  cudaDevAttrCanMapHostMemory = 19,
  cudaDevAttrComputeMode = 20,
  cudaDevAttrConcurrentKernels = 31,
  cudaDevAttrEccEnabled = 32,
  cudaDevAttrMemoryClockRate = 36,
  cudaDevAttrGlobalMemoryBusWidth = 37,
  cudaDevAttrL2CacheSize = 38,
  cudaDevAttrMaxThreadsPerMultiProcessor = 39,
  cudaDevAttrAsyncEngineCount = 40,
  cudaDevAttrUnifiedAddressing = 41,
  cudaDevAttrComputeCapabilityMajor = 75,
  cudaDevAttrComputeCapabilityMinor = 76,
  cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
  cudaDevAttrMaxRegistersPerMultiprocessor = 82,
  cudaDevAttrManagedMemory = 83,
  cudaDevAttrConcurrentManagedAccess = 89,
  cudaDevAttrCooperativeLaunch = 95,
  cudaDevAttrMaxSharedMemoryPerBlockOptin = 97,
  cudaDevAttrMaxBlocksPerMultiprocessor = 106
};
enum cudaComputeMode {
  cudaComputeModeDefault = 0,
  cudaComputeModeExclusive = 1,
  cudaComputeModeProhibited = 2,
  cudaComputeModeExclusiveProcess = 3
};

struct CUstream_st;
struct CUevent_st;
using cudaStream_t = CUstream_st*;
using cudaEvent_t = CUevent_st*;
#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01
#define cudaEventDefault 0x00
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02
#define cudaHostAllocDefault 0x00
#define cudaMemAttachGlobal 0x01

/// The fields of CUDA's cudaDeviceProp that programs read, with an H200's values.
struct cudaDeviceProp {
  char name[256];
  std::size_t totalGlobalMem;
  std::size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  std::size_t memPitch;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  int clockRate;
  std::size_t totalConstMem;
  int major;
  int minor;
  std::size_t textureAlignment;
  int deviceOverlap;
  int multiProcessorCount;
  int kernelExecTimeoutEnabled;
  int integrated;
  int canMapHostMemory;
  int computeMode;
  int concurrentKernels;
  int ECCEnabled;
  int pciBusID;
  int pciDeviceID;
  int pciDomainID;
  int asyncEngineCount;
  int unifiedAddressing;
  int memoryClockRate;
  int memoryBusWidth;
  int l2CacheSize;
  int persistingL2CacheMaxSize;
  int maxThreadsPerMultiProcessor;
  int streamPrioritiesSupported;
  int globalL1CacheSupported;
  int localL1CacheSupported;
  std::size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor;
  int managedMemory;
  int isMultiGpuBoard;
  int multiGpuBoardGroupID;
  int concurrentManagedAccess;
  int cooperativeLaunch;
  std::size_t sharedMemPerBlockOptin;
  int maxBlocksPerMultiProcessor;
  int reservedSharedMemPerBlock;
};

cudaError_t cudaMalloc(void** pointer, std::size_t bytes);
cudaError_t cudaMallocManaged(void** pointer, std::size_t bytes, unsigned flags = cudaMemAttachGlobal);
cudaError_t cudaMallocHost(void** pointer, std::size_t bytes);
cudaError_t cudaHostAlloc(void** pointer, std::size_t bytes, unsigned flags);
cudaError_t cudaFree(void* pointer);
cudaError_t cudaFreeHost(void* pointer);
cudaError_t cudaMallocPitch(void** pointer, std::size_t* pitch, std::size_t width_bytes, std::size_t height);
cudaError_t cudaMemcpy(void* destination, const void* source, std::size_t bytes, cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void* destination, const void* source, std::size_t bytes, cudaMemcpyKind kind,
                            cudaStream_t stream = nullptr);
cudaError_t cudaMemcpy2D(void* destination, std::size_t destination_pitch, const void* source,
                         std::size_t source_pitch, std::size_t width_bytes, std::size_t height, cudaMemcpyKind kind);
cudaError_t cudaMemset(void* pointer, int value, std::size_t bytes);
cudaError_t cudaMemsetAsync(void* pointer, int value, std::size_t bytes, cudaStream_t stream = nullptr);
cudaError_t cudaMemGetInfo(std::size_t* free_bytes, std::size_t* total_bytes);
cudaError_t cudaDeviceSynchronize();
cudaError_t cudaDeviceReset();
cudaError_t cudaThreadSynchronize();
cudaError_t cudaGetLastError();
cudaError_t cudaPeekAtLastError();
const char* cudaGetErrorString(cudaError_t error);
const char* cudaGetErrorName(cudaError_t error);
cudaError_t cudaGetDeviceCount(int* count);
cudaError_t cudaGetDevice(int* device);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* properties, int device);
cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attribute, int device);
cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache config);
cudaError_t cudaDeviceSetSharedMemConfig(cudaSharedMemConfig config);
cudaError_t cudaDriverGetVersion(int* version);
cudaError_t cudaRuntimeGetVersion(int* version);
cudaError_t cudaStreamCreate(cudaStream_t* stream);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned flags);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamQuery(cudaStream_t stream);
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned flags = 0);
cudaError_t cudaEventCreate(cudaEvent_t* event);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned flags);
cudaError_t cudaEventDestroy(cudaEvent_t event);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = nullptr);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventQuery(cudaEvent_t event);
/// Milliseconds of host time between the two records: the emulator's time, not a GPU's.
cudaError_t cudaEventElapsedTime(float* milliseconds, cudaEvent_t start, cudaEvent_t end);

template <class T>
cudaError_t cudaMalloc(T** pointer, std::size_t bytes) {
  return cudaMalloc(reinterpret_cast<void**>(pointer), bytes);
}
template <class T>
cudaError_t cudaMallocManaged(T** pointer, std::size_t bytes, unsigned flags = cudaMemAttachGlobal) {
  return cudaMallocManaged(reinterpret_cast<void**>(pointer), bytes, flags);
}
template <class T>
cudaError_t cudaMallocHost(T** pointer, std::size_t bytes) {
  return cudaMallocHost(reinterpret_cast<void**>(pointer), bytes);
}
template <class T>
cudaError_t cudaHostAlloc(T** pointer, std::size_t bytes, unsigned flags) {
  return cudaHostAlloc(reinterpret_cast<void**>(pointer), bytes, flags);
}
template <class T>
cudaError_t cudaMallocPitch(T** pointer, std::size_t* pitch, std::size_t width_bytes, std::size_t height) {
  return cudaMallocPitch(reinterpret_cast<void**>(pointer), pitch, width_bytes, height);
}
/// CUDA's cudaFuncAttributes, field for field.
struct cudaFuncAttributes {
  std::size_t sharedSizeBytes;  ///< static shared memory, laid out as nvcc does
  std::size_t constSizeBytes;
  std::size_t localSizeBytes;
  int maxThreadsPerBlock;
  int numRegs;
  int ptxVersion;
  int binaryVersion;
  int cacheModeCA;
  int maxDynamicSharedSizeBytes;
  int preferredShmemCarveout;
  int clusterDimMustBeSet;
  int requiredClusterWidth;
  int requiredClusterHeight;
  int requiredClusterDepth;
  int clusterSchedulingPolicyPreference;
  int nonPortableClusterSizeAllowed;
  int reserved[16];
};
/// A kernel's attributes: its static shared memory (the variables its code
/// uses, as a launch lays them out, rounded up to a multiple of 16 bytes as an
/// H200 reports it), 1024 threads per block, sm_90, and the
/// dynamic shared memory limit cudaFuncSetAttribute set (48 KiB less the
/// static bytes until then). The emulator does not know registers: numRegs
/// is 32, the most with which registers never bound an H200's occupancy
/// (65,536 per multiprocessor for 2,048 threads), as the occupancy calls assume.
cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attributes, const void* kernel);
template <class F>
cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attributes, F* kernel) {
  return cudaFuncGetAttributes(attributes, reinterpret_cast<const void*>(kernel));
}
/// The dynamic shared memory limit is kept for cudaFuncGetAttributes (a launch
/// may have up to 227 KiB either way); the carveout changes nothing.
cudaError_t cudaFuncSetAttribute(const void* kernel, cudaFuncAttribute attribute, int value);
template <class F>
cudaError_t cudaFuncSetAttribute(F* kernel, cudaFuncAttribute attribute, int value) {
  return cudaFuncSetAttribute(reinterpret_cast<const void*>(kernel), attribute, value);
}
template <class F>
cudaError_t cudaFuncSetCacheConfig(F*, cudaFuncCache) {
  return cudaSuccess;
}
/// Resident blocks per multiprocessor as an H200 bounds them by threads (2048),
/// blocks (32) and shared memory (228 KiB, 1 KiB reserved per block); the
/// emulator does not know a kernel's registers, which may bound it lower on a GPU.
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, const void* kernel, int block_size,
                                                          std::size_t dynamic_shared_bytes);
template <class F>
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, F* kernel, int block_size,
                                                          std::size_t dynamic_shared_bytes) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, reinterpret_cast<const void*>(kernel), block_size,
                                                       dynamic_shared_bytes);
}

// The block size (a multiple of 32 up to block_size_limit, or 1024) that
// lets the most threads be resident on one multiprocessor, the larger on a
// tie, and the grid that fills every multiprocessor with it. The model knows
// threads, blocks and shared memory per multiprocessor, not registers.
template <class F, class SharedBytes>
cudaError_t cudaOccupancyMaxPotentialBlockSizeVariableSMem(int* min_grid_size, int* block_size, F* kernel,
                                                          SharedBytes shared_bytes_of, int block_size_limit = 0) {
  if (min_grid_size == nullptr || block_size == nullptr) return cudaErrorInvalidValue;
  const int limit = block_size_limit > 0 && block_size_limit < 1024 ? block_size_limit : 1024;
  int best_threads = 0, best_size = 0, best_blocks = 0;
  for (int size = 32; size <= limit; size += 32) {
    int blocks = 0;
    const cudaError_t error = cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &blocks, reinterpret_cast<const void*>(kernel), size, static_cast<std::size_t>(shared_bytes_of(size)));
    if (error != cudaSuccess) return error;
    if (blocks * size >= best_threads && blocks > 0) {
      best_threads = blocks * size;
      best_size = size;
      best_blocks = blocks;
    }
  }
  if (best_size == 0) return cudaErrorInvalidValue;
  int multiprocessors = 0;
  cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, 0);
  *block_size = best_size;
  *min_grid_size = best_blocks * multiprocessors;
  return cudaSuccess;
}
template <class F>
cudaError_t cudaOccupancyMaxPotentialBlockSize(int* min_grid_size, int* block_size, F* kernel,
                                               std::size_t dynamic_shared_bytes = 0, int block_size_limit = 0) {
  return cudaOccupancyMaxPotentialBlockSizeVariableSMem(
      min_grid_size, block_size, kernel, [dynamic_shared_bytes](int) { return dynamic_shared_bytes; }, block_size_limit);
}

// Constant (and any global) memory is host memory: copies to and from a symbol
// are plain copies.
template <class T>
cudaError_t cudaMemcpyToSymbol(T& symbol, const void* source, std::size_t bytes, std::size_t offset = 0,
                               cudaMemcpyKind = cudaMemcpyHostToDevice) {
  if (offset + bytes > sizeof(T)) return cudaErrorInvalidValue;
  std::memcpy(reinterpret_cast<char*>(&symbol) + offset, source, bytes);
  return cudaSuccess;
}
template <class T>
cudaError_t cudaMemcpyToSymbolAsync(T& symbol, const void* source, std::size_t bytes, std::size_t offset = 0,
                                    cudaMemcpyKind kind = cudaMemcpyHostToDevice, cudaStream_t = nullptr) {
  return cudaMemcpyToSymbol(symbol, source, bytes, offset, kind);
}
template <class T>
cudaError_t cudaGetSymbolAddress(void** address, T& symbol) {
  if (address == nullptr) return cudaErrorInvalidValue;
  *address = const_cast<void*>(static_cast<const void*>(&symbol));
  return cudaSuccess;
}
template <class T>
cudaError_t cudaGetSymbolSize(std::size_t* size, const T&) {
  if (size == nullptr) return cudaErrorInvalidValue;
  *size = sizeof(T);
  return cudaSuccess;
}
template <class T>
cudaError_t cudaMemcpyFromSymbol(void* destination, const T& symbol, std::size_t bytes, std::size_t offset = 0,
                                 cudaMemcpyKind = cudaMemcpyDeviceToHost) {
  if (offset + bytes > sizeof(T)) return cudaErrorInvalidValue;
  std::memcpy(destination, reinterpret_cast<const char*>(&symbol) + offset, bytes);
  return cudaSuccess;
}
template <class T>
cudaError_t cudaMemcpyFromSymbolAsync(void* destination, const T& symbol, std::size_t bytes, std::size_t offset = 0,
                                      cudaMemcpyKind kind = cudaMemcpyDeviceToHost, cudaStream_t = nullptr) {
  return cudaMemcpyFromSymbol(destination, symbol, bytes, offset, kind);
}

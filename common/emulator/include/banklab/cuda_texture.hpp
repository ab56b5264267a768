// Texture objects and CUDA arrays for the CPU emulator, as CUDA's runtime API
// declares them: channel formats, arrays and copies into them, resource and
// texture descriptions, texture objects, and the fetches kernel code makes
// (tex1Dfetch, tex1D, tex2D, tex3D) with CUDA's addressing (clamp, wrap,
// mirror, border; normalized coordinates) and filtering (point, and linear
// with its 8-bit fractional weights), answered by src/texture.cpp as the
// "Texture Fetching" appendix of CUDA's programming guide describes.
// A fetch is not a shared-memory access: it is neither priced nor traced.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "banklab/cuda_runtime_api.hpp"
#include "banklab/cuda_types.hpp"

enum cudaChannelFormatKind {
  cudaChannelFormatKindSigned = 0,
  cudaChannelFormatKindUnsigned = 1,
  cudaChannelFormatKindFloat = 2,
  cudaChannelFormatKindNone = 3
};
struct cudaChannelFormatDesc {
  int x, y, z, w;  // bits per channel
  cudaChannelFormatKind f;
};
cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, cudaChannelFormatKind f);

namespace banklab::emu::detail {
// The channel format of a type: its channel count and each channel's kind.
template <class T>
struct ChannelOf;
#define BANKLAB_CHANNEL(T, n, bits, kind)                                                                    \
  template <>                                                                                               \
  struct ChannelOf<T> {                                                                                     \
    static cudaChannelFormatDesc desc() {                                                                   \
      return {bits, (n) > 1 ? (bits) : 0, (n) > 2 ? (bits) : 0, (n) > 3 ? (bits) : 0, kind};                \
    }                                                                                                       \
  };
#define BANKLAB_CHANNELS(S, V, bits, kind) \
  BANKLAB_CHANNEL(S, 1, bits, kind)        \
  BANKLAB_CHANNEL(V##1, 1, bits, kind)     \
  BANKLAB_CHANNEL(V##2, 2, bits, kind)     \
  BANKLAB_CHANNEL(V##4, 4, bits, kind)
BANKLAB_CHANNELS(char, char, 8, cudaChannelFormatKindSigned)
BANKLAB_CHANNEL(signed char, 1, 8, cudaChannelFormatKindSigned)
BANKLAB_CHANNELS(unsigned char, uchar, 8, cudaChannelFormatKindUnsigned)
BANKLAB_CHANNELS(short, short, 16, cudaChannelFormatKindSigned)
BANKLAB_CHANNELS(unsigned short, ushort, 16, cudaChannelFormatKindUnsigned)
BANKLAB_CHANNELS(int, int, 32, cudaChannelFormatKindSigned)
BANKLAB_CHANNELS(unsigned int, uint, 32, cudaChannelFormatKindUnsigned)
BANKLAB_CHANNELS(float, float, 32, cudaChannelFormatKindFloat)
#undef BANKLAB_CHANNELS
#undef BANKLAB_CHANNEL
}  // namespace banklab::emu::detail

template <class T>
cudaChannelFormatDesc cudaCreateChannelDesc() {
  return banklab::emu::detail::ChannelOf<T>::desc();
}

/// A CUDA array: texels of one channel format in rows (here, plain device memory).
struct cudaArray;
using cudaArray_t = cudaArray*;
using cudaArray_const_t = const cudaArray*;
struct cudaExtent {
  std::size_t width, height, depth;
};
inline cudaExtent make_cudaExtent(std::size_t w, std::size_t h, std::size_t d) { return {w, h, d}; }

enum cudaArrayFlags { cudaArrayDefault = 0, cudaArraySurfaceLoadStore = 2 };
cudaError_t cudaMallocArray(cudaArray_t* array, const cudaChannelFormatDesc* desc, std::size_t width,
                            std::size_t height = 0, unsigned int flags = 0);
cudaError_t cudaMalloc3DArray(cudaArray_t* array, const cudaChannelFormatDesc* desc, cudaExtent extent,
                              unsigned int flags = 0);
cudaError_t cudaFreeArray(cudaArray_t array);
cudaError_t cudaArrayGetInfo(cudaChannelFormatDesc* desc, cudaExtent* extent, unsigned int* flags, cudaArray_t array);
cudaError_t cudaMemcpy2DToArray(cudaArray_t destination, std::size_t w_offset, std::size_t h_offset, const void* source,
                                std::size_t source_pitch, std::size_t width_bytes, std::size_t height,
                                cudaMemcpyKind kind);
cudaError_t cudaMemcpyToArray(cudaArray_t destination, std::size_t w_offset, std::size_t h_offset, const void* source,
                              std::size_t bytes, cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DFromArray(void* destination, std::size_t destination_pitch, cudaArray_const_t source,
                                  std::size_t w_offset, std::size_t h_offset, std::size_t width_bytes,
                                  std::size_t height, cudaMemcpyKind kind);

enum cudaResourceType {
  cudaResourceTypeArray = 0,
  cudaResourceTypeMipmappedArray = 1,
  cudaResourceTypeLinear = 2,
  cudaResourceTypePitch2D = 3
};
struct cudaResourceDesc {
  cudaResourceType resType;
  union {
    struct {
      cudaArray_t array;
    } array;
    struct {
      void* mipmap;
    } mipmap;
    struct {
      void* devPtr;
      cudaChannelFormatDesc desc;
      std::size_t sizeInBytes;
    } linear;
    struct {
      void* devPtr;
      cudaChannelFormatDesc desc;
      std::size_t width;
      std::size_t height;
      std::size_t pitchInBytes;
    } pitch2D;
  } res;
};
enum cudaTextureAddressMode {
  cudaAddressModeWrap = 0,
  cudaAddressModeClamp = 1,
  cudaAddressModeMirror = 2,
  cudaAddressModeBorder = 3
};
enum cudaTextureFilterMode { cudaFilterModePoint = 0, cudaFilterModeLinear = 1 };
enum cudaTextureReadMode { cudaReadModeElementType = 0, cudaReadModeNormalizedFloat = 1 };
struct cudaTextureDesc {
  cudaTextureAddressMode addressMode[3];
  cudaTextureFilterMode filterMode;
  cudaTextureReadMode readMode;
  int sRGB;
  float borderColor[4];
  int normalizedCoords;
  unsigned int maxAnisotropy;
  cudaTextureFilterMode mipmapFilterMode;
  float mipmapLevelBias;
  float minMipmapLevelClamp;
  float maxMipmapLevelClamp;
  int disableTrilinearOptimization;
  int seamlessCubemap;
};
struct cudaResourceViewDesc;  // views are not supported: pass nullptr
using cudaTextureObject_t = unsigned long long;

cudaError_t cudaCreateTextureObject(cudaTextureObject_t* texture, const cudaResourceDesc* resource,
                                    const cudaTextureDesc* description, const cudaResourceViewDesc* view);
cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texture);
cudaError_t cudaGetTextureObjectResourceDesc(cudaResourceDesc* resource, cudaTextureObject_t texture);

namespace banklab::emu::detail {
/// One fetch's texel, as floats (a float format, a normalized read or a
/// filtered fetch) or as the channels' integers.
struct Texel {
  float f[4] = {0, 0, 0, 0};
  long long i[4] = {0, 0, 0, 0};
  bool is_float = false;
};
/// Fetches from texture `texture`: `dims` coordinates (1 to 3); `integer`
/// for tex1Dfetch (an element index into linear memory, no filtering).
Texel texture_fetch(cudaTextureObject_t texture, int dims, float x, float y, float z, bool integer);

template <class T>
T texel_as(const Texel& t) {
  if constexpr (std::is_same_v<T, float>) {
    return t.f[0];
  } else if constexpr (std::is_same_v<T, float1>) {
    return make_float1(t.f[0]);
  } else if constexpr (std::is_same_v<T, float2>) {
    return make_float2(t.f[0], t.f[1]);
  } else if constexpr (std::is_same_v<T, float4>) {
    return make_float4(t.f[0], t.f[1], t.f[2], t.f[3]);
  } else if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(t.i[0]);
  } else {
    // An integer vector (char4, uchar2, int4, ...): its channels from the integers.
    T out{};
    using Part = std::remove_reference_t<decltype(out.x)>;
    constexpr int kChannels = static_cast<int>(sizeof(T) / sizeof(Part));
    Part* parts = &out.x;
    for (int c = 0; c < kChannels; ++c) parts[c] = static_cast<Part>(t.i[c]);
    return out;
  }
}
}  // namespace banklab::emu::detail

template <class T>
T tex1Dfetch(cudaTextureObject_t texture, int x) {
  return banklab::emu::detail::texel_as<T>(
      banklab::emu::detail::texture_fetch(texture, 1, static_cast<float>(x), 0, 0, true));
}
template <class T>
T tex1D(cudaTextureObject_t texture, float x) {
  return banklab::emu::detail::texel_as<T>(banklab::emu::detail::texture_fetch(texture, 1, x, 0, 0, false));
}
template <class T>
T tex2D(cudaTextureObject_t texture, float x, float y) {
  return banklab::emu::detail::texel_as<T>(banklab::emu::detail::texture_fetch(texture, 2, x, y, 0, false));
}
template <class T>
T tex3D(cudaTextureObject_t texture, float x, float y, float z) {
  return banklab::emu::detail::texel_as<T>(banklab::emu::detail::texture_fetch(texture, 3, x, y, z, false));
}
// The forms that write through a pointer.
template <class T>
void tex1Dfetch(T* out, cudaTextureObject_t texture, int x) {
  *out = tex1Dfetch<T>(texture, x);
}
template <class T>
void tex2D(T* out, cudaTextureObject_t texture, float x, float y) {
  *out = tex2D<T>(texture, x, y);
}

// Surface objects: a CUDA array made with cudaArraySurfaceLoadStore, read and
// written by kernels at a byte column x (element x is x * sizeof(T)), row y
// and slice z; sizeof(T) is the size of one element of the array.
using cudaSurfaceObject_t = unsigned long long;
enum cudaSurfaceBoundaryMode { cudaBoundaryModeZero = 0, cudaBoundaryModeClamp = 1, cudaBoundaryModeTrap = 2 };
cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t* surface, const cudaResourceDesc* resource);
cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surface);

namespace banklab::emu::detail {
void surface_access(cudaSurfaceObject_t surface, void* value, std::size_t bytes, int dims, long long x_bytes,
                    long long y, long long z, int mode, bool write);
}  // namespace banklab::emu::detail

template <class T>
void surf1Dwrite(T value, cudaSurfaceObject_t surface, int x, cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap) {
  banklab::emu::detail::surface_access(surface, &value, sizeof(T), 1, x, 0, 0, mode, true);
}
template <class T>
void surf2Dwrite(T value, cudaSurfaceObject_t surface, int x, int y,
                 cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap) {
  banklab::emu::detail::surface_access(surface, &value, sizeof(T), 2, x, y, 0, mode, true);
}
template <class T>
void surf3Dwrite(T value, cudaSurfaceObject_t surface, int x, int y, int z,
                 cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap) {
  banklab::emu::detail::surface_access(surface, &value, sizeof(T), 3, x, y, z, mode, true);
}
template <class T>
void surf1Dread(T* out, cudaSurfaceObject_t surface, int x, cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap) {
  T value{};
  banklab::emu::detail::surface_access(surface, &value, sizeof(T), 1, x, 0, 0, mode, false);
  *out = value;
}
template <class T>
void surf2Dread(T* out, cudaSurfaceObject_t surface, int x, int y, cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap) {
  T value{};
  banklab::emu::detail::surface_access(surface, &value, sizeof(T), 2, x, y, 0, mode, false);
  *out = value;
}
template <class T>
void surf3Dread(T* out, cudaSurfaceObject_t surface, int x, int y, int z,
                cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap) {
  T value{};
  banklab::emu::detail::surface_access(surface, &value, sizeof(T), 3, x, y, z, mode, false);
  *out = value;
}
template <class T>
T surf1Dread(cudaSurfaceObject_t surface, int x, cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap) {
  T value{};
  surf1Dread(&value, surface, x, mode);
  return value;
}
template <class T>
T surf2Dread(cudaSurfaceObject_t surface, int x, int y, cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap) {
  T value{};
  surf2Dread(&value, surface, x, y, mode);
  return value;
}
template <class T>
T surf3Dread(cudaSurfaceObject_t surface, int x, int y, int z, cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap) {
  T value{};
  surf3Dread(&value, surface, x, y, z, mode);
  return value;
}

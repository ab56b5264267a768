// CUDA arrays, texture objects and texture fetches for the CPU emulator
// (include/banklab/cuda_texture.hpp), computed as the "Texture Fetching"
// appendix of CUDA's programming guide describes them: coordinates scaled
// when normalized; out-of-range ones clamped, wrapped, mirrored or given the
// border color; point sampling takes texel floor(x); linear filtering blends
// texels floor(x - 0.5) and the next with weights held in 9-bit fixed point
// with 8 fractional bits. Checked against an H200 (tests/data/gpu/h200_textures/).
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <deque>
#include <mutex>
#include <vector>

#include "banklab/cuda_host.hpp"
#include "banklab/cuda_texture.hpp"
#include "banklab/emulator.hpp"
#include "host_api.hpp"
#include "runtime.hpp"

struct cudaArray {
  cudaChannelFormatDesc desc{};
  std::size_t width = 0, height = 0, depth = 0;  // in texels; height and depth at least 1
  std::size_t texel_bytes = 0;
  unsigned flags = 0;             // cudaArraySurfaceLoadStore: surfaces may be made of it
  unsigned char* data = nullptr;  // rows of width * texel_bytes, no padding
};

namespace {

using banklab::emu::detail::host_only;
using banklab::emu::detail::Texel;

std::size_t texel_bytes_of(const cudaChannelFormatDesc& d) {
  return static_cast<std::size_t>(d.x + d.y + d.z + d.w) / 8;
}
int channels_of(const cudaChannelFormatDesc& d) { return (d.x > 0) + (d.y > 0) + (d.z > 0) + (d.w > 0); }

struct TextureObject {
  bool live = false;
  cudaResourceDesc resource{};
  cudaTextureDesc description{};
  cudaChannelFormatDesc format{};
  const unsigned char* base = nullptr;
  std::size_t width = 1, height = 1, depth = 1;  // texels
  std::size_t pitch = 0;                         // bytes from one row to the next
  std::size_t texel_bytes = 0;
  int channels = 0;
};

// Every texture object made, at index handle - 1. A deque never moves what it
// holds, so a fetch can keep a pointer; g_textures_changed counts creations
// and destructions, so that a thread's remembered pointer is used only while
// nothing has changed (a fetch then takes no lock and copies nothing).
std::mutex g_textures_mutex;
std::atomic<std::uint64_t> g_textures_changed{0};
std::deque<TextureObject>& textures() {
  static std::deque<TextureObject> all;
  return all;
}

bool valid_format(const cudaChannelFormatDesc& d) {
  const int bits = d.x;
  if (bits != 8 && bits != 16 && bits != 32) return false;
  for (const int c : {d.y, d.z, d.w}) {
    if (c != 0 && c != bits) return false;
  }
  if (d.y == 0 && (d.z != 0 || d.w != 0)) return false;
  if (d.z != 0 && d.w == 0) return false;  // 3 channels: CUDA has no such format
  if (d.f == cudaChannelFormatKindFloat && bits == 8) return false;
  return d.f == cudaChannelFormatKindSigned || d.f == cudaChannelFormatKindUnsigned ||
         d.f == cudaChannelFormatKindFloat;
}

// One channel of one texel: as read (integers, or a float format's value)
// and, for a normalized read, scaled to [0, 1] or [-1, 1].
void read_channel(const TextureObject& t, const unsigned char* texel, int c, Texel& out, bool normalized) {
  const int bits = t.format.x;
  const unsigned char* p = texel + static_cast<std::size_t>(c) * static_cast<std::size_t>(bits / 8);
  const bool is_signed = t.format.f == cudaChannelFormatKindSigned;
  if (t.format.f == cudaChannelFormatKindFloat) {
    float v = 0;
    std::memcpy(&v, p, 4);  // 16-bit floats are not supported (create refuses them)
    out.f[c] = v;
    return;
  }
  long long v = 0;
  if (bits == 8) v = is_signed ? static_cast<long long>(static_cast<std::int8_t>(*p)) : *p;
  if (bits == 16) {
    std::uint16_t u;
    std::memcpy(&u, p, 2);
    v = is_signed ? static_cast<long long>(static_cast<std::int16_t>(u)) : u;
  }
  if (bits == 32) {
    std::uint32_t u;
    std::memcpy(&u, p, 4);
    v = is_signed ? static_cast<long long>(static_cast<std::int32_t>(u)) : u;
  }
  out.i[c] = v;
  if (normalized) {
    const double range = bits == 8 ? (is_signed ? 127.0 : 255.0) : (is_signed ? 32767.0 : 65535.0);
    out.f[c] = static_cast<float>(std::max(-1.0, static_cast<double>(v) / range));
  } else {
    out.f[c] = static_cast<float>(v);
  }
}

// The texel at integer coordinates (already in range) as floats and integers.
Texel texel_at(const TextureObject& t, long long i, long long j, long long k, bool normalized) {
  Texel out;
  const unsigned char* p = t.base + static_cast<std::size_t>(k) * t.pitch * t.height +
                           static_cast<std::size_t>(j) * t.pitch + static_cast<std::size_t>(i) * t.texel_bytes;
  for (int c = 0; c < t.channels; ++c) read_channel(t, p, c, out, normalized);
  return out;
}

// An integer coordinate under an address mode: in [0, n), or -1 for the border.
long long address(long long i, long long n, cudaTextureAddressMode mode, bool normalized_coords) {
  if (i >= 0 && i < n) return i;
  if (mode == cudaAddressModeBorder) return -1;
  if (normalized_coords && mode == cudaAddressModeWrap) return ((i % n) + n) % n;
  if (normalized_coords && mode == cudaAddressModeMirror) {
    const long long period = 2 * n;
    const long long m = ((i % period) + period) % period;
    return m < n ? m : period - 1 - m;
  }
  return std::clamp(i, 0LL, n - 1);  // clamp, and wrap or mirror with unnormalized coordinates (as clamp)
}

// A coordinate in texels: scaled when normalized; wrapped or mirrored as a
// fraction first where the mode says so. A normalized coordinate is held with
// 21 fractional bits (truncated) before it is scaled: measured on an H100,
// 0.2f on 5 texels is texel 0 (0.2f * 5 rounds to 1.0 in float), and the
// fetch reaches texel k from floor(k / N * 2^21 + 1) / 2^21 on, for N = 3, 5
// and 1000 (tests/data/gpu/probes/texture_coordinates.h100.txt).
double texel_coordinate(float x, std::size_t n, cudaTextureAddressMode mode, bool normalized_coords) {
  if (!normalized_coords) return x;
  double v = std::floor(static_cast<double>(x) * 2097152.0) / 2097152.0;
  if (mode == cudaAddressModeWrap) v = v - std::floor(v);
  if (mode == cudaAddressModeMirror) {
    const double whole = std::floor(v);
    v = v - whole;
    if (static_cast<long long>(whole) % 2 != 0) v = 1.0 - v;
  }
  return v * static_cast<double>(n);
}

}  // namespace

cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, cudaChannelFormatKind f) {
  return {x, y, z, w, f};
}

cudaError_t cudaMallocArray(cudaArray_t* array, const cudaChannelFormatDesc* desc, std::size_t width,
                            std::size_t height, unsigned int flags) {
  host_only("cudaMallocArray");
  return cudaMalloc3DArray(array, desc, make_cudaExtent(width, height, 0), flags);
}
cudaError_t cudaMalloc3DArray(cudaArray_t* array, const cudaChannelFormatDesc* desc, cudaExtent extent,
                              unsigned int flags) {
  host_only("cudaMalloc3DArray");
  if (array == nullptr || desc == nullptr || extent.width == 0 || !valid_format(*desc)) return cudaErrorInvalidValue;
  auto* a = new cudaArray;
  a->desc = *desc;
  a->width = extent.width;
  a->height = std::max<std::size_t>(1, extent.height);
  a->depth = std::max<std::size_t>(1, extent.depth);
  a->texel_bytes = texel_bytes_of(*desc);
  a->flags = flags;
  a->data = static_cast<unsigned char*>(banklab::emu::device_malloc(a->width * a->height * a->depth * a->texel_bytes));
  if (a->data == nullptr) {
    delete a;
    return cudaErrorMemoryAllocation;
  }
  *array = a;
  return banklab::emu::detail::status();
}
cudaError_t cudaFreeArray(cudaArray_t array) {
  host_only("cudaFreeArray");
  if (array == nullptr) return cudaSuccess;
  banklab::emu::device_free(array->data);
  delete array;
  return banklab::emu::detail::status();
}
cudaError_t cudaArrayGetInfo(cudaChannelFormatDesc* desc, cudaExtent* extent, unsigned int* flags, cudaArray_t array) {
  host_only("cudaArrayGetInfo");
  if (array == nullptr) return cudaErrorInvalidValue;
  if (desc != nullptr) *desc = array->desc;
  if (extent != nullptr) *extent = {array->width, array->height > 1 || array->depth > 1 ? array->height : 0,
                                    array->depth > 1 ? array->depth : 0};
  if (flags != nullptr) *flags = array->flags;
  return cudaSuccess;
}
cudaError_t cudaMemcpy2DToArray(cudaArray_t destination, std::size_t w_offset, std::size_t h_offset, const void* source,
                                std::size_t source_pitch, std::size_t width_bytes, std::size_t height,
                                cudaMemcpyKind) {
  host_only("cudaMemcpy2DToArray");
  if (destination == nullptr || source == nullptr) return cudaErrorInvalidValue;
  const std::size_t row = destination->width * destination->texel_bytes;
  const std::size_t rows = destination->height * destination->depth;
  if (w_offset + width_bytes > row || h_offset + height > rows || (height > 1 && source_pitch < width_bytes)) {
    return cudaErrorInvalidValue;
  }
  for (std::size_t r = 0; r < height; ++r) {
    std::memcpy(destination->data + (h_offset + r) * row + w_offset,
                static_cast<const unsigned char*>(source) + r * source_pitch, width_bytes);
  }
  return banklab::emu::detail::status();
}
cudaError_t cudaMemcpyToArray(cudaArray_t destination, std::size_t w_offset, std::size_t h_offset, const void* source,
                              std::size_t bytes, cudaMemcpyKind) {
  host_only("cudaMemcpyToArray");
  if (destination == nullptr || source == nullptr) return cudaErrorInvalidValue;
  const std::size_t row = destination->width * destination->texel_bytes;
  const std::size_t at = h_offset * row + w_offset;
  if (at + bytes > row * destination->height * destination->depth) return cudaErrorInvalidValue;
  std::memcpy(destination->data + at, source, bytes);
  return banklab::emu::detail::status();
}
cudaError_t cudaMemcpy2DFromArray(void* destination, std::size_t destination_pitch, cudaArray_const_t source,
                                  std::size_t w_offset, std::size_t h_offset, std::size_t width_bytes,
                                  std::size_t height, cudaMemcpyKind) {
  host_only("cudaMemcpy2DFromArray");
  if (destination == nullptr || source == nullptr) return cudaErrorInvalidValue;
  const std::size_t row = source->width * source->texel_bytes;
  if (w_offset + width_bytes > row || h_offset + height > source->height * source->depth) return cudaErrorInvalidValue;
  for (std::size_t r = 0; r < height; ++r) {
    std::memcpy(static_cast<unsigned char*>(destination) + r * destination_pitch,
                source->data + (h_offset + r) * row + w_offset, width_bytes);
  }
  return banklab::emu::detail::status();
}

cudaError_t cudaCreateTextureObject(cudaTextureObject_t* texture, const cudaResourceDesc* resource,
                                    const cudaTextureDesc* description, const cudaResourceViewDesc* view) {
  host_only("cudaCreateTextureObject");
  if (texture == nullptr || resource == nullptr || description == nullptr || view != nullptr) {
    return cudaErrorInvalidValue;
  }
  TextureObject t;
  t.live = true;
  t.resource = *resource;
  t.description = *description;
  switch (resource->resType) {
    case cudaResourceTypeArray: {
      const cudaArray* a = resource->res.array.array;
      if (a == nullptr) return cudaErrorInvalidValue;
      t.format = a->desc;
      t.base = a->data;
      t.width = a->width;
      t.height = a->height;
      t.depth = a->depth;
      t.pitch = a->width * a->texel_bytes;
      break;
    }
    case cudaResourceTypeLinear:
      t.format = resource->res.linear.desc;
      t.base = static_cast<const unsigned char*>(resource->res.linear.devPtr);
      if (!valid_format(t.format) || t.base == nullptr) return cudaErrorInvalidValue;
      t.width = resource->res.linear.sizeInBytes / texel_bytes_of(t.format);
      t.pitch = resource->res.linear.sizeInBytes;
      break;
    case cudaResourceTypePitch2D:
      t.format = resource->res.pitch2D.desc;
      t.base = static_cast<const unsigned char*>(resource->res.pitch2D.devPtr);
      if (!valid_format(t.format) || t.base == nullptr) return cudaErrorInvalidValue;
      t.width = resource->res.pitch2D.width;
      t.height = resource->res.pitch2D.height;
      t.pitch = resource->res.pitch2D.pitchInBytes;
      break;
    default:
      return cudaErrorInvalidValue;  // mipmapped arrays are not supported
  }
  if (!valid_format(t.format) || t.width == 0) return cudaErrorInvalidValue;
  t.texel_bytes = texel_bytes_of(t.format);
  t.channels = channels_of(t.format);
  // Linear filtering needs float results: a float format or a normalized read.
  if (description->filterMode == cudaFilterModeLinear && t.format.f != cudaChannelFormatKindFloat &&
      description->readMode != cudaReadModeNormalizedFloat) {
    return cudaErrorInvalidValue;
  }
  const std::lock_guard<std::mutex> lock(g_textures_mutex);
  textures().push_back(t);
  g_textures_changed.fetch_add(1, std::memory_order_release);
  *texture = textures().size();  // 0 is never a texture
  return banklab::emu::detail::status();
}
cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texture) {
  host_only("cudaDestroyTextureObject");
  const std::lock_guard<std::mutex> lock(g_textures_mutex);
  if (texture == 0 || texture > textures().size() || !textures()[texture - 1].live) return cudaErrorInvalidValue;
  textures()[texture - 1].live = false;
  g_textures_changed.fetch_add(1, std::memory_order_release);
  return cudaSuccess;
}
cudaError_t cudaGetTextureObjectResourceDesc(cudaResourceDesc* resource, cudaTextureObject_t texture) {
  host_only("cudaGetTextureObjectResourceDesc");
  const std::lock_guard<std::mutex> lock(g_textures_mutex);
  if (resource == nullptr || texture == 0 || texture > textures().size()) return cudaErrorInvalidValue;
  *resource = textures()[texture - 1].resource;
  return cudaSuccess;
}

namespace {
// Every surface object made, at index handle - 1 (null once destroyed).
std::mutex g_surfaces_mutex;
std::vector<const cudaArray*>& surfaces() {
  static std::vector<const cudaArray*> all;
  return all;
}
}  // namespace

cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t* surface, const cudaResourceDesc* resource) {
  host_only("cudaCreateSurfaceObject");
  // A surface is made of a CUDA array. CUDA asks for cudaArraySurfaceLoadStore
  // when the array is allocated, but an H100 makes the surface of an array
  // without it too (tests/data/gpu/h100_programs/surfaces.txt), and so does this.
  if (surface == nullptr || resource == nullptr || resource->resType != cudaResourceTypeArray ||
      resource->res.array.array == nullptr) {
    return cudaErrorInvalidValue;
  }
  const std::lock_guard<std::mutex> lock(g_surfaces_mutex);
  surfaces().push_back(resource->res.array.array);
  *surface = surfaces().size();  // 0 is never a surface
  return banklab::emu::detail::status();
}
cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surface) {
  host_only("cudaDestroySurfaceObject");
  const std::lock_guard<std::mutex> lock(g_surfaces_mutex);
  if (surface == 0 || surface > surfaces().size() || surfaces()[surface - 1] == nullptr) return cudaErrorInvalidValue;
  surfaces()[surface - 1] = nullptr;
  return cudaSuccess;
}

namespace banklab::emu::detail {

Texel texture_fetch(cudaTextureObject_t texture, int dims, float x, float y, float z, bool integer) {
  // The object this OS thread fetched from last, while no texture was made or destroyed since.
  thread_local cudaTextureObject_t last_handle = 0;
  thread_local const TextureObject* last = nullptr;
  thread_local std::uint64_t last_seen = ~std::uint64_t{0};
  const std::uint64_t changed = g_textures_changed.load(std::memory_order_acquire);
  if (texture != last_handle || changed != last_seen || last == nullptr) {
    const std::lock_guard<std::mutex> lock(g_textures_mutex);
    if (texture == 0 || texture > textures().size() || !textures()[texture - 1].live) {
      unsupported("a texture fetch from a texture object that does not exist (never created, or destroyed)");
    }
    last_handle = texture;
    last = &textures()[texture - 1];
    last_seen = changed;
  }
  const TextureObject& t = *last;
  const cudaTextureDesc& d = t.description;
  const bool normalized_read = d.readMode == cudaReadModeNormalizedFloat && t.format.f != cudaChannelFormatKindFloat;
  if (integer) {
    // tex1Dfetch: an element index, no filtering; outside the memory, zeros.
    const long long i = static_cast<long long>(x);
    if (i < 0 || static_cast<std::size_t>(i) >= t.width) {
      Texel zero;
      zero.is_float = normalized_read || t.format.f == cudaChannelFormatKindFloat;
      return zero;
    }
    Texel out = texel_at(t, i, 0, 0, normalized_read);
    out.is_float = normalized_read || t.format.f == cudaChannelFormatKindFloat;
    return out;
  }
  const bool norm = d.normalizedCoords != 0;
  const std::size_t size[3] = {t.width, dims > 1 ? t.height : 1, dims > 2 ? t.depth : 1};
  const double coordinate[3] = {texel_coordinate(x, size[0], d.addressMode[0], norm),
                                dims > 1 ? texel_coordinate(y, size[1], d.addressMode[1], norm) : 0.0,
                                dims > 2 ? texel_coordinate(z, size[2], d.addressMode[2], norm) : 0.0};
  Texel border;
  for (int c = 0; c < 4; ++c) border.f[c] = d.borderColor[c];
  for (int c = 0; c < 4; ++c) border.i[c] = static_cast<long long>(d.borderColor[c]);
  auto fetch = [&](const long long (&index)[3]) {
    long long at[3] = {0, 0, 0};
    for (int a = 0; a < dims; ++a) {
      at[a] = address(index[a], static_cast<long long>(size[a]), d.addressMode[a], norm);
      if (at[a] < 0) return border;
    }
    return texel_at(t, at[0], at[1], at[2], normalized_read);
  };
  Texel out;
  out.is_float = normalized_read || t.format.f == cudaChannelFormatKindFloat;
  if (d.filterMode == cudaFilterModePoint) {
    long long index[3] = {0, 0, 0};
    for (int a = 0; a < dims; ++a) index[a] = static_cast<long long>(std::floor(coordinate[a]));
    const Texel got = fetch(index);
    std::memcpy(out.f, got.f, sizeof out.f);
    std::memcpy(out.i, got.i, sizeof out.i);
    return out;
  }
  // Linear: the 2^dims texels around x - 0.5, each weighted by its fraction,
  // the fractions held with 8 fractional bits.
  long long base[3] = {0, 0, 0};
  float frac[3] = {0, 0, 0};
  for (int a = 0; a < dims; ++a) {
    // The weight rounds half up to 1/256 (measured: x = 0.5 + j / 64 + 1 / 512
    // between texels 0 and 256 gives 4 j + 1).
    const double shifted = coordinate[a] - 0.5;
    base[a] = static_cast<long long>(std::floor(shifted));
    frac[a] = static_cast<float>(std::floor((shifted - std::floor(shifted)) * 256.0 + 0.5) / 256.0);
  }
  for (int corner = 0; corner < (1 << dims); ++corner) {
    long long index[3] = {0, 0, 0};
    float weight = 1.0f;
    for (int a = 0; a < dims; ++a) {
      const bool next = (corner >> a) & 1;
      index[a] = base[a] + (next ? 1 : 0);
      weight *= next ? frac[a] : 1.0f - frac[a];
    }
    const Texel got = fetch(index);
    for (int c = 0; c < 4; ++c) out.f[c] += weight * got.f[c];
  }
  return out;
}

// A surface access: `bytes` at byte column x_bytes of row y, slice z, of
// the surface's array, written from or read into `value`. Outside the array
// a read gives zeros and a write is dropped (cudaBoundaryModeZero), the
// coordinate is clamped to the last element (cudaBoundaryModeClamp), or the
// launch stops with a finding, as the GPU stops the kernel (cudaBoundaryModeTrap).
void surface_access(cudaSurfaceObject_t surface, void* value, std::size_t bytes, int dims, long long x_bytes,
                    long long y, long long z, int mode, bool write) {
  const cudaArray* a = nullptr;
  {
    const std::lock_guard<std::mutex> lock(g_surfaces_mutex);
    if (surface == 0 || surface > surfaces().size() || surfaces()[surface - 1] == nullptr) {
      unsupported("a surface access through a surface object that does not exist (never created, or destroyed)");
    }
    a = surfaces()[surface - 1];
  }
  if (bytes != a->texel_bytes) {
    unsupported("a surface access whose type is not the size of the array's elements (surf2Dread<T>, surf2Dwrite: "
                "sizeof(T) must be the size of one element of the array)");
  }
  if (x_bytes % static_cast<long long>(bytes) != 0) {
    unsupported("a surface access at a byte column that is not a multiple of the element size (x is in bytes: "
                "x * sizeof(T) for element x)");
  }
  long long at[3] = {x_bytes / static_cast<long long>(bytes), dims > 1 ? y : 0, dims > 2 ? z : 0};
  const long long size[3] = {static_cast<long long>(a->width), static_cast<long long>(a->height),
                             static_cast<long long>(a->depth)};
  bool outside = false;
  for (int d = 0; d < 3; ++d) outside = outside || at[d] < 0 || at[d] >= size[d];
  if (outside) {
    if (mode == cudaBoundaryModeTrap) {
      illegal_address("a surface access outside its array with cudaBoundaryModeTrap (the default): the GPU stops "
                      "the kernel with an illegal address; check the coordinates, or pass cudaBoundaryModeZero or "
                      "cudaBoundaryModeClamp");
    }
    if (mode == cudaBoundaryModeZero) {
      if (!write) std::memset(value, 0, bytes);
      return;
    }
    for (int d = 0; d < 3; ++d) at[d] = std::clamp<long long>(at[d], 0, size[d] - 1);
  }
  unsigned char* element =
      a->data + ((static_cast<std::size_t>(at[2]) * a->height + static_cast<std::size_t>(at[1])) * a->width +
                 static_cast<std::size_t>(at[0])) * a->texel_bytes;
  if (write) {
    std::memcpy(element, value, bytes);
  } else {
    std::memcpy(value, element, bytes);
  }
}

}  // namespace banklab::emu::detail

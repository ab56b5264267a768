// Texture objects as a filter kernel uses them, every fetch printed as bits,
// so that the emulator's results can be held against a GPU's line for line
// (tests/data/gpu/h200_textures/): CUDA arrays (1D, 2D) and pitched and linear
// memory; point and linear filtering; unnormalized and normalized
// coordinates; clamp, wrap, mirror and border addressing; element and
// normalized-float reads of 8- and 16-bit channels; tex1Dfetch in and out of
// range. Coordinates fall on texel centres, edges, fractions and outside.
//   banklab run textures.cu
#include <cstdio>
#include <cstring>
#include <vector>

constexpr int kW = 5, kH = 4;  // a small image, odd width
constexpr int kCoords = 12;
__constant__ float c_x[kCoords] = {0.0f, 0.5f, 1.0f, 1.3f, 2.75f, 4.5f, 4.9f, 5.5f, -0.6f, 7.25f, 2.0f, 3.49f};
__constant__ float c_y[kCoords] = {0.5f, 0.5f, 1.7f, 0.2f, 3.5f, 2.25f, 4.5f, 1.1f, -1.0f, 0.5f, 2.0f, 3.99f};

template <class T>
__global__ void sample2d(cudaTextureObject_t texture, float scale, T* out) {
  const int i = threadIdx.x;
  out[i] = tex2D<T>(texture, c_x[i] * scale, c_y[i] * scale);
}
template <class T>
__global__ void sample1d(cudaTextureObject_t texture, float scale, T* out) {
  const int i = threadIdx.x;
  out[i] = tex1D<T>(texture, c_x[i] * scale);
}
__global__ void fetch1d(cudaTextureObject_t texture, int* out) {
  const int i = static_cast<int>(threadIdx.x) - 2;  // -2 .. 9 over 8 elements
  out[threadIdx.x] = tex1Dfetch<int>(texture, i);
}

template <class T>
void print_bits(const char* name, const std::vector<T>& values) {
  std::printf("%s:", name);
  for (const T& v : values) {
    const unsigned char* bytes = reinterpret_cast<const unsigned char*>(&v);
    std::printf(" ");
    for (int b = static_cast<int>(sizeof(T)) - 1; b >= 0; --b) std::printf("%02x", bytes[b]);
  }
  std::printf("\n");
}

template <class T>
std::vector<T> run2d(cudaTextureObject_t texture, float scale) {
  T* out = nullptr;
  cudaMalloc(&out, kCoords * sizeof(T));
  sample2d<T><<<1, kCoords>>>(texture, scale, out);
  std::vector<T> host(kCoords);
  cudaMemcpy(host.data(), out, kCoords * sizeof(T), cudaMemcpyDeviceToHost);
  cudaFree(out);
  return host;
}
template <class T>
std::vector<T> run1d(cudaTextureObject_t texture, float scale) {
  T* out = nullptr;
  cudaMalloc(&out, kCoords * sizeof(T));
  sample1d<T><<<1, kCoords>>>(texture, scale, out);
  std::vector<T> host(kCoords);
  cudaMemcpy(host.data(), out, kCoords * sizeof(T), cudaMemcpyDeviceToHost);
  cudaFree(out);
  return host;
}

cudaTextureDesc describe(cudaTextureFilterMode filter, cudaTextureAddressMode mode, bool normalized,
                         cudaTextureReadMode read = cudaReadModeElementType) {
  cudaTextureDesc d;
  std::memset(&d, 0, sizeof d);
  d.addressMode[0] = d.addressMode[1] = d.addressMode[2] = mode;
  d.filterMode = filter;
  d.readMode = read;
  d.normalizedCoords = normalized ? 1 : 0;
  d.borderColor[0] = 0.25f;
  d.borderColor[1] = 0.5f;
  d.borderColor[2] = 0.75f;
  d.borderColor[3] = 1.0f;
  return d;
}

cudaTextureObject_t make_texture(const cudaResourceDesc& resource, const cudaTextureDesc& description) {
  cudaTextureObject_t texture = 0;
  const cudaError_t error = cudaCreateTextureObject(&texture, &resource, &description, nullptr);
  if (error != cudaSuccess) std::printf("cudaCreateTextureObject: %s\n", cudaGetErrorName(error));
  return texture;
}

int main() {
  // A float image in a 2D CUDA array: texel (x, y) = 10 y + x + x^2 / 8.
  float image[kH][kW];
  for (int y = 0; y < kH; ++y)
    for (int x = 0; x < kW; ++x) image[y][x] = 10.0f * y + x + 0.125f * x * x;
  const cudaChannelFormatDesc float_channel = cudaCreateChannelDesc<float>();
  cudaArray_t float_array = nullptr;
  cudaMallocArray(&float_array, &float_channel, kW, kH);
  cudaMemcpy2DToArray(float_array, 0, 0, image, kW * sizeof(float), kW * sizeof(float), kH, cudaMemcpyHostToDevice);
  cudaResourceDesc resource;
  std::memset(&resource, 0, sizeof resource);
  resource.resType = cudaResourceTypeArray;
  resource.res.array.array = float_array;

  const struct {
    const char* name;
    cudaTextureFilterMode filter;
    cudaTextureAddressMode mode;
    bool normalized;
  } float_cases[] = {
      {"float point clamp", cudaFilterModePoint, cudaAddressModeClamp, false},
      {"float linear clamp", cudaFilterModeLinear, cudaAddressModeClamp, false},
      {"float point border", cudaFilterModePoint, cudaAddressModeBorder, false},
      {"float linear border", cudaFilterModeLinear, cudaAddressModeBorder, false},
      {"float point wrap normalized", cudaFilterModePoint, cudaAddressModeWrap, true},
      {"float linear wrap normalized", cudaFilterModeLinear, cudaAddressModeWrap, true},
      {"float point mirror normalized", cudaFilterModePoint, cudaAddressModeMirror, true},
      {"float linear mirror normalized", cudaFilterModeLinear, cudaAddressModeMirror, true},
      {"float linear clamp normalized", cudaFilterModeLinear, cudaAddressModeClamp, true},
  };
  for (const auto& c : float_cases) {
    const cudaTextureObject_t texture = make_texture(resource, describe(c.filter, c.mode, c.normalized));
    print_bits(c.name, run2d<float>(texture, c.normalized ? 0.2f : 1.0f));
    cudaDestroyTextureObject(texture);
  }

  // uchar4 texels read as normalized floats, filtered.
  uchar4 colors[kH][kW];
  for (int y = 0; y < kH; ++y)
    for (int x = 0; x < kW; ++x)
      colors[y][x] = make_uchar4(static_cast<unsigned char>(40 * x + 3), static_cast<unsigned char>(60 * y + 1),
                                 static_cast<unsigned char>(255 - 17 * (x + y)), 255);
  const cudaChannelFormatDesc uchar4_channel = cudaCreateChannelDesc<uchar4>();
  cudaArray_t color_array = nullptr;
  cudaMallocArray(&color_array, &uchar4_channel, kW, kH);
  cudaMemcpy2DToArray(color_array, 0, 0, colors, kW * sizeof(uchar4), kW * sizeof(uchar4), kH, cudaMemcpyHostToDevice);
  resource.res.array.array = color_array;
  cudaTextureObject_t texture =
      make_texture(resource, describe(cudaFilterModeLinear, cudaAddressModeClamp, false, cudaReadModeNormalizedFloat));
  print_bits("uchar4 linear normalized-float", run2d<float4>(texture, 1.0f));
  cudaDestroyTextureObject(texture);
  texture = make_texture(resource, describe(cudaFilterModePoint, cudaAddressModeClamp, false));
  print_bits("uchar4 point element", run2d<uchar4>(texture, 1.0f));
  cudaDestroyTextureObject(texture);

  // Signed 16-bit texels in pitched memory, normalized: -1 at -32768 and -32767.
  short values[kH][kW];
  for (int y = 0; y < kH; ++y)
    for (int x = 0; x < kW; ++x) values[y][x] = static_cast<short>(-32768 + 9000 * x + 7000 * y);
  short* pitched = nullptr;
  std::size_t pitch = 0;
  cudaMallocPitch(reinterpret_cast<void**>(&pitched), &pitch, kW * sizeof(short), kH);
  cudaMemcpy2D(pitched, pitch, values, kW * sizeof(short), kW * sizeof(short), kH, cudaMemcpyHostToDevice);
  cudaResourceDesc pitched_resource;
  std::memset(&pitched_resource, 0, sizeof pitched_resource);
  pitched_resource.resType = cudaResourceTypePitch2D;
  pitched_resource.res.pitch2D.devPtr = pitched;
  pitched_resource.res.pitch2D.desc = cudaCreateChannelDesc<short>();
  pitched_resource.res.pitch2D.width = kW;
  pitched_resource.res.pitch2D.height = kH;
  pitched_resource.res.pitch2D.pitchInBytes = pitch;
  texture = make_texture(pitched_resource,
                         describe(cudaFilterModeLinear, cudaAddressModeClamp, false, cudaReadModeNormalizedFloat));
  print_bits("short pitch2D linear normalized-float", run2d<float>(texture, 1.0f));
  cudaDestroyTextureObject(texture);
  texture = make_texture(pitched_resource, describe(cudaFilterModePoint, cudaAddressModeClamp, false));
  print_bits("short pitch2D point element", run2d<short>(texture, 1.0f));
  cudaDestroyTextureObject(texture);

  // A 1D float array, linear; and tex1Dfetch on linear int memory.
  float row[8];
  for (int x = 0; x < 8; ++x) row[x] = static_cast<float>(x * x) - 3.0f;
  cudaArray_t row_array = nullptr;
  cudaMallocArray(&row_array, &float_channel, 8);
  cudaMemcpy2DToArray(row_array, 0, 0, row, sizeof row, sizeof row, 1, cudaMemcpyHostToDevice);
  resource.res.array.array = row_array;
  texture = make_texture(resource, describe(cudaFilterModeLinear, cudaAddressModeClamp, false));
  print_bits("1D float linear clamp", run1d<float>(texture, 1.0f));
  cudaDestroyTextureObject(texture);
  int numbers[8];
  for (int x = 0; x < 8; ++x) numbers[x] = 100 * x - 7;
  int* linear = nullptr;
  cudaMalloc(&linear, sizeof numbers);
  cudaMemcpy(linear, numbers, sizeof numbers, cudaMemcpyHostToDevice);
  cudaResourceDesc linear_resource;
  std::memset(&linear_resource, 0, sizeof linear_resource);
  linear_resource.resType = cudaResourceTypeLinear;
  linear_resource.res.linear.devPtr = linear;
  linear_resource.res.linear.desc = cudaCreateChannelDesc<int>();
  linear_resource.res.linear.sizeInBytes = sizeof numbers;
  texture = make_texture(linear_resource, describe(cudaFilterModePoint, cudaAddressModeClamp, false));
  int* fetched = nullptr;
  cudaMalloc(&fetched, kCoords * sizeof(int));
  fetch1d<<<1, kCoords>>>(texture, fetched);
  std::vector<int> host(kCoords);
  cudaMemcpy(host.data(), fetched, kCoords * sizeof(int), cudaMemcpyDeviceToHost);
  print_bits("tex1Dfetch int -2..9", host);
  cudaDestroyTextureObject(texture);
  const cudaError_t error = cudaDeviceSynchronize();
  std::printf("status: %s\n", cudaGetErrorName(error));
  return error == cudaSuccess ? 0 : 1;
}

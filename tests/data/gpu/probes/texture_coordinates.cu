// Probe: which texel a point-sampled fetch with normalized coordinates takes
// near a texel boundary. A 1D float texture of N texels holds its indices;
// x runs from k/N upwards in steps of one float ulp, then in doubling steps;
// the fetch's texel shows where the hardware's coordinate crosses into texel
// k. Prints "N k mode: m:texel ..." for steps m (in ulps of k/N). Then the
// linear filter's weight: texels {0, 256} (and the border color 0 around
// them), fetched at x = 0.5 + j / 64 + 1/512 and at x = -0.5 + j / 64 + 1/512, unnormalized.
#include <cmath>
#include <cstdio>
#include <cstring>

constexpr int kSteps = 40;
__global__ void fetch(cudaTextureObject_t texture, const float* x, float* out) {
  out[threadIdx.x] = tex1D<float>(texture, x[threadIdx.x]);
}

int main() {
  for (int n : {5, 3, 1000, 4096}) {
    float values[4096];
    for (int i = 0; i < n; ++i) values[i] = static_cast<float>(i);
    const cudaChannelFormatDesc channel = cudaCreateChannelDesc<float>();
    cudaArray_t array = nullptr;
    cudaMallocArray(&array, &channel, n);
    cudaMemcpy2DToArray(array, 0, 0, values, n * sizeof(float), n * sizeof(float), 1, cudaMemcpyHostToDevice);
    for (int wrap = 0; wrap < 2; ++wrap) {
      cudaResourceDesc resource;
      std::memset(&resource, 0, sizeof resource);
      resource.resType = cudaResourceTypeArray;
      resource.res.array.array = array;
      cudaTextureDesc d;
      std::memset(&d, 0, sizeof d);
      d.addressMode[0] = wrap ? cudaAddressModeWrap : cudaAddressModeClamp;
      d.filterMode = cudaFilterModePoint;
      d.readMode = cudaReadModeElementType;
      d.normalizedCoords = 1;
      cudaTextureObject_t texture = 0;
      cudaCreateTextureObject(&texture, &resource, &d, nullptr);
      for (int k : {1, 2, 3}) {
        float x[kSteps];
        long long m = 0;
        for (int s = 0; s < kSteps; ++s) {
          m = s < 8 ? s : m * 2;
          const float base = static_cast<float>(k) / static_cast<float>(n);
          float v = base;
          const long long limit = m;
          // base + m ulps
          unsigned bits;
          std::memcpy(&bits, &v, 4);
          bits += static_cast<unsigned>(limit);
          std::memcpy(&v, &bits, 4);
          x[s] = v;
        }
        float *dx = nullptr, *dout = nullptr;
        cudaMalloc(&dx, sizeof x);
        cudaMalloc(&dout, sizeof x);
        cudaMemcpy(dx, x, sizeof x, cudaMemcpyHostToDevice);
        fetch<<<1, kSteps>>>(texture, dx, dout);
        float out[kSteps];
        cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
        std::printf("%d %d %s:", n, k, wrap ? "wrap" : "clamp");
        m = 0;
        for (int s = 0; s < kSteps; ++s) {
          m = s < 8 ? s : m * 2;
          std::printf(" %lld:%g", m, out[s]);
          if (m > (1LL << 24)) break;
        }
        std::printf("\n");
        cudaFree(dx);
        cudaFree(dout);
      }
      cudaDestroyTextureObject(texture);
    }
    cudaFreeArray(array);
  }
  float two[2] = {0.0f, 256.0f};
  const cudaChannelFormatDesc channel = cudaCreateChannelDesc<float>();
  cudaArray_t array = nullptr;
  cudaMallocArray(&array, &channel, 2);
  cudaMemcpy2DToArray(array, 0, 0, two, sizeof two, sizeof two, 1, cudaMemcpyHostToDevice);
  for (int border = 0; border < 2; ++border) {
    cudaResourceDesc resource;
    std::memset(&resource, 0, sizeof resource);
    resource.resType = cudaResourceTypeArray;
    resource.res.array.array = array;
    cudaTextureDesc d;
    std::memset(&d, 0, sizeof d);
    d.addressMode[0] = border ? cudaAddressModeBorder : cudaAddressModeClamp;
    d.filterMode = cudaFilterModeLinear;
    d.readMode = cudaReadModeElementType;
    cudaTextureObject_t texture = 0;
    cudaCreateTextureObject(&texture, &resource, &d, nullptr);
    for (float start : {0.5f, -0.5f}) {
      float x[kSteps];
      for (int j = 0; j < kSteps; ++j) x[j] = start + static_cast<float>(j) / 64.0f + 1.0f / 512.0f;
      float *dx = nullptr, *dout = nullptr;
      cudaMalloc(&dx, sizeof x);
      cudaMalloc(&dout, sizeof x);
      cudaMemcpy(dx, x, sizeof x, cudaMemcpyHostToDevice);
      fetch<<<1, kSteps>>>(texture, dx, dout);
      float out[kSteps];
      cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
      std::printf("linear {0,256} %s from %g:", border ? "border" : "clamp", start);
      for (int j = 0; j < kSteps; ++j) std::printf(" %.9g", out[j]);
      std::printf("\n");
      cudaFree(dx);
      cudaFree(dout);
    }
    cudaDestroyTextureObject(texture);
  }
  return 0;
}

// cuRAND's host API: a Monte Carlo estimate of pi from curandGenerateUniform
// (XORWOW, cuRAND's default), and for each generator the values at a few
// elements of curandGenerate, curandGenerateUniform(Double) and
// curandGenerateNormal(Double), a second call (it goes on where the first
// ended), an offset, and the statuses of calls cuRAND refuses.
//   nvcc -O2 -arch=sm_90 -o curand_host_check curand_host_check.cu -lcurand
#include <curand.h>

#include <cmath>
#include <cstdio>
#include <vector>

__global__ void count_inside(const float* xy, int pairs, unsigned* inside) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < pairs) {
    const float x = xy[2 * i], y = xy[2 * i + 1];
    if (x * x + y * y <= 1.0f) atomicAdd(inside, 1u);
  }
}

const size_t kCount = 1 << 16;
const size_t kAt[] = {0, 1, 2, 3, 4, 5, 4095, 4096, 4097, 8191, 8192, 12345, 65535};

int main() {
  int wrong = 0;
  // pi from 2^20 points.
  {
    const int pairs = 1 << 20;
    float* xy = nullptr;
    unsigned* inside = nullptr;
    cudaMalloc(&xy, 2 * pairs * sizeof(float));
    cudaMalloc(&inside, sizeof(unsigned));
    cudaMemset(inside, 0, sizeof(unsigned));
    curandGenerator_t g;
    curandCreateGenerator(&g, CURAND_RNG_PSEUDO_DEFAULT);
    curandSetPseudoRandomGeneratorSeed(g, 2026);
    curandGenerateUniform(g, xy, 2 * pairs);
    count_inside<<<(pairs + 255) / 256, 256>>>(xy, pairs, inside);
    unsigned hits = 0;
    cudaMemcpy(&hits, inside, sizeof hits, cudaMemcpyDeviceToHost);
    const double pi = 4.0 * hits / pairs;
    std::printf("pi from 2^20 points: %.5f (%u inside)\n", pi, hits);
    wrong += std::fabs(pi - 3.14159) > 0.01;
    curandDestroyGenerator(g);
    cudaFree(xy);
    cudaFree(inside);
  }
  unsigned* d_u = nullptr;
  float* d_f = nullptr;
  double* d_d = nullptr;
  cudaMalloc(&d_u, kCount * sizeof(unsigned));
  cudaMalloc(&d_f, kCount * sizeof(float));
  cudaMalloc(&d_d, kCount * sizeof(double));
  std::vector<unsigned> u(kCount), again(kCount);
  std::vector<float> f(kCount);
  std::vector<double> d(kCount);
  const curandRngType_t types[] = {CURAND_RNG_PSEUDO_XORWOW, CURAND_RNG_PSEUDO_MRG32K3A,
                                   CURAND_RNG_PSEUDO_PHILOX4_32_10};
  const char* const names[] = {"xorwow", "mrg32k3a", "philox"};
  for (int t = 0; t < 3; ++t) {
    for (int kind = 0; kind < 5; ++kind) {
      curandGenerator_t g;
      curandCreateGenerator(&g, types[t]);
      curandSetPseudoRandomGeneratorSeed(g, 1234);
      const char* what = "";
      if (kind == 0) {
        what = "bits";
        curandGenerate(g, d_u, kCount);
        cudaMemcpy(u.data(), d_u, kCount * sizeof(unsigned), cudaMemcpyDeviceToHost);
      } else if (kind == 1) {
        what = "uniform";
        curandGenerateUniform(g, d_f, kCount);
        cudaMemcpy(f.data(), d_f, kCount * sizeof(float), cudaMemcpyDeviceToHost);
      } else if (kind == 2) {
        what = "normal";
        curandGenerateNormal(g, d_f, kCount, 1.0f, 2.0f);
        cudaMemcpy(f.data(), d_f, kCount * sizeof(float), cudaMemcpyDeviceToHost);
      } else if (kind == 3) {
        what = "uniform-double";
        curandGenerateUniformDouble(g, d_d, kCount);
        cudaMemcpy(d.data(), d_d, kCount * sizeof(double), cudaMemcpyDeviceToHost);
      } else {
        what = "normal-double";
        curandGenerateNormalDouble(g, d_d, kCount, -1.0, 0.5);
        cudaMemcpy(d.data(), d_d, kCount * sizeof(double), cudaMemcpyDeviceToHost);
      }
      // Integers and uniforms are compared bit for bit, normals within a tolerance.
      std::printf("%s %s %s:", kind == 2 || kind == 4 ? "normal" : "value", names[t], what);
      for (size_t i : kAt) {
        if (kind == 0) std::printf(" %08x", u[i]);
        if (kind == 1 || kind == 2) std::printf(" %.9g", f[i]);
        if (kind >= 3) std::printf(" %.17g", d[i]);
      }
      std::printf("\n");
      // The distribution's mean and standard deviation over all kCount values.
      double sum = 0, squares = 0;
      bool in_range = true;
      for (size_t i = 0; i < kCount; ++i) {
        const double x = kind == 0 ? u[i] / 4294967296.0 : kind <= 2 ? f[i] : d[i];
        sum += x;
        squares += x * x;
        if ((kind == 1 || kind == 3) && !(x > 0.0 && x <= 1.0)) in_range = false;
      }
      const double mean = sum / kCount, sd = std::sqrt(squares / kCount - mean * mean);
      const double want_mean = kind == 2 ? 1.0 : kind == 4 ? -1.0 : 0.5;
      const double want_sd = kind == 2 ? 2.0 : kind == 4 ? 0.5 : std::sqrt(1.0 / 12.0);
      const bool ok = in_range && std::fabs(mean - want_mean) < 0.02 * want_sd * 4 &&
                      std::fabs(sd - want_sd) < 0.02 * want_sd;
      std::printf("stats %s %s: mean %.3f sd %.3f: %s\n", names[t], what, mean, sd, ok ? "OK" : "WRONG");
      wrong += !ok;
      curandDestroyGenerator(g);
    }
    // Log-normal: exp of N(0, 0.5), its median 1 (half the values below).
    {
      curandGenerator_t g;
      curandCreateGenerator(&g, types[t]);
      curandGenerateLogNormal(g, d_f, kCount, 0.0f, 0.5f);
      cudaMemcpy(f.data(), d_f, kCount * sizeof(float), cudaMemcpyDeviceToHost);
      size_t below = 0;
      bool positive = true;
      for (size_t i = 0; i < kCount; ++i) {
        below += f[i] < 1.0f;
        positive = positive && f[i] > 0.0f;
      }
      const bool ok = positive && below > kCount / 2 - kCount / 50 && below < kCount / 2 + kCount / 50;
      std::printf("stats %s log-normal: %zu of %zu below 1: %s\n", names[t], below, kCount, ok ? "OK" : "WRONG");
      wrong += !ok;
      curandDestroyGenerator(g);
    }
    // A second call of 1000 goes on from the first: the same as elements
    // 1000 ... 1999 of one call of 2000.
    curandGenerator_t g;
    curandCreateGenerator(&g, types[t]);
    curandSetPseudoRandomGeneratorSeed(g, 77);
    curandGenerate(g, d_u, 2000);
    cudaMemcpy(u.data(), d_u, 2000 * sizeof(unsigned), cudaMemcpyDeviceToHost);
    curandSetPseudoRandomGeneratorSeed(g, 77);
    curandGenerate(g, d_u, 1000);
    curandGenerate(g, d_u, 1000);
    cudaMemcpy(again.data(), d_u, 1000 * sizeof(unsigned), cudaMemcpyDeviceToHost);
    int differ = 0;
    for (int i = 0; i < 1000; ++i) differ += again[i] != u[1000 + i];
    // An offset of 300: elements 300 ... of a call from offset 0.
    curandSetPseudoRandomGeneratorSeed(g, 77);
    curandSetGeneratorOffset(g, 300);
    curandGenerate(g, d_u, 1000);
    cudaMemcpy(again.data(), d_u, 1000 * sizeof(unsigned), cudaMemcpyDeviceToHost);
    int differ_offset = 0;
    for (int i = 0; i < 1000; ++i) differ_offset += again[i] != u[300 + i];
    std::printf("law %s: a second call goes on (%d of 1000 differ), an offset of 300 skips 300 (%d differ)\n",
                names[t], differ, differ_offset);
    wrong += differ != 0 || differ_offset != 0;
    curandDestroyGenerator(g);
  }
  // What cuRAND refuses: an odd count of normals, a quasi-random generator's
  // seed, a null generator.
  curandGenerator_t g;
  curandCreateGenerator(&g, CURAND_RNG_PSEUDO_XORWOW);
  std::printf("status of 1001 normals: %d, of 1001 integers: %d, of a null generator: %d\n",
              curandGenerateNormal(g, d_f, 1001, 0.0f, 1.0f), curandGenerate(g, d_u, 1001),
              curandGenerate(nullptr, d_u, 16));
  curandDestroyGenerator(g);
  cudaFree(d_u);
  cudaFree(d_f);
  cudaFree(d_d);
  std::printf("curand host check: %s\n", wrong == 0 ? "OK" : "WRONG");
  return wrong == 0 ? 0 : 1;
}

// A half-precision GEMM on tensor cores (nvcuda::wmma, m16n16k16, float
// accumulators) through shared memory, twice: tiles with rows of 16 halves
// (32 bytes: load_matrix_sync's LDSM has 2-way conflicts, 8 wavefronts) and
// rows padded to 24 halves (48 bytes: 4 wavefronts, conflict-free). Each
// warp computes one 16x16 tile of C = A B; the result goes through shared
// memory (store_matrix_sync) before it is written out.
// Prints, per kernel, whether C matches the host's float product.
#include <mma.h>

#include <cmath>
#include <cstdio>
#include <vector>

using namespace nvcuda;

constexpr int kM = 64, kN = 64, kK = 64;  // C is kM x kN; 16 warps, one tile each
constexpr int kWarps = 4;                  // warps per block: one row of tiles

template <int kLd>
__global__ void wmma_gemm(float* c, const half* a, const half* b) {
  __shared__ __align__(32) half a_tile[kWarps][16 * kLd];
  __shared__ __align__(32) half b_tile[kWarps][16 * kLd];
  __shared__ __align__(32) float c_tile[kWarps][16 * 16];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int tile_row = blockIdx.x, tile_col = warp;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  for (int k0 = 0; k0 < kK; k0 += 16) {
    // A's 16x16 block (rows of the tile, columns k0..k0+15) and B's, row by row.
    for (int i = lane; i < 256; i += 32) {
      const int r = i / 16, col = i % 16;
      a_tile[warp][r * kLd + col] = a[(tile_row * 16 + r) * kK + k0 + col];
      b_tile[warp][r * kLd + col] = b[(k0 + r) * kN + tile_col * 16 + col];
    }
    __syncwarp();
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
    wmma::load_matrix_sync(fa, a_tile[warp], kLd);
    wmma::load_matrix_sync(fb, b_tile[warp], kLd);
    wmma::mma_sync(acc, fa, fb, acc);
    __syncwarp();
  }
  wmma::store_matrix_sync(c_tile[warp], acc, 16, wmma::mem_row_major);
  __syncwarp();
  for (int i = lane; i < 256; i += 32) {
    c[(tile_row * 16 + i / 16) * kN + tile_col * 16 + i % 16] = c_tile[warp][i];
  }
}

int main() {
  std::vector<half> a(kM * kK), b(kK * kN);
  std::vector<float> want(kM * kN, 0.0f);
  for (int i = 0; i < kM * kK; ++i) a[i] = __float2half(static_cast<float>((i * 7) % 11 - 5) / 4);
  for (int i = 0; i < kK * kN; ++i) b[i] = __float2half(static_cast<float>((i * 5) % 13 - 6) / 8);
  for (int m = 0; m < kM; ++m)
    for (int n = 0; n < kN; ++n)
      for (int k = 0; k < kK; ++k) want[m * kN + n] += __half2float(a[m * kK + k]) * __half2float(b[k * kN + n]);
  half *da, *db;
  float* dc;
  cudaMalloc(&da, a.size() * sizeof(half));
  cudaMalloc(&db, b.size() * sizeof(half));
  cudaMalloc(&dc, want.size() * sizeof(float));
  cudaMemcpy(da, a.data(), a.size() * sizeof(half), cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), b.size() * sizeof(half), cudaMemcpyHostToDevice);
  int wrong_kernels = 0;
  for (int padded = 0; padded < 2; ++padded) {
    cudaMemset(dc, 0xff, want.size() * sizeof(float));
    if (padded) {
      wmma_gemm<24><<<kM / 16, 32 * kWarps>>>(dc, da, db);
    } else {
      wmma_gemm<16><<<kM / 16, 32 * kWarps>>>(dc, da, db);
    }
    std::vector<float> got(want.size());
    cudaMemcpy(got.data(), dc, got.size() * sizeof(float), cudaMemcpyDeviceToHost);
    int wrong = 0;
    // The inputs are multiples of 1/32 with small numerators: every product and sum is exact in float.
    for (std::size_t i = 0; i < got.size(); ++i) wrong += got[i] != want[i];
    std::printf("%s tiles: %s (%d of %d elements wrong)\n", padded ? "padded" : "unpadded", wrong ? "WRONG" : "OK",
                wrong, static_cast<int>(got.size()));
    wrong_kernels += wrong != 0;
  }
  std::printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return wrong_kernels;
}

// <mma.h>'s warp matrix functions (nvcuda::wmma) for the CPU emulator: the
// m16n16k16 shape with `half` inputs and `float` or `half` accumulators.
//
// Each lane holds the elements of its fragment that the mma.sync m16n8k16
// layouts give it (two of them side by side make the 16x16 tile): lane l,
// g = l / 4, t = l % 4, holds rows g and g + 8 of A and C, columns g and g + 8
// of B, at k (or column) 2t, 2t + 1, 2t + 8, 2t + 9; `x[8..15]` of an A or B
// fragment repeat `x[0..7]` (CUDA gives them 16 elements). Code that treats a
// fragment's elements alike (fill, scale) gets CUDA's results; which lane
// holds which element is not CUDA's promise, here as on a GPU.
//
// mma_sync computes every product in float (a tensor core's sums may round
// in another order). What is priced (src/wmma.cpp):
// - load_matrix_sync of A and B from shared memory: as the one `LDSM.16.M88.4`
//   nvcc makes for it on sm_90: lane l gives the 16-byte row of the tile's
//   8x8 matrix l / 8 (rows l % 8 + 8 (j % 2), the half j / 2 of each row), in
//   quarter-warp groups. Measured on an H100 with Nsight Compute for
//   ldm 16, 24, 32, 40 and 64 (tests/data/gpu/probes/h100_wmma/): 8, 4, 16,
//   4 and 32 wavefronts, the same for A and B and both layouts.
// - load and store of accumulators: each lane's pairs of elements in a row
//   (8 bytes for float, 4 for half) where the layout is row major, each
//   element alone where it is column major, as nvcc's LDS.64/STS.64 and
//   LDS/STS. Measured for float on an H100: row major ldm 16, 20, 24, 32
//   load and store 16, 16, 8, 32 wavefronts; column major stores 32, 8, 16,
//   32; the emulator gives the same.
#pragma once

#include <cstddef>
#include <type_traits>

#include "banklab/cuda_fp16.hpp"
#include "banklab/cuda_types.hpp"

namespace banklab::wmma_detail {
enum Kind : int { kMatrixA = 0, kMatrixB = 1, kAccumulator = 2 };
// Each lane's part of a fragment, loaded from `p` (its priced accesses made
// as nvcc's code makes them) or stored to it; `x` is the lane's elements.
void load(void* x, int kind, int element_bytes, const void* p, unsigned ldm, bool col_major);
void store(void* p, const void* x, int element_bytes, unsigned ldm, bool col_major);
// d = a b + c over the warp (a warp collective): each lane's own elements of d.
void mma(void* d, int d_bytes, const void* a, const void* b, const void* c, int c_bytes, bool satf);
}  // namespace banklab::wmma_detail

namespace nvcuda::wmma {

struct matrix_a {};
struct matrix_b {};
struct accumulator {};
struct row_major {};
struct col_major {};
enum layout_t { mem_row_major, mem_col_major };

template <class T, int N>
struct __frag_base {
  enum { num_elements = N };
  using element_type = T;
  T x[N];
};

template <class Use, int M, int N, int K, class T, class Layout = void>
class fragment {
  static_assert(M == 16 && N == 16 && K == 16,
                "the BankLab CPU emulator's <mma.h> has the m16n16k16 shape only (half inputs, float or half "
                "accumulators)");
};
template <class Layout>
class fragment<matrix_a, 16, 16, 16, half, Layout> : public __frag_base<half, 16> {
  static_assert(!std::is_void_v<Layout>, "a matrix_a fragment needs its layout (row_major or col_major)");
};
template <class Layout>
class fragment<matrix_b, 16, 16, 16, half, Layout> : public __frag_base<half, 16> {
  static_assert(!std::is_void_v<Layout>, "a matrix_b fragment needs its layout (row_major or col_major)");
};
template <>
class fragment<accumulator, 16, 16, 16, float> : public __frag_base<float, 8> {};
template <>
class fragment<accumulator, 16, 16, 16, half> : public __frag_base<half, 8> {};

template <class Use, int M, int N, int K, class T, class Layout, class V>
inline void fill_fragment(fragment<Use, M, N, K, T, Layout>& f, const V& value) {
  const T v = static_cast<T>(value);
  for (int i = 0; i < f.num_elements; ++i) f.x[i] = v;
}

template <class Layout>
inline void load_matrix_sync(fragment<matrix_a, 16, 16, 16, half, Layout>& a, const half* p, unsigned ldm) {
  banklab::wmma_detail::load(a.x, banklab::wmma_detail::kMatrixA, 2, p, ldm, std::is_same_v<Layout, col_major>);
  for (int i = 0; i < 8; ++i) a.x[i + 8] = a.x[i];
}
template <class Layout>
inline void load_matrix_sync(fragment<matrix_b, 16, 16, 16, half, Layout>& b, const half* p, unsigned ldm) {
  banklab::wmma_detail::load(b.x, banklab::wmma_detail::kMatrixB, 2, p, ldm, std::is_same_v<Layout, col_major>);
  for (int i = 0; i < 8; ++i) b.x[i + 8] = b.x[i];
}
template <class T>
inline void load_matrix_sync(fragment<accumulator, 16, 16, 16, T>& c, const T* p, unsigned ldm, layout_t layout) {
  banklab::wmma_detail::load(c.x, banklab::wmma_detail::kAccumulator, sizeof(T), p, ldm, layout == mem_col_major);
}
template <class T>
inline void store_matrix_sync(T* p, const fragment<accumulator, 16, 16, 16, T>& c, unsigned ldm, layout_t layout) {
  banklab::wmma_detail::store(p, c.x, sizeof(T), ldm, layout == mem_col_major);
}
template <class TD, class LA, class LB, class TC>
inline void mma_sync(fragment<accumulator, 16, 16, 16, TD>& d, const fragment<matrix_a, 16, 16, 16, half, LA>& a,
                     const fragment<matrix_b, 16, 16, 16, half, LB>& b,
                     const fragment<accumulator, 16, 16, 16, TC>& c, bool satf = false) {
  TD result[8];
  banklab::wmma_detail::mma(result, sizeof(TD), a.x, b.x, c.x, sizeof(TC), satf);
  for (int i = 0; i < 8; ++i) d.x[i] = result[i];
}

}  // namespace nvcuda::wmma

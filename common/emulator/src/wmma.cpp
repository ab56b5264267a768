// nvcuda::wmma for the CPU emulator (include/banklab/cuda_wmma.hpp): each
// lane's elements, its priced accesses, and mma_sync's exchange over the warp.
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "banklab/cuda_wmma.hpp"
#include "runtime.hpp"

#define BANKLAB_PC reinterpret_cast<std::uintptr_t>(__builtin_return_address(0))

namespace banklab::wmma_detail {

namespace {

using banklab::emu::detail::rt;
using banklab::emu::detail::unsupported;

constexpr int kSlotBytes = 64;

struct Place {
  int row, col;
};

// Where element i (0..7) of lane `lane`'s fragment lies in the 16x16 tile:
// the mma.sync m16n8k16 layouts, two of them side by side.
Place place(int kind, int lane, int i) {
  const int g = lane / 4, t = lane % 4, pair = i / 2, e = i % 2;
  if (kind == kMatrixB) return {2 * t + e + 8 * (pair % 2), g + 8 * (pair / 2)};  // (k, n)
  return {g + 8 * (pair % 2), 2 * t + e + 8 * (pair / 2)};                          // A: (m, k); C: (m, n)
}

// The element offset of (row, col) in memory of leading dimension ldm.
std::size_t offset(Place at, unsigned ldm, bool col_major) {
  return col_major ? static_cast<std::size_t>(at.col) * ldm + at.row : static_cast<std::size_t>(at.row) * ldm + at.col;
}

float to_float(const void* x, int bytes, int i) {
  if (bytes == 4) return static_cast<const float*>(x)[i];
  return static_cast<float>(static_cast<const half*>(x)[i]);
}
void from_float(void* x, int bytes, int i, float v) {
  if (bytes == 4) {
    static_cast<float*>(x)[i] = v;
  } else {
    static_cast<half*>(x)[i] = half(v);
  }
}

int lane_or_stop() {
  const auto* self = rt().current;
  if (self == nullptr) unsupported("nvcuda::wmma outside a kernel");
  return self->lane;
}

void check_pointer(const void* p, unsigned ldm, int element_bytes) {
  // CUDA: a 256-bit aligned pointer, ldm a multiple of 16 bytes.
  if (reinterpret_cast<std::uintptr_t>(p) % 32 != 0)
    unsupported("wmma::load_matrix_sync or store_matrix_sync with a pointer not aligned to 32 bytes (CUDA asks for "
                "a 256-bit aligned pointer)");
  if (ldm * static_cast<unsigned>(element_bytes) % 16 != 0)
    unsupported("wmma::load_matrix_sync or store_matrix_sync with ldm not a multiple of 16 bytes (CUDA asks for a "
                "multiple of 8 half or 4 float elements)");
}

}  // namespace

void load(void* x, int kind, int element_bytes, const void* p, unsigned ldm, bool col_major) {
  const std::uintptr_t pc = BANKLAB_PC;
  const int lane = lane_or_stop();
  check_pointer(p, ldm, element_bytes);
  const auto* bytes = static_cast<const unsigned char*>(p);
  if (kind == kAccumulator) {
    // Pairs in a row together where the layout is row major, else each alone.
    for (int pair = 0; pair < 4; ++pair) {
      const std::size_t first = offset(place(kind, lane, 2 * pair), ldm, col_major);
      if (!col_major) {
        banklab::emu::detail::on_access(bytes + first * element_bytes, 2 * element_bytes, false, pc);
      } else {
        for (int e = 0; e < 2; ++e) {
          const std::size_t at = offset(place(kind, lane, 2 * pair + e), ldm, col_major);
          banklab::emu::detail::on_access(bytes + at * element_bytes, element_bytes, false, pc);
        }
      }
    }
  } else {
    // LDSM.16.M88.4: lane l gives the 16-byte row l % 8 of the tile's 8x8 matrix l / 8.
    const int j = lane / 8, line = lane % 8 + 8 * (j % 2), half_row = j / 2;
    banklab::emu::detail::on_access(bytes + (static_cast<std::size_t>(line) * ldm + 8 * half_row) * 2, 16, false, pc);
  }
  for (int i = 0; i < 8; ++i) {
    const std::size_t at = offset(place(kind, lane, i), ldm, col_major);
    std::memcpy(static_cast<unsigned char*>(x) + i * element_bytes, bytes + at * element_bytes,
                static_cast<std::size_t>(element_bytes));
  }
}

void store(void* p, const void* x, int element_bytes, unsigned ldm, bool col_major) {
  const std::uintptr_t pc = BANKLAB_PC;
  const int lane = lane_or_stop();
  check_pointer(p, ldm, element_bytes);
  auto* bytes = static_cast<unsigned char*>(p);
  for (int pair = 0; pair < 4; ++pair) {
    if (!col_major) {
      const std::size_t first = offset(place(kAccumulator, lane, 2 * pair), ldm, false);
      banklab::emu::detail::on_access(bytes + first * element_bytes, 2 * element_bytes, true, pc);
    } else {
      for (int e = 0; e < 2; ++e) {
        const std::size_t at = offset(place(kAccumulator, lane, 2 * pair + e), ldm, true);
        banklab::emu::detail::on_access(bytes + at * element_bytes, element_bytes, true, pc);
      }
    }
  }
  for (int i = 0; i < 8; ++i) {
    const std::size_t at = offset(place(kAccumulator, lane, i), ldm, col_major);
    std::memcpy(bytes + at * element_bytes, static_cast<const unsigned char*>(x) + i * element_bytes,
                static_cast<std::size_t>(element_bytes));
  }
}

void mma(void* d, int d_bytes, const void* a, const void* b, const void* c, int c_bytes, bool satf) {
  const std::uintptr_t pc = BANKLAB_PC;
  const int lane = lane_or_stop();
  auto& r = rt();
  const int warp = r.current->warp;
  const std::size_t warp_bytes = static_cast<std::size_t>(kWarpSize) * kSlotBytes;
  if (r.warp_exchange.size() < (static_cast<std::size_t>(warp) + 1) * warp_bytes)
    r.warp_exchange.resize((static_cast<std::size_t>(warp) + 1) * warp_bytes);
  unsigned char* slot = r.warp_exchange.data() + static_cast<std::size_t>(warp) * warp_bytes + lane * kSlotBytes;
  std::memcpy(slot, a, 16);
  std::memcpy(slot + 16, b, 16);
  std::memcpy(slot + 32, c, static_cast<std::size_t>(8 * c_bytes));
  const auto& state = r.warps[static_cast<std::size_t>(warp)];
  const unsigned lanes = state.present & ~state.exited;
  banklab::emu::detail::warp_collective(lanes, 0, -1, pc);
  // Every lane's slot written: the whole tiles.
  float ta[16][16] = {}, tb[16][16] = {}, tc[16][16] = {};
  const unsigned char* all = r.warp_exchange.data() + static_cast<std::size_t>(warp) * warp_bytes;
  for (int l = 0; l < kWarpSize; ++l) {
    const unsigned char* s = all + l * kSlotBytes;
    for (int i = 0; i < 8; ++i) {
      const Place pa = place(kMatrixA, l, i), pb = place(kMatrixB, l, i), pcc = place(kAccumulator, l, i);
      ta[pa.row][pa.col] = to_float(s, 2, i);
      tb[pb.row][pb.col] = to_float(s + 16, 2, i);
      tc[pcc.row][pcc.col] = to_float(s + 32, c_bytes, i);
    }
  }
  banklab::emu::detail::warp_collective(lanes, 0, -1, pc);  // read by all before any lane writes its slot again
  for (int i = 0; i < 8; ++i) {
    const Place at = place(kAccumulator, lane, i);
    float sum = tc[at.row][at.col];
    for (int k = 0; k < 16; ++k) sum += ta[at.row][k] * tb[k][at.col];
    if (satf) {
      const float most = d_bytes == 4 ? FLT_MAX : 65504.0f;
      sum = std::isnan(sum) ? 0.0f : std::clamp(sum, -most, most);
    }
    from_float(d, d_bytes, i, sum);
  }
}

}  // namespace banklab::wmma_detail

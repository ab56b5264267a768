// The results of the device functions the emulator provides, on inputs that
// reach their edges, as lines "name: values" (hex), one warp or block per
// group: shuffles of every kind and width (sources out of range and negative,
// partial masks), votes and __activemask after lanes exited, matches,
// reductions, block votes, atomics on every type (wraps of atomicInc and
// atomicDec, a CAS loop), integer intrinsics, exactly rounded float and
// double intrinsics and conversions (ties, out of range, NaN), and half
// arithmetic. Only results CUDA defines: no fast-math approximations, no
// values of inactive lanes, no order that depends on scheduling.
// tests/data/gpu/h200_semantics/ holds this program's output on an H200; the
// emulator must print the same, line for line (test_banklab_edges).
//   banklab run semantics.cu
#include <cuda_fp16.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

using u64 = unsigned long long;

constexpr int kSlots = 4096;  // results of one group, at most
__device__ u64 g_out[kSlots];

// ---- shuffles: one warp, all lanes; 32 results per line ---------------------
__global__ void shuffles() {
  const int lane = threadIdx.x;
  const int value = 1000 + lane * 7;
  int slot = 0;
  for (int w = 2; w <= 32; w *= 2) {
    g_out[slot++ * 32 + lane] = static_cast<unsigned>(__shfl_sync(0xffffffffu, value, lane * 5 + 3, w));
    g_out[slot++ * 32 + lane] = static_cast<unsigned>(__shfl_sync(0xffffffffu, value, -1, w));
    g_out[slot++ * 32 + lane] = static_cast<unsigned>(__shfl_sync(0xffffffffu, value, 33, w));
    g_out[slot++ * 32 + lane] = static_cast<unsigned>(__shfl_up_sync(0xffffffffu, value, 1, w));
    g_out[slot++ * 32 + lane] = static_cast<unsigned>(__shfl_up_sync(0xffffffffu, value, 3, w));
    g_out[slot++ * 32 + lane] = static_cast<unsigned>(__shfl_down_sync(0xffffffffu, value, 1, w));
    g_out[slot++ * 32 + lane] = static_cast<unsigned>(__shfl_down_sync(0xffffffffu, value, 5, w));
    g_out[slot++ * 32 + lane] = static_cast<unsigned>(__shfl_xor_sync(0xffffffffu, value, 1, w));
    g_out[slot++ * 32 + lane] = static_cast<unsigned>(__shfl_xor_sync(0xffffffffu, value, 5, w));
    g_out[slot++ * 32 + lane] = static_cast<unsigned>(__shfl_xor_sync(0xffffffffu, value, 17, w));
  }
  // 8-byte values, and a partial mask (the odd lanes, reading odd lanes).
  const u64 wide = 0x100000000ull * (lane + 1) + static_cast<unsigned>(value);
  g_out[slot++ * 32 + lane] = __shfl_sync(0xffffffffu, wide, 31 - lane);
  g_out[slot++ * 32 + lane] = __shfl_xor_sync(0xffffffffu, 1.5 * lane, 3) == 1.5 * (lane ^ 3);
  if (lane & 1) {
    g_out[slot * 32 + lane] = static_cast<unsigned>(__shfl_xor_sync(0xaaaaaaaau, value, 2));
  } else {
    g_out[slot * 32 + lane] = 0;
  }
}
constexpr int kShuffleLines = 5 * 10 + 3;
const char* const kShuffleNames[] = {"shfl idx lane*5+3", "shfl idx -1", "shfl idx 33", "shfl_up 1", "shfl_up 3",
                                     "shfl_down 1", "shfl_down 5", "shfl_xor 1", "shfl_xor 5", "shfl_xor 17"};

// ---- votes, matches, reductions: one warp; lanes 20-31 exit for some --------
__global__ void votes() {
  const unsigned lane = threadIdx.x;
  const unsigned full = 0xffffffffu;
  if (lane == 0) {
    g_out[0] = __ballot_sync(1u, lane % 3 == 0);  // the mask names the lanes that take part
  }
  const unsigned ballot = __ballot_sync(full, lane % 3 == 0);
  const int any = __any_sync(full, lane == 31);
  const int all = __all_sync(full, lane != 5);
  const int all_true = __all_sync(full, lane < 32);
  const unsigned match_any = __match_any_sync(full, (lane / 4) % 3);
  int pred_same = 0, pred_differ = 0;
  const unsigned match_all_same = __match_all_sync(full, 7u, &pred_same);
  const unsigned match_all_differ = __match_all_sync(full, lane / 16, &pred_differ);
  const unsigned long long key = (lane % 5) * 0x100000001ull;
  const unsigned match_any64 = __match_any_sync(full, key);
  const unsigned add = __reduce_add_sync(full, lane * 3u);
  const int smin = __reduce_min_sync(full, static_cast<int>(lane) - 16);
  const int smax = __reduce_max_sync(full, static_cast<int>(lane) - 16);
  const unsigned umin_ = __reduce_min_sync(full, 0xfffffff0u + lane);
  const unsigned umax_ = __reduce_max_sync(full, lane * 0x01010101u);
  const unsigned rand = __reduce_and_sync(full, 0xffffffffu - (1u << lane));
  const unsigned ror = __reduce_or_sync(full, 1u << ((lane * 7) % 32));
  const unsigned rxor = __reduce_xor_sync(full, lane * 0x9e3779b9u);
  g_out[1 * 32 + lane] = ballot;
  g_out[2 * 32 + lane] = static_cast<unsigned>(any);
  g_out[3 * 32 + lane] = static_cast<unsigned>(all);
  g_out[4 * 32 + lane] = static_cast<unsigned>(all_true);
  g_out[5 * 32 + lane] = match_any;
  g_out[6 * 32 + lane] = match_all_same * 2ull + static_cast<unsigned>(pred_same);
  g_out[7 * 32 + lane] = match_all_differ * 2ull + static_cast<unsigned>(pred_differ);
  g_out[8 * 32 + lane] = match_any64;
  g_out[9 * 32 + lane] = add;
  g_out[10 * 32 + lane] = static_cast<unsigned>(smin);
  g_out[11 * 32 + lane] = static_cast<unsigned>(smax);
  g_out[12 * 32 + lane] = umin_;
  g_out[13 * 32 + lane] = umax_;
  g_out[14 * 32 + lane] = rand;
  g_out[15 * 32 + lane] = ror;
  g_out[16 * 32 + lane] = rxor;
  // In a branch of lanes 0-19: a ballot over them, and the active mask.
  if (lane < 20) {
    g_out[17 * 32 + lane] = __ballot_sync(0x000fffffu, lane % 2);
  } else {
    g_out[17 * 32 + lane] = 0;
  }
  g_out[18 * 32 + lane] = 0;
  if (lane >= 20) return;  // lanes 20-31 exit
  __syncwarp(0x000fffffu);
  g_out[18 * 32 + lane] = __activemask();
}
constexpr int kVoteLines = 19;
const char* const kVoteNames[] = {"ballot lane%3==0 (lane 0 alone)", "ballot lane%3==0", "any lane==31",
                                  "all lane!=5", "all lane<32", "match_any (lane/4)%3",
                                  "match_all 7 (mask*2+pred)", "match_all lane/16 (mask*2+pred)",
                                  "match_any 64-bit", "reduce_add lane*3", "reduce_min lane-16",
                                  "reduce_max lane-16", "reduce_min unsigned", "reduce_max unsigned",
                                  "reduce_and", "reduce_or", "reduce_xor", "ballot in lanes 0-19",
                                  "activemask after lanes 20-31 exited"};

// ---- block votes and atomics: one block of 64 threads -----------------------
struct AtomicCells {
  int i[8];
  unsigned u[12];
  long long ll[2];
  u64 ull[6];
  float f[2];
  double d[1];
};

__global__ void atomics(AtomicCells* cells, u64* returns) {
  const int t = threadIdx.x;
  __shared__ int shared_sum;
  __shared__ unsigned shared_inc;
  if (t == 0) {
    shared_sum = 0;
    shared_inc = 0;
  }
  const int count = __syncthreads_count(t % 3 == 0);
  const int all = __syncthreads_and(t < 64);
  const int any = __syncthreads_or(t == 63);
  const int none = __syncthreads_or(0);
  if (t == 0) {
    returns[0] = static_cast<unsigned>(count);
    returns[1] = static_cast<unsigned>(all);
    returns[2] = static_cast<unsigned>(any);
    returns[3] = static_cast<unsigned>(none);
  }
  atomicAdd(&cells->i[0], t - 20);
  atomicSub(&cells->i[1], t * 3);
  atomicMax(&cells->i[2], t * 7 % 50 - 40);
  atomicMin(&cells->i[3], 10 - t * 3);
  atomicAnd(&cells->i[4], ~(1 << (t % 31)));
  atomicOr(&cells->i[5], 1 << (t % 29));
  atomicXor(&cells->i[6], t * 0x01010101);
  atomicAdd(&cells->u[0], 0xffffffffu);  // wraps below 0
  atomicSub(&cells->u[1], 7u);
  atomicMax(&cells->u[2], 0xfffffff0u + t % 16);
  atomicMin(&cells->u[3], 1000u + t);
  atomicAnd(&cells->u[4], 0xffffffffu ^ (1u << (t % 32)));
  atomicOr(&cells->u[5], 1u << (t % 32));
  atomicXor(&cells->u[6], 0x80000001u * static_cast<unsigned>(t));
  // atomicInc and atomicDec wrap at their limit: the values returned are the
  // sequence in some order, so their sum is defined.
  returns[4 + t] = atomicInc(&cells->u[7], 9u);
  returns[68 + t] = atomicDec(&cells->u[8], 9u);
  if (t == 0) {
    returns[132] = atomicInc(&cells->u[9], 9u);   // starts above the limit
    returns[133] = atomicDec(&cells->u[10], 9u);  // starts above the limit
    returns[134] = atomicExch(&cells->u[11], 77u);
    returns[135] = atomicCAS(&cells->i[7], 5, 9);   // does not match
  }
  atomicMax(&cells->ll[0], -1000000000000ll + t);
  atomicMin(&cells->ll[1], 1000000000000ll - t);
  atomicAdd(&cells->ull[0], 0xffffffffull + t);
  atomicMax(&cells->ull[1], 0xffffffff00000000ull + t);
  atomicMin(&cells->ull[2], 0x100000000ull + 64 - t);
  atomicAnd(&cells->ull[3], ~(1ull << (t % 64)) | 1ull);
  atomicOr(&cells->ull[4], 1ull << t);
  // A CAS loop: multiply by 3, exactly, whatever the order.
  u64 seen = cells->ull[5], assumed;
  do {
    assumed = seen;
    seen = atomicCAS(&cells->ull[5], assumed, assumed * 3);
  } while (seen != assumed);
  atomicAdd(&cells->f[0], 0.25f * static_cast<float>(t));  // sums exact in float
  atomicExch(&cells->f[1], 2.5f);
  atomicAdd(&cells->d[0], 0.125 * t);
  atomicAdd(&shared_sum, t);
  atomicInc(&shared_inc, 5u);
  __syncthreads();
  if (t == 0) {
    returns[136] = static_cast<unsigned>(shared_sum);
    returns[137] = shared_inc;
  }
}

// ---- integer, float, double and half functions: one thread per input --------
constexpr int kInputs = 16;
__constant__ unsigned c_u[kInputs] = {0u,          1u,          2u,          3u,         0x80000000u, 0xffffffffu,
                                      0x7fffffffu, 0x12345678u, 0xdeadbeefu, 0x00ff00ffu, 255u,        256u,
                                      0x00800000u, 0xff800000u, 1000000u,    0x55555555u};
// Floats as their bits (a decimal literal may round either way where it is
// halfway): 0, -0, 0.5, 1.5, 2.5, -2.5, -0.5, 1e10, -3e9, 3e9, 1/3, 2^24 + 2,
// a subnormal, 65520 (past half's range), 2^-24 (half's least), -7.75.
__constant__ unsigned c_fbits[kInputs] = {
    0x00000000u, 0x80000000u, 0x3f000000u, 0x3fc00000u, 0x40200000u, 0xc0200000u, 0xbf000000u,
    0x501502f9u, 0xcf32d05eu, 0x4f32d05eu, 0x3eaaaaabu, 0x4b800001u, 0x000116c2u, 0x477ff000u, 0x33800000u, 0xc0f80000u};

__global__ void functions(u64* out) {
  const int k = threadIdx.x;
  const unsigned x = c_u[k], y = c_u[(k * 7 + 3) % kInputs];
  const int xi = static_cast<int>(x), yi = static_cast<int>(y);
  const u64 xl = (static_cast<u64>(x) << 32) | y;
  const float f = __uint_as_float(c_fbits[k]), g = __uint_as_float(c_fbits[(k * 5 + 1) % kInputs]);
  const float nan = __int_as_float(0x7fc00000);
  int slot = 0;
  auto put = [&](u64 v) { out[slot++ * kInputs + k] = v; };
  put(static_cast<unsigned>(__popc(x)));
  put(static_cast<unsigned>(__clz(xi)));
  put(static_cast<unsigned>(__ffs(xi)));
  put(__brev(x));
  put(__byte_perm(x, y, 0x3210u + k * 0x1111u));
  put(__byte_perm(x, y, 0x8000u | k));  // sign-replicate mode
  put(__funnelshift_l(x, y, k * 3));
  put(__funnelshift_r(x, y, k * 3));
  put(__funnelshift_lc(x, y, k * 3));
  put(__funnelshift_rc(x, y, k * 3));
  put(static_cast<unsigned>(__mulhi(xi, yi)));
  put(__umulhi(x, y));
  put(static_cast<unsigned>(__mul24(xi, yi)));
  put(__umul24(x, y));
  put(__sad(xi, yi, 5u));
  put(__usad(x, y, 5u));
  put(static_cast<unsigned>(__hadd(xi, yi)));
  put(static_cast<unsigned>(__rhadd(xi, yi)));
  put(__uhadd(x, y));
  put(__urhadd(x, y));
  put(static_cast<unsigned>(__popcll(xl)));
  put(static_cast<unsigned>(__clzll(static_cast<long long>(xl))));
  put(static_cast<unsigned>(__ffsll(static_cast<long long>(xl))));
  put(__brevll(xl));
  put(static_cast<u64>(__mul64hi(static_cast<long long>(xl), -3ll)));
  put(__umul64hi(xl, 0x9e3779b97f4a7c15ull));
  put(umin(x, y));
  put(static_cast<unsigned>(min(xi, yi)));
  put(static_cast<unsigned>(max(xi, yi)));
  // Float: exactly rounded operations and conversions (ties, range, NaN).
  put(__float_as_uint(__fadd_rn(f, g)));
  put(__float_as_uint(__fsub_rn(f, g)));
  put(__float_as_uint(__fmul_rn(f, g)));
  put(__float_as_uint(__fmaf_rn(f, g, 1.0f)));
  put(__float_as_uint(__fdiv_rn(f, g)));
  put(__float_as_uint(__frcp_rn(f)));
  put(__float_as_uint(__fsqrt_rn(f)));
  put(__float_as_uint(__saturatef(f)));
  put(__float_as_uint(__saturatef(k == 0 ? nan : f)));
  put(static_cast<unsigned>(__float2int_rn(f)));
  put(static_cast<unsigned>(__float2int_rz(f)));
  put(static_cast<unsigned>(__float2int_rd(f)));
  put(static_cast<unsigned>(__float2int_ru(f)));
  put(static_cast<unsigned>(__float2int_rn(k == 0 ? nan : f)));
  put(__float2uint_rn(f));
  put(__float2uint_rz(f));
  put(__float_as_uint(__int2float_rn(xi)));
  put(__float_as_uint(__uint2float_rn(x)));
  put(__float_as_uint(fminf(k == 3 ? nan : f, g)));
  put(__float_as_uint(fmaxf(f, k == 3 ? nan : g)));
  put(__float_as_uint(min(f, g)));
  // Double.
  const double d = static_cast<double>(f) * 3.0 + static_cast<double>(x);
  put(static_cast<u64>(__double_as_longlong(__dadd_rn(d, 0.1))));
  put(static_cast<u64>(__double_as_longlong(__dmul_rn(d, 1.0 / 3.0))));
  put(static_cast<u64>(__double_as_longlong(__fma_rn(d, d, -1.0))));
  put(__float_as_uint(__double2float_rn(d / 7.0)));
  put(static_cast<unsigned>(__double2int_rn(d / 2.0)));
  put(static_cast<unsigned>(__double2int_rz(d / 2.0)));
  put(static_cast<unsigned>(__double2hiint(d)));
  put(static_cast<unsigned>(__double2loint(d)));
  put(static_cast<u64>(__double_as_longlong(__int2double_rn(xi))));
  // Half: conversions (ties, subnormals, overflow) and arithmetic.
  const __half h = __float2half_rn(f), hg = __float2half_rn(g);
  put(__half_as_ushort(h));
  put(__float_as_uint(__half2float(h)));
  put(__half_as_ushort(__hadd(h, hg)));
  put(__half_as_ushort(__hsub(h, hg)));
  put(__half_as_ushort(__hmul(h, hg)));
  put(__half_as_ushort(__hdiv(h, hg)));
  put(__half_as_ushort(__hfma(h, hg, __float2half_rn(0.5f))));
  put(__half_as_ushort(__hadd_sat(h, hg)));
  put(__half_as_ushort(__hneg(h)));
  put(__half_as_ushort(__habs(h)));
  put(static_cast<unsigned>(__half2int_rn(h)));
  put(static_cast<unsigned>(__half2int_rz(h)));
  put(__half_as_ushort(__int2half_rn(xi)));
  put(__half_as_ushort(__uint2half_rn(x)));
  put(static_cast<unsigned>(__hlt(h, hg)) * 4u + static_cast<unsigned>(__heq(h, hg)) * 2u +
      static_cast<unsigned>(__hgt(h, hg)));
  put(__half_as_ushort(__double2half(d)));
}
const char* const kFunctionNames[] = {
    "__popc", "__clz", "__ffs", "__brev", "__byte_perm", "__byte_perm sign", "__funnelshift_l", "__funnelshift_r",
    "__funnelshift_lc", "__funnelshift_rc", "__mulhi", "__umulhi", "__mul24", "__umul24", "__sad", "__usad",
    "__hadd", "__rhadd", "__uhadd", "__urhadd", "__popcll", "__clzll", "__ffsll", "__brevll", "__mul64hi",
    "__umul64hi", "umin", "min int", "max int", "__fadd_rn", "__fsub_rn", "__fmul_rn", "__fmaf_rn", "__fdiv_rn",
    "__frcp_rn", "__fsqrt_rn", "__saturatef", "__saturatef NaN", "__float2int_rn", "__float2int_rz",
    "__float2int_rd", "__float2int_ru", "__float2int_rn NaN", "__float2uint_rn", "__float2uint_rz",
    "__int2float_rn", "__uint2float_rn", "fminf NaN", "fmaxf NaN", "min float", "__dadd_rn", "__dmul_rn",
    "__fma_rn", "__double2float_rn", "__double2int_rn", "__double2int_rz", "__double2hiint", "__double2loint",
    "__int2double_rn", "__float2half_rn", "__half2float", "__hadd (half)", "__hsub", "__hmul", "__hdiv", "__hfma",
    "__hadd_sat", "__hneg", "__habs", "__half2int_rn", "__half2int_rz", "__int2half_rn", "__uint2half_rn",
    "__hlt*4+__heq*2+__hgt", "__double2half"};
constexpr int kFunctionLines = sizeof kFunctionNames / sizeof kFunctionNames[0];

void print_line(const char* group, const char* name, const u64* values, int count) {
  std::printf("%s %s:", group, name);
  for (int i = 0; i < count; ++i) std::printf(" %llx", values[i]);
  std::printf("\n");
}

std::vector<u64> read_out(int count) {
  std::vector<u64> host(count);
  cudaMemcpyFromSymbol(host.data(), g_out, count * sizeof(u64));
  return host;
}

int main() {
  shuffles<<<1, 32>>>();
  std::vector<u64> host = read_out(kShuffleLines * 32);
  for (int w = 0; w < 5; ++w) {
    for (int i = 0; i < 10; ++i) {
      char name[64];
      std::snprintf(name, sizeof name, "%s width %d", kShuffleNames[i], 2 << w);
      print_line("shuffle", name, &host[(w * 10 + i) * 32], 32);
    }
  }
  print_line("shuffle", "8-byte idx 31-lane", &host[50 * 32], 32);
  print_line("shuffle", "double xor 3 equal", &host[51 * 32], 32);
  print_line("shuffle", "xor 2 in odd lanes (mask 0xaaaaaaaa)", &host[52 * 32], 32);

  votes<<<1, 32>>>();
  host = read_out(kVoteLines * 32);
  print_line("vote", kVoteNames[0], &host[0], 1);
  for (int i = 1; i < kVoteLines; ++i) print_line("vote", kVoteNames[i], &host[i * 32], 32);

  AtomicCells start{};
  start.i[2] = -100;
  start.i[3] = 0;
  start.i[4] = -1;
  start.i[7] = 4;
  start.u[0] = 5;
  start.u[1] = 100;
  start.u[3] = 0xffffffffu;
  start.u[4] = 0xffffffffu;
  start.u[8] = 3;
  start.u[9] = 100;
  start.u[10] = 100;
  start.u[11] = 11;
  start.ll[0] = -2000000000000ll;
  start.ll[1] = 2000000000000ll;
  start.ull[2] = ~0ull;
  start.ull[3] = ~0ull;
  start.ull[5] = 1;
  AtomicCells* cells = nullptr;
  u64* returns = nullptr;
  cudaMalloc(&cells, sizeof(AtomicCells));
  cudaMalloc(&returns, 138 * sizeof(u64));
  cudaMemcpy(cells, &start, sizeof start, cudaMemcpyHostToDevice);
  atomics<<<1, 64>>>(cells, returns);
  AtomicCells end{};
  u64 r[138];
  cudaMemcpy(&end, cells, sizeof end, cudaMemcpyDeviceToHost);
  cudaMemcpy(r, returns, sizeof r, cudaMemcpyDeviceToHost);
  print_line("block", "__syncthreads_count t%3==0, _and t<64, _or t==63, _or 0", r, 4);
  u64 v[16];
  for (int i = 0; i < 8; ++i) v[i] = static_cast<unsigned>(end.i[i]);
  print_line("atomic", "int add sub max min and or xor, cas unmatched", v, 8);
  for (int i = 0; i < 12; ++i) v[i] = end.u[i];
  print_line("atomic", "unsigned add sub max min and or xor inc dec inc>limit dec>limit exch", v, 12);
  u64 inc_sum = 0, dec_sum = 0;
  for (int t = 0; t < 64; ++t) {
    inc_sum += r[4 + t];
    dec_sum += r[68 + t];
  }
  v[0] = inc_sum;
  v[1] = dec_sum;
  v[2] = r[132];
  v[3] = r[133];
  v[4] = r[134];
  v[5] = r[135];
  print_line("atomic", "returned: inc sum, dec sum, inc>limit, dec>limit, exch, cas unmatched", v, 6);
  v[0] = static_cast<u64>(end.ll[0]);
  v[1] = static_cast<u64>(end.ll[1]);
  print_line("atomic", "long long max min", v, 2);
  print_line("atomic", "ull add max min and or cas*3", end.ull, 6);
  std::memcpy(&v[0], &end.f[0], 4);
  v[0] &= 0xffffffffull;
  std::memcpy(&v[1], &end.f[1], 4);
  v[1] &= 0xffffffffull;
  std::memcpy(&v[2], &end.d[0], 8);
  v[3] = r[136];
  v[4] = r[137];
  print_line("atomic", "float add exch, double add, shared int add, shared inc", v, 5);

  u64* out = nullptr;
  cudaMalloc(&out, kFunctionLines * kInputs * sizeof(u64));
  functions<<<1, kInputs>>>(out);
  std::vector<u64> f(kFunctionLines * kInputs);
  cudaMemcpy(f.data(), out, f.size() * sizeof(u64), cudaMemcpyDeviceToHost);
  for (int i = 0; i < kFunctionLines; ++i) print_line("function", kFunctionNames[i], &f[i * kInputs], kInputs);
  const cudaError_t error = cudaDeviceSynchronize();
  std::printf("status: %s\n", cudaGetErrorName(error));
  return error == cudaSuccess ? 0 : 1;
}

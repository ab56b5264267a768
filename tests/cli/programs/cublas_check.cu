// A shared-memory tiled SGEMM and a tiled transpose, each checked against
// cuBLAS as teaching programs check theirs, then cuBLAS's own rules that a
// program can see: column-major layout with leading dimensions, transposed
// operands, 1-based i*amax, device pointer mode, beta == 0 not reading C, a
// strided batch, and the argument checks that return INVALID_VALUE.
//   nvcc -O2 -arch=sm_90 -o cublas_check cublas_check.cu -lcublas && ./cublas_check
//   banklab run -lcublas cublas_check.cu
// Every line ends OK or WRONG; the exit status is the number of WRONG lines.
#include <cublas_v2.h>

#include <cmath>
#include <cstdio>
#include <vector>

#define TILE 16

// C (m x n) = A (m x k) B (k x n), all row-major: as cuBLAS sees them,
// column-major C^T = B^T A^T.
__global__ void sgemm_tiled(float* c, const float* a, const float* b, int m, int n, int k) {
  __shared__ float a_tile[TILE][TILE + 1];
  __shared__ float b_tile[TILE][TILE + 1];
  const int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
  float sum = 0;
  for (int t = 0; t < k; t += TILE) {
    a_tile[threadIdx.y][threadIdx.x] = row < m && t + threadIdx.x < k ? a[row * k + t + threadIdx.x] : 0.0f;
    b_tile[threadIdx.y][threadIdx.x] = col < n && t + threadIdx.y < k ? b[(t + threadIdx.y) * n + col] : 0.0f;
    __syncthreads();
    for (int i = 0; i < TILE; ++i) sum += a_tile[threadIdx.y][i] * b_tile[i][threadIdx.x];
    __syncthreads();
  }
  if (row < m && col < n) c[row * n + col] = sum;
}

// out (cols x rows) = in (rows x cols) transposed, row-major.
__global__ void transpose_tiled(float* out, const float* in, int rows, int cols) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  if (x < cols && y < rows) tile[threadIdx.y][threadIdx.x] = in[y * cols + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  if (x < rows && y < cols) out[y * rows + x] = tile[threadIdx.x][threadIdx.y];
}

static int wrong = 0;

static void report(const char* what, bool ok) {
  std::printf("%s: %s\n", what, ok ? "OK" : "WRONG");
  if (!ok) ++wrong;
}

static float* to_device(const std::vector<float>& host) {
  float* d = nullptr;
  cudaMalloc(&d, host.size() * sizeof(float));
  cudaMemcpy(d, host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice);
  return d;
}

static std::vector<float> to_host(const float* d, size_t count) {
  std::vector<float> host(count);
  cudaMemcpy(host.data(), d, count * sizeof(float), cudaMemcpyDeviceToHost);
  return host;
}

static bool nearly_equal(const std::vector<float>& a, const std::vector<float>& b, float tolerance) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!(std::fabs(a[i] - b[i]) <= tolerance * (1.0f + std::fabs(b[i])))) return false;
  }
  return true;
}

int main() {
  cublasHandle_t handle;
  report("cublasCreate", cublasCreate(&handle) == CUBLAS_STATUS_SUCCESS);

  // 1. The tiled kernel against cublasSgemm, odd sizes.
  const int m = 67, n = 45, k = 53;
  std::vector<float> a(m * k), b(k * n);
  for (int i = 0; i < m * k; ++i) a[i] = static_cast<float>((i * 37 % 101) - 50) / 64.0f;
  for (int i = 0; i < k * n; ++i) b[i] = static_cast<float>((i * 53 % 97) - 48) / 32.0f;
  float *d_a = to_device(a), *d_b = to_device(b), *d_c = nullptr, *d_ref = nullptr;
  cudaMalloc(&d_c, m * n * sizeof(float));
  cudaMalloc(&d_ref, m * n * sizeof(float));
  sgemm_tiled<<<dim3((n + TILE - 1) / TILE, (m + TILE - 1) / TILE), dim3(TILE, TILE)>>>(d_c, d_a, d_b, m, n, k);
  const float one = 1.0f, zero = 0.0f;
  // Row-major C = A B is column-major C^T = B^T A^T: B first, n x m.
  const cublasStatus_t s = cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, d_b, n, d_a, k, &zero, d_ref, n);
  report("tiled kernel against cublasSgemm (67x53 times 53x45)",
         s == CUBLAS_STATUS_SUCCESS && nearly_equal(to_host(d_c, m * n), to_host(d_ref, m * n), 1e-5f));

  // 2. The same product with transposed operands: C^T = (A^T)^T ... as cuBLAS
  // computes op(A) op(B) of A^T and B^T stored column-major (row-major A, B).
  std::vector<float> at(k * m), bt(n * k);  // column-major A (m x k) and B (k x n)
  for (int r = 0; r < m; ++r)
    for (int c = 0; c < k; ++c) at[c * m + r] = a[r * k + c];
  for (int r = 0; r < k; ++r)
    for (int c = 0; c < n; ++c) bt[c * k + r] = b[r * n + c];
  float *d_at = to_device(at), *d_bt = to_device(bt), *d_c2 = nullptr;
  cudaMalloc(&d_c2, m * n * sizeof(float));
  // Column-major C (m x n) = A B; then C^T (row-major C) by geam.
  cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, d_at, m, d_bt, k, &zero, d_c2, m);
  float* d_c2t = nullptr;
  cudaMalloc(&d_c2t, m * n * sizeof(float));
  cudaMemset(d_c2t, 0, m * n * sizeof(float));  // B of the geam below (beta 0)
  cublasSgeam(handle, CUBLAS_OP_T, CUBLAS_OP_N, n, m, &one, d_c2, m, &zero, d_c2t, n, d_c2t, n);
  report("column-major A B, transposed back by cublasSgeam", nearly_equal(to_host(d_c2t, m * n), to_host(d_ref, m * n), 1e-5f));
  // op(A) = A^T of the row-major storage: C^T = B^T A^T with transa/transb set.
  float* d_c3 = nullptr;
  cudaMalloc(&d_c3, m * n * sizeof(float));
  cublasSgemm(handle, CUBLAS_OP_T, CUBLAS_OP_T, m, n, k, &one, d_a, k, d_b, n, &zero, d_c3, m);
  report("CUBLAS_OP_T on both operands", nearly_equal(to_host(d_c3, m * n), to_host(d_c2, m * n), 1e-5f));

  // 3. The tiled transpose against cublasSgeam (C = A^T, beta 0).
  const int rows = 70, cols = 33;
  std::vector<float> in(rows * cols);
  for (int i = 0; i < rows * cols; ++i) in[i] = static_cast<float>(i);
  float *d_in = to_device(in), *d_out = nullptr, *d_geam = nullptr;
  cudaMalloc(&d_out, rows * cols * sizeof(float));
  cudaMalloc(&d_geam, rows * cols * sizeof(float));
  cudaMemset(d_geam, 0, rows * cols * sizeof(float));
  transpose_tiled<<<dim3((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE), dim3(TILE, TILE)>>>(d_out, d_in, rows,
                                                                                                  cols);
  // Row-major in (rows x cols) is column-major cols x rows; its transpose rows x cols.
  cublasSgeam(handle, CUBLAS_OP_T, CUBLAS_OP_N, rows, cols, &one, d_in, cols, &zero, d_geam, rows, d_geam, rows);
  report("tiled transpose against cublasSgeam (70x33)", to_host(d_out, rows * cols) == to_host(d_geam, rows * cols));

  // 4. Level 1 and 2 with values whose answers are exact in float.
  std::vector<float> x = {1, -7, 3, 7, 2, -8}, y = {2, 2, 2, 2, 2, 2};
  float *d_x = to_device(x), *d_y = to_device(y);
  float dot = 0, nrm = 0, asum = 0;
  int imax = -1, imin = -1;
  cublasSdot(handle, 6, d_x, 1, d_y, 1, &dot);
  report("cublasSdot = -4", dot == -4.0f);
  cublasIsamax(handle, 6, d_x, 1, &imax);
  report("cublasIsamax = 6 (1-based; |-8| is the largest)", imax == 6);
  cublasIsamax(handle, 4, d_x, 1, &imax);
  report("cublasIsamax of the first 4 = 2 (the first of two 7s)", imax == 2);
  cublasIsamin(handle, 6, d_x, 1, &imin);
  report("cublasIsamin = 1", imin == 1);
  cublasSasum(handle, 6, d_x, 2, &asum);
  report("cublasSasum with incx 2 = 6 (1, 3, 2)", asum == 6.0f);
  std::vector<float> three = {3, 4};
  float* d_three = to_device(three);
  cublasSnrm2(handle, 2, d_three, 1, &nrm);
  report("cublasSnrm2 of (3, 4) = 5", nrm == 5.0f);
  const float two = 2.0f;
  cublasSaxpy(handle, 6, &two, d_x, 1, d_y, 1);
  const std::vector<float> axpy = {4, -12, 8, 16, 6, -14};
  report("cublasSaxpy: y = 2 x + y", to_host(d_y, 6) == axpy);
  cublasSscal(handle, 3, &two, d_y, 2);
  const std::vector<float> scaled = {8, -12, 16, 16, 12, -14};
  report("cublasSscal of every second element", to_host(d_y, 6) == scaled);
  // gemv: column-major 2 x 3 A = [1 2 3; 4 5 6] times (1, 1, 1), and A^T times (1, 1).
  std::vector<float> ma = {1, 4, 2, 5, 3, 6}, ones = {1, 1, 1};
  float *d_ma = to_device(ma), *d_ones = to_device(ones), *d_gv = nullptr;
  cudaMalloc(&d_gv, 3 * sizeof(float));
  cublasSgemv(handle, CUBLAS_OP_N, 2, 3, &one, d_ma, 2, d_ones, 1, &zero, d_gv, 1);
  const std::vector<float> row_sums = {6, 15};
  report("cublasSgemv: A (1,1,1) = (6, 15)", to_host(d_gv, 2) == row_sums);
  cublasSgemv(handle, CUBLAS_OP_T, 2, 3, &one, d_ma, 2, d_ones, 1, &zero, d_gv, 1);
  const std::vector<float> col_sums = {5, 7, 9};
  report("cublasSgemv: A^T (1,1) = (5, 7, 9)", to_host(d_gv, 3) == col_sums);

  // 5. Device pointer mode: alpha from device memory, the result to device memory.
  float* d_scalar = nullptr;
  cudaMalloc(&d_scalar, 2 * sizeof(float));
  const float three_host = 3.0f;
  cudaMemcpy(d_scalar, &three_host, sizeof(float), cudaMemcpyHostToDevice);
  cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_DEVICE);
  cublasSscal(handle, 2, d_scalar, d_three, 1);
  cublasSdot(handle, 2, d_three, 1, d_three, 1, d_scalar + 1);
  cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_HOST);
  const std::vector<float> device_mode = to_host(d_scalar, 2);
  report("device pointer mode: alpha read and dot written on the device (225)", device_mode[1] == 225.0f);

  // 6. beta == 0: C is written without being read, a NaN there is gone.
  std::vector<float> nan_c(4, NAN);
  float* d_nan = to_device(nan_c);
  std::vector<float> i2 = {1, 0, 0, 1};
  float* d_i2 = to_device(i2);
  cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &one, d_i2, 2, d_i2, 2, &zero, d_nan, 2);
  report("beta 0 does not read C (NaN in C gives the identity)", to_host(d_nan, 4) == i2);

  // 7. A strided batch of three 2x2 products: batch i is (i+1) I times I.
  std::vector<float> batch_a(12, 0), batch_b(12, 0);
  for (int i = 0; i < 3; ++i) {
    batch_a[4 * i] = batch_a[4 * i + 3] = static_cast<float>(i + 1);
    batch_b[4 * i] = batch_b[4 * i + 3] = 1;
  }
  float *d_ba = to_device(batch_a), *d_bb = to_device(batch_b), *d_bc = nullptr;
  cudaMalloc(&d_bc, 12 * sizeof(float));
  cublasSgemmStridedBatched(handle, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &one, d_ba, 2, 4, d_bb, 2, 4, &zero, d_bc, 2,
                            4, 3);
  report("cublasSgemmStridedBatched of 3", to_host(d_bc, 12) == batch_a);

  // 8. The argument checks.
  report("lda < m is CUBLAS_STATUS_INVALID_VALUE",
         cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, &one, d_a, 3, d_b, 4, &zero, d_c, 4) ==
             CUBLAS_STATUS_INVALID_VALUE);
  report("a negative k is CUBLAS_STATUS_INVALID_VALUE",
         cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, -1, &one, d_a, 4, d_b, 4, &zero, d_c, 4) ==
             CUBLAS_STATUS_INVALID_VALUE);
  // What an H100's cuBLAS 13 answered (tests/data/gpu/h100_cublas/).
  std::vector<float> spread = {2, 5, 7};
  float* d_spread = to_device(spread);
  const cublasStatus_t incx0 = cublasSgemv(handle, CUBLAS_OP_N, 2, 3, &one, d_ma, 2, d_spread, 0, &zero, d_gv, 1);
  const std::vector<float> twice_row_sums = {12, 30};
  report("gemv with incx 0 succeeds, every x element x[0]: (12, 30)",
         incx0 == CUBLAS_STATUS_SUCCESS && to_host(d_gv, 2) == twice_row_sums);
  report("gemv with lda 1 < m 2 is CUBLAS_STATUS_INVALID_VALUE",
         cublasSgemv(handle, CUBLAS_OP_N, 2, 3, &one, d_ma, 1, d_ones, 1, &zero, d_gv, 1) ==
             CUBLAS_STATUS_INVALID_VALUE);
  report("axpy with n -1 succeeds, doing nothing",
         cublasSaxpy(handle, -1, &two, d_x, 1, d_y, 1) == CUBLAS_STATUS_SUCCESS && to_host(d_y, 6) == scaled);
  report("dot with a null result is CUBLAS_STATUS_MAPPING_ERROR",
         cublasSdot(handle, 6, d_x, 1, d_y, 1, nullptr) == CUBLAS_STATUS_MAPPING_ERROR);
  report("a null handle is CUBLAS_STATUS_NOT_INITIALIZED",
         cublasSscal(nullptr, 2, &two, d_x, 1) == CUBLAS_STATUS_NOT_INITIALIZED);
  report("geam with C = A transposed is CUBLAS_STATUS_INVALID_VALUE",
         cublasSgeam(handle, CUBLAS_OP_T, CUBLAS_OP_N, 2, 2, &one, d_i2, 2, &zero, d_i2, 2, d_i2, 2) ==
             CUBLAS_STATUS_INVALID_VALUE);
  report("m = 0 is a successful call that does nothing",
         cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, 0, 4, 4, &one, d_a, 1, d_b, 4, &zero, d_c, 1) ==
             CUBLAS_STATUS_SUCCESS);
  const cublasStatus_t statuses[] = {CUBLAS_STATUS_SUCCESS,        CUBLAS_STATUS_NOT_INITIALIZED,
                                     CUBLAS_STATUS_ALLOC_FAILED,   CUBLAS_STATUS_INVALID_VALUE,
                                     CUBLAS_STATUS_ARCH_MISMATCH,  CUBLAS_STATUS_MAPPING_ERROR,
                                     CUBLAS_STATUS_EXECUTION_FAILED, CUBLAS_STATUS_INTERNAL_ERROR,
                                     CUBLAS_STATUS_NOT_SUPPORTED,  CUBLAS_STATUS_LICENSE_ERROR};
  for (cublasStatus_t status : statuses) {
    std::printf("status %d %s: %s\n", static_cast<int>(status), cublasGetStatusName(status),
                cublasGetStatusString(status));
  }

  report("cublasDestroy", cublasDestroy(handle) == CUBLAS_STATUS_SUCCESS);
  std::printf("%d wrong\n", wrong);
  return wrong;
}

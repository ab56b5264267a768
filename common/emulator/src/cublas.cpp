// cuBLAS for the CPU emulator (compat/cublas_api.h): each call checks its
// arguments as cuBLAS does, then OpenBLAS does the arithmetic on the host
// (device memory is host memory here). Linked into a program by
// `banklab run -lcublas`.
#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <new>
#include <vector>

#include "banklab/cuda_graph.hpp"
#include "cublas_api.h"
#include "host_api.hpp"

struct cublasContext {
  cudaStream_t stream = nullptr;
  cublasPointerMode_t pointer_mode = CUBLAS_POINTER_MODE_HOST;
  cublasAtomicsMode_t atomics_mode = CUBLAS_ATOMICS_NOT_ALLOWED;
  cublasMath_t math_mode = CUBLAS_DEFAULT_MATH;
};

namespace {

using banklab::emu::detail::host_only;

bool valid_op(cublasOperation_t op) { return op == CUBLAS_OP_N || op == CUBLAS_OP_T || op == CUBLAS_OP_C; }
// For real types, CUBLAS_OP_C is CUBLAS_OP_T.
CBLAS_TRANSPOSE cblas_op(cublasOperation_t op) { return op == CUBLAS_OP_N ? CblasNoTrans : CblasTrans; }

// The call's work, run now or, while the handle's stream is captured, as a
// step of its graph. Scalars are read before (host pointer mode: the
// caller's variables may be gone when the graph runs).
cublasStatus_t submit(cublasHandle_t handle, std::function<void()> work) {
  if (banklab::emu::detail::status() != cudaSuccess) return CUBLAS_STATUS_EXECUTION_FAILED;
  if (banklab::emu::detail::capturing(handle->stream)) {
    banklab::emu::detail::capture(handle->stream, std::move(work));
  } else {
    work();
  }
  return CUBLAS_STATUS_SUCCESS;
}

// One of the scalars alpha, beta: both pointer modes read memory the host can
// read here, but a null one is an invalid value in either.
template <typename T>
bool read_scalar(const T* pointer, T* value) {
  if (pointer == nullptr) return false;
  *value = *pointer;
  return true;
}

// rows x cols elements of elem_size bytes, column by column.
cublasStatus_t copy_matrix(int rows, int cols, int elem_size, const void* a, int lda, void* b, int ldb) {
  host_only("cublasSetMatrix/cublasGetMatrix");
  if (rows < 0 || cols < 0 || elem_size <= 0 || lda <= 0 || ldb <= 0 || lda < rows || ldb < rows)
    return CUBLAS_STATUS_INVALID_VALUE;
  if (rows == 0 || cols == 0) return CUBLAS_STATUS_SUCCESS;
  if (a == nullptr || b == nullptr) return CUBLAS_STATUS_INVALID_VALUE;
  if (banklab::emu::detail::status() != cudaSuccess) return CUBLAS_STATUS_MAPPING_ERROR;
  const std::size_t size = static_cast<std::size_t>(elem_size);
  for (int col = 0; col < cols; ++col) {
    std::memmove(static_cast<char*>(b) + static_cast<std::size_t>(col) * static_cast<std::size_t>(ldb) * size,
                 static_cast<const char*>(a) + static_cast<std::size_t>(col) * static_cast<std::size_t>(lda) * size,
                 static_cast<std::size_t>(rows) * size);
  }
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t copy_vector(int n, int elem_size, const void* x, int incx, void* y, int incy) {
  host_only("cublasSetVector/cublasGetVector");
  if (n < 0 || elem_size <= 0 || incx <= 0 || incy <= 0) return CUBLAS_STATUS_INVALID_VALUE;
  if (n == 0) return CUBLAS_STATUS_SUCCESS;
  if (x == nullptr || y == nullptr) return CUBLAS_STATUS_INVALID_VALUE;
  if (banklab::emu::detail::status() != cudaSuccess) return CUBLAS_STATUS_MAPPING_ERROR;
  const std::size_t size = static_cast<std::size_t>(elem_size);
  for (int i = 0; i < n; ++i) {
    std::memmove(static_cast<char*>(y) + static_cast<std::size_t>(i) * static_cast<std::size_t>(incy) * size,
                 static_cast<const char*>(x) + static_cast<std::size_t>(i) * static_cast<std::size_t>(incx) * size,
                 size);
  }
  return CUBLAS_STATUS_SUCCESS;
}

// The type-generic parts; the S and D entry points below pick the OpenBLAS
// routine of their type.
template <typename T>
struct Blas;
template <>
struct Blas<float> {
  static constexpr auto axpy = cblas_saxpy;
  static constexpr auto dot = cblas_sdot;
  static constexpr auto scal = cblas_sscal;
  static constexpr auto copy = cblas_scopy;
  static constexpr auto swap = cblas_sswap;
  static constexpr auto gemv = cblas_sgemv;
  static constexpr auto ger = cblas_sger;
  static constexpr auto gemm = cblas_sgemm;
  static constexpr auto omatcopy = cblas_somatcopy;
};
template <>
struct Blas<double> {
  static constexpr auto axpy = cblas_daxpy;
  static constexpr auto dot = cblas_ddot;
  static constexpr auto scal = cblas_dscal;
  static constexpr auto copy = cblas_dcopy;
  static constexpr auto swap = cblas_dswap;
  static constexpr auto gemv = cblas_dgemv;
  static constexpr auto ger = cblas_dger;
  static constexpr auto gemm = cblas_dgemm;
  static constexpr auto omatcopy = cblas_domatcopy;
};

template <typename T>
cublasStatus_t axpy(const char* name, cublasHandle_t h, int n, const T* alpha, const T* x, int incx, T* y, int incy) {
  host_only(name);
  if (h == nullptr) return CUBLAS_STATUS_NOT_INITIALIZED;
  T a{};
  if (!read_scalar(alpha, &a)) return CUBLAS_STATUS_INVALID_VALUE;
  if (n <= 0) return CUBLAS_STATUS_SUCCESS;
  return submit(h, [=] { Blas<T>::axpy(n, a, x, incx, y, incy); });
}

// dot, nrm2, asum: a scalar result, 0 for n <= 0 (and incx <= 0 where cuBLAS says so).
template <typename T, typename F>
cublasStatus_t reduction(const char* name, cublasHandle_t h, int n, int incx, T* result, F compute) {
  host_only(name);
  if (h == nullptr) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (result == nullptr) return CUBLAS_STATUS_MAPPING_ERROR;  // as an H100 answered (the copy back fails)
  return submit(h, [=] { *result = n <= 0 || incx <= 0 ? T(0) : compute(); });
}

template <typename T>
cublasStatus_t dot(const char* name, cublasHandle_t h, int n, const T* x, int incx, const T* y, int incy, T* result) {
  host_only(name);
  if (h == nullptr) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (result == nullptr) return CUBLAS_STATUS_MAPPING_ERROR;  // as an H100 answered (the copy back fails)
  // A negative increment walks the vector from its end, as in BLAS.
  return submit(h, [=] { *result = n <= 0 ? T(0) : Blas<T>::dot(n, x, incx, y, incy); });
}

template <typename T>
cublasStatus_t scal(const char* name, cublasHandle_t h, int n, const T* alpha, T* x, int incx) {
  host_only(name);
  if (h == nullptr) return CUBLAS_STATUS_NOT_INITIALIZED;
  T a{};
  if (!read_scalar(alpha, &a)) return CUBLAS_STATUS_INVALID_VALUE;
  if (n <= 0 || incx <= 0) return CUBLAS_STATUS_SUCCESS;
  return submit(h, [=] { Blas<T>::scal(n, a, x, incx); });
}

template <typename T>
cublasStatus_t copy_or_swap(const char* name, cublasHandle_t h, int n, T* x, int incx, T* y, int incy, bool swap) {
  host_only(name);
  if (h == nullptr) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (n <= 0) return CUBLAS_STATUS_SUCCESS;
  return submit(h, [=] {
    if (swap) {
      Blas<T>::swap(n, x, incx, y, incy);
    } else {
      Blas<T>::copy(n, x, incx, y, incy);
    }
  });
}

// i*amax / i*amin: the 1-based index of the first element of largest or
// smallest magnitude; 0 for n <= 0 or incx <= 0.
template <typename T>
cublasStatus_t extreme(const char* name, cublasHandle_t h, int n, const T* x, int incx, int* result, bool largest) {
  host_only(name);
  if (h == nullptr) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (result == nullptr) return CUBLAS_STATUS_MAPPING_ERROR;  // as an H100 answered (the copy back fails)
  return submit(h, [=] {
    int best = 0;
    if (n > 0 && incx > 0) {
      // OpenBLAS's i?amin is an extension its CBLAS header may lack: one pass here.
      T best_value = std::abs(x[0]);
      for (int i = 1; i < n; ++i) {
        const T v = std::abs(x[static_cast<std::size_t>(i) * static_cast<std::size_t>(incx)]);
        if (largest ? v > best_value : v < best_value) {
          best_value = v;
          best = i;
        }
      }
      best += 1;
    }
    *result = best;
  });
}

template <typename T>
cublasStatus_t gemv(const char* name, cublasHandle_t h, cublasOperation_t trans, int m, int n, const T* alpha,
                    const T* a, int lda, const T* x, int incx, const T* beta, T* y, int incy) {
  host_only(name);
  if (h == nullptr) return CUBLAS_STATUS_NOT_INITIALIZED;
  // An H100's cuBLAS takes incx 0 (every element of x is x[0]); incy 0 is
  // refused here (not measured).
  if (!valid_op(trans) || m < 0 || n < 0 || lda < std::max(1, m) || incy == 0) return CUBLAS_STATUS_INVALID_VALUE;
  T al{}, be{};
  if (!read_scalar(alpha, &al) || !read_scalar(beta, &be)) return CUBLAS_STATUS_INVALID_VALUE;
  if (m == 0 || n == 0) return CUBLAS_STATUS_SUCCESS;
  return submit(h, [=] {
    // beta == 0: y is written without being read (a NaN there does not survive).
    if (be == T(0)) {
      const int length = trans == CUBLAS_OP_N ? m : n;
      for (int i = 0; i < length; ++i) y[static_cast<long long>(i) * std::abs(incy)] = T(0);
    }
    if (incx == 0) {
      const std::vector<T> repeated(static_cast<std::size_t>(trans == CUBLAS_OP_N ? n : m), x[0]);
      Blas<T>::gemv(CblasColMajor, cblas_op(trans), m, n, al, a, lda, repeated.data(), 1, be, y, incy);
    } else {
      Blas<T>::gemv(CblasColMajor, cblas_op(trans), m, n, al, a, lda, x, incx, be, y, incy);
    }
  });
}

template <typename T>
cublasStatus_t ger(const char* name, cublasHandle_t h, int m, int n, const T* alpha, const T* x, int incx, const T* y,
                   int incy, T* a, int lda) {
  host_only(name);
  if (h == nullptr) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (m < 0 || n < 0 || incx == 0 || incy == 0 || lda < std::max(1, m)) return CUBLAS_STATUS_INVALID_VALUE;
  T al{};
  if (!read_scalar(alpha, &al)) return CUBLAS_STATUS_INVALID_VALUE;
  if (m == 0 || n == 0) return CUBLAS_STATUS_SUCCESS;
  return submit(h, [=] { Blas<T>::ger(CblasColMajor, m, n, al, x, incx, y, incy, a, lda); });
}

// GEMM's argument rules: op(A) is m x k, op(B) k x n, C m x n.
bool gemm_arguments_valid(cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k, int lda, int ldb,
                          int ldc) {
  return valid_op(transa) && valid_op(transb) && m >= 0 && n >= 0 && k >= 0 &&
         lda >= std::max(1, transa == CUBLAS_OP_N ? m : k) && ldb >= std::max(1, transb == CUBLAS_OP_N ? k : n) &&
         ldc >= std::max(1, m);
}

template <typename T>
void gemm_one(cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k, T alpha, const T* a, int lda,
              const T* b, int ldb, T beta, T* c, int ldc) {
  // k == 0 or alpha == 0: C = beta C; with beta == 0, C is written without
  // being read (a NaN in C does not survive), whatever OpenBLAS's version does.
  if (beta == T(0)) {
    for (int col = 0; col < n; ++col) {
      T* column = c + static_cast<long long>(col) * ldc;
      std::fill(column, column + m, T(0));
    }
  }
  Blas<T>::gemm(CblasColMajor, cblas_op(transa), cblas_op(transb), m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

template <typename T>
cublasStatus_t gemm_strided(const char* name, cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb,
                            int m, int n, int k, const T* alpha, const T* a, int lda, long long stride_a, const T* b,
                            int ldb, long long stride_b, const T* beta, T* c, int ldc, long long stride_c,
                            int batch_count) {
  host_only(name);
  if (h == nullptr) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!gemm_arguments_valid(transa, transb, m, n, k, lda, ldb, ldc) || batch_count < 0)
    return CUBLAS_STATUS_INVALID_VALUE;
  T al{}, be{};
  if (!read_scalar(alpha, &al) || !read_scalar(beta, &be)) return CUBLAS_STATUS_INVALID_VALUE;
  if (m == 0 || n == 0 || batch_count == 0) return CUBLAS_STATUS_SUCCESS;
  return submit(h, [=] {
    for (int i = 0; i < batch_count; ++i) {
      gemm_one(transa, transb, m, n, k, al, a + i * stride_a, lda, b + i * stride_b, ldb, be, c + i * stride_c, ldc);
    }
  });
}

template <typename T>
cublasStatus_t gemm_batched(const char* name, cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb,
                            int m, int n, int k, const T* alpha, const T* const a[], int lda, const T* const b[],
                            int ldb, const T* beta, T* const c[], int ldc, int batch_count) {
  host_only(name);
  if (h == nullptr) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!gemm_arguments_valid(transa, transb, m, n, k, lda, ldb, ldc) || batch_count < 0)
    return CUBLAS_STATUS_INVALID_VALUE;
  T al{}, be{};
  if (!read_scalar(alpha, &al) || !read_scalar(beta, &be)) return CUBLAS_STATUS_INVALID_VALUE;
  if (m == 0 || n == 0 || batch_count == 0) return CUBLAS_STATUS_SUCCESS;
  if (a == nullptr || b == nullptr || c == nullptr) return CUBLAS_STATUS_INVALID_VALUE;
  // The pointer arrays are device memory the call reads when it runs.
  return submit(h, [=] {
    for (int i = 0; i < batch_count; ++i) gemm_one(transa, transb, m, n, k, al, a[i], lda, b[i], ldb, be, c[i], ldc);
  });
}

// geam: C = alpha op(A) + beta op(B), m x n. C may be A (transa N, lda ==
// ldc) or B (transb N, ldb == ldc); cuBLAS allows no other overlap.
template <typename T>
cublasStatus_t geam(const char* name, cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m,
                    int n, const T* alpha, const T* a, int lda, const T* beta, const T* b, int ldb, T* c, int ldc) {
  host_only(name);
  if (h == nullptr) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!valid_op(transa) || !valid_op(transb) || m < 0 || n < 0 || ldc < std::max(1, m) ||
      lda < std::max(1, transa == CUBLAS_OP_N ? m : n) || ldb < std::max(1, transb == CUBLAS_OP_N ? m : n))
    return CUBLAS_STATUS_INVALID_VALUE;
  if ((c == a && (transa != CUBLAS_OP_N || lda != ldc)) || (c == b && (transb != CUBLAS_OP_N || ldb != ldc)))
    return CUBLAS_STATUS_INVALID_VALUE;
  T al{}, be{};
  if (!read_scalar(alpha, &al) || !read_scalar(beta, &be)) return CUBLAS_STATUS_INVALID_VALUE;
  if (m == 0 || n == 0) return CUBLAS_STATUS_SUCCESS;
  return submit(h, [=] {
    // Each term into a packed m x n matrix of its own (OpenBLAS's omatcopy
    // scales and transposes); a term whose scalar is 0 is not read.
    const std::size_t size = static_cast<std::size_t>(m) * static_cast<std::size_t>(n);
    std::vector<T> ta(size, T(0)), tb(size, T(0));
    const int rows_a = transa == CUBLAS_OP_N ? m : n, cols_a = transa == CUBLAS_OP_N ? n : m;
    const int rows_b = transb == CUBLAS_OP_N ? m : n, cols_b = transb == CUBLAS_OP_N ? n : m;
    if (al != T(0)) Blas<T>::omatcopy(CblasColMajor, cblas_op(transa), rows_a, cols_a, al, a, lda, ta.data(), m);
    if (be != T(0)) Blas<T>::omatcopy(CblasColMajor, cblas_op(transb), rows_b, cols_b, be, b, ldb, tb.data(), m);
    for (int col = 0; col < n; ++col) {
      for (int row = 0; row < m; ++row) {
        const std::size_t i =
            static_cast<std::size_t>(col) * static_cast<std::size_t>(m) + static_cast<std::size_t>(row);
        c[static_cast<std::size_t>(col) * static_cast<std::size_t>(ldc) + static_cast<std::size_t>(row)] =
            ta[i] + tb[i];
      }
    }
  });
}

}  // namespace

cublasStatus_t cublasCreate_v2(cublasHandle_t* handle) {
  host_only("cublasCreate");
  if (handle == nullptr) return CUBLAS_STATUS_INVALID_VALUE;
  *handle = new (std::nothrow) cublasContext;
  return *handle == nullptr ? CUBLAS_STATUS_ALLOC_FAILED : CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasDestroy_v2(cublasHandle_t handle) {
  host_only("cublasDestroy");
  if (handle == nullptr) return CUBLAS_STATUS_NOT_INITIALIZED;
  delete handle;
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasGetVersion_v2(cublasHandle_t handle, int* version) {
  if (handle == nullptr) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (version == nullptr) return CUBLAS_STATUS_INVALID_VALUE;
  *version = CUBLAS_VERSION;
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasSetStream_v2(cublasHandle_t handle, cudaStream_t stream) {
  if (handle == nullptr) return CUBLAS_STATUS_NOT_INITIALIZED;
  handle->stream = stream;
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasGetStream_v2(cublasHandle_t handle, cudaStream_t* stream) {
  if (handle == nullptr) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (stream == nullptr) return CUBLAS_STATUS_INVALID_VALUE;
  *stream = handle->stream;
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasSetPointerMode_v2(cublasHandle_t handle, cublasPointerMode_t mode) {
  if (handle == nullptr) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (mode != CUBLAS_POINTER_MODE_HOST && mode != CUBLAS_POINTER_MODE_DEVICE) return CUBLAS_STATUS_INVALID_VALUE;
  handle->pointer_mode = mode;
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasGetPointerMode_v2(cublasHandle_t handle, cublasPointerMode_t* mode) {
  if (handle == nullptr) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (mode == nullptr) return CUBLAS_STATUS_INVALID_VALUE;
  *mode = handle->pointer_mode;
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasSetAtomicsMode(cublasHandle_t handle, cublasAtomicsMode_t mode) {
  if (handle == nullptr) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (mode != CUBLAS_ATOMICS_NOT_ALLOWED && mode != CUBLAS_ATOMICS_ALLOWED) return CUBLAS_STATUS_INVALID_VALUE;
  handle->atomics_mode = mode;
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasGetAtomicsMode(cublasHandle_t handle, cublasAtomicsMode_t* mode) {
  if (handle == nullptr) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (mode == nullptr) return CUBLAS_STATUS_INVALID_VALUE;
  *mode = handle->atomics_mode;
  return CUBLAS_STATUS_SUCCESS;
}
// The math mode changes nothing here: OpenBLAS computes in the type's own
// precision (a GPU's TF32 tensor-op GEMM would round its inputs).
cublasStatus_t cublasSetMathMode(cublasHandle_t handle, cublasMath_t mode) {
  if (handle == nullptr) return CUBLAS_STATUS_NOT_INITIALIZED;
  handle->math_mode = mode;
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasGetMathMode(cublasHandle_t handle, cublasMath_t* mode) {
  if (handle == nullptr) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (mode == nullptr) return CUBLAS_STATUS_INVALID_VALUE;
  *mode = handle->math_mode;
  return CUBLAS_STATUS_SUCCESS;
}

const char* cublasGetStatusName(cublasStatus_t status) {
  switch (status) {
    case CUBLAS_STATUS_SUCCESS:
      return "CUBLAS_STATUS_SUCCESS";
    case CUBLAS_STATUS_NOT_INITIALIZED:
      return "CUBLAS_STATUS_NOT_INITIALIZED";
    case CUBLAS_STATUS_ALLOC_FAILED:
      return "CUBLAS_STATUS_ALLOC_FAILED";
    case CUBLAS_STATUS_INVALID_VALUE:
      return "CUBLAS_STATUS_INVALID_VALUE";
    case CUBLAS_STATUS_ARCH_MISMATCH:
      return "CUBLAS_STATUS_ARCH_MISMATCH";
    case CUBLAS_STATUS_MAPPING_ERROR:
      return "CUBLAS_STATUS_MAPPING_ERROR";
    case CUBLAS_STATUS_EXECUTION_FAILED:
      return "CUBLAS_STATUS_EXECUTION_FAILED";
    case CUBLAS_STATUS_INTERNAL_ERROR:
      return "CUBLAS_STATUS_INTERNAL_ERROR";
    case CUBLAS_STATUS_NOT_SUPPORTED:
      return "CUBLAS_STATUS_NOT_SUPPORTED";
    case CUBLAS_STATUS_LICENSE_ERROR:
      return "CUBLAS_STATUS_LICENSE_ERROR";
  }
  return "CUBLAS_STATUS_UNKNOWN";
}
const char* cublasGetStatusString(cublasStatus_t status) {
  switch (status) {
    case CUBLAS_STATUS_SUCCESS:
      return "success";
    case CUBLAS_STATUS_NOT_INITIALIZED:
      return "the library was not initialized";
    case CUBLAS_STATUS_ALLOC_FAILED:
      return "the resource allocation failed";
    case CUBLAS_STATUS_INVALID_VALUE:
      return "an unsupported value or parameter was passed to the function";
    case CUBLAS_STATUS_ARCH_MISMATCH:
      return "the function requires an architectural feature absent from the device";
    case CUBLAS_STATUS_MAPPING_ERROR:
      return "an access to GPU memory space failed";
    case CUBLAS_STATUS_EXECUTION_FAILED:
      return "the function failed to launch on the GPU";
    case CUBLAS_STATUS_INTERNAL_ERROR:
      return "an internal operation failed";
    case CUBLAS_STATUS_NOT_SUPPORTED:
      return "the requested functionality is not supported";
    case CUBLAS_STATUS_LICENSE_ERROR:
      return "the license check failed";
  }
  return "unknown error";
}

cublasStatus_t cublasSetVector(int n, int elem_size, const void* x, int incx, void* y, int incy) {
  return copy_vector(n, elem_size, x, incx, y, incy);
}
cublasStatus_t cublasGetVector(int n, int elem_size, const void* x, int incx, void* y, int incy) {
  return copy_vector(n, elem_size, x, incx, y, incy);
}
cublasStatus_t cublasSetMatrix(int rows, int cols, int elem_size, const void* a, int lda, void* b, int ldb) {
  return copy_matrix(rows, cols, elem_size, a, lda, b, ldb);
}
cublasStatus_t cublasGetMatrix(int rows, int cols, int elem_size, const void* a, int lda, void* b, int ldb) {
  return copy_matrix(rows, cols, elem_size, a, lda, b, ldb);
}
// The stream's work is done when each call is made (the emulator's streams).
cublasStatus_t cublasSetVectorAsync(int n, int elem_size, const void* x, int incx, void* y, int incy, cudaStream_t) {
  return copy_vector(n, elem_size, x, incx, y, incy);
}
cublasStatus_t cublasGetVectorAsync(int n, int elem_size, const void* x, int incx, void* y, int incy, cudaStream_t) {
  return copy_vector(n, elem_size, x, incx, y, incy);
}
cublasStatus_t cublasSetMatrixAsync(int rows, int cols, int elem_size, const void* a, int lda, void* b, int ldb,
                                    cudaStream_t) {
  return copy_matrix(rows, cols, elem_size, a, lda, b, ldb);
}
cublasStatus_t cublasGetMatrixAsync(int rows, int cols, int elem_size, const void* a, int lda, void* b, int ldb,
                                    cudaStream_t) {
  return copy_matrix(rows, cols, elem_size, a, lda, b, ldb);
}

cublasStatus_t cublasSaxpy_v2(cublasHandle_t h, int n, const float* alpha, const float* x, int incx, float* y,
                              int incy) {
  return axpy("cublasSaxpy", h, n, alpha, x, incx, y, incy);
}
cublasStatus_t cublasDaxpy_v2(cublasHandle_t h, int n, const double* alpha, const double* x, int incx, double* y,
                              int incy) {
  return axpy("cublasDaxpy", h, n, alpha, x, incx, y, incy);
}
cublasStatus_t cublasSdot_v2(cublasHandle_t h, int n, const float* x, int incx, const float* y, int incy,
                             float* result) {
  return dot("cublasSdot", h, n, x, incx, y, incy, result);
}
cublasStatus_t cublasDdot_v2(cublasHandle_t h, int n, const double* x, int incx, const double* y, int incy,
                             double* result) {
  return dot("cublasDdot", h, n, x, incx, y, incy, result);
}
cublasStatus_t cublasSscal_v2(cublasHandle_t h, int n, const float* alpha, float* x, int incx) {
  return scal("cublasSscal", h, n, alpha, x, incx);
}
cublasStatus_t cublasDscal_v2(cublasHandle_t h, int n, const double* alpha, double* x, int incx) {
  return scal("cublasDscal", h, n, alpha, x, incx);
}
cublasStatus_t cublasScopy_v2(cublasHandle_t h, int n, const float* x, int incx, float* y, int incy) {
  return copy_or_swap("cublasScopy", h, n, const_cast<float*>(x), incx, y, incy, false);
}
cublasStatus_t cublasDcopy_v2(cublasHandle_t h, int n, const double* x, int incx, double* y, int incy) {
  return copy_or_swap("cublasDcopy", h, n, const_cast<double*>(x), incx, y, incy, false);
}
cublasStatus_t cublasSswap_v2(cublasHandle_t h, int n, float* x, int incx, float* y, int incy) {
  return copy_or_swap("cublasSswap", h, n, x, incx, y, incy, true);
}
cublasStatus_t cublasDswap_v2(cublasHandle_t h, int n, double* x, int incx, double* y, int incy) {
  return copy_or_swap("cublasDswap", h, n, x, incx, y, incy, true);
}
cublasStatus_t cublasSnrm2_v2(cublasHandle_t h, int n, const float* x, int incx, float* result) {
  return reduction("cublasSnrm2", h, n, incx, result, [=] { return cblas_snrm2(n, x, incx); });
}
cublasStatus_t cublasDnrm2_v2(cublasHandle_t h, int n, const double* x, int incx, double* result) {
  return reduction("cublasDnrm2", h, n, incx, result, [=] { return cblas_dnrm2(n, x, incx); });
}
cublasStatus_t cublasSasum_v2(cublasHandle_t h, int n, const float* x, int incx, float* result) {
  return reduction("cublasSasum", h, n, incx, result, [=] { return cblas_sasum(n, x, incx); });
}
cublasStatus_t cublasDasum_v2(cublasHandle_t h, int n, const double* x, int incx, double* result) {
  return reduction("cublasDasum", h, n, incx, result, [=] { return cblas_dasum(n, x, incx); });
}
cublasStatus_t cublasIsamax_v2(cublasHandle_t h, int n, const float* x, int incx, int* result) {
  return extreme("cublasIsamax", h, n, x, incx, result, true);
}
cublasStatus_t cublasIdamax_v2(cublasHandle_t h, int n, const double* x, int incx, int* result) {
  return extreme("cublasIdamax", h, n, x, incx, result, true);
}
cublasStatus_t cublasIsamin_v2(cublasHandle_t h, int n, const float* x, int incx, int* result) {
  return extreme("cublasIsamin", h, n, x, incx, result, false);
}
cublasStatus_t cublasIdamin_v2(cublasHandle_t h, int n, const double* x, int incx, int* result) {
  return extreme("cublasIdamin", h, n, x, incx, result, false);
}

cublasStatus_t cublasSgemv_v2(cublasHandle_t h, cublasOperation_t trans, int m, int n, const float* alpha,
                              const float* a, int lda, const float* x, int incx, const float* beta, float* y,
                              int incy) {
  return gemv("cublasSgemv", h, trans, m, n, alpha, a, lda, x, incx, beta, y, incy);
}
cublasStatus_t cublasDgemv_v2(cublasHandle_t h, cublasOperation_t trans, int m, int n, const double* alpha,
                              const double* a, int lda, const double* x, int incx, const double* beta, double* y,
                              int incy) {
  return gemv("cublasDgemv", h, trans, m, n, alpha, a, lda, x, incx, beta, y, incy);
}
cublasStatus_t cublasSger_v2(cublasHandle_t h, int m, int n, const float* alpha, const float* x, int incx,
                             const float* y, int incy, float* a, int lda) {
  return ger("cublasSger", h, m, n, alpha, x, incx, y, incy, a, lda);
}
cublasStatus_t cublasDger_v2(cublasHandle_t h, int m, int n, const double* alpha, const double* x, int incx,
                             const double* y, int incy, double* a, int lda) {
  return ger("cublasDger", h, m, n, alpha, x, incx, y, incy, a, lda);
}

cublasStatus_t cublasSgemm_v2(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k,
                              const float* alpha, const float* a, int lda, const float* b, int ldb, const float* beta,
                              float* c, int ldc) {
  return gemm_strided("cublasSgemm", h, transa, transb, m, n, k, alpha, a, lda, 0, b, ldb, 0, beta, c, ldc, 0, 1);
}
cublasStatus_t cublasDgemm_v2(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k,
                              const double* alpha, const double* a, int lda, const double* b, int ldb,
                              const double* beta, double* c, int ldc) {
  return gemm_strided("cublasDgemm", h, transa, transb, m, n, k, alpha, a, lda, 0, b, ldb, 0, beta, c, ldc, 0, 1);
}
cublasStatus_t cublasSgemmStridedBatched(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m,
                                         int n, int k, const float* alpha, const float* a, int lda, long long stride_a,
                                         const float* b, int ldb, long long stride_b, const float* beta, float* c,
                                         int ldc, long long stride_c, int batch_count) {
  return gemm_strided("cublasSgemmStridedBatched", h, transa, transb, m, n, k, alpha, a, lda, stride_a, b, ldb,
                      stride_b, beta, c, ldc, stride_c, batch_count);
}
cublasStatus_t cublasDgemmStridedBatched(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m,
                                         int n, int k, const double* alpha, const double* a, int lda,
                                         long long stride_a, const double* b, int ldb, long long stride_b,
                                         const double* beta, double* c, int ldc, long long stride_c, int batch_count) {
  return gemm_strided("cublasDgemmStridedBatched", h, transa, transb, m, n, k, alpha, a, lda, stride_a, b, ldb,
                      stride_b, beta, c, ldc, stride_c, batch_count);
}
cublasStatus_t cublasSgemmBatched(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
                                  int k, const float* alpha, const float* const a[], int lda, const float* const b[],
                                  int ldb, const float* beta, float* const c[], int ldc, int batch_count) {
  return gemm_batched("cublasSgemmBatched", h, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc,
                      batch_count);
}
cublasStatus_t cublasDgemmBatched(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
                                  int k, const double* alpha, const double* const a[], int lda, const double* const b[],
                                  int ldb, const double* beta, double* const c[], int ldc, int batch_count) {
  return gemm_batched("cublasDgemmBatched", h, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc,
                      batch_count);
}
cublasStatus_t cublasSgeam(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
                           const float* alpha, const float* a, int lda, const float* beta, const float* b, int ldb,
                           float* c, int ldc) {
  return geam("cublasSgeam", h, transa, transb, m, n, alpha, a, lda, beta, b, ldb, c, ldc);
}
cublasStatus_t cublasDgeam(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
                           const double* alpha, const double* a, int lda, const double* beta, const double* b, int ldb,
                           double* c, int ldc) {
  return geam("cublasDgeam", h, transa, transb, m, n, alpha, a, lda, beta, b, ldb, c, ldc);
}

//===- CublasLtBest.h - cuBLASLt's fastest of its top algorithms -*- C++ -*-===//
//
// The strongest cuBLAS baseline for one row-major GEMM (C = A*B [+ epilogue]):
// cuBLASLt's top-8 heuristic algorithms for the problem, each timed warm on
// the caller's stream, the fastest kept. Shared by tensorop-gpu-runner's
// plain GEMMs and its fused-epilogue GEMMs, so both compare against the same
// choice rule (issue 16: "cuBLASLt's best of its top-8").
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_GPU_CUBLASLTBEST_H
#define TENSOROP_GPU_CUBLASLTBEST_H

#include <cuda.h>
#include <cublasLt.h>
#include <nlohmann/json.hpp>

#include <cstddef>
#include <functional>
#include <string>

namespace tensorop {

/// One row-major GEMM for cuBLASLt: D (m x n) = A (m x k) * B (k x n)
/// (+ beta * C, + the epilogue). Pointers are device addresses.
struct CublasLtGemmSpec {
  int64_t m = 0, n = 0, k = 0;
  cudaDataType inType = CUDA_R_32F, outType = CUDA_R_32F;
  cublasComputeType_t compute = CUBLAS_COMPUTE_32F;
  cublasLtEpilogue_t epilogue = CUBLASLT_EPILOGUE_DEFAULT;
  CUdeviceptr bias = 0; ///< with a *_BIAS epilogue: n elements of outType
  float beta = 0;
  CUdeviceptr a = 0, b = 0, c = 0, d = 0;
};

/// Times `reps` back-to-back calls of `run` on the stream; milliseconds per
/// call.
using GpuTimeFn =
    std::function<double(const std::function<void()> &run, int reps)>;

/// The chosen cuBLASLt call. `choose` builds the descriptors, asks for the
/// top-8 heuristic algorithms (a 64 MiB workspace from `alloc`), times each
/// with `time` (2 warm calls, then 5) and keeps the fastest; "" or why it
/// could not (no algorithm, none ran). `run` then issues one call.
class CublasLtBest {
public:
  CublasLtBest() = default;
  CublasLtBest(const CublasLtBest &) = delete;
  CublasLtBest &operator=(const CublasLtBest &) = delete;
  ~CublasLtBest();

  std::string choose(cublasLtHandle_t lt, const CublasLtGemmSpec &spec,
                     CUstream stream,
                     const std::function<CUdeviceptr(size_t)> &alloc,
                     const GpuTimeFn &time);
  /// One call with the chosen algorithm; false (and `error` set) when
  /// cuBLASLt reports a failure.
  bool run(std::string &error) const;
  /// {heuristic_results, chosen, trial_ms, note}.
  const nlohmann::ordered_json &info() const { return info_; }

private:
  cublasLtHandle_t lt_ = nullptr;
  CUstream stream_ = nullptr;
  CublasLtGemmSpec spec_;
  cublasLtMatmulDesc_t desc_ = nullptr;
  cublasLtMatrixLayout_t aL_ = nullptr, bL_ = nullptr, cL_ = nullptr;
  cublasLtMatmulAlgo_t algo_{};
  CUdeviceptr workspace_ = 0;
  size_t workspaceBytes_ = 0;
  nlohmann::ordered_json info_;
};

} // namespace tensorop

#endif // TENSOROP_GPU_CUBLASLTBEST_H

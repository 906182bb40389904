//===- GpuCheck.h - How the GPU runners report a failed call ----*- C++ -*-===//
//
// The GPU runners (GpuGemmRunner, GpuConvRunner, GpuEpilogueRunner and
// tensorop-gpu-runner itself) report a failed CUDA driver or cuBLAS call
// with one message, "<call> failed: <CUDA error name>" or "<call> failed:
// cuBLAS status <n>", and exit code 2, each through its own way of failing
// (the library's fail callback, the tool's JSON error and exit). The
// messages live here once, so every runner prints the same text.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_GPU_GPUCHECK_H
#define TENSOROP_GPU_GPUCHECK_H

#include <cuda.h>

#include <string>

namespace tensorop {

/// The exit code of a failed CUDA or cuBLAS call.
constexpr int kGpuCallFailedCode = 2;

/// "<what> failed: <CUDA error name>".
inline std::string gpuCallFailure(CUresult r, const char *what) {
  const char *name = nullptr;
  cuGetErrorName(r, &name);
  return std::string(what) + " failed: " + (name ? name : "?");
}

/// "<what> failed: cuBLAS status <status>" (a cublasStatus_t).
inline std::string blasCallFailure(int status, const char *what) {
  return std::string(what) + " failed: cuBLAS status " + std::to_string(status);
}

/// Calls fail(2, message) unless `r` is CUDA_SUCCESS.
template <typename Fail>
void checkGpuCall(CUresult r, const char *what, Fail &&fail) {
  if (r != CUDA_SUCCESS)
    fail(kGpuCallFailedCode, gpuCallFailure(r, what));
}

/// Calls fail(2, message) unless `status` is CUBLAS_STATUS_SUCCESS (0).
template <typename Fail>
void checkBlasCall(int status, const char *what, Fail &&fail) {
  if (status != 0)
    fail(kGpuCallFailedCode, blasCallFailure(status, what));
}

} // namespace tensorop

#endif // TENSOROP_GPU_GPUCHECK_H

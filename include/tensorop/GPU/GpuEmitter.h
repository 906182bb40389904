//===- GpuEmitter.h - Run the NVIDIA emitter scripts ------------*- C++ -*-===//
//
// The NVIDIA emitters print a whole kernel body as PTX plus its launch
// (grid, threads, shared memory, parameters) as JSON. This runs one through
// the emitter runner and cache every emitter shares (runEmitterScript in
// tensorop/Emitters/Emitter.h) and validates the answer.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_GPU_GPUEMITTER_H
#define TENSOROP_GPU_GPUEMITTER_H

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <string>
#include <vector>

namespace mlir::tensorop {

/// One kernel parameter: a pointer to A, B or C, or the device address of a
/// tensor map of one of them.
struct GpuKernelParam {
  std::string name;   ///< "A", "B", "C", "tmapA", ...
  std::string kind;   ///< "ptr", "tensormap" or "tensormap_im2col"
  std::string tensor; ///< for tensor maps: "A" or "B"
  int64_t dtype = 0;  ///< CUtensorMapDataType
  int64_t dims[2] = {0, 0}, box[2] = {0, 0};
  int64_t strideBytes = 0, swizzle = 0;
  /// tensormap_im2col (a convolution's NHWC input): {C, W, H, N}, the
  /// bounding-box corners {W, H}, traversal strides {W, H} and the box of
  /// `channels` x `pixels`.
  int64_t nhwcDims[4] = {0, 0, 0, 0};
  int64_t lower[2] = {0, 0}, upper[2] = {0, 0}, traversal[2] = {1, 1};
  int64_t channels = 0, pixels = 0;
};

struct GpuEmittedKernel {
  std::string name, family, chip;
  std::string asmText, constraints;
  std::vector<GpuKernelParam> params;
  int64_t grid[3] = {1, 1, 1};
  /// Thread-block cluster shape; {1, 1, 1}: the kernel uses no clusters.
  int64_t cluster[3] = {1, 1, 1};
  int64_t threads = 0, sharedBytes = 0, minCtas = 0;
  int64_t ptxVersion = 80;
  llvm::json::Object answer; ///< the whole answer minus the code (for reports)
  std::string hash;
  bool fromCache = false;
};

/// Runs python_emitters/<script>.py on `spec` (or fetches the cached answer).
llvm::Expected<GpuEmittedKernel> runGpuEmitter(llvm::StringRef script,
                                               const llvm::json::Object &spec,
                                               llvm::StringRef dir,
                                               unsigned timeoutSeconds);

} // namespace mlir::tensorop

#endif // TENSOROP_GPU_GPUEMITTER_H

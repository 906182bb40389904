//===- GpuKernelLaunch.h - An emitted kernel and its launch -----*- C++ -*-===//
//
// What tensorop-gpu-apply-sketch (matmuls) and tensorop-gpu-lower-conv
// (convolutions as implicit GEMMs) share: run the sketch's emitter, put its
// PTX in a gpu.func of a new gpu.module, and launch it in place of the op.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_LIB_GPU_GPUKERNELLAUNCH_H
#define TENSOROP_LIB_GPU_GPUKERNELLAUNCH_H

#include "tensorop/GPU/GpuAdvisor.h"

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"

namespace mlir::tensorop {

/// A fused epilogue of a matmul's kernel: the steps (#tensorop.epilogue's
/// text forms) and the memrefs of its bias and residual (null when the steps
/// read none).
struct GpuEpilogueOperands {
  llvm::SmallVector<std::string> steps;
  Value bias, residual;
};

/// Emits the kernel of `sketch` (already checked against `p` and `t`) into a
/// gpu.module at the end of `anchor`'s module, and before `anchor` the
/// tensor maps and the gpu.launch_func on the memrefs `a`, `b`, `c` (the
/// operands the emitter's "ptr" parameters name; with an `epilogue`, its
/// steps go into the emitter's spec and its bias and residual are the "bias"
/// and "R" parameters). A wgmma GEMM whose A or B rows TMA cannot describe
/// (wgmmaPadding) reads padded copies: the pad kernels go into the same
/// gpu.module and are launched first, on a workspace from the runtime's
/// pool taken before and given back after (a remark says so). `anchor` is
/// left for the caller to erase.
LogicalResult emitGpuKernelLaunch(Operation *anchor,
                                  const GpuSketchChoice &sketch,
                                  GpuSketchAttr sketchAttr,
                                  const GpuGemmProblem &p, const GpuTarget &t,
                                  Value a, Value b, Value c,
                                  const GpuEpilogueOperands &epilogue,
                                  llvm::StringRef kernelName,
                                  llvm::StringRef emitterDir,
                                  unsigned emitterTimeout);

} // namespace mlir::tensorop

#endif // TENSOROP_LIB_GPU_GPUKERNELLAUNCH_H

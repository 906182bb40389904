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

/// Emits the kernel of `sketch` (already checked against `p` and `t`) into a
/// gpu.module at the end of `anchor`'s module, and before `anchor` the
/// tensor maps and the gpu.launch_func on the memrefs `a`, `b`, `c` (the
/// operands the emitter's "ptr" parameters name). `anchor` is left for the
/// caller to erase.
LogicalResult emitGpuKernelLaunch(Operation *anchor,
                                  const GpuSketchChoice &sketch,
                                  GpuSketchAttr sketchAttr,
                                  const GpuGemmProblem &p, const GpuTarget &t,
                                  Value a, Value b, Value c,
                                  llvm::StringRef kernelName,
                                  llvm::StringRef emitterDir,
                                  unsigned emitterTimeout);

} // namespace mlir::tensorop

#endif // TENSOROP_LIB_GPU_GPUKERNELLAUNCH_H

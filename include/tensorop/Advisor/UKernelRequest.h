//===- UKernelRequest.h - The emitter request of a CPU sketch ---*- C++ -*-===//
//
// One place that turns a sketch into the JSON spec its microkernel emitter
// takes, so the pass that applies it, the LLM advisor that checks a model's
// emitter and the advisor property sweep ask the emitter the same question.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_ADVISOR_UKERNELREQUEST_H
#define TENSOROP_ADVISOR_UKERNELREQUEST_H

#include "tensorop/Emitters/Emitter.h"
#include "tensorop/Targets/TargetHints.h"

namespace mlir::tensorop {
class SketchAttr;
class TargetAttr;
class UKernelSpecAttr;

/// `ldaBytes` / `ldbBytes` of an A / B read in place at a row stride known
/// only at run time (a strided view): the kernel takes the stride as an asm
/// operand, after the others (x86_gemm_fma's `a_stride_operand`,
/// `b_stride_operand`).
constexpr int64_t kRuntimeRowStride = -1;

/// The request for the microkernel of `sketch` on `hints`' target.
/// `ldaBytes` / `ldbBytes`: the row stride of an A / B read in place, 0 when
/// it is packed; either may be kRuntimeRowStride. Emitters named llm_* are
/// model-written: they run untrusted (sandboxed) from llmEmitterDir(); the
/// others from `emitterDir` ("" = the default).
EmitterRequest ukernelEmitterRequest(SketchAttr sketch,
                                     const TargetHints &hints,
                                     int64_t ldaBytes, int64_t ldbBytes,
                                     llvm::StringRef emitterDir = "",
                                     unsigned timeoutSeconds = 30);

/// The same request from its parts, for sketches other than the GEMM one
/// (a convolution's adds its tap fields to the returned spec).
EmitterRequest ukernelEmitterRequest(UKernelSpecAttr uk, TargetAttr target,
                                     int64_t mr, int64_t nr,
                                     const TargetHints &hints,
                                     int64_t ldaBytes, int64_t ldbBytes,
                                     llvm::StringRef emitterDir,
                                     unsigned timeoutSeconds);

} // namespace mlir::tensorop

#endif // TENSOROP_ADVISOR_UKERNELREQUEST_H

//===- UKernelRequest.cpp - The emitter request of a CPU sketch -----------===//

#include "tensorop/Advisor/UKernelRequest.h"
#include "tensorop/Advisor/Advisor.h"
#include "tensorop/Dialect/TensorOpDialect.h"

#include <cstdlib>

using namespace mlir;
using namespace mlir::tensorop;

EmitterRequest mlir::tensorop::ukernelEmitterRequest(
    SketchAttr sketch, const TargetHints &hints, int64_t ldaBytes,
    int64_t ldbBytes, llvm::StringRef emitterDir, unsigned timeoutSeconds) {
  return ukernelEmitterRequest(sketch.getUkernel(), sketch.getTarget(),
                               sketch.getMr(), sketch.getNr(), hints, ldaBytes,
                               ldbBytes, emitterDir, timeoutSeconds);
}

EmitterRequest mlir::tensorop::ukernelEmitterRequest(
    UKernelSpecAttr uk, TargetAttr target, int64_t mr, int64_t nr,
    const TargetHints &hints, int64_t ldaBytes, int64_t ldbBytes,
    llvm::StringRef emitterDir, unsigned timeoutSeconds) {
  EmitterRequest request;
  request.script = uk.getEmitter().str();
  request.dir = emitterDir.str();
  if (uk.getEmitter().starts_with("llm_")) {
    // Written by an LLM advisor: untrusted, runs in the sandbox.
    request.dir = llmEmitterDir();
    request.trusted = false;
    const char *allow = std::getenv("TENSOROP_ALLOW_UNSANDBOXED");
    request.allowUnsandboxed = allow && llvm::StringRef(allow) == "1";
  }
  request.timeoutSeconds = timeoutSeconds;
  request.triple = target.getTriple().str();
  request.cpu = target.getCpu().str();
  request.features = target.getFeatures().str();
  request.spec = llvm::json::Object{{"kernel", "gemm_f32"},
                                    {"isa", hints.isa},
                                    {"mr", mr},
                                    {"nr", nr},
                                    {"k_unroll", uk.getKUnroll()},
                                    {"broadcast", uk.getBroadcast()},
                                    {"prefetch_b", uk.getPrefetchB()}};
  // Only when they differ from the defaults, so the usual kernels keep
  // their specs (and cache keys).
  if (ldbBytes > 0)
    request.spec["b_stride_bytes"] = ldbBytes;
  if (ldaBytes > 0)
    request.spec["a_stride_bytes"] = ldaBytes;
  if (ldaBytes == kRuntimeRowStride) {
    request.spec["a_stride_operand"] = 1;
    ++request.numOperands;
  }
  if (ldbBytes == kRuntimeRowStride) {
    request.spec["b_stride_operand"] = 1;
    ++request.numOperands;
    // A prefetch k rows ahead would need the stride times the distance:
    // the kernel steps B's rows by the register instead.
    request.spec["prefetch_b"] = 0;
  }
  // Row prefetches only where the rows are read in place (an operand whose
  // layout does not allow it is packed, and its prefetch goes with it).
  if (ldbBytes != 0 && uk.getPrefetchBCols())
    request.spec["prefetch_b_cols"] = uk.getPrefetchBCols();
  if (ldaBytes != 0 && uk.getPrefetchA())
    request.spec["prefetch_a"] = uk.getPrefetchA();
  // RVV kernels are emitted for the VLEN the target's lanes assume (the
  // emitter's default is 128).
  if (hints.isa == "rvv" && target.getVectorBits() != 128)
    request.spec["vlen_min"] = target.getVectorBits();
  return request;
}

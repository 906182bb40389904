//===- EmitterFamily.h - The emitter family of an ISA -----------*- C++ -*-===//
//
// Internal to lib/Advisor: the GEMM and convolution advisors both name the
// shipped emitter family (python_emitters/) of a target's instruction set;
// one copy, so that they cannot name different ones.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_LIB_ADVISOR_EMITTERFAMILY_H
#define TENSOROP_LIB_ADVISOR_EMITTERFAMILY_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir::tensorop {

/// The shipped emitter family of an instruction set (TargetHints::isa).
inline std::string emitterForIsa(llvm::StringRef isa) {
  if (isa == "rvv")
    return "riscv_gemm_rvv";
  if (isa == "neon")
    return "arm_gemm_neon";
  return "x86_gemm_fma";
}

} // namespace mlir::tensorop

#endif // TENSOROP_LIB_ADVISOR_EMITTERFAMILY_H

//===- GemmModifiers.h - The BLAS-like words of a GEMM request --*- C++ -*-===//
//
// Internal to lib/Advisor: parseRequest (Request.cpp) reads a GEMM's
// operator, element type, target and shape; readGemmModifiers reads the
// modifiers gen builds entry points for (operand transposes, batch, and the
// words that ask for NAME_ex's run-time alpha/beta and leading dimensions).
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_LIB_ADVISOR_GEMMMODIFIERS_H
#define TENSOROP_LIB_ADVISOR_GEMMMODIFIERS_H

#include "tensorop/Advisor/Request.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace mlir::tensorop {

/// Reads the modifiers of a GEMM request into `r` (transposeA/B, batched,
/// batchCount) and marks the tokens it read in `understood` (one flag per
/// token). `lower` is the request in lower case and `cleaned` the same text
/// with separators blanked, into which `tokens` point (so "A^T" and "Aᵀ",
/// whose marks are separators, are still seen). Values gen would have to fix
/// at generation ("alpha=2", "lda=128"), a transpose without its operand and
/// a conflicting layout are errors with the code std::errc::not_supported
/// that name the words.
llvm::Error readGemmModifiers(llvm::StringRef lower, llvm::StringRef cleaned,
                              llvm::ArrayRef<llvm::StringRef> tokens,
                              OpRequest &r,
                              llvm::SmallVectorImpl<bool> &understood);

} // namespace mlir::tensorop

#endif // TENSOROP_LIB_ADVISOR_GEMMMODIFIERS_H

//===- KDotSketch.h - Sketches whose kernel vectorizes along K --*- C++ -*-===//
//
// A GEMM with few columns of C (N <= 8) wastes most of a 16-lane vector in
// the kernels that vectorize along N. The x86_gemm_kdot kernel vectorizes
// along K instead: each zmm holds 16 k values of a row of A or of a column
// of B, mr x nr accumulators are reduced horizontally once, after all of K.
// B's columns must then be contiguous along K: pack_b "transposed" copies
// B (K x N) once per call into an N x K buffer (a B stored N x K is read in
// place). A is read in place (pack_a "none").
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_DIALECT_KDOTSKETCH_H
#define TENSOROP_DIALECT_KDOTSKETCH_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace mlir::tensorop {

/// The emitter family of kernels vectorized along K.
constexpr llvm::StringLiteral kKDotEmitter = "x86_gemm_kdot";
/// The pack_b layout it reads: B with each column's K values contiguous.
constexpr llvm::StringLiteral kTransposedPackB = "transposed";

/// Whether an mr x nr block of x86_gemm_kdot holds its mr A vectors and
/// streams B through two registers (the nr B vectors do not fit next to
/// the mr*nr accumulators: N = 9..14). B's rows are then read once per
/// block of rows, from L1, and its transposed copy has whole cache lines
/// per row (ApplyKDotSketch.cpp).
bool kdotHoldsA(int64_t mr, int64_t nr);

/// Vector registers an mr x nr block of x86_gemm_kdot needs: mr*nr
/// accumulators, then nr B vectors and one A vector, or where A is held
/// (kdotHoldsA) mr A vectors and two B vectors.
int64_t kdotVectorRegisters(int64_t mr, int64_t nr);

} // namespace mlir::tensorop

#endif // TENSOROP_DIALECT_KDOTSKETCH_H

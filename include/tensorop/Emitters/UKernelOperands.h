//===- UKernelOperands.h - The CPU microkernel's asm operands ---*- C++ -*-===//
//
// The inline-asm operand contract between the CPU emitters and the pass, in
// one place for C++ (its Python half is UKERNEL_OPERANDS in
// python_emitters/tensorop_emit/common.py; test_x86_gemm_fma checks that the
// two agree). Operand $i of an emitted body is the i-th enumerator below, a
// 64-bit integer register tied in/out, so the body may advance it: the
// constraint string starts with "=r" once per operand, then "0".."6", then
// clobbers ("~{...}"). The lowering (LowerUKernel) passes the operands in
// this order; the assembler check (checkAssembles) gives the body this many
// scratch registers; the emitter runner rejects answers whose constraints
// do not say so.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_EMITTERS_UKERNELOPERANDS_H
#define TENSOROP_EMITTERS_UKERNELOPERANDS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace mlir::tensorop {

enum UKernelOperand : unsigned {
  kUKernelAPanel,   ///< address of the A panel (or of A's first row)
  kUKernelBPanel,   ///< address of the B panel (or of B's first row)
  kUKernelC,        ///< address of C's tile, C[r][j] at c + r*ldc + 4*j
  kUKernelKc,       ///< number of k steps
  kUKernelLdcBytes, ///< C's row stride in bytes
  kUKernelMRem,     ///< rows of C to compute, 1..mr
  kUKernelNRem,     ///< columns of C to compute, 1..nr
  kNumUKernelOperands
};

/// The operands' names, as the emitters' answers list them ("operands").
inline constexpr llvm::StringLiteral kUKernelOperandNames[] = {
    "a_panel", "b_panel", "c", "kc", "ldc_bytes", "m_rem", "n_rem"};
static_assert(sizeof(kUKernelOperandNames) / sizeof(kUKernelOperandNames[0]) ==
              kNumUKernelOperands);

/// A kernel with a fused epilogue takes one operand more, $7: the address
/// of its epilogue block (python_emitters/tensorop_emit/epilogue.py).
constexpr unsigned kUKernelEpilogueBlock = kNumUKernelOperands;

/// A kernel that stores the B it reads in place to a packed panel (the
/// emitters' `store_b_panel`) takes one operand more, $7: the panel's
/// address (no epilogue goes with it).
constexpr unsigned kUKernelBPanelOut = kNumUKernelOperands;

/// A kernel that reads A (B) in place at a row stride known only at run
/// time (the emitters' `a_stride_operand`, `b_stride_operand`) takes that
/// stride in bytes as one operand more, after the epilogue block or
/// b_panel_out where present, A's before B's (tensorop.ukernel's
/// a_stride_operand / b_stride_operand; LowerUKernel passes them).

/// Checks that `constraints` follows the contract: `numOperands`
/// (kNumUKernelOperands, or one more with an epilogue) register outputs
/// ("=r" or early-clobber "=&r"), each tied to the input of the same
/// number, then clobbers only.
llvm::Error checkUKernelConstraints(llvm::StringRef constraints,
                                    unsigned numOperands = kNumUKernelOperands);

} // namespace mlir::tensorop

#endif // TENSOROP_EMITTERS_UKERNELOPERANDS_H

//===- EpilogueSupport.h - Elementwise consumers a GEMM can fuse -*- C++ -*-===//
//
// Which elementwise consumers of a linalg.matmul's result become a fused
// epilogue (a #tensorop.epilogue on the matmul's sketch, applied by the
// microkernel as it stores C), shared by tensorop-fuse-epilogues, which
// records them, and tensorop-apply-sketch, which finds the consumer again
// after bufferization and erases it.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_TRANSFORMS_EPILOGUESUPPORT_H
#define TENSOROP_TRANSFORMS_EPILOGUESUPPORT_H

#include "tensorop/Dialect/Epilogue.h"
#include "tensorop/Dialect/TensorOpDialect.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

#include <optional>
#include <string>

namespace mlir::tensorop {

/// Unit attribute on the linalg.generic whose computation a matmul's sketch
/// now carries as its epilogue (written in place on the matmul's C).
constexpr llvm::StringLiteral kFusedEpilogueAttrName =
    "tensorop.fused_epilogue";

/// An elementwise consumer read as epilogue steps: the value the steps
/// start from is the block argument of the matmul's result (`cArg`), the
/// operand steps read `bias` (a vector along N or M) and `residual` (M x N).
struct EpilogueMatch {
  llvm::SmallVector<EpilogueStep> steps;
  int biasInput = -1;     ///< Index among the generic's inputs, or -1.
  int residualInput = -1; ///< Likewise.
  int cInput = -1;        ///< The input that is the matmul's C, or -1.
};

/// The output an epilogue's consumer works on: a matmul's M x N C (a bias
/// along N or M), or a convolution's N x OH x OW x F output (a bias per
/// output channel F, read as "bias_n": F is the implicit GEMM's N).
enum class EpilogueOutput { Matmul, ConvNhwf };

/// Reads `generic`, a consumer of `c` (the matmul's result tensor, or its C
/// memref for a consumer in place), as epilogue steps. On failure `why`
/// says what is not an epilogue (for the remark).
///
/// With `narrowOutput` (an fp32 C on an x86 AVX-512 kernel), a consumer
/// whose output is bf16 or f16 while C is f32 and whose yield is the one
/// `arith.truncf` of the running value (as importers write a bf16 model:
/// the matmul accumulates in f32, an elementwise op narrows) reads as its
/// steps followed by the output step `to_bf16` / `to_f16`; it writes its own
/// output, not C.
FailureOr<EpilogueMatch>
matchEpilogue(linalg::GenericOp generic, Value c, std::string &why,
              EpilogueOutput output = EpilogueOutput::Matmul,
              bool narrowOutput = false);

/// Makes `value` available where `producer` runs (its microkernel reads a
/// bias or residual there): true if it is defined before it, or once the
/// side-effect-free ops (and `restrict` to_tensor ops) computing it after
/// `producer`, in its block, moved before it.
bool hoistBefore(Value value, Operation *producer);

struct EmittedKernel;

/// The epilogue block of `kernel` (python_emitters/tensorop_emit/epilogue.py),
/// allocated here: bytes, 64-byte aligned, constant i as 16 copies at byte
/// 64 + 64*i; the header (addresses) is written before each call by
/// tensorop-lower-ukernel, and the kernel spills its tile into the rest, so
/// each thread needs its own.
Value emitEpilogueBlock(OpBuilder &b, Location loc,
                        const EmittedKernel &kernel);

/// The consumers tensorop-fuse-epilogues fused into a matmul or a
/// convolution (marked, in place on its output, in order), with the bias
/// and residual they read.
struct FusedChain {
  llvm::SmallVector<linalg::GenericOp> ops;
  Value bias, residual;
  /// With an output step: the last op's 16-bit output buffer.
  Value out;
  bool biasAlongN = false;
};

/// After bufferization: the chain tensorop-fuse-epilogues marked for `op`
/// (a matmul, or a convolution with `output` ConvNhwf): the marked
/// linalg.generic ops after it in its block that write `c` in place, up to
/// the first other op that mentions `c` (which may read or overwrite it).
/// Found only when each still reads as an epilogue, a residual has a unit
/// inner stride, and together they compute `epilogue`'s steps.
std::optional<FusedChain>
findFusedChain(Operation *op, Value c, EpilogueAttr epilogue,
               EpilogueOutput output = EpilogueOutput::Matmul);

/// Whether `op` may be an epilogue at all: a linalg.generic or a named
/// elementwise op (which fusion reads through its generic form).
bool isElementwiseCandidate(linalg::LinalgOp op);

/// `op` as a linalg.generic: itself, or a generalized clone inserted before
/// it (`copied` set: the caller keeps the clone or erases it). Fails when a
/// named op has no generic form.
FailureOr<linalg::GenericOp> genericForm(RewriterBase &rewriter,
                                         linalg::LinalgOp op, bool &copied);

/// The steps as a #tensorop.epilogue.
EpilogueAttr epilogueAttr(MLIRContext *ctx, llvm::ArrayRef<EpilogueStep> steps);

/// The steps of an attribute (which its verifier checked).
llvm::SmallVector<EpilogueStep> epilogueSteps(EpilogueAttr attr);

} // namespace mlir::tensorop

#endif // TENSOROP_TRANSFORMS_EPILOGUESUPPORT_H

//===- MatmulSupport.h - Which linalg.matmul ops TensorOp handles -*- C++ -*-===//

#ifndef TENSOROP_TRANSFORMS_MATMULSUPPORT_H
#define TENSOROP_TRANSFORMS_MATMULSUPPORT_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "tensorop/Advisor/Advisor.h"

namespace mlir::tensorop {

/// Classifies a linalg.matmul: on success the static problem it computes,
/// otherwise the reason it is left to the upstream lowering. Where the
/// reason is the op's tensorop.size_hint (malformed, or contradicting a
/// static dimension of a matmul with a dynamic one), `sizeHintError` is set:
/// the user asked for something that cannot be read, which the pipeline
/// reports as an error rather than falling back.
FailureOr<GemmProblem> matchSupportedMatmul(linalg::MatmulOp op,
                                            std::string &reason,
                                            bool *sizeHintError = nullptr);

/// Discardable attribute `tensorop.size_hint = array<i64: M, N, K>` on a
/// linalg.matmul with dynamic dimensions: the sizes its sketch is chosen
/// for (entries of static dimensions must equal them).
constexpr llvm::StringLiteral kSizeHintAttrName = "tensorop.size_hint";
/// The representative extent of a dynamic dimension without a size hint:
/// large enough that the advisor picks full cache tiles, which the loops
/// clamp to the runtime extent.
constexpr int64_t kDefaultDynamicExtent = 512;

/// Unit attribute on a bf16 linalg.matmul (on memrefs) whose B operand's
/// memory holds B packed once into k pairs (gen's NAME_pack_b for bf16):
/// pair row p holds (B(2p, j), B(2p+1, j)) at elements p*2S + 2j and
/// p*2S + 2j + 1, and the operand is a K x N view with strides [S, 2], so
/// that its element (2p, j) is the pair's first half. Its elements at odd
/// rows are not B's: only the sketch path, which reads the pairs in place
/// (tensorop-apply-sketch), may lower such a matmul; without a sketch the
/// pipeline stops with an error.
constexpr llvm::StringLiteral kBPairsAttrName = "tensorop.b_k_pairs";

/// The largest row stride, in bytes, of a matrix the x86 microkernel reads
/// in place (its emitter's MAX_A_STRIDE and MAX_B_STRIDE: every
/// displacement must fit in 32 bits). Rows further apart are packed.
constexpr int64_t kMaxInPlaceRowStrideBytes = int64_t(1) << 24;

/// The row stride, in elements, of a 2-D f32 memref whose rows the
/// microkernel can read in place: unit column stride and a static, positive
/// row stride of at most kMaxInPlaceRowStrideBytes. std::nullopt for any
/// other type (tensors included), with what it would need in `why`.
std::optional<int64_t> inPlaceRowStride(Type type, std::string *why = nullptr);

/// Whether `type` is a 2-D memref with unit column stride and a row stride
/// known only at run time (a strided view, gen's NAME_ex_ws): x86_gemm_fma
/// reads such rows in place with the stride as an operand
/// (`a_stride_operand`).
bool hasRuntimeRowStride(Type type);

/// Whether the target builds a GEMM with `p`'s input type: bf16 needs the
/// hints' bf16 dot product (and, with `host`, this CPU's feature for it);
/// bf16 and f16 are built for x86 targets only. The error says why not.
LogicalResult checkInputTypeOnTarget(const GemmProblem &p,
                                     const TargetHints &hints, bool host,
                                     std::string &error);

/// The identity of a GEMM in the tuning database, e.g.
/// "gemm f32 m=97 n=131 k=67 ta=0 tb=0".
std::string opSignature(const GemmProblem &p);

} // namespace mlir::tensorop

#endif

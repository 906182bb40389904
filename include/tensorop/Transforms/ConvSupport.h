//===- ConvSupport.h - Which linalg convolutions TensorOp handles -*- C++ -*-===//

#ifndef TENSOROP_TRANSFORMS_CONVSUPPORT_H
#define TENSOROP_TRANSFORMS_CONVSUPPORT_H

#include "tensorop/Advisor/ConvAdvisor.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::tensorop {

/// Classifies a linalg.conv_2d_nhwc_hwcf (on tensors or memrefs): on
/// success the static f32 problem it computes on its input as it sees it
/// (no padding), otherwise the reason it is left to the upstream lowering.
FailureOr<ConvProblem> matchSupportedConv(linalg::Conv2DNhwcHwcfOp op,
                                          std::string &reason);

/// The zero padding `pad` adds on H and W (top, bottom, left, right) when
/// the kernel can take it over: static amounts, none on N and C, and a
/// yielded value that is the constant +0.0.
std::optional<std::array<int64_t, 4>> foldableZeroPad(tensor::PadOp pad);

/// matchSupportedConv, with a foldable zero tensor.pad producer of the
/// input taken into the problem (its source's H and W, the pad as the
/// kernel's padding): the problem annotate-sketch chooses a sketch for and
/// the tuner tunes, so both key it by the same convSignature. `padding`
/// (if given) receives the folded amounts.
FailureOr<ConvProblem> matchConvWithFoldedPad(
    linalg::Conv2DNhwcHwcfOp op, std::string &reason,
    std::optional<std::array<int64_t, 4>> *padding = nullptr);

/// Whether annotate-sketch routes `op` (with `p`, its problem after
/// matchConvWithFoldedPad) to the GEMM path: 1x1, stride 1, no padding,
/// on tensors.
bool convTakesGemmPath(linalg::Conv2DNhwcHwcfOp op, const ConvProblem &p);

/// The linalg.fill with +-0.0 that produces `init` (a convolution's
/// accumulator tensor), or null: a rewrite may then start from zeros and
/// drop the fill.
linalg::FillOp zeroFillOf(Value init);

/// The linalg.fill of +-0.0 into `buffer` that runs right before `op` on
/// buffers (only allocations and views between them, which touch no
/// memory), or null: `op` may then zero `buffer` itself and drop the fill.
linalg::FillOp zeroFillBefore(Operation *op, Value buffer);

/// Why `op` (a linalg convolution other than conv_2d_nhwc_hwcf, or a
/// pooling op) stays on the upstream lowering, for its remark.
std::string unsupportedConvReason(Operation *op);

/// The tensor form of a static f32 linalg op on memrefs (IR bufferized
/// before the pipeline) for the passes that rewrite convolutions on tensors:
/// each operand buffer read through a `bufferization.to_tensor restrict`,
/// the op cloned on those tensors (its output buffer's contents are the
/// init it accumulates into, as before), the result materialized into the
/// output buffer; `op` is erased. Failure (with `reason`) leaves `op` as it
/// is: a dynamic or non-f32 operand, or an output buffer that is also an
/// input (it would be read and written through two restrict tensors).
FailureOr<linalg::LinalgOp> linalgOpOnTensors(linalg::LinalgOp op,
                                              std::string &reason);

/// Attribute annotate leaves on a convolution whose input comes from a zero
/// tensor.pad (array<i64: top, bottom, left, right>): apply folds that pad
/// into the kernel, or says why it could not.
constexpr llvm::StringLiteral kConvPaddingAttrName = "tensorop.conv_padding";

/// Unit attribute annotate adds next to kConvPaddingAttrName when the pad's
/// source is a `bufferization.to_tensor ... restrict`: the program reaches
/// that buffer only through it, so no buffer it writes (the convolution's
/// output included) aliases it, and apply may fold the pad across a fill
/// of the output that bufferization placed between the pad's copy and the
/// convolution.
constexpr llvm::StringLiteral kConvPadRestrictAttrName =
    "tensorop.conv_pad_restrict";

/// Dictionary attribute {pack = "P", size = "S"} on a convolution whose
/// filter operand is a function argument holding the filter already packed
/// (gen's NAME_prepacked): apply-conv-sketch reads that argument as the
/// packed filter (retyped to the flat packed buffer, no packing in the
/// function) and adds `func.func @P(filter HWCF, packed)`, which packs a
/// filter into that layout, and `func.func @S() -> index`, its size in
/// bytes, both from this convolution's sketch. Without a sketch the
/// argument's contents are no HWCF filter: anything else is an error.
constexpr llvm::StringLiteral kConvPrepackedFilterAttrName =
    "tensorop.prepacked_filter";

/// The two functions a tensorop.prepacked_filter mark asks for.
struct PrepackedFilterNames {
  StringAttr pack, size;
};

/// The names of `mark` ({pack = "...", size = "..."}) on `op`, or a located
/// error saying the form it must have.
FailureOr<PrepackedFilterNames> parsePrepackedFilterMark(Operation *op,
                                                         Attribute mark);

/// Success when both names are free in `module`; otherwise a located error
/// on `op` (also when there is no module).
LogicalResult checkPrepackedNamesFree(Operation *op,
                                      const PrepackedFilterNames &names,
                                      ModuleOp module);


} // namespace mlir::tensorop

#endif // TENSOROP_TRANSFORMS_CONVSUPPORT_H

//===- GpuMatmulSupport.cpp - Matmuls the GPU path takes -----------------===//

#include "tensorop/Transforms/GpuMatmulSupport.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::tensorop;

std::string mlir::tensorop::gpuElementTypeName(Type t) {
  if (t.isBF16())
    return "bf16";
  if (t.isF16())
    return "f16";
  if (t.isF32())
    return "f32";
  return "";
}

bool mlir::tensorop::isRowContiguousMemRef(MemRefType t) {
  if (!t.hasStaticShape() || t.getRank() != 2)
    return false;
  if (t.getLayout().isIdentity())
    return true;
  // A slice of a larger buffer (a batch matmul's slice): rows one after
  // the other from some offset.
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(t.getStridesAndOffset(strides, offset)))
    return false;
  return strides[1] == 1 && strides[0] == t.getDimSize(1);
}

FailureOr<GpuGemmProblem>
mlir::tensorop::matchGpuMatmul(linalg::MatmulOp op, std::string &reason) {
  auto shaped = [](Value v) -> ShapedType {
    auto t = dyn_cast<ShapedType>(v.getType());
    if (!t || !t.hasStaticShape() || t.getRank() != 2)
      return {};
    if (auto m = dyn_cast<MemRefType>(t); m && !isRowContiguousMemRef(m))
      return {};
    return t;
  };
  ShapedType at = shaped(op.getDpsInputOperand(0)->get()),
             bt = shaped(op.getDpsInputOperand(1)->get()),
             ct = shaped(op.getDpsInitOperand(0)->get());
  if (!at || !bt || !ct) {
    reason = "NVIDIA targets take linalg.matmul on static, contiguous "
             "row-major operands";
    return failure();
  }
  auto pair = [](AffineMap m, unsigned i, unsigned j) {
    if (m.getNumDims() != 3 || m.getNumResults() != 2)
      return false;
    auto d0 = dyn_cast<AffineDimExpr>(m.getResult(0));
    auto d1 = dyn_cast<AffineDimExpr>(m.getResult(1));
    return d0 && d1 && d0.getPosition() == i && d1.getPosition() == j;
  };
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  if (!pair(maps[0], 0, 2) || !pair(maps[1], 2, 1) || !pair(maps[2], 0, 1)) {
    reason = "NVIDIA targets do not support transposed or broadcast matmul "
             "operands yet";
    return failure();
  }
  GpuGemmProblem p;
  p.m = ct.getDimSize(0);
  p.n = ct.getDimSize(1);
  p.k = at.getDimSize(1);
  p.aType = gpuElementTypeName(at.getElementType());
  p.cType = gpuElementTypeName(ct.getElementType());
  if (p.aType.empty() || p.aType != gpuElementTypeName(bt.getElementType()) ||
      p.cType.empty()) {
    llvm::raw_string_ostream os(reason);
    os << "NVIDIA targets take bf16, f16 or f32 inputs (both the same) and "
          "f32, bf16 or f16 output, got '"
       << at.getElementType() << "' x '" << bt.getElementType() << "' -> '"
       << ct.getElementType() << "'";
    return failure();
  }
  if (p.aType == "f32" && p.cType != "f32") {
    reason = "f32 inputs need an f32 output";
    return failure();
  }
  p.precision = p.aType;
  if (auto prec = op->getAttrOfType<StringAttr>("tensorop.precision")) {
    if (prec.getValue() != "tf32" && prec.getValue() != p.aType) {
      reason = "tensorop.precision must be \"tf32\" (on f32 inputs) or the "
               "input type, got \"" +
               prec.getValue().str() + "\"";
      return failure();
    }
    if (prec.getValue() == "tf32" && p.aType != "f32") {
      reason = "tensorop.precision = \"tf32\" needs f32 inputs";
      return failure();
    }
    p.precision = prec.getValue().str();
  }
  if (p.m == 0 || p.n == 0 || p.k == 0) {
    reason = "empty matrices are not supported on NVIDIA targets";
    return failure();
  }
  return p;
}

FailureOr<GpuGemmProblem>
mlir::tensorop::matchGpuConv(linalg::Conv2DNhwcHwcfOp op,
                             llvm::ArrayRef<int64_t> padding,
                             std::string &reason) {
  auto shaped = [](Value v) -> ShapedType {
    auto t = dyn_cast<ShapedType>(v.getType());
    if (!t || !t.hasStaticShape() || t.getRank() != 4)
      return {};
    if (auto m = dyn_cast<MemRefType>(t); m && !m.getLayout().isIdentity())
      return {};
    return t;
  };
  ShapedType it = shaped(op.getDpsInputOperand(0)->get()),
             ft = shaped(op.getDpsInputOperand(1)->get()),
             ot = shaped(op.getDpsInitOperand(0)->get());
  if (!it || !ft || !ot) {
    reason = "NVIDIA targets take linalg.conv_2d_nhwc_hwcf on static, "
             "contiguous NHWC / HWCF / NHWF operands";
    return failure();
  }
  GpuConvGeometry g;
  g.n = it.getDimSize(0);
  g.h = it.getDimSize(1);
  g.w = it.getDimSize(2);
  g.c = it.getDimSize(3);
  g.r = ft.getDimSize(0);
  g.s = ft.getDimSize(1);
  g.f = ft.getDimSize(3);
  g.outH = ot.getDimSize(1);
  g.outW = ot.getDimSize(2);
  auto pair = [](DenseIntElementsAttr attr, int64_t &first, int64_t &second) {
    if (!attr || attr.getNumElements() != 2)
      return;
    auto values = attr.getValues<int64_t>();
    first = values[0];
    second = values[1];
  };
  pair(op.getStrides(), g.strideH, g.strideW);
  pair(op.getDilations(), g.dilationH, g.dilationW);
  if (padding.size() == 4) {
    g.padTop = padding[0];
    g.padLeft = padding[1];
    g.padBottom = padding[2];
    g.padRight = padding[3];
  }
  // The op's input is the padded one: the unpadded extents are what the
  // kernel reads.
  g.h -= g.padTop + g.padBottom;
  g.w -= g.padLeft + g.padRight;
  if (g.h < 1 || g.w < 1 || g.n < 1 || g.c < 1 || g.f < 1 ||
      ft.getDimSize(2) != g.c || ot.getDimSize(0) != g.n ||
      ot.getDimSize(3) != g.f || g.strideH < 1 || g.strideW < 1 ||
      g.dilationH < 1 || g.dilationW < 1) {
    reason = "the convolution's operand shapes do not agree";
    return failure();
  }
  GpuGemmProblem p;
  p.aType = gpuElementTypeName(it.getElementType());
  p.cType = gpuElementTypeName(ot.getElementType());
  auto prec = op->getAttrOfType<StringAttr>("tensorop.precision");
  bool tf32 = prec && prec.getValue() == "tf32";
  if (prec && !tf32 && prec.getValue() != p.aType) {
    reason = "tensorop.precision must be \"tf32\" (on f32 input and filter) "
             "or the input type, got \"" +
             prec.getValue().str() + "\"";
    return failure();
  }
  if (p.aType == "f32" && !tf32 &&
      p.aType == gpuElementTypeName(ft.getElementType())) {
    reason = "f32 convolutions run on NVIDIA tensor cores as TF32 only: mark "
             "the op tensorop.precision = \"tf32\" (or use bf16/f16 inputs)";
    return failure();
  }
  bool typesOk = tf32 ? p.aType == "f32" && p.cType == "f32"
                      : p.aType == "bf16" || p.aType == "f16";
  if (!typesOk || p.aType != gpuElementTypeName(ft.getElementType()) ||
      p.cType.empty()) {
    llvm::raw_string_ostream os(reason);
    os << "NVIDIA targets take convolutions with bf16 or f16 input and "
          "filter (both the same) and f32, bf16 or f16 output, or f32 in and "
          "out with tensorop.precision = \"tf32\", got '"
       << it.getElementType() << "' x '" << ft.getElementType() << "' -> '"
       << ot.getElementType() << "'";
    return failure();
  }
  p.precision = tf32 ? "tf32" : p.aType;
  p.m = g.n * g.outH * g.outW;
  p.n = g.f;
  p.k = g.r * g.s * g.c;
  p.conv = g;
  return p;
}

llvm::SmallVector<int64_t, 4>
mlir::tensorop::gpuConvInputPadding(linalg::Conv2DNhwcHwcfOp op) {
  auto pad = op.getDpsInputOperand(0)->get().getDefiningOp<tensor::PadOp>();
  if (!pad)
    return {0, 0, 0, 0};
  ArrayRef<int64_t> low = pad.getStaticLow(), high = pad.getStaticHigh();
  if (low.size() != 4 || high.size() != 4 ||
      llvm::any_of(low, ShapedType::isDynamic) ||
      llvm::any_of(high, ShapedType::isDynamic))
    return {0, 0, 0, 0};
  return {low[1], low[2], high[1], high[2]};
}

std::string mlir::tensorop::gpuOpSignature(const GpuGemmProblem &p) {
  if (const GpuConvGeometry *g = p.conv ? &*p.conv : nullptr)
    return llvm::formatv(
               "conv2d {0}->{1} ({2}) n={3} h={4} w={5} c={6} f={7} r={8} "
               "s={9} stride={10}x{11} dilation={12}x{13} pad={14},{15},{16},"
               "{17}",
               p.aType, p.cType, p.precision, g->n, g->h, g->w, g->c, g->f,
               g->r, g->s, g->strideH, g->strideW, g->dilationH, g->dilationW,
               g->padTop, g->padLeft, g->padBottom, g->padRight)
        .str();
  return llvm::formatv("gemm {0}->{1} ({2}) m={3} n={4} k={5}", p.aType,
                       p.cType, p.precision, p.m, p.n, p.k)
      .str();
}

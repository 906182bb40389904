//===- GpuMatmulSupport.cpp - Matmuls the GPU path takes -----------------===//

#include "tensorop/Transforms/GpuMatmulSupport.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/AffineExpr.h"
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

FailureOr<GpuGemmProblem>
mlir::tensorop::matchGpuMatmul(linalg::MatmulOp op, std::string &reason) {
  auto shaped = [](Value v) -> ShapedType {
    auto t = dyn_cast<ShapedType>(v.getType());
    if (!t || !t.hasStaticShape() || t.getRank() != 2)
      return {};
    if (auto m = dyn_cast<MemRefType>(t); m && !m.getLayout().isIdentity())
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

std::string mlir::tensorop::gpuOpSignature(const GpuGemmProblem &p) {
  return llvm::formatv("gemm {0}->{1} ({2}) m={3} n={4} k={5}", p.aType,
                       p.cType, p.precision, p.m, p.n, p.k)
      .str();
}

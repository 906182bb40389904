//===- MatmulSupport.cpp - Which linalg.matmul ops TensorOp handles -------===//

#include "tensorop/Transforms/MatmulSupport.h"

#include <limits>

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineExpr.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"

using namespace mlir;
using namespace mlir::tensorop;

/// True if `map` is (d0, d1, d2) -> (d<i>, d<j>).
static bool isDimPair(AffineMap map, unsigned i, unsigned j) {
  if (map.getNumDims() != 3 || map.getNumResults() != 2 ||
      map.getNumSymbols() != 0)
    return false;
  auto d0 = dyn_cast<AffineDimExpr>(map.getResult(0));
  auto d1 = dyn_cast<AffineDimExpr>(map.getResult(1));
  return d0 && d1 && d0.getPosition() == i && d1.getPosition() == j;
}

/// True if `v` is one panel of a stack of panels: a unit-stride slice
/// (memref.subview or tensor.extract_slice, rank-reducing) of one index of
/// the leading dimension of a 3-D buffer, from its first row and column,
/// all of its rows: how gen's fp32 NAME_prepacked and the models'
/// prepacked FFN block read a K x W panel of weights packed once. Its rows
/// are the source's last extent apart and follow each other in memory.
static bool isPanelOfStack(Value v) {
  auto check = [](ShapedType source, ArrayRef<int64_t> offsets,
                  ArrayRef<int64_t> sizes, ArrayRef<int64_t> strides) {
    return source.hasRank() && source.getRank() == 3 &&
           source.hasStaticShape() && sizes.size() == 3 && sizes[0] == 1 &&
           sizes[1] == source.getDimSize(1) &&
           !ShapedType::isDynamic(sizes[2]) &&
           sizes[2] <= source.getDimSize(2) && offsets[1] == 0 &&
           offsets[2] == 0 &&
           llvm::all_of(strides, [](int64_t s) { return s == 1; });
  };
  if (auto view = v.getDefiningOp<memref::SubViewOp>()) {
    auto source = view.getSourceType();
    return source.getLayout().isIdentity() &&
           check(source, view.getStaticOffsets(), view.getStaticSizes(),
                 view.getStaticStrides());
  }
  if (auto slice = v.getDefiningOp<tensor::ExtractSliceOp>())
    return check(slice.getSourceType(), slice.getStaticOffsets(),
                 slice.getStaticSizes(), slice.getStaticStrides());
  return false;
}

FailureOr<GemmProblem>
mlir::tensorop::matchSupportedMatmul(linalg::MatmulOp op, std::string &reason,
                                     bool *sizeHintError) {
  auto hintError = [&](std::string why) -> FailureOr<GemmProblem> {
    reason = std::move(why);
    if (sizeHintError)
      *sizeHintError = true;
    return failure();
  };
  auto shaped = [](Value v) { return dyn_cast<ShapedType>(v.getType()); };
  ShapedType a = shaped(op.getDpsInputOperand(0)->get());
  ShapedType b = shaped(op.getDpsInputOperand(1)->get());
  ShapedType c = shaped(op.getDpsInitOperand(0)->get());
  if (!a || !b || !c || !a.hasRank() || !b.hasRank() || !c.hasRank()) {
    reason = "operands are not ranked tensors or memrefs";
    return failure();
  }
  GemmProblem p;
  Type inputType = a.getElementType();
  if (inputType.isBF16())
    p.input = GemmInputType::BF16;
  else if (inputType.isF16())
    p.input = GemmInputType::F16;
  if ((!inputType.isF32() && p.input == GemmInputType::F32) ||
      b.getElementType() != inputType || !c.getElementType().isF32()) {
    llvm::raw_string_ostream os(reason);
    os << "element types other than f32 x f32 -> f32, bf16 x bf16 -> f32 "
          "and f16 x f16 -> f32 are not supported on CPU targets yet (got "
       << a.getElementType() << " x " << b.getElementType() << " -> "
       << c.getElementType() << ")";
    // A 16-bit C is a computation in that type (linalg.matmul casts A and B
    // to C's type and accumulates there); fp32 accumulation with a 16-bit
    // result is the f32 matmul and a narrowing consumer, which fuses.
    if (c.getElementType().isBF16() || c.getElementType().isF16())
      os << "; a " << c.getElementType()
         << " C accumulates in that type: for fp32 accumulation write the "
            "matmul into an f32 C and narrow it with an arith.truncf "
            "consumer (fused on x86 AVX-512)";
    return failure();
  }
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  // d0 = m, d1 = n, d2 = k.
  if (isDimPair(maps[0], 0, 2))
    p.transposeA = false;
  else if (isDimPair(maps[0], 2, 0))
    p.transposeA = true;
  else {
    reason = "the indexing map of A is neither (m, k) nor (k, m)";
    return failure();
  }
  if (isDimPair(maps[1], 2, 1))
    p.transposeB = false;
  else if (isDimPair(maps[1], 1, 2))
    p.transposeB = true;
  else {
    reason = "the indexing map of B is neither (k, n) nor (n, k)";
    return failure();
  }
  if (!isDimPair(maps[2], 0, 1)) {
    reason = "the indexing map of C is not (m, n)";
    return failure();
  }
  // bf16 and f16 operands are always packed (into k pairs, or to fp32).
  // A row stride known only at run time is the x86 kernels' operand.
  p.aRowsInPlace = !p.transposeA && p.input == GemmInputType::F32 &&
                   (inPlaceRowStride(a).has_value() || hasRuntimeRowStride(a));
  p.bPairsInPlace = op->hasAttr(kBPairsAttrName);
  p.bPanelInPlace = p.input == GemmInputType::F32 && !p.transposeB &&
                    isPanelOfStack(op.getDpsInputOperand(1)->get());
  // Each extent from whichever operand has it static.
  auto extent = [](int64_t x, int64_t y) {
    return ShapedType::isDynamic(x) ? y : x;
  };
  p.m = extent(c.getDimSize(0), a.getDimSize(p.transposeA ? 1 : 0));
  p.n = extent(c.getDimSize(1), b.getDimSize(p.transposeB ? 0 : 1));
  p.k = extent(a.getDimSize(p.transposeA ? 0 : 1),
               b.getDimSize(p.transposeB ? 1 : 0));
  p.dynamicM = ShapedType::isDynamic(p.m);
  p.dynamicN = ShapedType::isDynamic(p.n);
  p.dynamicK = ShapedType::isDynamic(p.k);
  // A hint that cannot be read is refused on any matmul (on a static one
  // a well-formed hint is only unused).
  SmallVector<int64_t, 3> hint(3, kDefaultDynamicExtent);
  if (Attribute attr = op->getAttr(kSizeHintAttrName)) {
    auto sizes = dyn_cast<DenseI64ArrayAttr>(attr);
    if (!sizes || sizes.size() != 3 ||
        llvm::any_of(sizes.asArrayRef(), [](int64_t v) { return v <= 0; })) {
      std::string got;
      llvm::raw_string_ostream os(got);
      os << attr;
      return hintError("tensorop.size_hint must be array<i64: M, N, K> with "
                       "positive entries (got " + got + ")");
    }
    hint.assign(sizes.asArrayRef().begin(), sizes.asArrayRef().end());
  }
  if (p.isDynamic()) {
    // The representative size the sketch is chosen for.
    // A representative size beyond 32 bits overflowed the advisor's tile
    // arithmetic ("target x86-avx512 has too few vector registers").
    for (int64_t v : hint)
      if (v > std::numeric_limits<int32_t>::max())
        return hintError("tensorop.size_hint entry " + std::to_string(v) +
                         " is too large (at most " +
                         std::to_string(std::numeric_limits<int32_t>::max()) +
                         ")");
    int64_t *dims[] = {&p.m, &p.n, &p.k};
    const char *names[] = {"M", "N", "K"};
    for (int i = 0; i < 3; ++i) {
      if (ShapedType::isDynamic(*dims[i])) {
        *dims[i] = hint[i];
        continue;
      }
      if (op->hasAttr(kSizeHintAttrName) && hint[i] != *dims[i])
        return hintError(std::string("tensorop.size_hint gives ") + names[i] +
                         "=" + std::to_string(hint[i]) + " but " + names[i] +
                         " is static, " + std::to_string(*dims[i]));
    }
    return p;
  }
  if (p.m == 0 || p.n == 0 || p.k == 0) {
    reason = "empty matrices are left to the upstream lowering";
    return failure();
  }
  return p;
}

std::optional<int64_t> mlir::tensorop::inPlaceRowStride(Type type,
                                                        std::string *why) {
  auto refuse = [&](StringRef reason) -> std::optional<int64_t> {
    if (why)
      *why = reason.str();
    return std::nullopt;
  };
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref || memref.getRank() != 2)
    return refuse("a 2-D memref");
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(memref.getStridesAndOffset(strides, offset)) || strides[1] != 1 ||
      ShapedType::isDynamic(strides[0]) || strides[0] <= 0)
    return refuse("unit column stride and a static, positive row stride");
  // Compared in elements: the stride in bytes could overflow.
  if (strides[0] > kMaxInPlaceRowStrideBytes / 4)
    return refuse(("rows at most " + Twine(kMaxInPlaceRowStrideBytes) +
                   " bytes apart (the microkernel's displacements), not " +
                   Twine(strides[0]) + " elements")
                      .str());
  return strides[0];
}

bool mlir::tensorop::hasRuntimeRowStride(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  SmallVector<int64_t> strides;
  int64_t offset;
  return memref && memref.getRank() == 2 &&
         succeeded(memref.getStridesAndOffset(strides, offset)) &&
         strides[1] == 1 && ShapedType::isDynamic(strides[0]);
}

LogicalResult mlir::tensorop::checkInputTypeOnTarget(const GemmProblem &p,
                                                    const TargetHints &hints,
                                                    bool host,
                                                    std::string &error) {
  if (p.input == GemmInputType::F32)
    return success();
  if (hints.isa != "avx512" && hints.isa != "avx2") {
    error = std::string(gemmInputTypeName(p.input)) +
            " GEMMs are built for x86 targets only (x86-avx512 for bf16; "
            "x86-avx512 or x86-avx2 for f16), not '" +
            hints.name + "'";
    return failure();
  }
  if (p.input != GemmInputType::BF16)
    return success();
  if (!hints.hasBf16Dot()) {
    error = "bf16 GEMMs need a bf16 dot product with fp32 accumulation "
            "(AVX512_BF16's vdpbf16ps); target '" +
            hints.name + "' has none (" + hints.path +
            " lists no bf16_dot); use target=x86-avx512 on a CPU with "
            "avx512bf16";
    return failure();
  }
  if (host && !llvm::sys::getHostCPUFeatures().lookup(hints.bf16DotFeature)) {
    error = "bf16 GEMMs need " + hints.bf16DotInstruction + " (" +
            hints.bf16DotFeature + "), which this CPU (" +
            llvm::sys::getHostCPUName().str() +
            ") lacks; CPUs that have it: " + hints.bf16DotCpus;
    return failure();
  }
  return success();
}

std::string mlir::tensorop::opSignature(const GemmProblem &p) {
  return "gemm " + std::string(gemmInputTypeName(p.input)) +
         " m=" + std::to_string(p.m) + " n=" + std::to_string(p.n) +
         " k=" + std::to_string(p.k) + " ta=" + (p.transposeA ? "1" : "0") +
         " tb=" + (p.transposeB ? "1" : "0");
}

//===- ApplySketch.cpp - Tile, pack and microkernel-ize a GEMM ------------===//
//
// The sketch becomes loops in three steps:
//  1. scf::tileUsingSCF tiles the memref linalg.matmul by (mc, nc, kc) in the
//     sketch's loop order.
//  2. The A block (mc x kc) and B block (kc x nc) are packed into k-major
//     panels with upstream linalg ops on subviews, each at the outermost loop
//     level where its block is fixed (so a block is packed once, not once per
//     inner iteration). Packing absorbs transposed operands: it copies where
//     the source already runs along the panel and transposes where not.
//  3. The inner block is replaced by two register-block loops of
//     tensorop.ukernel ops, whose code an emitter script prints.
//
// With pack_b = "none" step 2 packs only A: the microkernel reads the B
// tile in place with B's row stride, which is static and therefore
// compiled into its code (masked loads keep the N edge inside B). Likewise
// pack_a = "none" skips packing A: the microkernel reads m_rem rows of the
// A tile in place with A's static row stride (an M edge reads no row past
// them).
//
// With `threads` > 1 the GEMM is first split into that many chunks of C
// (rows or columns) by an scf.forall, and steps 1-3 build the loop nest
// inside its body for one chunk. Each thread thus packs its own A and B
// blocks into buffers allocated in the body: no packed block is shared, so
// no barrier is needed. (BLIS threads splitting the ic loop share one
// packed B panel and wait for each other at every panel; here each thread
// packs the B it uses itself, paying the copies instead of the waits.)
//
// pack_b = "kmajor_nr_fused" packs B into the same panels without a
// packing pass: the first row tile of each B block calls a kernel that
// reads B in place and stores the vectors it loads into the block's panels
// (x86_gemm_fma's store_b_panel), and the block's other row tiles read
// them. Each tile's kernel sequence over C is the same as with
// "kmajor_nr" (only where B comes from changes), so C is bit-identical.
//
// pack_b = "kmajor_nr_shared" is the BLIS way (emitSharedBNest): the k and
// n tile loops stay outside the threads, and in each (k, n) block one
// scf.forall packs the B block into a single buffer (the threads splitting
// its panels) and a second runs the threads' chunks of C on it; the forall
// joins are the barriers.
//
//===----------------------------------------------------------------------===//

#include "KDotGemm.h"

#include "tensorop/Advisor/Advisor.h"
#include "tensorop/Advisor/SharedPackB.h"
#include "tensorop/Dialect/FusedPackB.h"
#include "tensorop/Advisor/UKernelRequest.h"
#include "tensorop/Emitters/Emitter.h"
#include "tensorop/Dialect/KDotSketch.h"
#include "tensorop/Emitters/UKernelOperands.h"
#include "tensorop/Transforms/ConvSupport.h"
#include "tensorop/Transforms/EpilogueSupport.h"
#include "tensorop/Support/IntMath.h"
#include "tensorop/Targets/PassHints.h"
#include "tensorop/Transforms/MatmulSupport.h"
#include "tensorop/Transforms/Passes.h"

#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Utils/VectorUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/TilingInterface.h"

#include "llvm/ADT/StringExtras.h"

#include <cstdlib>
#include <deque>

namespace mlir::tensorop {
#define GEN_PASS_DEF_TENSOROPAPPLYSKETCH
#include "tensorop/Transforms/Passes.h.inc"
} // namespace mlir::tensorop

using namespace mlir;
using namespace mlir::tensorop;

namespace {
/// Index arithmetic helpers on a builder at a fixed location.
struct IndexMath {
  OpBuilder &b;
  Location loc;
  Value c(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value mul(Value x, int64_t y) {
    return arith::MulIOp::create(b, loc, x, c(y));
  }
  Value div(Value x, int64_t y) {
    return arith::DivUIOp::create(b, loc, x, c(y));
  }
  Value ceilDiv(Value x, int64_t y) {
    return arith::CeilDivUIOp::create(b, loc, x, c(y));
  }
  Value min(Value x, Value y) { return arith::MinSIOp::create(b, loc, x, y); }
  /// min(tile, extent - iv): the size of the tile starting at `iv`.
  Value tileSize(Value iv, int64_t tile, Value extent) {
    return min(c(tile), sub(extent, iv));
  }
};

/// A 2-D subview [offsets][sizes] with unit strides, rank-reduced from a
/// higher-rank source when `source` has more dimensions.
Value subview2D(OpBuilder &b, Location loc, Value source,
                ArrayRef<OpFoldResult> offsets, ArrayRef<OpFoldResult> sizes) {
  auto srcType = cast<MemRefType>(source.getType());
  SmallVector<OpFoldResult> strides(offsets.size(), b.getIndexAttr(1));
  if (srcType.getRank() == 2)
    return memref::SubViewOp::create(b, loc, source, offsets, sizes, strides);
  SmallVector<int64_t> shape;
  for (OpFoldResult s : sizes.take_back(2)) {
    std::optional<int64_t> cst = getConstantIntValue(s);
    shape.push_back(cst ? *cst : ShapedType::kDynamic);
  }
  MemRefType type = memref::SubViewOp::inferRankReducedResultType(
      shape, srcType, offsets, sizes, strides);
  return memref::SubViewOp::create(b, loc, type, source, offsets, sizes,
                                   strides);
}

/// A 1-D subview [offset, offset + size) with unit stride.
Value subview1D(OpBuilder &b, Location loc, Value source, OpFoldResult offset,
                OpFoldResult size) {
  return memref::SubViewOp::create(b, loc, source, ArrayRef{offset},
                                   ArrayRef{size},
                                   ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
}

/// `v` (a scalar or vector of f16) extended to f32; f32 values as they are.
/// f16 inputs are converted once, when packed (F16C's vcvtph2ps where the
/// target has it), so the fp32 microkernel runs on them.
Value convertToF32(OpBuilder &b, Location loc, Value v) {
  Type elem = getElementTypeOrSelf(v.getType());
  if (elem.isF32())
    return v;
  Type f32 = b.getF32Type();
  Type type = f32;
  if (auto vec = dyn_cast<VectorType>(v.getType()))
    type = vec.clone(f32);
  return arith::ExtFOp::create(b, loc, type, v);
}

/// dst = transpose(src) as a linalg.generic whose loops run along src's rows
/// (the contiguous direction of the source), so the lowered loop reads
/// unit-stride; linalg.transpose would iterate over dst and read with a
/// stride of one source row per element, which measured 3-4x slower here.
void emitTransposeCopy(OpBuilder &b, Location loc, Value src, Value dst) {
  MLIRContext *ctx = b.getContext();
  AffineExpr d0 = getAffineDimExpr(0, ctx), d1 = getAffineDimExpr(1, ctx);
  AffineMap srcMap = AffineMap::get(2, 0, {d0, d1}, ctx);
  AffineMap dstMap = AffineMap::get(2, 0, {d1, d0}, ctx);
  linalg::GenericOp::create(
      b, loc, ValueRange{src}, ValueRange{dst},
      ArrayRef<AffineMap>{srcMap, dstMap},
      ArrayRef<utils::IteratorType>{utils::IteratorType::parallel,
                                    utils::IteratorType::parallel},
      [](OpBuilder &nb, Location nloc, ValueRange args) {
        linalg::YieldOp::create(nb, nloc, convertToF32(nb, nloc, args[0]));
      });
}

/// dst = src, converting f16 to f32 on the way (a linalg.copy when the
/// element types agree).
void emitCopy(OpBuilder &b, Location loc, Value src, Value dst) {
  if (cast<MemRefType>(src.getType()).getElementType() ==
      cast<MemRefType>(dst.getType()).getElementType()) {
    linalg::CopyOp::create(b, loc, src, dst);
    return;
  }
  MLIRContext *ctx = b.getContext();
  AffineMap id = AffineMap::getMultiDimIdentityMap(2, ctx);
  linalg::GenericOp::create(
      b, loc, ValueRange{src}, ValueRange{dst}, ArrayRef<AffineMap>{id, id},
      ArrayRef<utils::IteratorType>{utils::IteratorType::parallel,
                                    utils::IteratorType::parallel},
      [](OpBuilder &nb, Location nloc, ValueRange args) {
        linalg::YieldOp::create(nb, nloc, convertToF32(nb, nloc, args[0]));
      });
}

/// Everything the packing and microkernel code needs about one GEMM.
struct GemmPlan {
  GemmProblem p;
  int64_t mc, nc, kc, mr, nr;
  Value a, b, c;             ///< The operands (one thread's chunk of them).
  Value mExt, nExt, kExt;    ///< Extents the loop nest covers (the chunk's).
  /// M, N, K of the whole GEMM: constants, or memref.dim values for
  /// dynamic dimensions.
  OpFoldResult fullExt[3];
  Value packA, packB;        ///< [mc/mr][kc][mr] and [nc/nr][kc][nr].
  bool unpackedA = false;    ///< pack_a = "none": no packA, A read in place.
  /// A read in place at a run-time row stride: the kernels take it as an
  /// operand (tensorop.ukernel's a_stride_operand).
  bool aStrideOperand = false;
  bool bStrideOperand = false; ///< Likewise B (b_stride_operand).
  bool unpackedB = false;    ///< pack_b = "none": no packB, B read in place.
  Value packAFlat;           ///< packA collapsed to one dimension.
  /// A fused epilogue: the kernel that applies it (after the last K panel),
  /// its block, and the bias / residual it reads (one thread's chunk).
  const EmittedKernel *epilogueKernel = nullptr;
  Value epilogueBlock, bias, residual;
  /// With a tail kernel too: the tail's own epilogue kernel and its block.
  const EmittedKernel *epilogueTailKernel = nullptr;
  Value epilogueTailBlock;
  /// With an output step (to_bf16 / to_f16): the 16-bit output the last K
  /// block's kernel writes; C (f32) then holds the partial sums of the K
  /// blocks before.
  Value out;
  bool biasAlongN = false;
  /// With a tail kernel: the columns before the last, narrower register
  /// block, and that block's columns (N = tailFrom + tailCols).
  int64_t tailFrom = 0, tailCols = 0;
  Value packBFlat;           ///< packB collapsed (bf16 with B transposed).
  /// bf16: packA and packB hold i32 k pairs, [mc/mr][kc2][mr] and
  /// [nc/nr][kc2][nr] with kc2 = ceil(kc/2) (microkernel gemm_bf16).
  /// f16: converted to fp32 while packed (the fp32 microkernel).
  bool bf16Pairs() const { return p.input == GemmInputType::BF16; }
  /// Where the current C tile starts (its row and column in C, A's rows,
  /// B's columns, and in the bias / residual / output operands) and the
  /// first k of its K block: the fused epilogue's operands are read there
  /// and it runs once ivK + kc reaches K.
  Value tileRow, tileCol, tileK;
  /// pack_b = "kmajor_nr_fused": the kernel that reads B in place and
  /// stores its panel (the form of the kernel being emitted), and whether
  /// the current cache tile is the first to use its B block (then its
  /// first row tile calls fusedKernel).
  const EmittedKernel *fusedKernel = nullptr;
  /// Micro order "nm" with the column prefetches spread over P row blocks
  /// (blocking.few_rows_prefetch_spread): the kernels of phases 1..P-1,
  /// run by row blocks b with b mod P = phase (phase 0: the plan's kernel).
  SmallVector<const EmittedKernel *> otherRowsKernels;
  Value firstForB;
};

/// The operands of one cache tile (views of A, B and C) that the
/// register-block loops run over.
struct TileOperands {
  Value a, b, c;
};

/// k values one vectorized A-packing step moves per row.
constexpr int64_t kPackAChunk = 16;

/// A masked vector.transfer_read of `type` at `indices`; lanes outside the
/// mask read as zero (which is how edge panels get their zero padding).
Value maskedRead(OpBuilder &b, Location loc, VectorType type, Value source,
                 ValueRange indices, ArrayRef<OpFoldResult> maskSizes) {
  auto srcType = cast<MemRefType>(source.getType());
  Value mask = vector::CreateMaskOp::create(
      b, loc, VectorType::get(type.getShape(), b.getI1Type()), maskSizes);
  Value pad = arith::ConstantOp::create(
      b, loc, cast<TypedAttr>(b.getZeroAttr(srcType.getElementType())));
  AffineMap map = vector::getTransferMinorIdentityMap(srcType, type);
  SmallVector<bool> inBounds(type.getRank(), false);
  return vector::TransferReadOp::create(
      b, loc, type, source, indices, AffineMapAttr::get(map), pad, mask,
      b.getBoolArrayAttr(inBounds));
}

void maskedWrite(OpBuilder &b, Location loc, Value vec, Value dest,
                 ValueRange indices, ArrayRef<OpFoldResult> maskSizes) {
  auto type = cast<VectorType>(vec.getType());
  Value mask = vector::CreateMaskOp::create(
      b, loc, VectorType::get(type.getShape(), b.getI1Type()), maskSizes);
  auto write = vector::TransferWriteOp::create(b, loc, vec, dest, indices);
  write.getMaskMutable().assign(mask);
}

/// Packs a row-major A block with vectors: mr rows x 16 k values are read
/// (rows past the block masked to zero), transposed in registers and written
/// as 16*mr contiguous floats of the panel. Scalar loops here cost about 10%
/// of a 1024^3 GEMM; this keeps packing to a few percent.
void emitPackAVectorized(OpBuilder &b, Location loc, const GemmPlan &plan,
                         Value p, Value row, Value ivK, Value h, Value sk) {
  IndexMath im{b, loc};
  auto kLoop = scf::ForOp::create(b, loc, im.c(0), sk, im.c(kPackAChunk));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(kLoop.getBody());
  Value kk = kLoop.getInductionVar();
  Value kl = im.min(im.c(kPackAChunk), im.sub(sk, kk));
  Type f32 = b.getF32Type();
  Type srcElem = cast<MemRefType>(plan.a.getType()).getElementType();
  auto tileType = VectorType::get({plan.mr, kPackAChunk}, srcElem);
  auto flatType = VectorType::get({kPackAChunk * plan.mr}, f32);
  // Panel p, row kk of the flat [mc/mr][kc][mr] buffer.
  Value base = im.mul(im.add(im.mul(p, plan.kc), kk), plan.mr);
  auto transposeFlat = [&](Value tile) -> Value {
    tile = convertToF32(b, loc, tile);
    Value t =
        vector::TransposeOp::create(b, loc, tile, ArrayRef<int64_t>{1, 0});
    return vector::ShapeCastOp::create(b, loc, flatType, t);
  };
  // Full chunks (all mr rows, 16 k values) need no masks; materializing a
  // dynamic 96-lane mask costs more than the copy itself.
  Value fullK = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, kl,
                                      im.c(kPackAChunk));
  Value fullM = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, h,
                                      im.c(plan.mr));
  Value full = arith::AndIOp::create(b, loc, fullK, fullM);
  auto ifOp = scf::IfOp::create(b, loc, full, /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    Value pad = arith::ConstantOp::create(
        b, loc, cast<TypedAttr>(b.getZeroAttr(srcElem)));
    Value tile = vector::TransferReadOp::create(
        b, loc, tileType, plan.a, ValueRange{row, im.add(ivK, kk)}, pad,
        ArrayRef<bool>{true, true});
    auto write = vector::TransferWriteOp::create(b, loc, transposeFlat(tile),
                                                 plan.packAFlat, base);
    write.setInBoundsAttr(b.getBoolArrayAttr({true}));
    b.setInsertionPointToStart(ifOp.elseBlock());
    Value edge = maskedRead(b, loc, tileType, plan.a, {row, im.add(ivK, kk)},
                            {h, kl});
    maskedWrite(b, loc, transposeFlat(edge), plan.packAFlat, {base},
                {OpFoldResult(im.mul(kl, plan.mr))});
  }
}

/// Packs a row-major B block row by row: nr columns read with a mask (zero
/// past the block) and written whole.
void emitPackBVectorized(OpBuilder &b, Location loc, const GemmPlan &plan,
                         Value q, Value col, Value ivK, Value w, Value sk) {
  IndexMath im{b, loc};
  Type srcElem = cast<MemRefType>(plan.b.getType()).getElementType();
  auto type = VectorType::get({plan.nr}, srcElem);
  // Full panels (w == nr) read without a mask. The masked read must also
  // check the row's bounds, and where B's width is not a constant (one
  // thread's column chunk) the x86 code for that mask, rebuilt for every
  // row, took about 40% of a 127x1000x513 GEMM.
  Value full = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, w,
                                     im.c(plan.nr));
  auto ifOp = scf::IfOp::create(b, loc, full, /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  for (bool masked : {false, true}) {
    b.setInsertionPointToStart(masked ? ifOp.elseBlock() : ifOp.thenBlock());
    auto kLoop = scf::ForOp::create(b, loc, im.c(0), sk, im.c(1));
    b.setInsertionPointToStart(kLoop.getBody());
    Value k = kLoop.getInductionVar();
    Value row = im.add(ivK, k);
    Value v;
    if (masked) {
      v = maskedRead(b, loc, type, plan.b, {row, col}, {w});
    } else {
      Value pad = arith::ConstantOp::create(
          b, loc, cast<TypedAttr>(b.getZeroAttr(srcElem)));
      v = vector::TransferReadOp::create(b, loc, type, plan.b,
                                         ValueRange{row, col}, pad,
                                         ArrayRef<bool>{true});
    }
    v = convertToF32(b, loc, v);
    auto write = vector::TransferWriteOp::create(b, loc, v, plan.packB,
                                                 ValueRange{q, k, im.c(0)});
    write.setInBoundsAttr(b.getBoolArrayAttr({true}));
  }
}

/// Packs one panel of a bf16 block into k pairs, element by element (any
/// operand layout; edges): panel[kp][x] = src(x, 2kp) | src(x, 2kp+1) << 16
/// as i32 (the low half first, as vdpbf16ps reads it), for pairs kp from
/// `firstPair` on, x < `width`; zero for x >= `valid` and for k >= sk (an
/// odd K's last pair). `at(x, k)` gives the source indices of element (x, k)
/// of the block. bf16 values are only loaded and bitcast to i16: x86
/// without AVX512_BF16 legalizes bf16 vector selects and masked loads
/// through fp32 and a __truncsfbf2 libcall, which a generated object must
/// not need.
void emitPackPairsScalar(
    OpBuilder &b, Location loc, Value buffer, Value panel, Value src,
    int64_t width, Value valid, Value sk, Value firstPair,
    function_ref<SmallVector<Value>(Value x, Value k)> at) {
  IndexMath im{b, loc};
  Type i16 = b.getI16Type(), i32 = b.getI32Type();
  auto pairLoop = scf::ForOp::create(b, loc, firstPair, im.ceilDiv(sk, 2),
                                     im.c(1));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(pairLoop.getBody());
  Value kp = pairLoop.getInductionVar();
  auto xLoop = scf::ForOp::create(b, loc, im.c(0), im.c(width), im.c(1));
  b.setInsertionPointToStart(xLoop.getBody());
  Value x = xLoop.getInductionVar();
  Value xIn =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, x, valid);
  auto half = [&](Value k) -> Value {
    Value kIn =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, k, sk);
    Value in = arith::AndIOp::create(b, loc, xIn, kIn);
    auto ifOp = scf::IfOp::create(b, loc, TypeRange{i32}, in,
                                  /*withElseRegion=*/true);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    Value v = memref::LoadOp::create(b, loc, src, at(x, k));
    Value bits = arith::BitcastOp::create(b, loc, i16, v);
    scf::YieldOp::create(b, loc,
                         ValueRange{arith::ExtUIOp::create(b, loc, i32, bits)});
    b.setInsertionPointToStart(ifOp.elseBlock());
    scf::YieldOp::create(b, loc, ValueRange{arith::ConstantOp::create(
                                     b, loc, b.getI32IntegerAttr(0))});
    return ifOp.getResult(0);
  };
  Value k0 = im.mul(kp, 2);
  Value lo = half(k0);
  Value hi = half(im.add(k0, im.c(1)));
  Value sixteen = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(16));
  Value pair = arith::OrIOp::create(
      b, loc, lo, arith::ShLIOp::create(b, loc, hi, sixteen));
  memref::StoreOp::create(b, loc, pair, buffer, ValueRange{panel, kp, x});
}

/// Packs a bf16 panel whose k values run along the source's rows (A stored
/// M x K, or B stored N x K as in x * W^T) into k pairs with vectors: a
/// pair's two bf16 are adjacent, so `width` rows x 32 k values read as
/// width x 16 i32 pairs, transposed like fp32 (emitPackAVectorized) and
/// written as 16*width contiguous pairs into `flat` (the panel buffer
/// collapsed). Only whole panels (h == width) and whole 32-value chunks are
/// read as vectors (unmasked: see emitPackPairsScalar for why); the rest
/// goes through the scalar packer.
void emitPackRowPairsVectorized(OpBuilder &b, Location loc,
                                const GemmPlan &plan, Value src, Value flat,
                                int64_t mr, Value p, Value row, Value ivK,
                                Value h, Value sk,
                                function_ref<void(Value, Value)> scalarPack) {
  IndexMath im{b, loc};
  constexpr int64_t chunkK = 2 * kPackAChunk;
  Type bf16 = b.getBF16Type(), i32 = b.getI32Type();
  Value fullM = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, h,
                                      im.c(mr));
  auto ifOp = scf::IfOp::create(b, loc, fullM, /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.elseBlock());
  scalarPack(h, im.c(0));
  b.setInsertionPointToStart(ifOp.thenBlock());
  Value fullK = im.mul(im.div(sk, chunkK), chunkK);
  auto kLoop = scf::ForOp::create(b, loc, im.c(0), fullK, im.c(chunkK));
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(kLoop.getBody());
    Value kk = kLoop.getInductionVar();
    Value base =
        im.mul(im.add(im.mul(p, (plan.kc + 1) / 2), im.div(kk, 2)), mr);
    Value pad = arith::ConstantOp::create(
        b, loc, cast<TypedAttr>(b.getZeroAttr(bf16)));
    Value tile = vector::TransferReadOp::create(
        b, loc, VectorType::get({mr, chunkK}, bf16), src,
        ValueRange{row, im.add(ivK, kk)}, pad, ArrayRef<bool>{true, true});
    // Pairs become i32 words at once: x86 shuffles bf16 vectors through
    // the stack, element by element.
    Value m = vector::BitCastOp::create(
        b, loc, VectorType::get({mr, kPackAChunk}, i32), tile);
    Value t = vector::TransposeOp::create(b, loc, m, ArrayRef<int64_t>{1, 0});
    Value out = vector::ShapeCastOp::create(
        b, loc, VectorType::get({kPackAChunk * mr}, i32), t);
    auto write = vector::TransferWriteOp::create(b, loc, out, flat, base);
    write.setInBoundsAttr(b.getBoolArrayAttr({true}));
  }
  scalarPack(h, im.div(fullK, 2));
}

/// Packs a row-major bf16 B panel into k pairs with vectors: rows 2kp and
/// 2kp+1 (nr columns each) interleaved into nr pairs; an odd K's last pair
/// takes zeros for its second row. Whole panels (w == nr) only, read
/// unmasked; edge panels go through the scalar packer.
void emitPackBPairsVectorized(OpBuilder &b, Location loc, const GemmPlan &plan,
                              Value q, Value col, Value ivK, Value w,
                              Value sk,
                              function_ref<void(Value, Value)> scalarPack) {
  IndexMath im{b, loc};
  Type bf16 = b.getBF16Type(), i32 = b.getI32Type();
  auto type = VectorType::get({plan.nr}, bf16);
  auto pairType = VectorType::get({plan.nr}, i32);
  Value pairs = im.div(sk, 2);
  Value full = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, w,
                                     im.c(plan.nr));
  auto ifOp = scf::IfOp::create(b, loc, full, /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.elseBlock());
  scalarPack(w, im.c(0));
  b.setInsertionPointToStart(ifOp.thenBlock());
  auto readRow = [&](Value row) -> Value {
    Value pad = arith::ConstantOp::create(
        b, loc, cast<TypedAttr>(b.getZeroAttr(bf16)));
    return vector::TransferReadOp::create(b, loc, type, plan.b,
                                          ValueRange{row, col}, pad,
                                          ArrayRef<bool>{true});
  };
  // Interleaved as i16: x86 shuffles bf16 vectors through the stack,
  // element by element.
  auto i16Type = VectorType::get({plan.nr}, b.getI16Type());
  auto writePair = [&](Value lo, Value hi, Value kp) {
    lo = vector::BitCastOp::create(b, loc, i16Type, lo);
    hi = vector::BitCastOp::create(b, loc, i16Type, hi);
    Value both = vector::InterleaveOp::create(b, loc, lo, hi);
    Value v = vector::BitCastOp::create(b, loc, pairType, both);
    auto write = vector::TransferWriteOp::create(b, loc, v, plan.packB,
                                                 ValueRange{q, kp, im.c(0)});
    write.setInBoundsAttr(b.getBoolArrayAttr({true}));
  };
  auto kLoop = scf::ForOp::create(b, loc, im.c(0), pairs, im.c(1));
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(kLoop.getBody());
    Value kp = kLoop.getInductionVar();
    Value row = im.add(ivK, im.mul(kp, 2));
    writePair(readRow(row), readRow(im.add(row, im.c(1))), kp);
  }
  // Odd K: the last row pairs with zeros.
  Value odd = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                    im.mul(pairs, 2), sk);
  auto tail = scf::IfOp::create(b, loc, odd, /*withElseRegion=*/false);
  b.setInsertionPointToStart(tail.thenBlock());
  Value zeros = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(type, b.getZeroAttr(bf16)));
  writePair(readRow(im.add(ivK, im.sub(sk, im.c(1)))), zeros, pairs);
}

/// Packs the A block at (ivM, ivK) into packA: panel p holds rows
/// [p*mr, p*mr+mr) of the block stored k-major; rows past the block are zero.
void emitPackA(OpBuilder &b, Location loc, const GemmPlan &plan, Value ivM,
               Value ivK) {
  IndexMath im{b, loc};
  Value sm = im.tileSize(ivM, plan.mc, plan.mExt);
  Value sk = im.tileSize(ivK, plan.kc, plan.kExt);
  Value zero = im.c(0), one = im.c(1);
  Value numPanels = im.ceilDiv(sm, plan.mr);
  auto loop = scf::ForOp::create(b, loc, zero, numPanels, one);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value p = loop.getInductionVar();
  Value i0 = im.mul(p, plan.mr);
  Value h = im.min(im.c(plan.mr), im.sub(sm, i0));
  Value row = im.add(ivM, i0);
  if (plan.bf16Pairs()) {
    bool t = plan.p.transposeA;
    auto scalarPack = [&](Value valid, Value firstPair) {
      emitPackPairsScalar(b, loc, plan.packA, p, plan.a, plan.mr, valid, sk,
                          firstPair,
                          [&](Value x, Value k) -> SmallVector<Value> {
                            Value r = im.add(row, x), kk = im.add(ivK, k);
                            return t ? SmallVector<Value>{kk, r}
                                     : SmallVector<Value>{r, kk};
                          });
    };
    if (t)
      scalarPack(h, im.c(0));
    else
      emitPackRowPairsVectorized(b, loc, plan, plan.a, plan.packAFlat,
                                 plan.mr, p, row, ivK, h, sk, scalarPack);
    return;
  }
  if (!plan.p.transposeA) {
    emitPackAVectorized(b, loc, plan, p, row, ivK, h, sk);
    return;
  }
  Value dst = subview2D(b, loc, plan.packA, {p, b.getIndexAttr(0),
                                             b.getIndexAttr(0)},
                        {b.getIndexAttr(1), sk, h});
  // A is stored K x M: rows of the panel are already contiguous.
  Value src = subview2D(b, loc, plan.a, {ivK, row}, {sk, h});
  emitCopy(b, loc, src, dst);
  // Zero the rows of an edge panel past the matrix (a no-op when h == mr).
  Value pad = im.sub(im.c(plan.mr), h);
  Value padView = subview2D(b, loc, plan.packA, {p, b.getIndexAttr(0), h},
                            {b.getIndexAttr(1), sk, pad});
  Value zeroF = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
  linalg::FillOp::create(b, loc, zeroF, padView);
}

/// Packs the B block at (ivK, ivN) into packB: panel q holds columns
/// [q*nr, q*nr+nr) stored k-major; columns past the block are zero. With
/// `firstPanel` / `endPanel`, only the panels in [firstPanel, endPanel) are
/// packed (one thread's share of a shared block). Returns the panel loop.
scf::ForOp emitPackB(OpBuilder &b, Location loc, const GemmPlan &plan,
                     Value ivN, Value ivK, Value firstPanel = {},
                     Value endPanel = {}) {
  IndexMath im{b, loc};
  Value sn = im.tileSize(ivN, plan.nc, plan.nExt);
  Value sk = im.tileSize(ivK, plan.kc, plan.kExt);
  Value numPanels = im.ceilDiv(sn, plan.nr);
  if (endPanel)
    numPanels = im.min(numPanels, endPanel);
  auto loop = scf::ForOp::create(b, loc, firstPanel ? firstPanel : im.c(0),
                                 numPanels, im.c(1));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value q = loop.getInductionVar();
  Value j0 = im.mul(q, plan.nr);
  Value w = im.min(im.c(plan.nr), im.sub(sn, j0));
  Value col = im.add(ivN, j0);
  if (plan.bf16Pairs()) {
    bool t = plan.p.transposeB;
    auto scalarPack = [&](Value valid, Value firstPair) {
      emitPackPairsScalar(b, loc, plan.packB, q, plan.b, plan.nr, valid, sk,
                          firstPair,
                          [&](Value x, Value k) -> SmallVector<Value> {
                            Value c = im.add(col, x), kk = im.add(ivK, k);
                            return t ? SmallVector<Value>{c, kk}
                                     : SmallVector<Value>{kk, c};
                          });
    };
    if (t)
      emitPackRowPairsVectorized(b, loc, plan, plan.b, plan.packBFlat,
                                 plan.nr, q, col, ivK, w, sk, scalarPack);
    else
      emitPackBPairsVectorized(b, loc, plan, q, col, ivK, w, sk, scalarPack);
    return loop;
  }
  if (!plan.p.transposeB) {
    emitPackBVectorized(b, loc, plan, q, col, ivK, w, sk);
    return loop;
  }
  Value dst = subview2D(b, loc, plan.packB, {q, b.getIndexAttr(0),
                                             b.getIndexAttr(0)},
                        {b.getIndexAttr(1), sk, w});
  // B is stored N x K: the panel is a transpose.
  Value src = subview2D(b, loc, plan.b, {col, ivK}, {w, sk});
  emitTransposeCopy(b, loc, src, dst);
  Value pad = im.sub(im.c(plan.nr), w);
  Value padView = subview2D(b, loc, plan.packB, {q, b.getIndexAttr(0), w},
                            {b.getIndexAttr(1), sk, pad});
  Value zeroF = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
  linalg::FillOp::create(b, loc, zeroF, padView);
  return loop;
}

/// One microkernel call on the register block at (i, j) of the inner tile:
/// m_rem x n_rem of C, with `kernel` (mr x nr). `isTail`: the N remainder's
/// block (its epilogue kernel is the tail's).
void emitUKernelCall(OpBuilder &b, Location loc, const GemmPlan &plan,
                     const TileOperands &tile, const EmittedKernel &kernel,
                     int64_t nr, Value i, Value j, Value mRem, Value nRem,
                     Value sk, bool isTail = false) {
  IndexMath im{b, loc};
  Value zero = im.c(0);
  Value cTile = tile.c;
  Value aTile = tile.a;
  // Rows of the packed panels: k values, or k pairs for bf16.
  int64_t panelRows = plan.bf16Pairs() ? (plan.kc + 1) / 2 : plan.kc;
  Value kSteps = plan.bf16Pairs() ? im.ceilDiv(sk, 2) : sk;
  Value aPanel;
  if (plan.unpackedA) {
    // The tile's own rows of A from row i; the code reads m_rem of them.
    aPanel = subview2D(b, loc, aTile, {i, zero}, {mRem, sk});
  } else {
    aPanel = subview2D(
        b, loc, plan.packA,
        {im.div(i, plan.mr), b.getIndexAttr(0), b.getIndexAttr(0)},
        {b.getIndexAttr(1), b.getIndexAttr(panelRows),
         b.getIndexAttr(plan.mr)});
  }
  Value bPanel;
  if (plan.unpackedB) {
    // The tile's own rows of B from column j; the code reads n_rem of them.
    bPanel = subview2D(b, loc, tile.b, {zero, j}, {sk, nRem});
  } else {
    bPanel = subview2D(
        b, loc, plan.packB, {im.div(j, plan.nr), b.getIndexAttr(0),
                             b.getIndexAttr(0)},
        {b.getIndexAttr(1), b.getIndexAttr(panelRows),
         b.getIndexAttr(plan.nr)});
  }
  Value cBlock = subview2D(b, loc, cTile, {i, j}, {mRem, nRem});
  auto call = [&](const EmittedKernel &k, Value block, Value bias,
                  Value residual, Value out, Value bIn = {},
                  Value panelOut = {}) {
    auto op = UKernelOp::create(
        b, loc, b.getStringAttr(k.name), aPanel, bIn ? bIn : bPanel, cBlock,
        kSteps, mRem, nRem, block, bias, residual, out, panelOut,
        b.getStringAttr(k.asmText), b.getStringAttr(k.constraints),
        b.getStringAttr(k.dialect), b.getI64IntegerAttr(plan.mr),
        b.getI64IntegerAttr(nr), b.getStringAttr(k.hash.substr(0, 16)));
    op.setAStrideOperand(plan.aStrideOperand);
    // (The fused kernel, bIn, reads a B of static stride: packed otherwise.)
    op.setBStrideOperand(plan.bStrideOperand && !bIn);
  };
  const EmittedKernel *epilogueKernel =
      isTail ? plan.epilogueTailKernel : plan.epilogueKernel;
  Value epilogueBlock = isTail ? plan.epilogueTailBlock : plan.epilogueBlock;
  if (plan.fusedKernel && !isTail) {
    // The B block's first row tile reads B in place and writes the panel
    // the packed kernel reads (the rest of the block's row tiles).
    Value first = arith::AndIOp::create(
        b, loc, plan.firstForB,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, i, zero));
    auto ifFirst = scf::IfOp::create(b, loc, first, /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifFirst.thenBlock());
    Value bIn = subview2D(b, loc, tile.b, {zero, j}, {sk, nRem});
    call(*plan.fusedKernel, Value(), Value(), Value(), Value(), bIn, bPanel);
    b.setInsertionPointToStart(ifFirst.elseBlock());
    call(kernel, Value(), Value(), Value(), Value());
    return;
  }
  if (!epilogueKernel) {
    call(kernel, Value(), Value(), Value(), Value());
    return;
  }
  // The epilogue runs once per C tile, after its last K panel: the tile's
  // K loop is at its last step when ivK + kc reaches K.
  Value last = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge,
                                     im.add(plan.tileK, im.c(plan.kc)),
                                     plan.kExt);
  auto ifLast = scf::IfOp::create(b, loc, last, /*withElseRegion=*/true);
  b.setInsertionPointToStart(ifLast.thenBlock());
  // Row and column of the register block within the epilogue's operands.
  Value row = im.add(plan.tileRow, i);
  Value col = im.add(plan.tileCol, j);
  Value bias, residual;
  if (plan.bias)
    bias = plan.biasAlongN ? subview1D(b, loc, plan.bias, col, nRem)
                           : subview1D(b, loc, plan.bias, row, mRem);
  if (plan.residual)
    residual = subview2D(b, loc, plan.residual, {row, col}, {mRem, nRem});
  Value out;
  if (plan.out)
    out = subview2D(b, loc, plan.out, {row, col}, {mRem, nRem});
  call(*epilogueKernel, epilogueBlock, bias, residual, out);
  b.setInsertionPointToStart(ifLast.elseBlock());
  call(kernel, Value(), Value(), Value(), Value());
}

/// Replaces the inner tile by register-block loops of microkernels. With
/// `markLoops`, both loops carry the sketch (see the packing buffers).
/// With a `tail` kernel, the inner tile spans all plan.tailFrom + tail
/// columns: the register blocks up to tailFrom use `kernel`, the last
/// (narrower) column block uses `tail`, so no FMA works on columns past N.
void emitMicroLoops(OpBuilder &b, Location loc, const GemmPlan &plan,
                    const TileOperands &tile, SketchAttr sketch,
                    const EmittedKernel &kernel,
                    const std::optional<EmittedKernel> &tail,
                    bool markLoops) {
  IndexMath im{b, loc};
  Value cTile = tile.c;
  Value aTile = tile.a;
  Value sm = memref::DimOp::create(b, loc, cTile, 0);
  Value sn = tail ? im.c(plan.tailFrom)
                  : memref::DimOp::create(b, loc, cTile, 1).getResult();
  Value sk = memref::DimOp::create(b, loc, aTile, plan.p.transposeA ? 0 : 1);
  Value zero = im.c(0);
  bool mFirst = sketch.getMicroOrder() == "mn";
  auto outer = scf::ForOp::create(b, loc, zero, mFirst ? sm : sn,
                                  im.c(mFirst ? plan.mr : plan.nr));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(outer.getBody());
  auto innerLoop = scf::ForOp::create(b, loc, zero, mFirst ? sn : sm,
                                      im.c(mFirst ? plan.nr : plan.mr));
  b.setInsertionPointToStart(innerLoop.getBody());
  if (markLoops)
    for (scf::ForOp loop : {outer, innerLoop})
      loop->setAttr(kSketchAttrName, sketch);
  Value i = mFirst ? outer.getInductionVar() : innerLoop.getInductionVar();
  Value j = mFirst ? innerLoop.getInductionVar() : outer.getInductionVar();
  Value mRem = im.min(im.c(plan.mr), im.sub(sm, i));
  Value nRem = im.min(im.c(plan.nr), im.sub(sn, j));
  if (!mFirst && !plan.otherRowsKernels.empty()) {
    // Row block i / mr runs the kernel of phase (i / mr) mod P: phases
    // 1..P-1 are the switch's cases, phase 0 (the plan's kernel) its
    // default.
    int64_t period = plan.otherRowsKernels.size() + 1;
    Value phase =
        arith::RemUIOp::create(b, loc, im.div(i, plan.mr), im.c(period));
    auto phases = llvm::to_vector(llvm::seq<int64_t>(1, period));
    auto phaseSwitch = scf::IndexSwitchOp::create(b, loc, TypeRange{}, phase,
                                                  phases, phases.size());
    OpBuilder::InsertionGuard g(b);
    auto body = [&](Region &region, const EmittedKernel &k) {
      b.setInsertionPointToStart(b.createBlock(&region));
      scf::YieldOp::create(b, loc);
      b.setInsertionPointToStart(&region.front());
      emitUKernelCall(b, loc, plan, tile, k, plan.nr, i, j, mRem, nRem, sk);
    };
    for (auto [region, k] :
         llvm::zip_equal(phaseSwitch.getCaseRegions(), plan.otherRowsKernels))
      body(region, *k);
    body(phaseSwitch.getDefaultRegion(), kernel);
  } else {
    emitUKernelCall(b, loc, plan, tile, kernel, plan.nr, i, j, mRem, nRem, sk);
  }
  if (!tail)
    return;
  // The tail column block: right after each row block's full ones (its A
  // rows are hot), or in a loop of its own when columns are outermost.
  if (mFirst) {
    b.setInsertionPointAfter(innerLoop);
  } else {
    b.setInsertionPointAfter(outer);
    auto rows = scf::ForOp::create(b, loc, zero, sm, im.c(plan.mr));
    b.setInsertionPointToStart(rows.getBody());
    i = rows.getInductionVar();
  }
  Value tailRem = im.min(im.c(plan.mr), im.sub(sm, i));
  emitUKernelCall(b, loc, plan, tile, *tail, tail->nr, i,
                  im.c(plan.tailFrom), tailRem, im.c(plan.tailCols), sk,
                  /*isTail=*/true);
}

unsigned dimIndex(char c) { return c == 'm' ? 0 : c == 'n' ? 1 : 2; }

/// How a GEMM is split across threads: along M (rows of C) or N (columns),
/// in chunks of `chunk` rows/columns, `count` chunks in all.
struct ThreadSplit {
  bool alongM = false;
  int64_t chunk = 0, count = 1;
  /// The split dimension is dynamic: `count` chunks whose size is computed
  /// at run time (whole register blocks; trailing chunks may be empty).
  bool runtimeChunks = false;
};

/// The least gain, in percent of the largest chunk's work, for which a GEMM
/// that fits in L2 splits its rows rather than its columns, or one whose B
/// is packed its columns rather than its rows (planThreadSplit).
constexpr int64_t kSplitBalanceMinGainPct = 4;

/// What packing (or reading) one column of B or row of A costs a thread,
/// in rows of C computed over a column: a packed float is a load from L3
/// or memory and a store, about a quarter of a cycle on Zen 5, as long as
/// 8 rows' FMAs at two 16-lane FMAs a cycle.
constexpr int64_t kPackedColumnRows = 8;

/// The most rows per thread for which a GEMM whose B is packed may split
/// its columns by packedSplitCosts: taller row chunks lost with columns
/// the model preferred (Zen 5, 2 threads: 266x1172x376 0.955x, twice).
constexpr int64_t kPackedColumnSplitMaxRows = 128;

/// The largest of `threads` chunks of `extent` in whole units (at most
/// `extent`).
int64_t largestChunk(int64_t extent, int64_t threads, int64_t unit) {
  return std::min(extent, roundUp(ceilDiv(extent, threads), unit));
}

/// The largest chunk's cost under each split of a GEMM whose B is packed:
/// its padded rows times padded columns of C, plus kPackedColumnRows for
/// every column of B it packs and every row of A it reads (a row split
/// packs all of B in each thread and reads its rows of A; a column split
/// its columns of B and all of A).
struct SplitCosts {
  double alongM = 0, alongN = 0;
};
SplitCosts packedSplitCosts(const GemmProblem &p, int64_t mr, int64_t nr,
                            int64_t threads) {
  int64_t rowChunk = largestChunk(p.m, threads, mr);
  int64_t colChunk = largestChunk(p.n, threads, nr);
  SplitCosts c;
  c.alongM = double(rowChunk) * double(roundUp(p.n, nr)) +
             double(kPackedColumnRows) * double(p.n + rowChunk);
  c.alongN = double(roundUp(p.m, mr)) * double(colChunk) +
             double(kPackedColumnRows) * double(p.m + colChunk);
  return c;
}

/// Prefers splitting M (the ic loop): each thread then owns whole rows of
/// C and packs all of B itself. Measured here (2 threads, Zen 5, one run
/// each): the two splits are within 2% at 512^3 and 127x1000x513, M is 5%
/// ahead at 2048^3 and 1.9x at 1000x64x513 (N there makes chunks of 48 and
/// 16 columns), N 6% ahead at 64x1000x513. When the row chunks get thin
/// (under 32 rows, e.g. 32x2048x512), re-packing all of B per thread
/// dominates; then the dimension with more register blocks is split.
/// B at least twice as wide as A is tall (N >= 2M) splits N whatever the
/// rows where B is read in place (pack_b "none": each thread of a row split
/// streams all of it for every block of its rows) or is more than four
/// times L2 (a row split packs all of it per thread, from L3 or memory): a
/// thread of a row split reads K x N of B and M/T x K of A, one of a column
/// split M x K and K x N/T. Measured (2 threads, Zen 4 guest, loaded, same
/// process as the build before; docs/benchmarks/models.md, twentieth
/// session): the FFN's T = 256 768/3072 (256x3072x768 and 256x768x3072,
/// B 9 MiB packed per call) 1.03-1.10x, gen's 256x3072x768 1.09x,
/// 64x1000x513 (in place) 1.06x. A smaller packed B stays with the rows:
/// 256x1024x256 (1 MiB) along N 0.91-0.98x, its output then feeding a
/// row-split GEMM; 127x1000x513 (2 MiB) 0.97-0.99x, 333x777x555 (1.7 MiB)
/// 0.95-0.99x. Thin row chunks over a packed B weigh both splits instead
/// (packedSplitCosts, below).
/// Chunks are whole register blocks; fewer chunks than threads when the
/// GEMM is too narrow for each thread to get a block, so no chunk is empty.
/// Column chunks of an fp32 B read in place are whole vectors (`lanes`):
/// such a split streams B, each thread its chunk's columns, so the largest
/// chunk bounds the time; in whole blocks 4x1024x4096 (blocks of 96) split
/// 576 + 448 columns, in vectors 512 + 512. The kernel's masked last block
/// of each chunk costs no more calls than before (the largest chunk only
/// shrinks). 2 threads, Zen 4: docs/benchmarks/cpu-gemm-classes.md,
/// "Column chunks in whole vectors".
ThreadSplit planThreadSplit(const GemmProblem &p, int64_t mr, int64_t nr,
                            int64_t threads, bool bInPlace, int64_t l2Bytes,
                            int64_t lanes) {
  ThreadSplit s;
  int64_t mBlocks = ceilDiv(p.m, mr), nBlocks = ceilDiv(p.n, nr);
  bool thickRows = mBlocks >= threads && ceilDiv(p.m, threads) >= 32;
  int64_t elemBytes = p.input == GemmInputType::F32 ? 4 : 2;
  bool bLarge = double(p.k) * double(p.n) * elemBytes > 4.0 * l2Bytes;
  bool wideB = !p.isDynamic() && p.n >= 2 * p.m && nBlocks >= threads &&
               (bInPlace || bLarge);
  s.alongM = !wideB && (thickRows || mBlocks > nBlocks);
  // With B packed, a row split re-packs all of B in every thread and its
  // chunks are whole register blocks, so few rows split unevenly (65 rows
  // in blocks of 13: 39 + 26). Thin row chunks split the columns instead
  // where packedSplitCosts finds the largest column chunk cheaper by
  // kSplitBalanceMinGainPct. Zen 5, 2 threads, gen's objects with either
  // split, shapes of M 64-1024 (docs/benchmarks/cpu-gemm-classes.md, "Zen
  // 5 in the forty-ninth session"): 27 chosen to find the rule, the model
  // picked columns for 9 (M 65-250), all faster, geomean 1.07
  // (65x2711x307 1.14-1.24); of the rest none gained more than 3.3% from
  // columns, M >= 300 lost up to 3.3%. Against the build before, two
  // sets of 12 drawn shapes it changes: 1.040 and 1.033 (lowest 0.981).
  // fp32 only: nothing else was measured.
  if (s.alongM && !bInPlace && !p.isDynamic() && threads > 1 &&
      p.input == GemmInputType::F32 && nBlocks >= threads &&
      ceilDiv(p.m, threads) <= kPackedColumnSplitMaxRows) {
    SplitCosts c = packedSplitCosts(p, mr, nr, threads);
    if (100 * c.alongM > (100 + kSplitBalanceMinGainPct) * c.alongN)
      s.alongM = false;
  }
  // Where all of A, B and C fit in L2, a column split whose largest chunk
  // computes more than the row split's (rows of C times vectors of
  // columns; a chunk's partial row block costs its rows, its partial
  // vector a whole one) splits the rows instead. Zen 5, 2 threads, gen's
  // objects against the column split, 12 drawn shapes of 8-200: 10 faster,
  // geomean 1.047 (76x195x150 0.944x -> 1.113x the best library). The
  // other way, rows to columns, lost on every one of 10 shapes (149x151x37
  // 0.26: a column chunk has no N tail kernel); docs/benchmarks/
  // cpu-gemm-classes.md, "Zen 5 in the forty-fourth session".
  if (!s.alongM && !p.isDynamic() && threads > 1 && lanes > 0 &&
      (double(p.m) * p.k + double(p.k) * p.n + double(p.m) * p.n) *
              elemBytes <=
          double(l2Bytes)) {
    int64_t rowChunk = largestChunk(p.m, threads, mr);
    int64_t colUnit = bInPlace && p.input == GemmInputType::F32
                          ? std::min(lanes, nr)
                          : nr;
    int64_t colChunk = largestChunk(p.n, threads, colUnit);
    int64_t alongMWork = rowChunk * ceilDiv(p.n, lanes);
    int64_t alongNWork = p.m * ceilDiv(colChunk, lanes);
    if (ceilDiv(p.m, rowChunk) == threads &&
        100 * alongNWork > (100 + kSplitBalanceMinGainPct) * alongMWork)
      s.alongM = true;
  }
  // A dynamic dimension is split at run time; a static one is preferred.
  if (threads > 1 && p.dynamicM != p.dynamicN)
    s.alongM = !p.dynamicM;
  if (threads > 1 && (s.alongM ? p.dynamicM : p.dynamicN)) {
    s.count = threads;
    s.runtimeChunks = true;
    return s;
  }
  int64_t extent = s.alongM ? p.m : p.n;
  bool vectorChunks =
      !s.alongM && bInPlace && lanes > 0 && p.input == GemmInputType::F32;
  int64_t unit = s.alongM ? mr : vectorChunks ? std::min(lanes, nr) : nr;
  s.chunk = roundUp(ceilDiv(extent, threads), unit);
  s.count = ceilDiv(extent, s.chunk);
  return s;
}

/// The phases of the column prefetches (blocking.few_rows_prefetch_spread):
/// P = min(the hint, the row blocks of a thread's tile, k_unroll), so that
/// every phase has a row block to run it; 1 (no split) where the sketch
/// does not compute a column tile's row blocks in turn or M is dynamic.
int64_t prefetchSpreadPeriod(const GemmProblem &problem, SketchAttr sketch,
                             const TargetHints &hints, const ThreadSplit &split,
                             bool unpackedB, int64_t ldbBytes) {
  UKernelSpecAttr uk = sketch.getUkernel();
  // One tile ahead (B in L3: few_rows_prefetch_tiles_past_l2), the last
  // phase's lines would be asked for just before the tile: 50x955x1176,
  // 61x1266x421 and 60x861x682 ran 0.87-0.93x spread.
  if (hints.fewRowsPrefetchSpread <= 1 || sketch.getMicroOrder() != "nm" ||
      uk.getPrefetchBCols() < 2 * sketch.getNr() ||
      uk.getEmitter() != "x86_gemm_fma" || !unpackedB || ldbBytes == 0 ||
      problem.dynamicM)
    return 1;
  int64_t rows = std::min(problem.m, sketch.getMc());
  if (split.count > 1 && split.alongM)
    rows = std::min(rows, split.chunk);
  int64_t blocks = llvm::divideCeil(rows, sketch.getMr());
  return std::min<int64_t>(
      {hints.fewRowsPrefetchSpread, blocks, uk.getKUnroll()});
}

/// Wraps `op` in an scf.forall over the chunks of `split` and returns a
/// copy of `op` on one chunk (subviews of A, B, C), inside the forall body.
/// `plan` gets the chunk's operands and extents.
linalg::MatmulOp emitThreadChunks(RewriterBase &rewriter, linalg::MatmulOp op,
                                  const ThreadSplit &split, GemmPlan &plan) {
  Location loc = op.getLoc();
  const GemmProblem &p = plan.p;
  auto forall = scf::ForallOp::create(
      rewriter, loc, ArrayRef<OpFoldResult>{rewriter.getIndexAttr(split.count)},
      ValueRange{}, std::nullopt);
  rewriter.setInsertionPointToStart(forall.getBody());
  IndexMath im{rewriter, loc};
  Value offset, size;
  if (split.runtimeChunks) {
    // chunk = ceil(extent / count) rounded up to whole register blocks;
    // size = clamp(extent - offset, 0, chunk).
    int64_t unit = split.alongM ? plan.mr : plan.nr;
    Value extent = getValueOrCreateConstantIndexOp(
        rewriter, loc, plan.fullExt[split.alongM ? 0 : 1]);
    Value chunk =
        im.mul(im.ceilDiv(im.ceilDiv(extent, split.count), unit), unit);
    offset = arith::MulIOp::create(rewriter, loc, forall.getInductionVar(0),
                                   chunk);
    size = arith::MaxSIOp::create(
        rewriter, loc, im.c(0), im.min(chunk, im.sub(extent, offset)));
  } else {
    offset = im.mul(forall.getInductionVar(0), split.chunk);
    int64_t extent = split.alongM ? p.m : p.n;
    size = im.min(im.c(split.chunk), im.sub(im.c(extent), offset));
  }
  OpFoldResult extM = plan.fullExt[0], extN = plan.fullExt[1],
               extK = plan.fullExt[2];
  auto idx = [&](OpFoldResult v) { return v; };
  OpFoldResult zeroIdx = rewriter.getIndexAttr(0);
  Value a = plan.a, b = plan.b, c = plan.c;
  if (split.alongM) {
    a = p.transposeA
            ? subview2D(rewriter, loc, a, {zeroIdx, offset}, {idx(extK), size})
            : subview2D(rewriter, loc, a, {offset, zeroIdx}, {size, idx(extK)});
    c = subview2D(rewriter, loc, c, {offset, zeroIdx}, {size, idx(extN)});
    if (plan.bias && !plan.biasAlongN)
      plan.bias = subview1D(rewriter, loc, plan.bias, offset, size);
    if (plan.residual)
      plan.residual = subview2D(rewriter, loc, plan.residual,
                                {offset, zeroIdx}, {size, idx(extN)});
    if (plan.out)
      plan.out = subview2D(rewriter, loc, plan.out, {offset, zeroIdx},
                           {size, idx(extN)});
  } else {
    b = p.transposeB
            ? subview2D(rewriter, loc, b, {offset, zeroIdx}, {size, idx(extK)})
            : subview2D(rewriter, loc, b, {zeroIdx, offset}, {idx(extK), size});
    c = subview2D(rewriter, loc, c, {zeroIdx, offset}, {idx(extM), size});
    if (plan.bias && plan.biasAlongN)
      plan.bias = subview1D(rewriter, loc, plan.bias, offset, size);
    if (plan.residual)
      plan.residual = subview2D(rewriter, loc, plan.residual,
                                {zeroIdx, offset}, {idx(extM), size});
    if (plan.out)
      plan.out = subview2D(rewriter, loc, plan.out, {zeroIdx, offset},
                           {idx(extM), size});
  }
  plan.a = a;
  plan.b = b;
  plan.c = c;
  auto value = [&](OpFoldResult v) {
    return getValueOrCreateConstantIndexOp(rewriter, loc, v);
  };
  plan.mExt = split.alongM ? size : value(extM);
  plan.nExt = split.alongM ? value(extN) : size;
  plan.kExt = value(extK);
  // Operands are set by position, not through a value mapping, so that
  // matmul(X, X) keeps its two operands apart. The copy comes last: the
  // loop nest replaces it and uses everything above.
  auto chunkOp = cast<linalg::MatmulOp>(rewriter.clone(*op));
  chunkOp->setOperand(0, a);
  chunkOp->setOperand(1, b);
  chunkOp->setOperand(2, c);
  return chunkOp;
}

/// How the threads of the shared-B form divide one (k, n) block of C: `m`
/// chunks of rows times `n` chunks of the block's columns (m * n threads).
struct SharedGrid {
  int64_t m = 1, n = 1;
};

/// Rows are split first, as planThreadSplit does, while each chunk keeps at
/// least 32 rows and one register block; what is left of the threads splits
/// the columns of each B block (a thin M, e.g. 16x2048x2048, runs one row
/// chunk and two column chunks). A dynamic M is split into row chunks at
/// run time.
SharedGrid planSharedGrid(const GemmProblem &p, int64_t mr, int64_t threads) {
  SharedGrid g;
  if (p.dynamicM) {
    g.m = threads;
    return g;
  }
  int64_t mBlocks = ceilDiv(p.m, mr);
  for (int64_t gm = threads; gm > 1; --gm)
    if (threads % gm == 0 && mBlocks >= gm && ceilDiv(p.m, gm) >= 32) {
      g.m = gm;
      break;
    }
  g.n = threads / g.m;
  return g;
}

/// The shared-B form (pack_b = "kmajor_nr_shared"): the n and k cache-tile
/// loops run outside any thread team, in the sketch's order; for each
/// (k, n) block one scf.forall packs the B block into a single buffer (each
/// thread packs a contiguous share of its nr-panels), and a second forall
/// runs the grid's chunks of C on it, each chunk packing its own A blocks
/// (into its slice of one buffer allocated outside the loops) and running
/// the register-block loops. The join of the first forall is the barrier
/// that makes the packed block visible to all threads; the join of the
/// second keeps the next block's packing from overwriting it while it is
/// read. Operands are read at absolute indices (no chunk views), so the
/// epilogue's bias, residual and output are used whole.
/// Panels [first, first + ceil(extent / width)) of a packed buffer laid
/// out [panels][rows][width].
Value panelRange(RewriterBase &rw, Location loc, IndexMath &im, Value buffer,
                 Value first, Value extent, int64_t rows, int64_t width) {
  SmallVector<OpFoldResult> offsets = {first, rw.getIndexAttr(0),
                                       rw.getIndexAttr(0)};
  SmallVector<OpFoldResult> sizes = {im.ceilDiv(extent, width),
                                     rw.getIndexAttr(rows),
                                     rw.getIndexAttr(width)};
  SmallVector<OpFoldResult> strides(3, rw.getIndexAttr(1));
  return memref::SubViewOp::create(rw, loc, buffer, offsets, sizes, strides);
}

void emitSharedBNest(RewriterBase &rw, Location loc, GemmPlan &plan,
                     SketchAttr sketch, const EmittedKernel &kernel,
                     const SharedGrid &grid) {
  IndexMath im{rw, loc};
  const GemmProblem &p = plan.p;
  int64_t chunks = grid.m * grid.n;
  // Tiles never exceed the (padded) problem or a thread's rows.
  plan.mc = p.dynamicM ? sketch.getMc()
                       : std::min(sketch.getMc(),
                                  roundUp(ceilDiv(p.m, grid.m), plan.mr));
  plan.nc = p.dynamicN ? sketch.getNc()
                       : std::min(sketch.getNc(), roundUp(p.n, plan.nr));
  plan.kc = p.dynamicK ? sketch.getKc() : std::min(sketch.getKc(), p.k);

  Type panelElem = plan.bf16Pairs() ? Type(rw.getI32Type())
                                    : Type(rw.getF32Type());
  int64_t panelRows = plan.bf16Pairs() ? (plan.kc + 1) / 2 : plan.kc;
  IntegerAttr align = rw.getI64IntegerAttr(64);
  Value sharedB = memref::AllocOp::create(
      rw, loc,
      MemRefType::get({plan.nc / plan.nr, panelRows, plan.nr}, panelElem),
      align);
  plan.packB = sharedB;
  if (plan.bf16Pairs() && p.transposeB)
    plan.packBFlat = memref::CollapseShapeOp::create(
        rw, loc, sharedB,
        ArrayRef<ReassociationIndices>{ReassociationIndices{0, 1, 2}});
  // The (k, n) block loops, in the sketch's relative order of n and k.
  StringRef order = sketch.getLoopOrder();
  bool nOuter = order.find('n') < order.find('k');
  // With k outside n, a chunk's A rows for one K block do not change across
  // the n blocks: they are packed once, at the first n block, into a buffer
  // for all of the chunk's rows (as the unshared form packs an A block once
  // for all the n tiles inside it), instead of once per (k, n) block. (Not
  // for a dynamic M, whose chunks have no static size.)
  bool hoistA = !plan.unpackedA && !nOuter && !p.dynamicM;
  int64_t chunkPanels =
      hoistA ? roundUp(ceilDiv(p.m, grid.m), plan.mr) / plan.mr
             : plan.mc / plan.mr;
  Value allA;
  if (!plan.unpackedA)
    allA = memref::AllocOp::create(
        rw, loc,
        MemRefType::get({chunks, chunkPanels, panelRows, plan.mr}, panelElem),
        align);

  auto outer = scf::ForOp::create(rw, loc, im.c(0),
                                  nOuter ? plan.nExt : plan.kExt,
                                  im.c(nOuter ? plan.nc : plan.kc));
  outer->setAttr(kSketchAttrName, sketch);
  rw.setInsertionPointToStart(outer.getBody());
  auto innerLoop = scf::ForOp::create(rw, loc, im.c(0),
                                      nOuter ? plan.kExt : plan.nExt,
                                      im.c(nOuter ? plan.kc : plan.nc));
  rw.setInsertionPointToStart(innerLoop.getBody());
  Value ivN = nOuter ? outer.getInductionVar() : innerLoop.getInductionVar();
  Value ivK = nOuter ? innerLoop.getInductionVar() : outer.getInductionVar();
  Value sn = im.tileSize(ivN, plan.nc, plan.nExt);
  Value sk = im.tileSize(ivK, plan.kc, plan.kExt);
  int64_t threads = sketch.getThreads();

  // 1. The B block, its panels split evenly among the threads. The panel
  // loops carry the sketch for tensorop-omp-team-size (their bounds depend
  // on the thread, so canonicalize keeps them).
  {
    auto packing = scf::ForallOp::create(
        rw, loc, ArrayRef<OpFoldResult>{rw.getIndexAttr(threads)},
        ValueRange{}, std::nullopt);
    OpBuilder::InsertionGuard guard(rw);
    rw.setInsertionPointToStart(packing.getBody());
    Value share = im.ceilDiv(im.ceilDiv(sn, plan.nr), threads);
    Value first =
        arith::MulIOp::create(rw, loc, packing.getInductionVar(0), share);
    scf::ForOp panelLoop =
        emitPackB(rw, loc, plan, ivN, ivK, first, im.add(first, share));
    panelLoop->setAttr(kSketchAttrName, sketch);
  }

  // 2. The chunks of C on the packed block.
  auto compute = scf::ForallOp::create(
      rw, loc, ArrayRef<OpFoldResult>{rw.getIndexAttr(chunks)}, ValueRange{},
      std::nullopt);
  rw.setInsertionPointToStart(compute.getBody());
  Value id = compute.getInductionVar(0);
  // (One chunk along a dimension: its offset is the constant 0. The other
  // dimension has several, so a loop over it keeps a dynamic bound and,
  // marked, the sketch for tensorop-omp-team-size.)
  Value cm = grid.n == 1 ? id : grid.m == 1 ? im.c(0) : im.div(id, grid.n);
  Value cn = grid.n == 1 ? im.c(0)
             : grid.m == 1
                 ? id
                 : arith::RemUIOp::create(rw, loc, id, im.c(grid.n))
                       .getResult();
  // Rows [mOff, mEnd): whole register blocks, trailing chunks may be empty.
  Value chunkM = im.mul(im.ceilDiv(im.ceilDiv(plan.mExt, grid.m), plan.mr),
                        plan.mr);
  Value mOff = arith::MulIOp::create(rw, loc, cm, chunkM);
  Value mEnd = im.min(plan.mExt, im.add(mOff, chunkM));
  // Columns [nOff, nOff + nSize) of the block, whole panels.
  Value chunkN =
      im.mul(im.ceilDiv(im.ceilDiv(sn, grid.n), plan.nr), plan.nr);
  Value nOff = arith::MulIOp::create(rw, loc, cn, chunkN);
  Value nSize = arith::MaxSIOp::create(rw, loc, im.c(0),
                                       im.min(chunkN, im.sub(sn, nOff)));
  GemmPlan tp = plan;
  tp.mExt = mEnd;
  // This chunk's panels of the shared block.
  tp.packB = panelRange(rw, loc, im, sharedB, im.div(nOff, plan.nr), nSize,
                        panelRows, plan.nr);
  if (allA) {
    // This chunk's A buffer: slice `id` of allA.
    auto allType = cast<MemRefType>(allA.getType());
    SmallVector<OpFoldResult> offsets = {id, rw.getIndexAttr(0),
                                         rw.getIndexAttr(0),
                                         rw.getIndexAttr(0)};
    SmallVector<OpFoldResult> sizes = {rw.getIndexAttr(1)};
    for (int64_t d : allType.getShape().drop_front())
      sizes.push_back(rw.getIndexAttr(d));
    SmallVector<OpFoldResult> strides(4, rw.getIndexAttr(1));
    MemRefType type = memref::SubViewOp::inferRankReducedResultType(
        allType.getShape().drop_front(), allType, offsets, sizes, strides);
    tp.packA = memref::SubViewOp::create(rw, loc, type, allA, offsets, sizes,
                                         strides);
    tp.packAFlat = memref::CollapseShapeOp::create(
        rw, loc, tp.packA,
        ArrayRef<ReassociationIndices>{ReassociationIndices{0, 1, 2}});
  }
  Value chunkA = tp.packA;
  // The panels of the chunk's A buffer from row `ivM` of A on (hoistA).
  auto aBlockOf = [&](GemmPlan &dst, Value ivM, Value rows) {
    dst.packA = panelRange(rw, loc, im, chunkA,
                           im.div(im.sub(ivM, mOff), plan.mr), rows,
                           panelRows, plan.mr);
    dst.packAFlat = memref::CollapseShapeOp::create(
        rw, loc, dst.packA,
        ArrayRef<ReassociationIndices>{ReassociationIndices{0, 1, 2}});
  };
  if (hoistA) {
    // At the first n block of each K block: all of the chunk's A blocks.
    Value first = arith::CmpIOp::create(rw, loc, arith::CmpIPredicate::eq,
                                        ivN, im.c(0));
    auto ifFirst = scf::IfOp::create(rw, loc, first, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(rw);
    rw.setInsertionPointToStart(ifFirst.thenBlock());
    auto packLoop = scf::ForOp::create(rw, loc, mOff, mEnd, im.c(plan.mc));
    rw.setInsertionPointToStart(packLoop.getBody());
    Value ivM = packLoop.getInductionVar();
    GemmPlan pp = tp;
    aBlockOf(pp, ivM, im.tileSize(ivM, plan.mc, mEnd));
    emitPackA(rw, loc, pp, ivM, ivK);
  }
  // A fused epilogue's block (its header is rewritten before every call):
  // one per chunk.
  if (tp.epilogueKernel)
    tp.epilogueBlock = emitEpilogueBlock(rw, loc, *tp.epilogueKernel);
  if (tp.epilogueTailKernel)
    tp.epilogueTailBlock = emitEpilogueBlock(rw, loc, *tp.epilogueTailKernel);
  auto mLoop = scf::ForOp::create(rw, loc, mOff, mEnd, im.c(plan.mc));
  mLoop->setAttr(kSketchAttrName, sketch);
  for (Value block : {tp.epilogueBlock, tp.epilogueTailBlock}) {
    if (!block)
      continue;
    OpBuilder::InsertionGuard guard(rw);
    rw.setInsertionPointAfter(mLoop);
    memref::DeallocOp::create(rw, loc, block);
  }
  rw.setInsertionPointToStart(mLoop.getBody());
  Value ivM = mLoop.getInductionVar();
  Value sm = im.tileSize(ivM, plan.mc, mEnd);
  if (hoistA)
    aBlockOf(tp, ivM, sm);
  else if (!tp.unpackedA)
    emitPackA(rw, loc, tp, ivM, ivK);
  Value col = im.add(ivN, nOff);
  TileOperands tile;
  tile.a = p.transposeA ? subview2D(rw, loc, plan.a, {ivK, ivM}, {sk, sm})
                        : subview2D(rw, loc, plan.a, {ivM, ivK}, {sm, sk});
  tile.b = p.transposeB ? subview2D(rw, loc, plan.b, {col, ivK}, {nSize, sk})
                        : subview2D(rw, loc, plan.b, {ivK, col}, {sk, nSize});
  tile.c = subview2D(rw, loc, plan.c, {ivM, col}, {sm, nSize});
  tp.tileRow = ivM;
  tp.tileCol = col;
  tp.tileK = ivK;
  emitMicroLoops(rw, loc, tp, tile, sketch, kernel, std::nullopt,
                 /*markLoops=*/true);

  rw.setInsertionPointAfter(outer);
  memref::DeallocOp::create(rw, loc, sharedB);
  if (allA)
    memref::DeallocOp::create(rw, loc, allA);
}

/// The linalg.fill of +0.0 into `op`'s C right before it (nothing between
/// them can read or write C), or null. (+0.0 only: the kernel then stores
/// its tile, which differs from 0.0 + tile in the sign of a -0.0 fill.)
linalg::FillOp zeroFillOfResult(linalg::MatmulOp op) {
  // (Allocations between them touch no memory: a fused 16-bit output's
  // buffer is created right before the matmul.)
  linalg::FillOp fill = zeroFillBefore(op, op.getDpsInitOperand(0)->get());
  if (fill && matchPattern(fill.getDpsInputOperand(0)->get(), m_PosZeroFloat()))
    return fill;
  return nullptr;
}

/// The row stride in bytes of an operand the microkernel would read in place
/// (A or B of an f32 matmul): rows with unit column stride and a static,
/// positive row stride, or kRuntimeRowStride where the stride is known only
/// at run time and `emitter` (x86_gemm_fma) takes it as an operand (a
/// strided view: packing it cost gen's NAME_ex_ws 1.4x NAME's time on small
/// shapes and 4x on few columns; docs/benchmarks/blas-api.md, "Strided A in
/// place"). 0, with a remark, where the layout does not allow it and the
/// operand is packed instead.
int64_t inPlaceRowStrideBytes(linalg::MatmulOp op, unsigned operand,
                              StringRef name, StringRef emitter) {
  Type type = op.getDpsInputOperand(operand)->get().getType();
  if (emitter == "x86_gemm_fma" && hasRuntimeRowStride(type))
    return kRuntimeRowStride;
  std::string why;
  if (std::optional<int64_t> stride = inPlaceRowStride(type, &why))
    return *stride * 4;
  op.emitRemark() << "tensorop: sketch pack_" << name.lower()
                  << " \"none\" needs " << name << " with " << why
                  << ", got " << type << "; " << name << " is packed instead";
  return 0;
}

/// The pair-row stride in bytes of a matmul marked tensorop.b_k_pairs: B
/// is a K x N bf16 view with strides [S, 2] (S >= N static) over rows of
/// k pairs, 2*S bf16 apart. A located error for anything else.
FailureOr<int64_t> pairRowStrideBytes(linalg::MatmulOp op,
                                      const GemmProblem &p) {
  Type type = op.getDpsInputOperand(1)->get().getType();
  auto fail = [&](const Twine &why) {
    return op.emitError() << "tensorop: a matmul marked '" << kBPairsAttrName
                          << "' (B packed once into k pairs) needs " << why
                          << "; got B of type " << type;
  };
  if (p.input != GemmInputType::BF16)
    return fail("bf16 operands");
  if (p.transposeB || p.dynamicN || p.dynamicK)
    return fail("B stored K x N with static extents");
  auto memref = dyn_cast<MemRefType>(type);
  SmallVector<int64_t> strides;
  int64_t offset;
  if (!memref || failed(memref.getStridesAndOffset(strides, offset)) ||
      strides[1] != 2 || ShapedType::isDynamic(strides[0]) ||
      strides[0] < p.n || strides[0] * 4 > kMaxInPlaceRowStrideBytes)
    return fail("a view with strides [S, 2] and a static S >= N");
  return strides[0] * 4;
}

} // namespace

LogicalResult mlir::tensorop::applySketch(RewriterBase &rewriter,
                                          linalg::MatmulOp op,
                                          SketchAttr sketch,
                                          StringRef emitterDir,
                                          unsigned emitterTimeout,
                                          PassHints &passHints) {
  std::string reason;
  FailureOr<GemmProblem> problem = matchSupportedMatmul(op, reason);
  if (failed(problem))
    return op.emitError() << "cannot apply the tensorop sketch: " << reason;
  if (!op.hasPureBufferSemantics())
    return op.emitError() << "tensorop-apply-sketch needs memref operands; "
                             "run one-shot-bufferize first";
  Value c = op.getDpsInitOperand(0)->get();
  auto cType = cast<MemRefType>(c.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(cType.getStridesAndOffset(strides, offset)) || strides[1] != 1) {
    op.emitRemark() << "tensorop: C has a non-unit inner stride (" << cType
                    << "); lowered by the upstream pipeline";
    op->removeAttr(kSketchAttrName);
    return success();
  }

  // The last columns by a kernel vectorized along K, the rest by this
  // sketch's: two GEMMs.
  if (sketch.getNTail())
    return applyNTailSketch(rewriter, op, sketch, *problem,
                            zeroFillOfResult(op), emitterDir, emitterTimeout,
                            passHints);
  // Few columns, a kernel vectorized along K: a loop nest of its own.
  if (sketch.getUkernel().getEmitter() == kKDotEmitter)
    return applyKDotSketch(rewriter, op, sketch, *problem,
                           zeroFillOfResult(op), emitterDir, emitterTimeout,
                           passHints);

  // Unpacked B is read row by row in place: rows must run along N with
  // unit column stride, and the row stride is compiled into the code.
  // bf16 and f16 operands are always packed: into k pairs, or to fp32.
  bool lowPrecision = problem->input != GemmInputType::F32;
  // B packed once into k pairs is read in place whatever the sketch's
  // pack_b says (the sketch was chosen for the matmul's shape alone).
  bool pairsB = op->hasAttr(kBPairsAttrName);
  for (auto [name, pack] : {std::make_pair("a", sketch.getPackA()),
                            std::make_pair("b", sketch.getPackB())})
    if (lowPrecision && pack == "none" && !(pairsB && name == StringRef("b")))
      op.emitRemark() << "tensorop: sketch pack_" << name
                      << " \"none\" reads fp32 rows in place; this GEMM's "
                      << gemmInputTypeName(problem->input)
                      << " operands are packed instead";
  bool unpackedB = sketch.getPackB() == "none" && !lowPrecision;
  int64_t ldbBytes = 0;
  if (pairsB) {
    FailureOr<int64_t> stride = pairRowStrideBytes(op, *problem);
    if (failed(stride))
      return failure();
    unpackedB = true;
    ldbBytes = *stride;
  } else if (unpackedB) {
    if (problem->transposeB)
      return op.emitError() << "tensorop sketch pack_b \"none\" needs B "
                               "stored K x N; this GEMM reads B transposed "
                               "(use pack_b \"kmajor_nr\")";
    // B's layout belongs to the program, not to the sketch (a tuned sketch
    // from the database was measured on a contiguous B): where it cannot be
    // read in place, B is packed as with "kmajor_nr", which is always valid.
    ldbBytes = inPlaceRowStrideBytes(op, /*operand=*/1, "B",
                                     sketch.getUkernel().getEmitter());
    unpackedB = ldbBytes != 0;
  }

  // Unpacked A likewise: rows along K with unit stride, a static row stride.
  bool unpackedA = sketch.getPackA() == "none" && !lowPrecision;
  int64_t ldaBytes = 0;
  if (pairsB && !problem->transposeA && !problem->dynamicK &&
      problem->k % 2 == 0) {
    // With B in pairs, A is read in place too where it can be: a row-major
    // bf16 row holds A's k pairs (the panels of gen's NAME_prepacked have
    // few rows, and would otherwise pack all of A into pairs per panel). An
    // odd K's last pair would read one element past the row: packed then.
    if (std::optional<int64_t> stride =
            inPlaceRowStride(op.getDpsInputOperand(0)->get().getType())) {
      unpackedA = true;
      ldaBytes = *stride * 2;
    }
  } else if (unpackedA) {
    if (problem->transposeA)
      return op.emitError() << "tensorop sketch pack_a \"none\" needs A "
                               "stored M x K; this GEMM reads A transposed "
                               "(use pack_a \"kmajor_mr\")";
    // As for B: A's layout is the program's, and packing is always valid.
    ldaBytes = inPlaceRowStrideBytes(op, /*operand=*/0, "A",
                                     sketch.getUkernel().getEmitter());
    unpackedA = ldaBytes != 0;
  }

  // A fused epilogue (tensorop-fuse-epilogues): its consumer, marked, must
  // write this matmul's C in place after it; its inputs are the bias and
  // residual the microkernel reads.
  EpilogueAttr epilogue = sketch.getEpilogue();
  std::optional<FusedChain> epilogueChain;
  if (epilogue) {
    epilogueChain = findFusedChain(op, c, epilogue);
    if (!epilogueChain) {
      op.emitRemark() << "tensorop: the epilogue on this matmul's sketch is "
                         "not applied: its consumers (tensorop.fused_epilogue) "
                         "do not write this matmul's C in place after it and "
                         "compute its steps; they run as separate ops";
      epilogue = {};
    }
  }
  // C = A*B from a zeroed C, with one K block: the microkernel stores its
  // tile instead of adding it to C, and the zero fill goes (small GEMMs
  // spent a visible share writing zeros and reading them back).
  linalg::FillOp zeroFill = zeroFillOfResult(op);
  // With an epilogue too: its kernel then applies the steps to A*B alone
  // and writes C (or, with an output step, the 16-bit output: the f32 C is
  // then not touched at all). Adding a zero-filled C instead cost a fill
  // and a read of C: fused epilogues lost to the unfused ops on small K
  // (2048x2048x16 with bias and residual: 0.74x, loaded).
  bool storeC = zeroFill && sketch.getUkernel().getEmitter() == "x86_gemm_fma" &&
                !problem->dynamicK && sketch.getKc() >= problem->k;
  // With several K blocks the first one stores its tiles and the later
  // ones add to them, so the zero fill goes too: the fill wrote all of C
  // and the first block read those zeros back (1109^3: the fill alone was
  // 0.9% of the time, 455^3 1.5%). Every C tile's first K block is the one
  // at k = 0, whatever the loop order. With an epilogue too: it applies on
  // the last K block, never the first when there are several. (Not for the
  // shared-B nest, which keeps its own kernel.)
  bool storeFirstK =
      zeroFill && !storeC &&
      sketch.getUkernel().getEmitter() == "x86_gemm_fma" &&
      problem->input == GemmInputType::F32 && !problem->dynamicK &&
      problem->k > 0 &&
      !(sketch.getPackB() == kSharedPackB && sketch.getThreads() > 1);

  // Emit (and check) the microkernel before touching the IR, so a failing
  // emitter leaves the module as it was.
  TargetAttr target = sketch.getTarget();
  // A sketch planned for target=host is applied with the same machine's
  // hints (its datapath width, broadcast facts and caches), not the file's
  // generic ones: the kernel choices below read them.
  llvm::Expected<const TargetHints &> hints =
      passHints.forSketch(target.getName());
  if (!hints)
    return op.emitError() << llvm::toString(hints.takeError());
  std::string typeError;
  if (failed(checkInputTypeOnTarget(*problem, *hints, /*host=*/false,
                                    typeError)))
    return op.emitError() << "tensorop: " << typeError;
  EmitterRequest request = ukernelEmitterRequest(
      sketch, *hints, unpackedA ? ldaBytes : 0, unpackedB ? ldbBytes : 0,
      emitterDir, emitterTimeout);
  if (storeC)
    request.spec["c_update"] = "store";
  if (problem->input == GemmInputType::BF16) {
    request.spec["kernel"] = "gemm_bf16";
    // A k pair must not straddle two K tiles: only the last may be odd.
    if (sketch.getKc() % 2 && (problem->dynamicK || sketch.getKc() < problem->k))
      return op.emitError() << "tensorop: a bf16 GEMM needs an even kc (its "
                               "k pairs must not straddle K tiles), got kc="
                            << sketch.getKc();
  }
  // Row blocks after the first of each column tile (micro order "nm") get
  // kernels of their own phase of the column prefetches
  // (blocking.few_rows_prefetch_spread): row block b issues those of the k
  // steps u with u mod P = b mod P, so the tiles ahead are requested across
  // all P row blocks, not in a burst by the first while memory idles
  // through the others. Emerald Rapids, 1 thread, gen's objects against
  // the build before, few rows (37-64) from memory: 8 drawn shapes 7
  // faster, geomean 1.062 (docs/benchmarks/cpu-gemm-classes.md, "Emerald
  // Rapids in the forty-first session").
  ThreadSplit split = planThreadSplit(*problem, sketch.getMr(), sketch.getNr(),
                                      sketch.getThreads(), unpackedB,
                                      hints->cacheBytes(2), hints->f32Lanes());
  std::deque<EmittedKernel> otherRows, firstOtherRows;
  SmallVector<EmitterRequest> otherRequests;
  if (int64_t period = prefetchSpreadPeriod(*problem, sketch, *hints, split,
                                            unpackedB, ldbBytes);
      period > 1 && request.spec.getInteger("prefetch_b_cols")) {
    request.spec["prefetch_b_cols_period"] = period;
    request.spec["prefetch_b_cols_phase"] = 0;
    for (int64_t phase = 1; phase < period; ++phase) {
      EmitterRequest r = request;
      r.spec["prefetch_b_cols_phase"] = phase;
      llvm::Expected<EmittedKernel> k = runEmitter(r);
      if (!k)
        return op.emitError() << llvm::toString(k.takeError());
      otherRows.push_back(std::move(*k));
      otherRequests.push_back(std::move(r));
    }
  }
  llvm::Expected<EmittedKernel> kernel = runEmitter(request);
  if (!kernel)
    return op.emitError() << llvm::toString(kernel.takeError());
  // The first K block's kernels (storeFirstK): the same, storing C.
  std::optional<EmittedKernel> firstKernel, firstTail;
  auto storeForm = [&](EmitterRequest r,
                       std::optional<EmittedKernel> &out) -> LogicalResult {
    r.spec["c_update"] = "store";
    llvm::Expected<EmittedKernel> k = runEmitter(r);
    if (!k)
      return op.emitError() << llvm::toString(k.takeError());
    out = std::move(*k);
    return success();
  };
  if (storeFirstK && failed(storeForm(request, firstKernel)))
    return failure();
  if (storeFirstK)
    for (EmitterRequest &r : otherRequests) {
      std::optional<EmittedKernel> k;
      if (failed(storeForm(r, k)))
        return failure();
      firstOtherRows.push_back(std::move(*k));
    }
  std::optional<EmittedKernel> epilogueKernel;
  if (epilogue) {
    llvm::json::Array steps;
    for (Attribute step : epilogue.getSteps())
      steps.push_back(cast<StringAttr>(step).getValue().str());
    request.spec["epilogue"] = std::move(steps);
    // The epilogue kernel runs on every row block (the last K block's): all
    // of the column prefetches.
    request.spec.erase("prefetch_b_cols_period");
    request.spec.erase("prefetch_b_cols_phase");
    ++request.numOperands;
    llvm::Expected<EmittedKernel> k = runEmitter(request);
    if (!k)
      return op.emitError() << llvm::toString(k.takeError());
    epilogueKernel = std::move(*k);
  }
  // pack_b = "kmajor_nr_fused": the first row tile's kernel (and its
  // storing form) reads B in place and stores the panels. Where that cannot
  // be, B is packed by its pass as with "kmajor_nr", which is always valid.
  std::optional<EmittedKernel> fusedKernel, firstFused;
  if (sketch.getPackB() == kFusedPackB) {
    std::string why;
    int64_t fusedLdb = 0;
    if (lowPrecision)
      why = "fp32 operands";
    else if (problem->transposeB)
      why = "B stored K x N";
    else if (epilogue)
      why = "no fused epilogue";
    else if (hints->isa != "avx512")
      why = "AVX-512";
    else if (sketch.getUkernel().getEmitter() != "x86_gemm_fma")
      why = "the x86_gemm_fma emitter";
    else if (std::optional<int64_t> stride = inPlaceRowStride(
                 op.getDpsInputOperand(1)->get().getType(), &why))
      fusedLdb = *stride * 4;
    if (!fusedLdb) {
      op.emitRemark() << "tensorop: sketch pack_b \"" << kFusedPackB
                      << "\" needs " << why
                      << "; B is packed by its own pass instead";
    } else {
      EmitterRequest fusedRequest = ukernelEmitterRequest(
          sketch, *hints, unpackedA ? ldaBytes : 0, fusedLdb, emitterDir,
          emitterTimeout);
      if (storeC)
        fusedRequest.spec["c_update"] = "store";
      fusedRequest.spec["store_b_panel"] = 1;
      ++fusedRequest.numOperands;
      llvm::Expected<EmittedKernel> k = runEmitter(fusedRequest);
      if (!k)
        return op.emitError() << llvm::toString(k.takeError());
      fusedKernel = std::move(*k);
      if (storeFirstK && failed(storeForm(fusedRequest, firstFused)))
        return failure();
    }
  }
  // A tail kernel for the N remainder: where B is read in place and one
  // column tile spans all of a static N, the last register block gets a
  // kernel only as wide as the remainder (in whole vectors) instead of the
  // full block with masked-off lanes.
  std::optional<EmittedKernel> tail, epilogueTail;
  int64_t lanes = hints->f32Lanes();
  int64_t nr = sketch.getNr(), rem = problem->n % nr;
  // On FP datapaths half the vector width (AVX-512 on Zen 4), a last
  // vector of at most half a vector's columns is computed as a half-width
  // (ymm) one, whose FMAs take half the pipe slots: 100x100x100 (5 x 64 +
  // a 5 x 48 tail of 36 columns), 1 thread, Zen 4: docs/benchmarks/
  // cpu-gemm-classes.md, "Half-width last vectors". fp32 (the emitter's
  // form); then the tail is worth a kernel of its own even when it is as
  // many vectors wide as the block.
  bool narrowLast = problem->input == GemmInputType::F32 &&
                    hints->isa == "avx512" && hints->vectorBits == 512 &&
                    hints->datapathBits == 256 && rem % lanes != 0 &&
                    rem % lanes <= lanes / 2;
  // With an epilogue the tail gets its own epilogue kernel (below): the
  // full block's masked lanes cost 100x200x300 with bias and ReLU 1.2x.
  if (unpackedB && !problem->dynamicN && sketch.getNc() >= problem->n &&
      (split.count == 1 || split.alongM) && rem != 0 &&
      (roundUp(rem, lanes) < nr || narrowLast)) {
    EmitterRequest tailRequest = ukernelEmitterRequest(
        sketch.getUkernel(), target, sketch.getMr(), roundUp(rem, lanes),
        *hints, unpackedA ? ldaBytes : 0, ldbBytes, emitterDir,
        emitterTimeout);
    if (storeC)
      tailRequest.spec["c_update"] = "store";
    if (problem->input == GemmInputType::BF16)
      tailRequest.spec["kernel"] = "gemm_bf16";
    // A tail too narrow to share an explicit broadcast among enough FMAs
    // (one vector, on AVX-512) takes A as embedded broadcasts, as the
    // advisor's own one-vector blocks do (chooseRegisterBlock): on Zen 4 an
    // explicit broadcast takes an FP slot, so one per FMA caps the tail at
    // about 75% of peak (shared/notes/CPU-ZEN4.md). Either form issues the
    // same loads. 107x80x81 (6 x 64 + a 6 x 16 tail), 1 thread, Zen 4:
    // docs/benchmarks/cpu-gemm-classes.md, "One-vector tails".
    if (roundUp(rem, lanes) / lanes < hints->minFmasPerBroadcast &&
        hints->embeddedBroadcast &&
        sketch.getUkernel().getBroadcast() == "explicit")
      tailRequest.spec["broadcast"] = "embedded";
    if (narrowLast)
      tailRequest.spec["last_vector_bits"] = 256;
    llvm::Expected<EmittedKernel> tailKernel = runEmitter(tailRequest);
    if (!tailKernel)
      return op.emitError() << llvm::toString(tailKernel.takeError());
    tail = std::move(*tailKernel);
    if (storeFirstK && failed(storeForm(tailRequest, firstTail)))
      return failure();
    if (epilogue) {
      tailRequest.spec["epilogue"] = request.spec["epilogue"];
      ++tailRequest.numOperands;
      llvm::Expected<EmittedKernel> k = runEmitter(tailRequest);
      if (!k)
        return op.emitError() << llvm::toString(k.takeError());
      epilogueTail = std::move(*k);
    }
  }

  GemmPlan plan;
  for (const EmittedKernel &k : otherRows)
    plan.otherRowsKernels.push_back(&k);
  if (epilogueKernel) {
    plan.epilogueKernel = &*epilogueKernel;
    if (epilogueTail)
      plan.epilogueTailKernel = &*epilogueTail;
    plan.bias = epilogueChain->bias;
    plan.biasAlongN = epilogueChain->biasAlongN;
    plan.residual = epilogueChain->residual;
    plan.out = epilogueChain->out;
  }
  plan.p = *problem;
  plan.mr = sketch.getMr();
  plan.nr = sketch.getNr();
  plan.unpackedA = unpackedA;
  plan.aStrideOperand = unpackedA && ldaBytes == kRuntimeRowStride;
  plan.bStrideOperand = unpackedB && ldbBytes == kRuntimeRowStride;
  plan.unpackedB = unpackedB;
  plan.a = op.getDpsInputOperand(0)->get();
  plan.b = op.getDpsInputOperand(1)->get();
  plan.c = c;
  if (tail) {
    plan.tailFrom = problem->n - rem;
    plan.tailCols = rem;
  }
  if (storeC || storeFirstK)
    rewriter.eraseOp(zeroFill);
  rewriter.setInsertionPoint(op);
  // Static extents as constants, dynamic ones read from the operands.
  {
    Value a = plan.a;
    auto dim = [&](Value v, int64_t d) -> OpFoldResult {
      return memref::DimOp::create(rewriter, op.getLoc(), v, d).getResult();
    };
    plan.fullExt[0] = plan.p.dynamicM ? dim(c, 0)
                                      : rewriter.getIndexAttr(plan.p.m);
    plan.fullExt[1] = plan.p.dynamicN ? dim(c, 1)
                                      : rewriter.getIndexAttr(plan.p.n);
    plan.fullExt[2] = plan.p.dynamicK ? dim(a, plan.p.transposeA ? 0 : 1)
                                      : rewriter.getIndexAttr(plan.p.k);
  }
  // The fused epilogue's consumers go once the kernels apply it.
  auto finishEpilogue = [&] {
    if (!plan.epilogueKernel)
      return;
    // (The matmul itself is gone by now: the remark goes on the first
    // consumer.)
    epilogueChain->ops.front().emitRemark()
        << "tensorop: the microkernel applies the epilogue ["
        << llvm::join(llvm::map_range(epilogue.getSteps(),
                                      [](Attribute a) {
                                        return cast<StringAttr>(a).getValue();
                                      }),
                      ", ")
        << "] as it stores C after the last K panel";
    for (linalg::GenericOp fusedOp : epilogueChain->ops)
      rewriter.eraseOp(fusedOp);
  };
  if (sketch.getPackB() == kSharedPackB && sketch.getThreads() > 1 &&
      !pairsB) {
    auto value = [&](OpFoldResult v) {
      return getValueOrCreateConstantIndexOp(rewriter, op.getLoc(), v);
    };
    plan.mExt = value(plan.fullExt[0]);
    plan.nExt = value(plan.fullExt[1]);
    plan.kExt = value(plan.fullExt[2]);
    emitSharedBNest(rewriter, op.getLoc(), plan, sketch, *kernel,
                    planSharedGrid(plan.p, plan.mr, sketch.getThreads()));
    rewriter.eraseOp(op);
    finishEpilogue();
    return success();
  }
  // The extents one loop nest covers: the whole GEMM, or one thread's chunk
  // (0: known only at run time, so the sketch's tiles are used as they are).
  int64_t nestM = plan.p.dynamicM ? 0 : plan.p.m;
  int64_t nestN = plan.p.dynamicN ? 0 : plan.p.n;
  linalg::MatmulOp nestOp = op;
  if (split.count > 1) {
    nestOp = emitThreadChunks(rewriter, op, split, plan);
    if (split.alongM)
      nestM = split.chunk;
    else
      nestN = split.chunk;
    rewriter.eraseOp(op);
  } else {
    auto value = [&](OpFoldResult v) {
      return getValueOrCreateConstantIndexOp(rewriter, op.getLoc(), v);
    };
    plan.mExt = value(plan.fullExt[0]);
    plan.nExt = value(plan.fullExt[1]);
    plan.kExt = value(plan.fullExt[2]);
  }
  // Tiles never exceed the (padded) problem: small GEMMs get small buffers.
  plan.mc = nestM ? std::min(sketch.getMc(), roundUp(nestM, plan.mr))
                  : sketch.getMc();
  plan.nc = nestN ? std::min(sketch.getNc(), roundUp(nestN, plan.nr))
                  : sketch.getNc();
  plan.kc = plan.p.dynamicK ? sketch.getKc()
                            : std::min(sketch.getKc(), plan.p.k);

  // 1. Cache tiles with the upstream tiler, in the sketch's loop order.
  StringRef order = sketch.getLoopOrder();
  SmallVector<int64_t> interchange;
  for (char ch : order)
    interchange.push_back(dimIndex(ch));
  scf::SCFTilingOptions options;
  options.setTileSizes({rewriter.getIndexAttr(plan.mc),
                        rewriter.getIndexAttr(plan.nc),
                        rewriter.getIndexAttr(plan.kc)});
  options.setInterchange(interchange);
  options.setLoopType(scf::SCFTilingOptions::LoopType::ForOp);
  rewriter.setInsertionPoint(nestOp);
  FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
      rewriter, cast<TilingInterface>(nestOp.getOperation()), options);
  if (failed(tiled) || tiled->loops.size() != 3)
    return nestOp.emitError() << "tensorop: tiling by (" << plan.mc << ", "
                              << plan.nc << ", " << plan.kc << ") failed";
  SmallVector<scf::ForOp> loops; // Cache-tile loops, outermost first.
  for (LoopLikeOpInterface l : tiled->loops)
    loops.push_back(cast<scf::ForOp>(l.getOperation()));
  SmallVector<unsigned> loopOfDim(3); // m, n, k -> index into `loops`.
  for (auto [pos, dim] : llvm::enumerate(interchange))
    loopOfDim[dim] = pos;
  auto inner = cast<linalg::MatmulOp>(tiled->tiledOps.back());
  Location loc = nestOp.getLoc();
  rewriter.eraseOp(nestOp);

  // Scratch buffers for the packed blocks, live across the loop nest.
  scf::ForOp outermost = loops.front();
  outermost->setAttr(kSketchAttrName, sketch);
  rewriter.setInsertionPoint(outermost);
  // fp32 panels (f16 converted while packed), or i32 bf16 k pairs.
  Type panelElem = plan.bf16Pairs() ? Type(rewriter.getI32Type())
                                    : Type(rewriter.getF32Type());
  int64_t panelRows = plan.bf16Pairs() ? (plan.kc + 1) / 2 : plan.kc;
  IntegerAttr align = rewriter.getI64IntegerAttr(64);
  if (!plan.unpackedA)
    plan.packA = memref::AllocOp::create(
        rewriter, loc,
        MemRefType::get({plan.mc / plan.mr, panelRows, plan.mr}, panelElem),
        align);
  if (!plan.unpackedB)
    plan.packB = memref::AllocOp::create(
        rewriter, loc,
        MemRefType::get({plan.nc / plan.nr, panelRows, plan.nr}, panelElem),
        align);
  // In a thread's chunk, the buffers carry the sketch too: canonicalize
  // folds a loop nest's single-iteration outer loop (and its attribute)
  // away, while the buffers last until the OpenMP team is sized
  // (tensorop-omp-team-size looks for the sketch inside each team).
  if (split.count > 1)
    for (Value buffer : {plan.packA, plan.packB})
      if (buffer)
        buffer.getDefiningOp()->setAttr(kSketchAttrName, sketch);
  if (plan.epilogueKernel) {
    plan.epilogueBlock = emitEpilogueBlock(rewriter, loc, *plan.epilogueKernel);
    if (split.count > 1)
      plan.epilogueBlock.getDefiningOp()->setAttr(kSketchAttrName, sketch);
  }
  if (plan.epilogueTailKernel) {
    plan.epilogueTailBlock =
        emitEpilogueBlock(rewriter, loc, *plan.epilogueTailKernel);
    if (split.count > 1)
      plan.epilogueTailBlock.getDefiningOp()->setAttr(kSketchAttrName, sketch);
  }
  if (plan.packA)
    plan.packAFlat = memref::CollapseShapeOp::create(
        rewriter, loc, plan.packA,
        ArrayRef<ReassociationIndices>{ReassociationIndices{0, 1, 2}});
  if (plan.packB && plan.bf16Pairs() && plan.p.transposeB)
    plan.packBFlat = memref::CollapseShapeOp::create(
        rewriter, loc, plan.packB,
        ArrayRef<ReassociationIndices>{ReassociationIndices{0, 1, 2}});
  rewriter.setInsertionPointAfter(outermost);
  if (plan.packA)
    memref::DeallocOp::create(rewriter, loc, plan.packA);
  if (plan.packB)
    memref::DeallocOp::create(rewriter, loc, plan.packB);
  for (Value block : {plan.epilogueBlock, plan.epilogueTailBlock})
    if (block)
      memref::DeallocOp::create(rewriter, loc, block);

  auto iv = [&](unsigned dim) {
    return loops[loopOfDim[dim]].getInductionVar();
  };
  // 2. Pack each block where it becomes loop-invariant.
  unsigned levelA = std::max(loopOfDim[0], loopOfDim[2]);
  unsigned levelB = std::max(loopOfDim[1], loopOfDim[2]);
  // Pack B first when both land in the same loop body: inserting A at the
  // start afterwards keeps A before B, which does not matter for
  // correctness; both precede the nested loops and the inner tile.
  if (!plan.unpackedB && !fusedKernel) {
    rewriter.setInsertionPointToStart(loops[levelB].getBody());
    emitPackB(rewriter, loc, plan, iv(1), iv(2));
  }
  if (!plan.unpackedA) {
    rewriter.setInsertionPointToStart(loops[levelA].getBody());
    emitPackA(rewriter, loc, plan, iv(0), iv(2));
  }

  // 3. Register blocks.
  rewriter.setInsertionPoint(inner);
  // A chunk that packs nothing has no buffer to carry the sketch to
  // tensorop-omp-team-size; its register-block loops do: the one over the
  // split dimension runs to the chunk's dynamic extent, which canonicalize
  // cannot fold away.
  bool markLoops = split.count > 1 && !plan.packA && !plan.packB;
  plan.tileRow = iv(0);
  plan.tileCol = iv(1);
  plan.tileK = iv(2);
  if (fusedKernel) {
    // The B block lives in the body of loops[levelB]: an M loop outside it
    // packs B afresh in each of its iterations (every cache tile is the
    // first for its block), one inside it reuses the block, which its
    // first iteration writes.
    plan.fusedKernel = &*fusedKernel;
    scf::ForOp mLoop = loops[loopOfDim[0]];
    plan.firstForB =
        loopOfDim[0] < levelB
            ? arith::ConstantIntOp::create(rewriter, loc, 1, 1).getResult()
            : arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                    plan.tileRow, mLoop.getLowerBound())
                  .getResult();
  }
  TileOperands tile{inner.getDpsInputOperand(0)->get(),
                    inner.getDpsInputOperand(1)->get(),
                    inner.getDpsInitOperand(0)->get()};
  if (firstKernel) {
    // The first K block (k = 0) stores its tiles, the others add.
    Value isFirst = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::eq, plan.tileK,
        arith::ConstantIndexOp::create(rewriter, loc, 0));
    auto ifFirst =
        scf::IfOp::create(rewriter, loc, isFirst, /*withElseRegion=*/true);
    rewriter.setInsertionPointToStart(ifFirst.thenBlock());
    // (With several K blocks the first is never the last: no epilogue.)
    GemmPlan firstPlan = plan;
    firstPlan.epilogueKernel = nullptr;
    firstPlan.epilogueTailKernel = nullptr;
    if (firstFused)
      firstPlan.fusedKernel = &*firstFused;
    firstPlan.otherRowsKernels.clear();
    for (const EmittedKernel &k : firstOtherRows)
      firstPlan.otherRowsKernels.push_back(&k);
    emitMicroLoops(rewriter, loc, firstPlan, tile, sketch, *firstKernel,
                   firstTail, markLoops);
    rewriter.setInsertionPointToStart(ifFirst.elseBlock());
  }
  emitMicroLoops(rewriter, loc, plan, tile, sketch, *kernel, tail,
                 markLoops);
  rewriter.eraseOp(inner);
  finishEpilogue();
  return success();
}

namespace {
struct ApplySketchPass
    : public tensorop::impl::TensorOpApplySketchBase<ApplySketchPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<std::pair<linalg::MatmulOp, SketchAttr>> work;
    SmallVector<std::pair<linalg::Conv2DNhwcHwcfOp, ConvSketchAttr>> convs;
    Operation *unsketchedPrepacked = nullptr;
    getOperation().walk([&](Operation *op) {
      if (auto mm = dyn_cast<linalg::MatmulOp>(op)) {
        if (auto sketch = mm->getAttrOfType<SketchAttr>(kSketchAttrName))
          work.emplace_back(mm, sketch);
        else if (mm->hasAttr(kBPairsAttrName))
          unsketchedPrepacked = mm;
      } else if (auto conv = dyn_cast<linalg::Conv2DNhwcHwcfOp>(op)) {
        if (auto sketch = conv->getAttrOfType<ConvSketchAttr>(kSketchAttrName))
          convs.emplace_back(conv, sketch);
        else if (conv->hasAttr(kConvPrepackedFilterAttrName))
          unsketchedPrepacked = conv;
      }
    });
    // Its filter (B) operand holds packed data: the upstream lowering would
    // read it as an HWCF filter (a K x N matrix) and compute garbage.
    if (unsketchedPrepacked) {
      if (isa<linalg::MatmulOp>(unsketchedPrepacked))
        unsketchedPrepacked->emitError()
            << "tensorop: a matmul whose B is packed into k pairs ('"
            << kBPairsAttrName
            << "') has no #tensorop.sketch: only the sketch path reads the "
               "packed layout";
      else
        unsketchedPrepacked->emitError()
            << "tensorop: a convolution with a prepacked filter ('"
            << kConvPrepackedFilterAttrName
            << "') has no #tensorop.conv_sketch: only the sketch path reads "
               "the packed layout";
      return signalPassFailure();
    }
    IRRewriter rewriter(&getContext());
    // Every sketch's hints, as they were planned, read once for the run.
    PassHints hints(target, hintsDir);
    for (auto [op, sketch] : convs)
      if (failed(applyConvSketch(rewriter, op, sketch, emitterDir,
                                 emitterTimeout, hints)))
        return signalPassFailure();
    for (auto [op, sketch] : work)
      if (failed(applySketch(rewriter, op, sketch, emitterDir,
                             emitterTimeout, hints)))
        return signalPassFailure();
  }
};
} // namespace

//===- ApplyConvSketch.cpp - A 2-D convolution as brgemm microkernels -----===//
//
// A #tensorop.conv_sketch becomes, for each output row (n, oh), register
// blocks of mr output pixels x nr output channels, each accumulating one
// small GEMM per filter tap (r, s) and channel block:
//
//   out[n][oh][ow..ow+m)[f..f+nr) += in[n][ih][iw + SW*i][c..c+cb) (i < m)
//                                     * filter[r][s][c..c+cb)[f..f+nr)
//
// with ih = oh*SH - PT + r*DH and iw = ow*SW - PL + s*DW. Zero padding is
// never materialized: a tap row with ih outside the image is skipped, and a
// tap only takes the pixels whose iw lies inside (static per tap: a range
// of ow), shifting A and C to the first of them and passing the count as
// m_rem. Where a block sees every tap of a row (the interior), one call
// reduces over the row's S taps with the block held in registers
// (taps = "row"). The filter is packed once, before the loops, into panels
// of nr channels whose taps follow each other per channel block, so a
// multi-tap call walks B straight on. With taps = "window" (few input
// channels) one call reduces over the whole filter window; on a padded
// layer it reads a per-thread strip into which the input rows of a few
// output rows are copied between zero columns, so the edges need no calls
// of their own. With loop order "fcp" (filters larger
// than L2) the channel blocks go outside the rows and each (panel, channel
// block) is packed in the loop nest into a buffer that stays in L2 while
// every row passes over it; a few panels are packed together per channel
// block, so that the pack reads runs of each filter row rather than nr
// floats out of every F.
//
// A convolution marked tensorop.prepacked_filter (gen's NAME_prepacked)
// takes its filter already packed, from a function argument: the loop nest
// reads the argument where it would read the buffer it packs into, and the
// pass adds the function that packs a filter into that layout (and one that
// returns its size), built from the same plan, so the two agree on nr, cb
// and the order of the panels by construction. The layout is that of the
// filter packed once, [F/nr][C/cb][R*S][cb][nr], whatever the sketch says:
// a sketch that reads the filter in place (pack_filter "none") reads the
// panels instead, and loop order "fcp" keeps its order over the whole
// packed filter rather than packing each block in the nest.
//
// A zero tensor.pad in front of the convolution has been bufferized into
// alloc + fill + copy into a subview when this pass runs: it is traced back
// here and the convolution reads the unpadded source instead (the copy and
// the fill are erased). A pad that cannot be traced is left to run, with a
// remark.
//
//===----------------------------------------------------------------------===//

#include "ConvEpilogues.h"
#include "TransposeCopy.h"

#include "tensorop/Advisor/ConvAdvisor.h"
#include "tensorop/Dialect/TensorOpDialect.h"
#include "tensorop/Emitters/Emitter.h"
#include "tensorop/Emitters/UKernelOperands.h"
#include "tensorop/Support/IntMath.h"
#include "tensorop/Targets/PassHints.h"
#include "tensorop/Transforms/ConvSupport.h"
#include "tensorop/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Utils/VectorUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringExtras.h"

#include <array>

using namespace mlir;
using namespace mlir::tensorop;

namespace {
/// Floor division for any sign of `a` (b > 0).
int64_t floorDiv(int64_t a, int64_t b) {
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

struct Idx {
  OpBuilder &b;
  Location loc;
  Value c(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value add(Value x, int64_t y) { return add(x, c(y)); }
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value mul(Value x, int64_t y) {
    return arith::MulIOp::create(b, loc, x, c(y));
  }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, loc, x, y); }
  Value div(Value x, int64_t y) {
    return arith::DivUIOp::create(b, loc, x, c(y));
  }
  Value rem(Value x, int64_t y) {
    return arith::RemUIOp::create(b, loc, x, c(y));
  }
  Value min(Value x, Value y) { return arith::MinSIOp::create(b, loc, x, y); }
  Value max(Value x, Value y) { return arith::MaxSIOp::create(b, loc, x, y); }
  Value lt(Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, x, y);
  }
  Value le(Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, x, y);
  }
  Value andI(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y); }
};

/// The memref's strides when static with a unit innermost one.
std::optional<SmallVector<int64_t>> staticUnitInnerStrides(Value v) {
  auto type = cast<MemRefType>(v.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) ||
      strides.back() != 1 ||
      llvm::any_of(strides, [](int64_t s) { return ShapedType::isDynamic(s); }))
    return std::nullopt;
  return strides;
}

/// True if `op` writes the constant +0.0 into all of `buffer`.
bool zeroFills(Operation *op, Value buffer) {
  auto isZero = [](Value v) {
    FloatAttr f;
    return matchPattern(v, m_Constant(&f)) && f.getValue().isPosZero();
  };
  if (auto fill = dyn_cast<linalg::FillOp>(op))
    return fill.getDpsInitOperand(0)->get() == buffer &&
           isZero(fill.getDpsInputOperand(0)->get());
  if (auto map = dyn_cast<linalg::MapOp>(op)) {
    if (map.getInit() != buffer || !map.getInputs().empty())
      return false;
    auto yield = dyn_cast<linalg::YieldOp>(map.getMapper().front().getTerminator());
    return yield && yield.getNumOperands() == 1 && isZero(yield.getOperand(0));
  }
  return false;
}

/// A bufferized zero pad in front of the convolution: `alloc` zero-filled,
/// the unpadded `source` copied into the subview at (0, top, left, 0), in
/// this block, before the convolution, and nothing else touching them.
struct TracedPad {
  Value source;
  Operation *fill = nullptr, *copy = nullptr, *subview = nullptr;
  memref::AllocOp alloc;
  int64_t top = 0, bottom = 0, left = 0, right = 0;
};

std::optional<TracedPad> traceBufferizedPad(linalg::Conv2DNhwcHwcfOp conv,
                                           bool sourceRestrict) {
  Value in = conv.getDpsInputOperand(0)->get();
  auto alloc = in.getDefiningOp<memref::AllocOp>();
  if (!alloc || alloc->getBlock() != conv->getBlock())
    return std::nullopt;
  TracedPad t;
  t.alloc = alloc;
  for (Operation *user : alloc->getUsers()) {
    if (user == conv || isa<memref::DeallocOp>(user))
      continue;
    if (zeroFills(user, in) && !t.fill) {
      t.fill = user;
      continue;
    }
    auto sv = dyn_cast<memref::SubViewOp>(user);
    if (!sv || t.subview || !sv->hasOneUse())
      return std::nullopt;
    auto copy = dyn_cast<memref::CopyOp>(*sv->getUsers().begin());
    if (!copy || copy.getTarget() != sv.getResult())
      return std::nullopt;
    t.subview = sv;
    t.copy = copy;
    t.source = copy.getSource();
  }
  if (!t.fill || !t.copy || t.fill->getBlock() != conv->getBlock() ||
      t.copy->getBlock() != conv->getBlock() ||
      !t.fill->isBeforeInBlock(t.copy) || !t.copy->isBeforeInBlock(conv))
    return std::nullopt;
  auto sv = cast<memref::SubViewOp>(t.subview);
  ArrayRef<int64_t> offsets = sv.getStaticOffsets();
  ArrayRef<int64_t> sizes = sv.getStaticSizes();
  ArrayRef<int64_t> strides = sv.getStaticStrides();
  auto padded = cast<MemRefType>(in.getType());
  auto src = dyn_cast<MemRefType>(t.source.getType());
  if (!src || !src.hasStaticShape() || offsets.size() != 4 ||
      llvm::any_of(offsets, ShapedType::isDynamic) ||
      llvm::any_of(sizes, ShapedType::isDynamic) ||
      llvm::any_of(strides, [](int64_t s) { return s != 1; }) ||
      offsets[0] != 0 || offsets[3] != 0 ||
      sizes[0] != padded.getDimSize(0) || sizes[3] != padded.getDimSize(3) ||
      src.getShape() != sizes)
    return std::nullopt;
  // Between the copy and the convolution the source must keep its values:
  // only ops that write nothing, or write a fresh buffer, may run there.
  for (Operation *op = t.copy->getNextNode(); op != conv;
       op = op->getNextNode()) {
    if (isMemoryEffectFree(op) || isa<memref::AllocOp>(op))
      continue;
    auto fill = dyn_cast<linalg::FillOp>(op);
    if (fill && fill.getDpsInitOperand(0)->get().getDefiningOp<memref::AllocOp>())
      continue;
    // A linalg op that writes fresh buffers only (e.g. the filter's
    // transpose of an NCHW convolution, tensorop-conv-to-nhwc): a fresh
    // allocation is no view of the source.
    auto dps = dyn_cast<linalg::LinalgOp>(op);
    if (dps && dps.hasPureBufferSemantics() &&
        llvm::all_of(dps.getDpsInits(), [&](Value init) {
          return init.getDefiningOp<memref::AllocOp>() && init != t.source &&
                 init != in;
        }))
      continue;
    // The zero fill of the convolution's output (bufferization puts it
    // after the pad's copy): it does not touch the source where the
    // program promised, by a restrict to_tensor, that nothing it writes
    // aliases the source.
    if (fill && sourceRestrict &&
        fill.getDpsInitOperand(0)->get() == conv.getDpsInitOperand(0)->get())
      continue;
    return std::nullopt;
  }
  t.top = offsets[1];
  t.left = offsets[2];
  t.bottom = padded.getDimSize(1) - sizes[1] - offsets[1];
  t.right = padded.getDimSize(2) - sizes[2] - offsets[2];
  return t;
}

/// The pixels of an output row that tap column `s` reads inside the image:
/// ow in [lo, hi] (hi < lo: none).
struct TapRange {
  int64_t lo, hi;
};

TapRange tapRange(const ConvProblem &p, int64_t s) {
  int64_t shift = p.padLeft - s * p.dilationW; // iw = ow*SW - shift
  int64_t lo = shift <= 0 ? 0 : ceilDiv(shift, p.strideW);
  int64_t hi = std::min(p.outW() - 1, floorDiv(p.w - 1 + shift, p.strideW));
  return {lo, hi};
}

/// Everything the loop nest needs about one convolution.
struct ConvPlan {
  ConvProblem p;
  ConvSketchAttr sketch;
  int64_t mr, nr, cb, numCb;
  bool packInput, packFilter, rowTaps;
  /// taps = "window": one call per block reduces over every tap (K = S*C
  /// per filter row, the R rows as the kernel's taps).
  bool windowTaps = false;
  /// taps = "window" on a padded layer: the input rows of a block of
  /// output rows are copied, zero-padded to W + PL + PR pixels, into a
  /// strip [stripRows][W+PL+PR][C] (one per thread), so that every block
  /// of a row is one window call reading the strip. Without it a window
  /// call covers only the pixels whose window lies inside the image; the
  /// rest (the left and right edges, the rows at the top and bottom) take
  /// one call per tap of K = C floats, whose fixed cost (zeroing and
  /// storing the C tile) is as large as the FMAs of a few input channels.
  bool windowStrip = false;
  /// Floats per strip row: (W + PL + PR) * C.
  int64_t stripRow = 0;
  /// Output rows per strip fill (convStripBlockRows). Where it is 1 the
  /// strip holds the R rows of one output row's window (strip rows DH
  /// input rows apart); otherwise the consecutive input rows of stripBlock
  /// output rows, SH*(stripBlock-1) + DH*(R-1) + 1 of them, and output row
  /// j of the block reads from strip row j*SH, its taps DH strip rows
  /// apart.
  int64_t stripBlock = 1;
  int64_t stripRows = 0; ///< Rows of the strip.
  int64_t stripStep = 1; ///< Input rows between consecutive strip rows.
  Value strip; ///< [stripRows][W+PL+PR][C] of one thread, or null.
  /// The filter is packed one (group of panels, channel block) at a time,
  /// in the loop nest, into a buffer of packGroup blocks of R*S*cb*nr (loop
  /// order "fcp").
  bool packPerBlock = false;
  /// Panels packed together per channel block with packPerBlock
  /// (convPackGroupPanels: the pack reads several panels' channels of each
  /// filter row at once), else 1. Groups start at multiples of it.
  int64_t packGroup = 1;
  /// The output's zero fill in front of the convolution is dropped and
  /// each register block zeroed in the nest, right before its first call,
  /// by the thread that computes it.
  bool zeroInNest = false;
  Value zeroValue; ///< The dropped fill's value (+0.0 or -0.0).
  Value in, flt, out;
  /// Flat [F/nr][C/cb][R*S][cb][nr] panels of nr (or, packed per block,
  /// [R*S][cb][nr] of one thread), or null.
  Value packedFilter;
  Value inputPanel;   ///< [cb][mr] of one thread, or null.
  EmittedKernel oneTap, rowKernel, windowKernel;
  SmallVector<TapRange> taps;
  int64_t interiorLo, interiorHi; ///< ow range seeing every tap of a row.

  /// A fused epilogue: the kernels that apply it, the block they read (one
  /// per thread), the bias (F) and the residual (N x OH x OW x F).
  bool epilogue = false;
  EmittedKernel oneTapEpilogue, rowKernelEpilogue, windowKernelEpilogue;
  Value epilogueBlock, bias, residual;
  /// Per tap column s: the pixels of its range from lastFrom[s] on are
  /// reached by no later tap of the row, so s's call is their last.
  SmallVector<int64_t> lastFrom;
  /// Output columns [first, second) that no tap of any row reaches (inside
  /// a padding as wide as the filter): they get the epilogue alone.
  SmallVector<std::pair<int64_t, int64_t>> unreachedColumns;
  /// Whether some output row has no filter row inside the image.
  bool someRowUnreached = false;
};

/// Which taps are last per pixel, and which pixels no tap reaches (static:
/// the tap ranges depend on the column only). Ranges shrink from the
/// right as s grows (lo and hi never increase), so tap s is the last for
/// the pixels of its range past every later tap's hi.
void planEpilogueCoverage(ConvPlan &plan) {
  const ConvProblem &p = plan.p;
  plan.lastFrom.assign(p.s, 0);
  for (int64_t s = 0; s < p.s; ++s)
    for (int64_t later = s + 1; later < p.s; ++later)
      if (plan.taps[later].lo <= plan.taps[later].hi)
        plan.lastFrom[s] = std::max(plan.lastFrom[s], plan.taps[later].hi + 1);
  int64_t runStart = -1;
  for (int64_t ow = 0; ow <= p.outW(); ++ow) {
    bool reached = ow < p.outW() && llvm::any_of(plan.taps, [&](TapRange t) {
                     return t.lo <= ow && ow <= t.hi;
                   });
    if (!reached && ow < p.outW() && runStart < 0)
      runStart = ow;
    if ((reached || ow == p.outW()) && runStart >= 0) {
      plan.unreachedColumns.push_back({runStart, ow});
      runStart = -1;
    }
  }
  for (int64_t oh = 0; oh < p.outH() && !plan.someRowUnreached; ++oh) {
    bool any = false;
    for (int64_t r = 0; r < p.r && !any; ++r) {
      int64_t ih = oh * p.strideH - p.padTop + r * p.dilationH;
      any = ih >= 0 && ih < p.h;
    }
    plan.someRowUnreached = !any;
  }
}

/// Offset in the packed filter of panel (fb), channels from c0 (a block of
/// kcb), tap (r, s). A filter packed block by block (loop order "fcp")
/// holds one group of panels' channel block only: the offset within it
/// (the group's panels R*S*cb*nr floats apart).
Value packedFilterOffset(Idx &im, const ConvPlan &plan, Value fb, Value c0,
                         Value kcb, Value tap) {
  const ConvProblem &p = plan.p;
  int64_t taps = p.r * p.s;
  Value inBlock = im.mul(im.mul(tap, kcb), plan.nr);
  if (plan.packPerBlock && plan.packGroup == 1)
    return inBlock;
  if (plan.packPerBlock)
    return im.add(im.mul(im.rem(fb, plan.packGroup), taps * plan.cb * plan.nr),
                  inBlock);
  Value panel = im.mul(fb, taps * p.c * plan.nr);
  Value block = im.mul(c0, taps * plan.nr);
  return im.add(im.add(panel, block), inBlock);
}

/// Packs channels [c0, c0 + kcb) of filter panels [fb, fb + count)
/// (output channels from fb * nr, zero past F) into `plan.packedFilter` at
/// packedFilterOffset: vectors of nr channels, the block's taps adjacent.
/// The panels are the innermost loop, so each filter row is read
/// count * nr floats at a time (`count` null: one panel, no loop).
void emitFilterBlockPack(OpBuilder &b, Location loc, const ConvPlan &plan,
                         Value fbFirst, Value count, Value c0, Value kcb) {
  const ConvProblem &p = plan.p;
  Idx im{b, loc};
  OpBuilder::InsertionGuard guard(b);
  auto vecType = VectorType::get({plan.nr}, b.getF32Type());
  auto tapLoop = scf::ForOp::create(b, loc, im.c(0), im.c(p.r * p.s), im.c(1));
  b.setInsertionPointToStart(tapLoop.getBody());
  Value tap = tapLoop.getInductionVar();
  Value r = im.div(tap, p.s), s = im.rem(tap, p.s);
  auto cLoop = scf::ForOp::create(b, loc, im.c(0), kcb, im.c(1));
  b.setInsertionPointToStart(cLoop.getBody());
  Value c = cLoop.getInductionVar();
  Value fb = fbFirst;
  if (count) {
    auto gLoop = scf::ForOp::create(b, loc, fbFirst, im.add(fbFirst, count),
                                    im.c(1));
    b.setInsertionPointToStart(gLoop.getBody());
    fb = gLoop.getInductionVar();
  }
  Value f0 = im.mul(fb, plan.nr);
  Value width = im.min(im.c(plan.nr), im.sub(im.c(p.f), f0));
  Value base = packedFilterOffset(im, plan, fb, c0, kcb, tap);
  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
  // Full panels read without a mask: a dynamic mask rebuilt per row costs
  // more than the copy (as in the GEMM's B packing).
  Value full = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, width,
                                     im.c(plan.nr));
  auto ifFull = scf::IfOp::create(b, loc, vecType, full, true);
  b.setInsertionPointToStart(ifFull.thenBlock());
  Value plain = vector::TransferReadOp::create(
      b, loc, vecType, plan.flt, SmallVector<Value>{r, s, im.add(c0, c), f0},
      zero, ArrayRef<bool>{true});
  scf::YieldOp::create(b, loc, plain);
  b.setInsertionPointToStart(ifFull.elseBlock());
  Value mask = vector::CreateMaskOp::create(
      b, loc, VectorType::get({plan.nr}, b.getI1Type()),
      ArrayRef<OpFoldResult>{width});
  auto fltType = cast<MemRefType>(plan.flt.getType());
  AffineMap map = vector::getTransferMinorIdentityMap(fltType, vecType);
  Value masked = vector::TransferReadOp::create(
      b, loc, vecType, plan.flt, SmallVector<Value>{r, s, im.add(c0, c), f0},
      AffineMapAttr::get(map), zero, mask, b.getBoolArrayAttr({false}));
  scf::YieldOp::create(b, loc, masked);
  b.setInsertionPointAfter(ifFull);
  auto write = vector::TransferWriteOp::create(
      b, loc, ifFull.getResult(0), plan.packedFilter,
      ValueRange{im.add(base, im.mul(c, plan.nr))});
  write.setInBoundsAttr(b.getBoolArrayAttr({true}));
}

/// Packs the whole filter once, before the loops.
void emitFilterPack(OpBuilder &b, Location loc, const ConvPlan &plan,
                    int64_t threads = 1) {
  const ConvProblem &p = plan.p;
  Idx im{b, loc};
  OpBuilder::InsertionGuard guard(b);
  int64_t panels = ceilDiv(p.f, plan.nr);
  Value begin = im.c(0), end = im.c(panels);
  threads = std::min(threads, panels);
  if (threads > 1) {
    // Chunks of panels, one per thread (the pack of a large filter, e.g.
    // 9 MB at 3x3 512>512, is a large share of a small layer's call).
    int64_t chunk = ceilDiv(panels, threads);
    auto forall = scf::ForallOp::create(
        b, loc, ArrayRef<OpFoldResult>{b.getIndexAttr(ceilDiv(panels, chunk))},
        ValueRange{}, std::nullopt);
    b.setInsertionPointToStart(forall.getBody());
    Idx fim{b, loc};
    begin = fim.mul(forall.getInductionVar(0), chunk);
    end = fim.min(fim.add(begin, chunk), fim.c(panels));
  }
  auto fbLoop = scf::ForOp::create(b, loc, begin, end, im.c(1));
  if (threads > 1)
    fbLoop->setAttr(kOmpTeamAttrName, b.getUnitAttr());
  b.setInsertionPointToStart(fbLoop.getBody());
  Value fb = fbLoop.getInductionVar();
  auto cbLoop = scf::ForOp::create(b, loc, im.c(0), im.c(p.c), im.c(plan.cb));
  b.setInsertionPointToStart(cbLoop.getBody());
  Value c0 = cbLoop.getInductionVar();
  Value kcb = im.min(im.c(plan.cb), im.sub(im.c(p.c), c0));
  emitFilterBlockPack(b, loc, plan, fb, /*count=*/Value(), c0, kcb);
}

/// A rank-reduced 2-D view [rows x cols] of a 4-D memref at `offsets`,
/// dims 2 and 3 kept, with `rowStep` along dim 2.
Value view2D(OpBuilder &b, Location loc, Value source,
             ArrayRef<OpFoldResult> offsets, OpFoldResult rows,
             OpFoldResult cols, int64_t rowStep) {
  auto srcType = cast<MemRefType>(source.getType());
  SmallVector<OpFoldResult> sizes = {b.getIndexAttr(1), b.getIndexAttr(1),
                                     rows, cols};
  SmallVector<OpFoldResult> strides = {b.getIndexAttr(1), b.getIndexAttr(1),
                                       b.getIndexAttr(rowStep),
                                       b.getIndexAttr(1)};
  SmallVector<int64_t> shape;
  for (OpFoldResult s : {rows, cols}) {
    std::optional<int64_t> cst = getConstantIntValue(s);
    shape.push_back(cst ? *cst : ShapedType::kDynamic);
  }
  MemRefType type = memref::SubViewOp::inferRankReducedResultType(
      shape, srcType, offsets, sizes, strides);
  return memref::SubViewOp::create(b, loc, type, source, offsets, sizes,
                                   strides);
}

/// Copies `cnt` pixels x `kcb` channels of the input, `SW` pixels apart,
/// into the k-major panel [kcb][mr].
void emitInputPack(OpBuilder &b, Location loc, const ConvPlan &plan, Value n,
                   Value ih, Value iw, Value c0, Value cnt, Value kcb) {
  Value src = view2D(b, loc, plan.in, {n, ih, iw, c0}, cnt, kcb,
                     plan.p.strideW);
  Value dst = memref::SubViewOp::create(
      b, loc, plan.inputPanel,
      ArrayRef<OpFoldResult>{b.getIndexAttr(0), b.getIndexAttr(0)},
      ArrayRef<OpFoldResult>{kcb, cnt},
      ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(1)});
  emitTransposeCopy(b, loc, src, dst);
}

/// One microkernel call: `taps` taps from column `s` for the pixels
/// [lo, lo + cnt) of output row (n, oh), input row ih, channels [c0, +kcb),
/// output channels [f0, +nrem) (panel fb).
/// The epilogue operands of a call on pixels [lo, lo + cnt) of output row
/// (n, oh), channels [f0, f0 + nrem): {block, bias, residual}.
std::array<Value, 3> epilogueOperands(OpBuilder &b, Location loc,
                                      const ConvPlan &plan, Value n, Value oh,
                                      Value lo, Value cnt, Value f0,
                                      Value nrem) {
  Value bias, residual;
  if (plan.bias)
    bias =
        memref::SubViewOp::create(b, loc, plan.bias, ArrayRef<OpFoldResult>{f0},
                                  ArrayRef<OpFoldResult>{nrem},
                                  ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
  if (plan.residual)
    residual = view2D(b, loc, plan.residual, {n, oh, lo, f0}, cnt, nrem, 1);
  return {plan.epilogueBlock, bias, residual};
}

/// A call over no channels that applies the epilogue alone, to pixels
/// [lo, lo + cnt) of output row (n, oh) that no filter tap reaches (the
/// kernel reads neither A nor B then).
void emitEpilogueOnlyCall(OpBuilder &b, Location loc, const ConvPlan &plan,
                          Value n, Value oh, Value lo, Value cnt, Value f0,
                          Value nrem) {
  Idx im{b, loc};
  Value zero = im.c(0);
  // (A is not read over no channels; a 1x1 view of the input, unreduced:
  // view2D cannot tell which unit dimensions of an all-ones view to drop.)
  Value a = plan.inputPanel
                ? plan.inputPanel
                : memref::SubViewOp::create(
                      b, loc, plan.in,
                      ArrayRef<OpFoldResult>{n, zero, zero, zero},
                      SmallVector<OpFoldResult>(4, b.getIndexAttr(1)),
                      SmallVector<OpFoldResult>(4, b.getIndexAttr(1)))
                      .getResult();
  Value bPanel = plan.packedFilter ? plan.packedFilter : plan.flt;
  Value c = view2D(b, loc, plan.out, {n, oh, lo, f0}, cnt, nrem, 1);
  const EmittedKernel &kernel = plan.oneTapEpilogue;
  auto [block, bias, residual] =
      epilogueOperands(b, loc, plan, n, oh, lo, cnt, f0, nrem);
  UKernelOp::create(
      b, loc, b.getStringAttr(kernel.name), a, bPanel, c, zero, cnt, nrem,
      block, bias, residual, /*out=*/Value(), /*bPanelOut=*/Value(), b.getStringAttr(kernel.asmText),
      b.getStringAttr(kernel.constraints), b.getStringAttr(kernel.dialect),
      b.getI64IntegerAttr(plan.mr), b.getI64IntegerAttr(plan.nr),
      b.getStringAttr(kernel.hash.substr(0, 16)));
}

void emitCall(OpBuilder &b, Location loc, const ConvPlan &plan,
              const EmittedKernel &kernel, Value n, Value oh, Value ih, Value r,
              int64_t s, Value lo, Value cnt, Value c0, Value kcb, Value fb,
              Value f0, Value nrem, bool withEpilogue = false) {
  const ConvProblem &p = plan.p;
  Idx im{b, loc};
  Value iw = im.add(im.mul(lo, p.strideW), s * p.dilationW - p.padLeft);
  Value a;
  if (plan.packInput) {
    emitInputPack(b, loc, plan, n, ih, iw, c0, cnt, kcb);
    a = plan.inputPanel;
  } else {
    a = memref::SubViewOp::create(
        b, loc, plan.in, ArrayRef<OpFoldResult>{n, ih, iw, c0},
        ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(1), cnt, kcb},
        ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(1),
                               b.getIndexAttr(p.strideW), b.getIndexAttr(1)});
  }
  Value bPanel;
  if (plan.packFilter) {
    Value tap = im.add(im.mul(r, p.s), s);
    Value offset = packedFilterOffset(im, plan, fb, c0, kcb, tap);
    bPanel = memref::SubViewOp::create(
        b, loc, plan.packedFilter, ArrayRef<OpFoldResult>{offset},
        ArrayRef<OpFoldResult>{im.mul(kcb, plan.nr)},
        ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
  } else {
    bPanel = memref::SubViewOp::create(
        b, loc, plan.flt, ArrayRef<OpFoldResult>{r, im.c(s), c0, f0},
        ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(1), kcb,
                               nrem},
        ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(1),
                               b.getIndexAttr(1), b.getIndexAttr(1)});
  }
  Value c = view2D(b, loc, plan.out, {n, oh, lo, f0}, cnt, nrem, 1);
  std::array<Value, 3> epilogue = {};
  if (withEpilogue)
    epilogue = epilogueOperands(b, loc, plan, n, oh, lo, cnt, f0, nrem);
  UKernelOp::create(
      b, loc, b.getStringAttr(kernel.name), a, bPanel, c, kcb, cnt, nrem,
      epilogue[0], epilogue[1], epilogue[2], /*out=*/Value(), /*bPanelOut=*/Value(),
      b.getStringAttr(kernel.asmText),
      b.getStringAttr(kernel.constraints), b.getStringAttr(kernel.dialect),
      b.getI64IntegerAttr(plan.mr), b.getI64IntegerAttr(plan.nr),
      b.getStringAttr(kernel.hash.substr(0, 16)));
}

/// All taps and channel blocks of one register block: pixels [ow0, ow0+m)
/// of row (n, oh), output channels [f0, f0+nrem). With an epilogue, each
/// pixel's last call (last channel block, last filter row inside the
/// image, last tap column reaching it) is made with the epilogue kernel,
/// and the pixels no tap reaches get it from a call over no channels.
void emitBlock(OpBuilder &b, Location loc, const ConvPlan &plan, Value n,
               Value oh, Value ow0, Value m, Value fb, Value f0, Value nrem,
               Value c0, Value kcb) {
  const ConvProblem &p = plan.p;
  Idx im{b, loc};
  OpBuilder::InsertionGuard guard(b);
  Value end = im.add(ow0, m);
  // The last filter row whose input row lies inside the image (if the row
  // at ihBase + rLast * DH is inside at all).
  Value ihBase = im.add(im.mul(oh, p.strideH), -p.padTop);
  Value rLast;
  if (plan.epilogue) {
    Value above = arith::FloorDivSIOp::create(
        b, loc, im.sub(im.c(p.h - 1), ihBase), im.c(p.dilationH));
    rLast = im.min(im.c(p.r - 1), above);
  }
  auto rLoop = scf::ForOp::create(b, loc, im.c(0), im.c(p.r), im.c(1));
  b.setInsertionPointToStart(rLoop.getBody());
  Value r = rLoop.getInductionVar();
  Value ih = im.add(ihBase, im.mul(r, p.dilationH));
  Value rowInside = im.andI(im.le(im.c(0), ih), im.lt(ih, im.c(p.h)));
  auto ifRow = scf::IfOp::create(b, loc, rowInside, /*withElseRegion=*/false);
  b.setInsertionPointToStart(ifRow.thenBlock());
  Value last;
  if (plan.epilogue)
    last = im.andI(
        im.le(im.c(p.c), im.add(c0, im.c(plan.cb))),
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, r, rLast));
  auto call = [&](const EmittedKernel &kernel, int64_t s, Value lo, Value cnt,
                  bool withEpilogue) {
    emitCall(b, loc, plan, kernel, n, oh, ih, r, s, lo, cnt, c0, kcb, fb, f0,
             nrem, withEpilogue);
  };
  // The epilogue kernel where `last` holds, else the plain one.
  auto callLastOrNot = [&](const EmittedKernel &plain,
                           const EmittedKernel &withEpilogue, int64_t s,
                           Value lo, Value cnt) {
    auto ifLast = scf::IfOp::create(b, loc, last, /*withElseRegion=*/true);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(ifLast.thenBlock());
    call(withEpilogue, s, lo, cnt, true);
    b.setInsertionPointToStart(ifLast.elseBlock());
    call(plain, s, lo, cnt, false);
  };
  auto emitPerTap = [&]() {
    for (int64_t s = 0; s < p.s; ++s) {
      const TapRange &t = plan.taps[s];
      if (t.hi < t.lo)
        continue;
      Value lo = im.max(ow0, im.c(t.lo));
      Value hi = im.min(end, im.c(t.hi + 1));
      auto ifAny = scf::IfOp::create(b, loc, im.lt(lo, hi), false);
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(ifAny.thenBlock());
      Value cnt = im.sub(hi, lo);
      int64_t from = plan.epilogue ? plan.lastFrom[s] : t.hi + 1;
      if (from > t.hi) {
        // No pixel has its last tap here.
        call(plan.oneTap, s, lo, cnt, false);
      } else if (from <= t.lo) {
        callLastOrNot(plan.oneTap, plan.oneTapEpilogue, s, lo, cnt);
      } else {
        // Pixels [lo, mid) have a later tap, [mid, hi) do not.
        auto ifLast = scf::IfOp::create(b, loc, last, /*withElseRegion=*/true);
        b.setInsertionPointToStart(ifLast.thenBlock());
        Value mid = im.min(im.max(lo, im.c(from)), hi);
        auto ifBefore = scf::IfOp::create(b, loc, im.lt(lo, mid), false);
        b.setInsertionPointToStart(ifBefore.thenBlock());
        call(plan.oneTap, s, lo, im.sub(mid, lo), false);
        b.setInsertionPointAfter(ifBefore);
        auto ifAfter = scf::IfOp::create(b, loc, im.lt(mid, hi), false);
        b.setInsertionPointToStart(ifAfter.thenBlock());
        call(plan.oneTapEpilogue, s, mid, im.sub(hi, mid), true);
        b.setInsertionPointToStart(ifLast.elseBlock());
        call(plan.oneTap, s, lo, cnt, false);
      }
    }
  };
  if (!plan.rowTaps) {
    emitPerTap();
  } else {
    // The interior: every pixel of the block sees all S taps of the row.
    Value interior = im.andI(im.le(im.c(plan.interiorLo), ow0),
                             im.le(end, im.c(plan.interiorHi + 1)));
    auto ifInterior = scf::IfOp::create(b, loc, interior, true);
    b.setInsertionPointToStart(ifInterior.thenBlock());
    if (plan.epilogue)
      callLastOrNot(plan.rowKernel, plan.rowKernelEpilogue, 0, ow0, m);
    else
      call(plan.rowKernel, 0, ow0, m, false);
    b.setInsertionPointToStart(ifInterior.elseBlock());
    emitPerTap();
  }
  if (!plan.epilogue ||
      (plan.unreachedColumns.empty() && !plan.someRowUnreached))
    return;

  // Pixels no call reached: the epilogue alone (on the zero-filled output),
  // once, with the last channel block (the channel loop is the caller's).
  b.setInsertionPointAfter(rLoop);
  auto ifLastBlock = scf::IfOp::create(
      b, loc, im.le(im.c(p.c), im.add(c0, im.c(plan.cb))), false);
  b.setInsertionPointToStart(ifLastBlock.thenBlock());
  auto unreachedColumns = [&]() {
    for (auto [first, stop] : plan.unreachedColumns) {
      Value lo = im.max(ow0, im.c(first));
      Value hi = im.min(end, im.c(stop));
      auto ifAny = scf::IfOp::create(b, loc, im.lt(lo, hi), false);
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(ifAny.thenBlock());
      emitEpilogueOnlyCall(b, loc, plan, n, oh, lo, im.sub(hi, lo), f0, nrem);
    }
  };
  if (!plan.someRowUnreached) {
    unreachedColumns();
    return;
  }
  Value rowReached =
      im.andI(im.le(im.c(0), rLast),
              im.le(im.c(0), im.add(ihBase, im.mul(rLast, p.dilationH))));
  auto ifReached = scf::IfOp::create(b, loc, rowReached, true);
  b.setInsertionPointToStart(ifReached.thenBlock());
  unreachedColumns();
  b.setInsertionPointToStart(ifReached.elseBlock());
  emitEpilogueOnlyCall(b, loc, plan, n, oh, ow0, m, f0, nrem);
}

/// One call over every tap and channel of pixels [lo, lo+cnt) of row
/// (n, oh), all of whose taps lie inside the image: A starts at input row
/// oh*SH - PT, pixel lo*SW - PL, channel 0; the kernel reduces K = S*C
/// consecutive floats per filter row and steps an input row (times DH) per
/// tap; B (the whole filter of the panel, its R*S*C rows in order) runs on.
void emitWindowCall(OpBuilder &b, Location loc, const ConvPlan &plan, Value n,
                    Value oh, Value lo, Value cnt, Value fb, Value f0,
                    Value nrem, Value stripFirst) {
  const ConvProblem &p = plan.p;
  Idx im{b, loc};
  Value zero = im.c(0);
  Value a;
  if (plan.windowStrip) {
    // Strip pixel 0 is input pixel -PL; the row's first filter row is strip
    // row stripFirst.
    a = memref::SubViewOp::create(
        b, loc, plan.strip,
        ArrayRef<OpFoldResult>{stripFirst, im.mul(lo, p.strideW), zero},
        ArrayRef<OpFoldResult>{b.getIndexAttr(1), cnt, b.getIndexAttr(p.c)},
        ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(p.strideW),
                               b.getIndexAttr(1)});
  } else {
    Value ih = im.add(im.mul(oh, p.strideH), -p.padTop);
    Value iw = im.add(im.mul(lo, p.strideW), -p.padLeft);
    a = memref::SubViewOp::create(
        b, loc, plan.in, ArrayRef<OpFoldResult>{n, ih, iw, zero},
        ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(1), cnt,
                               b.getIndexAttr(p.c)},
        ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(1),
                               b.getIndexAttr(p.strideW), b.getIndexAttr(1)});
  }
  Value bPanel;
  if (plan.packFilter) {
    Value offset =
        packedFilterOffset(im, plan, fb, zero, im.c(p.c), zero);
    bPanel = memref::SubViewOp::create(
        b, loc, plan.packedFilter, ArrayRef<OpFoldResult>{offset},
        ArrayRef<OpFoldResult>{b.getIndexAttr(p.r * p.s * p.c * plan.nr)},
        ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
  } else {
    bPanel = memref::SubViewOp::create(
        b, loc, plan.flt, ArrayRef<OpFoldResult>{zero, zero, zero, f0},
        ArrayRef<OpFoldResult>{b.getIndexAttr(p.r), b.getIndexAttr(p.s),
                               b.getIndexAttr(p.c), nrem},
        ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(1),
                               b.getIndexAttr(1), b.getIndexAttr(1)});
  }
  Value c = view2D(b, loc, plan.out, {n, oh, lo, f0}, cnt, nrem, 1);
  // Every tap of these pixels is in this call: with an epilogue it is their
  // last.
  const EmittedKernel &kernel =
      plan.epilogue ? plan.windowKernelEpilogue : plan.windowKernel;
  std::array<Value, 3> epilogue = {};
  if (plan.epilogue)
    epilogue = epilogueOperands(b, loc, plan, n, oh, lo, cnt, f0, nrem);
  UKernelOp::create(
      b, loc, b.getStringAttr(kernel.name), a, bPanel, c,
      im.c(p.s * p.c), cnt, nrem, epilogue[0], epilogue[1], epilogue[2],
      /*out=*/Value(), /*bPanelOut=*/Value(), b.getStringAttr(kernel.asmText), b.getStringAttr(kernel.constraints),
      b.getStringAttr(kernel.dialect), b.getI64IntegerAttr(plan.mr),
      b.getI64IntegerAttr(plan.nr), b.getStringAttr(kernel.hash.substr(0, 16)));
}

/// Fills the strip for `count` output rows from (n, oh) on: strip row r
/// holds input row ih = oh*SH - PT + r*stripStep between PL and PR zero
/// pixels (all zeros where ih lies outside the image), for the rows those
/// output rows' windows span. The zero columns were written when the strip
/// was allocated and are never written again.
void emitStripFill(OpBuilder &b, Location loc, const ConvPlan &plan, Value n,
                   Value oh, Value count) {
  const ConvProblem &p = plan.p;
  Idx im{b, loc};
  OpBuilder::InsertionGuard guard(b);
  Value rows = im.c(p.r);
  if (plan.stripBlock > 1)
    rows = im.add(im.mul(count, p.strideH),
                  p.dilationH * (p.r - 1) + 1 - p.strideH);
  auto rLoop = scf::ForOp::create(b, loc, im.c(0), rows, im.c(1));
  b.setInsertionPointToStart(rLoop.getBody());
  Value r = rLoop.getInductionVar();
  Value ih = im.add(im.add(im.mul(oh, p.strideH), -p.padTop),
                    im.mul(r, plan.stripStep));
  Value inside = im.andI(im.le(im.c(0), ih), im.lt(ih, im.c(p.h)));
  auto stripType = cast<MemRefType>(plan.strip.getType());
  SmallVector<OpFoldResult> rowSizes = {b.getIndexAttr(1),
                                        b.getIndexAttr(p.w),
                                        b.getIndexAttr(p.c)};
  SmallVector<OpFoldResult> ones(3, b.getIndexAttr(1));
  SmallVector<OpFoldResult> rowOffsets = {r, b.getIndexAttr(p.padLeft),
                                          b.getIndexAttr(0)};
  MemRefType dstType = memref::SubViewOp::inferRankReducedResultType(
      {p.w, p.c}, stripType, rowOffsets, rowSizes, ones);
  Value dst = memref::SubViewOp::create(b, loc, dstType, plan.strip,
                                        rowOffsets, rowSizes, ones);
  auto ifInside = scf::IfOp::create(b, loc, inside, /*withElseRegion=*/true);
  b.setInsertionPointToStart(ifInside.thenBlock());
  // W*C consecutive floats on both sides (the input's pixels are dense):
  // the copy lowers to a memcpy.
  Value src = view2D(b, loc, plan.in, {n, ih, b.getIndexAttr(0),
                                       b.getIndexAttr(0)},
                     b.getIndexAttr(p.w), b.getIndexAttr(p.c), 1);
  memref::CopyOp::create(b, loc, src, dst);
  b.setInsertionPointToStart(ifInside.elseBlock());
  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
  linalg::FillOp::create(b, loc, ValueRange{zero}, ValueRange{dst});
}

/// A block with taps = "window": where every filter row of output row oh
/// lies inside the image, the pixels that see every tap column get one
/// window call and the ones at the left and right edges the per-row path
/// (emitBlock); other rows take emitBlock whole.
void emitWindowBlock(OpBuilder &b, Location loc, const ConvPlan &plan, Value n,
                     Value oh, Value ow0, Value m, Value fb, Value f0,
                     Value nrem, Value c0, Value kcb) {
  const ConvProblem &p = plan.p;
  Idx im{b, loc};
  OpBuilder::InsertionGuard guard(b);
  Value end = im.add(ow0, m);
  Value ihFirst = im.add(im.mul(oh, p.strideH), -p.padTop);
  Value ihLast = im.add(ihFirst, (p.r - 1) * p.dilationH);
  Value lo = im.max(ow0, im.c(plan.interiorLo));
  Value hi = im.min(end, im.c(plan.interiorHi + 1));
  Value inside = im.andI(im.andI(im.le(im.c(0), ihFirst),
                                 im.lt(ihLast, im.c(p.h))),
                         im.lt(lo, hi));
  auto ifInside = scf::IfOp::create(b, loc, inside, true);
  b.setInsertionPointToStart(ifInside.thenBlock());
  emitWindowCall(b, loc, plan, n, oh, lo, im.sub(hi, lo), fb, f0, nrem,
                 /*stripFirst=*/Value());
  auto ifLeft = scf::IfOp::create(b, loc, im.lt(ow0, lo), false);
  b.setInsertionPointToStart(ifLeft.thenBlock());
  emitBlock(b, loc, plan, n, oh, ow0, im.sub(lo, ow0), fb, f0, nrem, c0, kcb);
  b.setInsertionPointAfter(ifLeft);
  auto ifRight = scf::IfOp::create(b, loc, im.lt(hi, end), false);
  b.setInsertionPointToStart(ifRight.thenBlock());
  emitBlock(b, loc, plan, n, oh, hi, im.sub(end, hi), fb, f0, nrem, c0, kcb);
  b.setInsertionPointToStart(ifInside.elseBlock());
  emitBlock(b, loc, plan, n, oh, ow0, m, fb, f0, nrem, c0, kcb);
}

/// Output rows [rowBegin, rowEnd) in the sketch's loop order; filter panels
/// [panelBegin, panelEnd), or with the filter packed per block, groups of
/// plan.packGroup panels.
void emitRows(OpBuilder &b, Location loc, const ConvPlan &plan, Value rowBegin,
              Value rowEnd, Value panelBegin, Value panelEnd, bool markLoop) {
  const ConvProblem &p = plan.p;
  Idx im{b, loc};
  OpBuilder::InsertionGuard guard(b);
  StringRef order = plan.sketch.getLoopOrder();
  bool filterOuter = order != "pf";
  bool channelsOuter = order == "fcp";
  Value fb, f0, nrem, c0, kcb;
  auto enterChannelLoop = [&]() {
    auto cbLoop =
        scf::ForOp::create(b, loc, im.c(0), im.c(p.c), im.c(plan.cb));
    b.setInsertionPointToStart(cbLoop.getBody());
    c0 = cbLoop.getInductionVar();
    kcb = im.min(im.c(plan.cb), im.sub(im.c(p.c), c0));
  };
  auto enterPanel = [&](Value panel) {
    fb = panel;
    f0 = im.mul(fb, plan.nr);
    nrem = im.min(im.c(plan.nr), im.sub(im.c(p.f), f0));
  };
  auto enterFilterLoop = [&]() {
    auto fLoop = scf::ForOp::create(b, loc, panelBegin, panelEnd, im.c(1));
    b.setInsertionPointToStart(fLoop.getBody());
    enterPanel(fLoop.getInductionVar());
  };
  if (plan.packPerBlock && plan.packGroup == 1) {
    enterFilterLoop();
    enterChannelLoop();
    emitFilterBlockPack(b, loc, plan, fb, /*count=*/Value(), c0, kcb);
  } else if (plan.packPerBlock) {
    // Groups of panels, each channel block of a group packed at once, then
    // the group's panels one by one over all rows.
    int64_t panels = ceilDiv(p.f, plan.nr);
    auto gLoop = scf::ForOp::create(b, loc, panelBegin, panelEnd, im.c(1));
    b.setInsertionPointToStart(gLoop.getBody());
    Value first = im.mul(gLoop.getInductionVar(), plan.packGroup);
    Value count = im.min(im.c(plan.packGroup), im.sub(im.c(panels), first));
    enterChannelLoop();
    emitFilterBlockPack(b, loc, plan, first, count, c0, kcb);
    auto fLoop =
        scf::ForOp::create(b, loc, first, im.add(first, count), im.c(1));
    b.setInsertionPointToStart(fLoop.getBody());
    enterPanel(fLoop.getInductionVar());
  } else {
    if (filterOuter)
      enterFilterLoop();
    if (channelsOuter)
      enterChannelLoop();
  }
  auto rowLoop = scf::ForOp::create(b, loc, rowBegin, rowEnd, im.c(1));
  if (markLoop)
    rowLoop->setAttr(kSketchAttrName, plan.sketch);
  b.setInsertionPointToStart(rowLoop.getBody());
  Value row = rowLoop.getInductionVar();
  Value n = im.div(row, p.outH()), oh = im.rem(row, p.outH());
  Value stripFirst;
  if (plan.windowStrip && plan.stripBlock == 1) {
    emitStripFill(b, loc, plan, n, oh, im.c(1));
    stripFirst = im.c(0);
  } else if (plan.windowStrip) {
    // Blocks of stripBlock output rows of one image, aligned to multiples
    // of it (a thread's first block starts at its first row), the strip
    // filled at the first row of each.
    Value blockStart = im.sub(oh, im.rem(oh, plan.stripBlock));
    Value imageRow0 = im.mul(n, p.outH());
    Value filled = im.max(blockStart, im.sub(rowBegin, imageRow0));
    Value blockEnd =
        im.min(im.min(im.add(blockStart, im.c(plan.stripBlock)),
                      im.c(p.outH())),
               im.sub(rowEnd, imageRow0));
    auto ifFirst = scf::IfOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, oh, filled),
        /*withElseRegion=*/false);
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(ifFirst.thenBlock());
      emitStripFill(b, loc, plan, n, oh, im.sub(blockEnd, oh));
    }
    stripFirst = im.mul(im.sub(oh, filled), p.strideH);
  }
  auto pLoop = scf::ForOp::create(b, loc, im.c(0), im.c(p.outW()),
                                  im.c(plan.mr));
  b.setInsertionPointToStart(pLoop.getBody());
  Value ow0 = pLoop.getInductionVar();
  Value m = im.min(im.c(plan.mr), im.sub(im.c(p.outW()), ow0));
  if (plan.zeroInNest) {
    // The block's channels: all of them where the filter panels run inside
    // the pixel blocks, else the panel's; with the channel blocks outside
    // the rows ("fcp"), on the first channel block's pass only.
    OpBuilder::InsertionGuard g(b);
    if (channelsOuter) {
      auto ifFirst = scf::IfOp::create(
          b, loc,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, c0,
                                im.c(0)),
          /*withElseRegion=*/false);
      b.setInsertionPointToStart(ifFirst.thenBlock());
    }
    // (This thread's panels only, where threads split the panels.)
    Value block;
    if (filterOuter) {
      block = view2D(b, loc, plan.out, {n, oh, ow0, f0}, m, nrem, 1);
    } else {
      Value first = im.mul(panelBegin, plan.nr);
      Value last = im.min(im.mul(panelEnd, plan.nr), im.c(p.f));
      block = view2D(b, loc, plan.out, {n, oh, ow0, first}, m,
                     im.sub(last, first), 1);
    }
    linalg::FillOp::create(b, loc, ValueRange{plan.zeroValue},
                           ValueRange{block});
  }
  if (!filterOuter)
    enterFilterLoop();
  if (!channelsOuter)
    enterChannelLoop();
  if (plan.windowStrip)
    emitWindowCall(b, loc, plan, n, oh, ow0, m, fb, f0, nrem, stripFirst);
  else if (plan.windowTaps)
    emitWindowBlock(b, loc, plan, n, oh, ow0, m, fb, f0, nrem, c0, kcb);
  else
    emitBlock(b, loc, plan, n, oh, ow0, m, fb, f0, nrem, c0, kcb);
}

/// The prepacked filter of a convolution marked tensorop.prepacked_filter:
/// the function argument that holds it and the names of the functions to
/// add.
struct PrepackedFilter {
  BlockArgument argument;
  func::FuncOp function;
  StringAttr packName, sizeName;
};

/// Checks the mark: the filter operand must be an argument of the enclosing
/// function that nothing else reads, and the two names free.
FailureOr<PrepackedFilter> matchPrepackedFilter(linalg::Conv2DNhwcHwcfOp op,
                                                Attribute mark, Value filter) {
  FailureOr<PrepackedFilterNames> names = parsePrepackedFilterMark(op, mark);
  if (failed(names))
    return failure();
  PrepackedFilter pf;
  pf.packName = names->pack;
  pf.sizeName = names->size;
  pf.argument = dyn_cast<BlockArgument>(filter);
  if (pf.argument)
    pf.function =
        dyn_cast<func::FuncOp>(pf.argument.getOwner()->getParentOp());
  if (!pf.function || !pf.argument.getOwner()->isEntryBlock() ||
      !filter.hasOneUse())
    return op.emitError() << "tensorop: a prepacked filter must be an "
                             "argument of the enclosing function that only "
                             "this convolution reads (after bufferization)";
  if (failed(checkPrepackedNamesFree(
          op, *names, pf.function->getParentOfType<ModuleOp>())))
    return failure();
  return pf;
}

/// Retypes the prepacked filter's argument to the flat packed buffer and
/// adds @pack(filter HWCF, packed) and @size() -> bytes next to its
/// function, from `plan` (the layout emitFilterPack writes).
Value bindPrepackedFilter(OpBuilder &b, Location loc, const ConvPlan &plan,
                          PrepackedFilter pf, int64_t floats) {
  MLIRContext *ctx = b.getContext();
  Type f32 = b.getF32Type();
  auto packedType = MemRefType::get({floats}, f32);
  pf.argument.setType(packedType);
  SmallVector<Type> inputs(pf.function.getArgumentTypes());
  inputs[pf.argument.getArgNumber()] = packedType;
  pf.function.setType(
      FunctionType::get(ctx, inputs, pf.function.getResultTypes()));

  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointAfter(pf.function);
  const ConvProblem &p = plan.p;
  auto filterType = MemRefType::get({p.r, p.s, p.c, p.f}, f32);
  SmallVector<Type, 2> packArgs = {filterType, packedType};
  auto pack = func::FuncOp::create(b, loc, pf.packName.getValue(),
                                   FunctionType::get(ctx, packArgs, {}));
  Block *entry = pack.addEntryBlock();
  b.setInsertionPointToStart(entry);
  ConvPlan packPlan = plan;
  packPlan.flt = entry->getArgument(0);
  packPlan.packedFilter = entry->getArgument(1);
  emitFilterPack(b, loc, packPlan);
  func::ReturnOp::create(b, loc);

  b.setInsertionPointAfter(pack);
  SmallVector<Type, 1> sizeResults = {b.getIndexType()};
  auto size = func::FuncOp::create(
      b, loc, pf.sizeName.getValue(),
      FunctionType::get(ctx, TypeRange(), sizeResults));
  b.setInsertionPointToStart(size.addEntryBlock());
  Value bytes = arith::ConstantIndexOp::create(b, loc, floats * 4);
  func::ReturnOp::create(b, loc, bytes);
  return pf.argument;
}

/// The kernel for `taps` taps per call; with the sketch's epilogue steps
/// when `withEpilogue`.
llvm::Expected<EmittedKernel>
emitKernel(const ConvPlan &plan, const TargetHints &hints, int64_t ldaBytes,
           int64_t ldbBytes, int64_t taps, int64_t tapABytes,
           StringRef emitterDir, unsigned timeout, bool withEpilogue = false) {
  EmitterRequest request =
      convUKernelEmitterRequest(plan.sketch, hints, ldaBytes, ldbBytes, taps,
                                tapABytes, emitterDir, timeout);
  if (withEpilogue) {
    llvm::json::Array steps;
    for (Attribute step : plan.sketch.getEpilogue().getSteps())
      steps.push_back(cast<StringAttr>(step).getValue().str());
    request.spec["epilogue"] = std::move(steps);
    request.numOperands = kNumUKernelOperands + 1;
  }
  return runEmitter(request);
}
} // namespace

LogicalResult mlir::tensorop::applyConvSketch(RewriterBase &rewriter,
                                              linalg::Conv2DNhwcHwcfOp op,
                                              ConvSketchAttr sketch,
                                              StringRef emitterDir,
                                              unsigned emitterTimeout,
                                              PassHints &passHints) {
  std::string reason;
  FailureOr<ConvProblem> problem = matchSupportedConv(op, reason);
  if (failed(problem))
    return op.emitError() << "cannot apply the tensorop conv sketch: "
                          << reason;
  if (!op.hasPureBufferSemantics())
    return op.emitError() << "tensorop-apply-sketch needs memref operands; "
                             "run one-shot-bufferize first";
  Location loc = op.getLoc();
  ConvPlan plan;
  plan.p = *problem;
  plan.sketch = sketch;
  plan.in = op.getDpsInputOperand(0)->get();
  plan.flt = op.getDpsInputOperand(1)->get();
  plan.out = op.getDpsInitOperand(0)->get();

  // Fold a bufferized zero pad into the kernel.
  bool expectedPad = op->hasAttr(kConvPaddingAttrName);
  bool sourceRestrict = op->hasAttr(kConvPadRestrictAttrName);
  op->removeAttr(kConvPaddingAttrName);
  op->removeAttr(kConvPadRestrictAttrName);
  std::optional<TracedPad> pad = traceBufferizedPad(op, sourceRestrict);
  if (pad) {
    plan.in = pad->source;
    auto src = cast<MemRefType>(pad->source.getType());
    plan.p.h = src.getDimSize(1);
    plan.p.w = src.getDimSize(2);
    plan.p.padTop = pad->top;
    plan.p.padBottom = pad->bottom;
    plan.p.padLeft = pad->left;
    plan.p.padRight = pad->right;
  } else if (expectedPad) {
    op.emitRemark() << "tensorop: the zero tensor.pad in front of this "
                       "convolution could not be traced after bufferization; "
                       "its padded copy runs and the kernel reads it";
  }

  std::optional<SmallVector<int64_t>> inStrides =
      staticUnitInnerStrides(plan.in);
  std::optional<SmallVector<int64_t>> fltStrides =
      staticUnitInnerStrides(plan.flt);
  if (!inStrides || !fltStrides || !staticUnitInnerStrides(plan.out)) {
    if (op->hasAttr(kConvPrepackedFilterAttrName))
      return op.emitError() << "tensorop: a convolution with a prepacked "
                               "filter needs static strides with a unit "
                               "innermost one on its operands";
    op.emitRemark() << "tensorop: the convolution's operands need static "
                       "strides with a unit innermost one; lowered by the "
                       "upstream pipeline";
    op->removeAttr(kSketchAttrName);
    return success();
  }
  plan.mr = sketch.getMr();
  plan.nr = sketch.getNr();
  plan.cb = std::min(sketch.getCb(), plan.p.c);
  plan.packInput = sketch.getPackInput() != "none";
  plan.packFilter = sketch.getPackFilter() != "none";
  bool window = sketch.getTaps() == "window";
  plan.rowTaps = (sketch.getTaps() == "row" || window) && plan.p.s > 1;
  plan.packPerBlock = plan.packFilter && sketch.getLoopOrder() == "fcp";
  // A prepacked filter: the whole filter in the layout packed once (the
  // microkernels read panels), whatever pack_filter says.
  std::optional<PrepackedFilter> prepacked;
  if (Attribute mark = op->getAttr(kConvPrepackedFilterAttrName)) {
    FailureOr<PrepackedFilter> pf = matchPrepackedFilter(op, mark, plan.flt);
    if (failed(pf))
      return failure();
    prepacked = *pf;
    plan.packFilter = true;
    plan.packPerBlock = false;
  }
  // Loop order "fcp" sizes cb for a per-call buffer that holds a group of
  // panels' blocks (convPackGroupPanels), which only the one-thread
  // per-call entry packs. A filter packed once has no such buffer, and at
  // more than one thread the panels are packed one at a time (grouped,
  // 2 threads, quiet machine, same process as oneDNN: N=1 res5 3x3
  // 0.76-0.77x -> 0.63-0.67x, 1x1/2 1024>2048 0.66-0.67x -> 0.56-0.57x,
  // 3x3/2 0.80-0.82x -> 0.67-0.69x; why is not known); there a block of
  // one panel takes the group's room: cb * group channels, balanced over C
  // (res5 3x3 512>512: cb 103 -> 256, fewer passes over the output and
  // longer calls), no more per call than the builtin choice takes
  // (kConvMaxChannelBlock; 1x1/2 1024>2048 stays at 512).
  int64_t rows = plan.p.n * plan.p.outH();
  int64_t threads = std::min<int64_t>(sketch.getThreads(), rows);
  bool groupedPack = plan.packPerBlock && threads == 1;
  if (sketch.getLoopOrder() == "fcp" && plan.packFilter && !groupedPack) {
    int64_t group = convPackGroupPanels(plan.p, plan.nr);
    int64_t merged = std::min(
        {plan.p.c, plan.cb * group, std::max(plan.cb, kConvMaxChannelBlock)});
    plan.cb = ceilDiv(plan.p.c, ceilDiv(plan.p.c, merged));
  }
  if (plan.rowTaps && !plan.packFilter && plan.cb < plan.p.c)
    return op.emitError() << "tensorop conv sketch taps \"row\" with "
                             "pack_filter \"none\" needs cb to cover all "
                          << plan.p.c << " channels (got cb " << plan.cb
                          << "): the taps of an unpacked filter lie C rows "
                             "apart";
  if (window) {
    // The S taps of a filter row must be S*C consecutive floats of the
    // input row and of the filter (or of its packed panel: one channel
    // block, taps adjacent).
    const ConvProblem &q = plan.p;
    std::string why;
    if (q.dilationW != 1)
      why = "dilation along W is " + std::to_string(q.dilationW);
    else if (plan.cb < q.c)
      why = "cb " + std::to_string(plan.cb) + " does not cover all " +
            std::to_string(q.c) + " channels";
    else if ((*inStrides)[2] != q.c)
      why = "the input's pixels are not dense (stride " +
            std::to_string((*inStrides)[2]) + ", C = " +
            std::to_string(q.c) + ")";
    else if (!plan.packFilter && ((*fltStrides)[1] != q.c * (*fltStrides)[2] ||
                                  (*fltStrides)[0] != q.s * (*fltStrides)[1]))
      why = "the filter read in place is not dense HWCF";
    if (!why.empty())
      return op.emitError() << "tensorop conv sketch taps \"window\" needs "
                               "each filter row's taps to be consecutive in "
                               "the input and the filter: "
                            << why;
    plan.windowTaps = true;
    plan.windowStrip = q.padTop || q.padBottom || q.padLeft || q.padRight;
    plan.stripRow = (q.w + q.padLeft + q.padRight) * q.c;
    plan.stripBlock = convStripBlockRows(q);
    plan.stripStep = plan.stripBlock > 1 ? 1 : q.dilationH;
    plan.stripRows = plan.stripBlock > 1 ? q.strideH * (plan.stripBlock - 1) +
                                               q.dilationH * (q.r - 1) + 1
                                         : q.r;
  }
  for (int64_t s = 0; s < plan.p.s; ++s)
    plan.taps.push_back(tapRange(plan.p, s));
  plan.interiorLo = 0;
  plan.interiorHi = plan.p.outW() - 1;
  for (const TapRange &t : plan.taps) {
    plan.interiorLo = std::max(plan.interiorLo, t.lo);
    plan.interiorHi = std::min(plan.interiorHi, t.hi);
  }

  // A fused epilogue (tensorop-fuse-epilogues): its consumer, marked, must
  // write the output in place after the convolution; its inputs are the
  // bias and residual the microkernel reads.
  std::optional<FusedChain> epilogueChain;
  if (sketch.getEpilogue()) {
    epilogueChain = findFusedChain(op, plan.out, sketch.getEpilogue(),
                                   EpilogueOutput::ConvNhwf);
    if (!epilogueChain) {
      op.emitRemark() << "tensorop: the epilogue on this convolution's "
                         "sketch is not applied: its consumers "
                         "(tensorop.fused_epilogue) do not write the output "
                         "in place after it and compute its steps; they run "
                         "as separate ops";
    } else {
      plan.epilogue = true;
      plan.bias = epilogueChain->bias;
      plan.residual = epilogueChain->residual;
      planEpilogueCoverage(plan);
    }
  }

  // Emit (and check) the microkernels before touching the IR, with the
  // hints the sketch was planned with (target=host: this machine's).
  llvm::Expected<const TargetHints &> hints =
      passHints.forSketch(sketch.getTarget().getName());
  if (!hints)
    return op.emitError() << llvm::toString(hints.takeError());
  int64_t pixelBytes = (*inStrides)[2] * 4;
  int64_t lda = plan.packInput ? 0 : plan.p.strideW * pixelBytes;
  int64_t ldb = plan.packFilter ? 0 : (*fltStrides)[2] * 4;
  llvm::Expected<EmittedKernel> one =
      emitKernel(plan, *hints, lda, ldb, 1, 0, emitterDir, emitterTimeout);
  if (!one)
    return op.emitError() << llvm::toString(one.takeError());
  plan.oneTap = *one;
  if (plan.rowTaps) {
    llvm::Expected<EmittedKernel> row =
        emitKernel(plan, *hints, lda, ldb, plan.p.s,
                   plan.p.dilationW * pixelBytes, emitterDir, emitterTimeout);
    if (!row)
      return op.emitError() << llvm::toString(row.takeError());
    plan.rowKernel = *row;
  }
  // The window kernel: R taps (filter rows) of K = S*C, DH input rows
  // apart, in the input or in the strip.
  int64_t windowTapBytes =
      plan.windowStrip
          ? plan.p.dilationH / plan.stripStep * plan.stripRow * 4
          : plan.p.dilationH * (*inStrides)[1] * 4;
  if (plan.windowTaps) {
    llvm::Expected<EmittedKernel> win =
        emitKernel(plan, *hints, lda, ldb, plan.p.r, windowTapBytes,
                   emitterDir, emitterTimeout, plan.epilogue);
    if (!win)
      return op.emitError() << llvm::toString(win.takeError());
    (plan.epilogue ? plan.windowKernelEpilogue : plan.windowKernel) = *win;
  }
  if (plan.epilogue) {
    llvm::Expected<EmittedKernel> oneEpi =
        emitKernel(plan, *hints, lda, ldb, 1, 0, emitterDir, emitterTimeout,
                   /*withEpilogue=*/true);
    if (!oneEpi)
      return op.emitError() << llvm::toString(oneEpi.takeError());
    plan.oneTapEpilogue = *oneEpi;
    if (plan.rowTaps) {
      llvm::Expected<EmittedKernel> rowEpi = emitKernel(
          plan, *hints, lda, ldb, plan.p.s, plan.p.dilationW * pixelBytes,
          emitterDir, emitterTimeout, /*withEpilogue=*/true);
      if (!rowEpi)
        return op.emitError() << llvm::toString(rowEpi.takeError());
      plan.rowKernelEpilogue = *rowEpi;
    }
  }

  // The output's zero fill runs in the nest instead (ConvPlan::zeroInNest):
  // one serial pass over the whole output before the convolution cost the
  // threads its time, and on large outputs memset's non-temporal stores
  // sent the output to memory for the kernel to read it back.
  linalg::FillOp outputFill = zeroFillBefore(op, plan.out);
  plan.zeroInNest = static_cast<bool>(outputFill);
  if (outputFill)
    plan.zeroValue = outputFill.getDpsInputOperand(0)->get();

  rewriter.setInsertionPoint(op);
  if (outputFill)
    rewriter.eraseOp(outputFill);
  if (pad) {
    rewriter.eraseOp(pad->copy);
    rewriter.eraseOp(pad->subview);
    rewriter.eraseOp(pad->fill);
  }
  Type f32 = rewriter.getF32Type();
  IntegerAttr align = rewriter.getI64IntegerAttr(64);
  if (plan.packFilter && !plan.packPerBlock) {
    int64_t size = ceilDiv(plan.p.f, plan.nr) * plan.p.r * plan.p.s *
                   plan.p.c * plan.nr;
    if (prepacked) {
      plan.packedFilter =
          bindPrepackedFilter(rewriter, loc, plan, *prepacked, size);
    } else {
      plan.packedFilter = memref::AllocOp::create(
          rewriter, loc, MemRefType::get({size}, f32), align);
      emitFilterPack(rewriter, loc, plan, sketch.getThreads());
    }
  }
  Idx im{rewriter, loc};
  // Per thread: the input panel and the epilogue block (its header and
  // scratch tile are written by every call).
  auto allocPanel = [&]() {
    if (plan.packInput)
      plan.inputPanel = memref::AllocOp::create(
          rewriter, loc, MemRefType::get({plan.cb, plan.mr}, f32), align);
    if (plan.packPerBlock)
      plan.packedFilter = memref::AllocOp::create(
          rewriter, loc,
          MemRefType::get({plan.packGroup * plan.p.r * plan.p.s * plan.cb *
                           plan.nr},
                          f32),
          align);
    if (plan.epilogue)
      plan.epilogueBlock =
          emitEpilogueBlock(rewriter, loc, plan.oneTapEpilogue);
    if (plan.windowStrip) {
      const ConvProblem &q = plan.p;
      plan.strip = memref::AllocOp::create(
          rewriter, loc,
          MemRefType::get(
              {plan.stripRows, q.w + q.padLeft + q.padRight, q.c}, f32),
          align);
      Value zero =
          arith::ConstantOp::create(rewriter, loc, rewriter.getF32FloatAttr(0));
      linalg::FillOp::create(rewriter, loc, ValueRange{zero},
                             ValueRange{plan.strip});
    }
  };
  auto freePanel = [&]() {
    if (plan.inputPanel)
      memref::DeallocOp::create(rewriter, loc, plan.inputPanel);
    if (plan.packPerBlock)
      memref::DeallocOp::create(rewriter, loc, plan.packedFilter);
    if (plan.epilogueBlock)
      memref::DeallocOp::create(rewriter, loc, plan.epilogueBlock);
    if (plan.strip)
      memref::DeallocOp::create(rewriter, loc, plan.strip);
  };
  int64_t panels = ceilDiv(plan.p.f, plan.nr);
  // Loop order "fcp" packs each filter block in the loop nest: threads then
  // split the filter panels (each packs only its own) rather than the rows
  // (each would pack the whole filter), where there are panels enough.
  // Otherwise they split the rows, unless the panels divide more evenly
  // among them (7 rows on 2 threads leave one idle an eighth of the time;
  // 16 panels of 32 channels do not).
  auto imbalance = [&](int64_t items) {
    return double(ceilDiv(items, threads) * threads) / double(items);
  };
  if (groupedPack)
    plan.packGroup = convPackGroupPanels(plan.p, plan.nr);
  int64_t groups = ceilDiv(panels, plan.packGroup);
  bool splitPanels = plan.packPerBlock ? groups >= threads
                                       : imbalance(panels) < imbalance(rows);
  if (threads > 1) {
    // Chunks of output rows (or filter panels, or groups of them), one per
    // thread, each with its own input panel.
    int64_t items = splitPanels ? groups : rows;
    int64_t chunk = ceilDiv(items, threads);
    int64_t count = ceilDiv(items, chunk);
    auto forall = scf::ForallOp::create(
        rewriter, loc, ArrayRef<OpFoldResult>{rewriter.getIndexAttr(count)},
        ValueRange{}, std::nullopt);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(forall.getBody());
    Idx fim{rewriter, loc};
    Value begin = fim.mul(forall.getInductionVar(0), chunk);
    Value end = fim.min(fim.add(begin, chunk), fim.c(items));
    allocPanel();
    if (splitPanels)
      emitRows(rewriter, loc, plan, fim.c(0), fim.c(rows), begin, end,
               /*markLoop=*/true);
    else
      emitRows(rewriter, loc, plan, begin, end, fim.c(0), fim.c(groups),
               /*markLoop=*/true);
    freePanel();
  } else {
    allocPanel();
    emitRows(rewriter, loc, plan, im.c(0), im.c(rows), im.c(0), im.c(groups),
             /*markLoop=*/false);
    freePanel();
  }
  if (plan.packedFilter && !plan.packPerBlock && !prepacked)
    memref::DeallocOp::create(rewriter, loc, plan.packedFilter);
  rewriter.eraseOp(op);
  if (plan.epilogue) {
    // (The convolution is gone by now: the remark goes on the first
    // consumer.)
    SmallVector<StringRef> steps;
    for (Attribute step : sketch.getEpilogue().getSteps())
      steps.push_back(cast<StringAttr>(step).getValue());
    epilogueChain->ops.front().emitRemark()
        << "tensorop: the convolution microkernel applies the epilogue ["
        << llvm::join(steps, ", ")
        << "] as it stores each output block after its last filter tap";
    for (linalg::GenericOp fused : epilogueChain->ops)
      rewriter.eraseOp(fused);
  }
  // The padded buffer is dead once nothing reads it.
  if (pad && llvm::all_of(pad->alloc->getUsers(), [](Operation *user) {
        return isa<memref::DeallocOp>(user);
      })) {
    for (Operation *user : llvm::make_early_inc_range(pad->alloc->getUsers()))
      rewriter.eraseOp(user);
    rewriter.eraseOp(pad->alloc);
  }
  return success();
}

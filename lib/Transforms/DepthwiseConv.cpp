//===- DepthwiseConv.cpp - Register-blocked depthwise convolutions --------===//
//
// A depthwise convolution has no reduction over channels, so it is not a
// GEMM and the microkernel path does not fit it: each output element is a
// dot product of the R*S taps of one channel. It is memory bound (9
// multiply-adds per output element at 3x3), and what makes it fast is what
// oneDNN's brdgmm_dw kernels do: a block of output pixels x channels held
// in vector registers over the whole filter window, so that each output
// element is written once and each input element read from L1 a few times.
//
// The pass builds that loop nest itself, on buffers, for each static f32
// linalg.depthwise_conv_2d_nhwc_hwc (on tensors: on read-only buffers of
// its operands, writing the function argument its result is materialized
// into, or else a new buffer the result reads; on memrefs: on its own):
//
//   for n, for output rows oh:
//     for blocks of `pixels` output columns:
//       for blocks of `vectors` x 16 channels (the last block masked):
//         acc[p][v] = 0 (zero-filled init) or the init's values
//         for each filter row kh, each filter column kw, each pixel p:
//           acc[p][v] += input[ih][iw(p, kw)][c..c+16) * filter[kh][kw][c..]
//         output[oh][ow + p][c..] = acc[p][v]
//
// Rows and columns whose filter window lies inside the image run in loops
// with no checks; the few at the borders are emitted one by one with the
// taps that fall outside left out, so a zero tensor.pad producer of the
// input is folded (never copied) and a zero-filled init is never filled.
//
// Why not upstream's route (tile by one filter row, decompose into 1-D
// depthwise convolutions, linalg::vectorize), which this pass used before:
// it re-reads and re-writes the output block once per filter row, copies the
// padded input, and holds the block's whole input row in registers: 8
// pixels x 48 channels need 63 zmm registers and spilled (0.16x oneDNN on a
// 56x56x144 layer, bench/conv/run.sh LAYOUT=depthwise).
//
//===----------------------------------------------------------------------===//

#include "tensorop/Transforms/ConvSupport.h"
#include "tensorop/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"

namespace mlir::tensorop {
#define GEN_PASS_DEF_TENSOROPDEPTHWISECONV
#include "tensorop/Transforms/Passes.h.inc"
} // namespace mlir::tensorop

using namespace mlir;

namespace {
/// Lanes of a vector register of f32 (AVX-512; on AVX2 a 16-lane vector is
/// two registers, which the register budget below allows for).
constexpr int64_t kLanes = 16;

/// The convolution's geometry, with a folded zero pad.
struct Geometry {
  int64_t n, h, w, c, r, s, oh, ow;
  int64_t strideH, strideW, dilH, dilW, padTop, padLeft;
};

/// Output pixels x channel vectors per register block. The block's
/// accumulators, its S filter vectors per channel vector and the few input
/// vectors in flight must fit 32 zmm registers: up to 16 accumulators, two
/// channel vectors where there are two.
struct Blocking {
  int64_t pixels, vectors;
};

/// Channel blocks of a row: `vectors` channel vectors each, the last one
/// partial where C is not a multiple.
int64_t channelBlocks(const Geometry &g, Blocking block) {
  return llvm::divideCeil(g.c, block.vectors * kLanes);
}

/// Whether `threads` threads split the channel blocks rather than the
/// output rows: where the blocks divide more evenly among them (7 rows of
/// a 14x14 stride-2 layer on 2 threads leave one idle an eighth of the
/// time; its 18 blocks of 32 channels do not).
bool splitsChannels(const Geometry &g, Blocking block, int64_t threads) {
  auto imbalance = [&](int64_t items) {
    return double(llvm::divideCeil(items, threads) * threads) / double(items);
  };
  return threads > 1 &&
         imbalance(channelBlocks(g, block)) < imbalance(g.n * g.oh);
}

Blocking chooseBlocking(const Geometry &g) {
  int64_t channelVectors = llvm::divideCeil(g.c, kLanes);
  int64_t vectors = channelVectors >= 2 ? 2 : 1;
  int64_t pixels = std::min<int64_t>(16 / vectors, g.ow);
  return {std::max<int64_t>(pixels, 1), vectors};
}

/// Emits the loop nest of one depthwise convolution on buffers (`input`,
/// `filter` read, `output` accumulated into or, with `zeroInit`, written).
/// Buffers, not tensors: a tensor carried through this many sibling loops
/// made One-Shot Bufferize's buffer-type queries explode (minutes for two
/// such convolutions in a module).
class DepthwiseEmitter {
public:
  DepthwiseEmitter(OpBuilder &b, Location loc, const Geometry &g,
                   Blocking block, Value input, Value filter, Value output,
                   bool zeroInit)
      : b(b), loc(loc), g(g), block(block), input(input), filter(filter),
        output(output), zeroInit(zeroInit),
        vecType(VectorType::get({kLanes}, b.getF32Type())) {
    zeroF = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
    zeroVec = arith::ConstantOp::create(
        b, loc, cast<TypedAttr>(b.getZeroAttr(vecType)));
  }

  /// The nest: all images' output rows as one range, split into
  /// `threads` contiguous chunks by an scf.forall when threads > 1 (or,
  /// where splitsChannels says so, every row with a chunk of the channel
  /// blocks per thread).
  void emit(int64_t threads) {
    int64_t rows = g.n * g.oh;
    auto row = [&](Value r) {
      Value n = arith::DivUIOp::create(b, loc, r, index(g.oh));
      Value oh = arith::RemUIOp::create(b, loc, r, index(g.oh));
      emitRowSwitch(n, oh);
    };
    if (threads <= 1) {
      forLoop(0, rows, 1, row);
      return;
    }
    bool channels = splitsChannels(g, block, threads);
    int64_t items = channels ? channelBlocks(g, block) : rows;
    int64_t chunk = llvm::divideCeil(items, threads);
    auto forall = scf::ForallOp::create(
        b, loc,
        ArrayRef<OpFoldResult>{b.getIndexAttr(llvm::divideCeil(items, chunk))},
        ValueRange{}, std::nullopt);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(forall.getBody()->getTerminator());
    Value lo = mul(forall.getInductionVar(0), chunk);
    Value hi = arith::MinUIOp::create(b, loc, add(lo, chunk), index(items));
    if (channels) {
      blockLo = lo;
      blockHi = hi;
    }
    auto loop = channels ? scf::ForOp::create(b, loc, index(0), index(rows),
                                              index(1))
                         : scf::ForOp::create(b, loc, lo, hi, index(1));
    // tensorop-omp-team-size gives the OpenMP team this forall becomes
    // exactly as many threads as it has chunks.
    loop->setAttr(tensorop::kOmpTeamAttrName, b.getUnitAttr());
    b.setInsertionPoint(loop.getBody()->getTerminator());
    row(loop.getInductionVar());
  }

private:
  using Body = llvm::function_ref<void(Value iv)>;

  Value index(int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  }
  Value add(Value a, int64_t c) {
    return c ? arith::AddIOp::create(b, loc, a, index(c)).getResult() : a;
  }
  Value mul(Value a, int64_t c) {
    return c == 1 ? a : arith::MulIOp::create(b, loc, a, index(c)).getResult();
  }

  /// scf.for iv in [lo, hi) step `step` (nothing when empty).
  void forLoop(int64_t lo, int64_t hi, int64_t step, Body body) {
    if (lo >= hi)
      return;
    auto loop = scf::ForOp::create(b, loc, index(lo), index(hi), index(step));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(loop.getBody()->getTerminator());
    body(loop.getInductionVar());
  }

  /// The range [lo, hi) of output positions whose window (taps at
  /// pos * stride + k * dil - pad, k < taps) lies inside [0, extent).
  static std::pair<int64_t, int64_t> inside(int64_t outs, int64_t extent,
                                            int64_t stride, int64_t dil,
                                            int64_t taps, int64_t pad) {
    int64_t lo = llvm::divideCeil(pad, stride);
    int64_t last = extent - 1 - (taps - 1) * dil + pad; // largest pos*stride
    int64_t hi = last < 0 ? 0 : last / stride + 1;
    lo = std::min(lo, outs);
    hi = std::clamp(hi, lo, outs);
    return {lo, hi};
  }

  /// Whether tap k of output position `pos` lies inside [0, extent).
  static bool tapInside(int64_t pos, int64_t k, int64_t stride, int64_t dil,
                        int64_t pad, int64_t extent) {
    int64_t i = pos * stride + k * dil - pad;
    return i >= 0 && i < extent;
  }

  /// Row `oh`: rows whose window is inside the image take the code with
  /// no checks, the border ones (an scf.index_switch case each) code with
  /// their outside filter rows left out.
  void emitRowSwitch(Value n, Value oh) {
    auto [lo, hi] = inside(g.oh, g.h, g.strideH, g.dilH, g.r, g.padTop);
    SmallVector<int64_t> border;
    for (int64_t r = 0; r < g.oh; ++r)
      if (r < lo || r >= hi)
        border.push_back(r);
    if (border.empty()) {
      emitRow(n, oh, std::nullopt);
      return;
    }
    auto rowSwitch = scf::IndexSwitchOp::create(b, loc, TypeRange{}, oh,
                                                border, border.size());
    OpBuilder::InsertionGuard guard(b);
    auto body = [&](Region &region, std::optional<int64_t> staticRow) {
      Block *block = b.createBlock(&region);
      b.setInsertionPointToStart(block);
      scf::YieldOp::create(b, loc);
      b.setInsertionPointToStart(block);
      emitRow(n, staticRow ? index(*staticRow) : oh, staticRow);
    };
    for (auto [i, r] : llvm::enumerate(border))
      body(rowSwitch.getCaseRegions()[i], r);
    body(rowSwitch.getDefaultRegion(), std::nullopt);
  }

  /// One output row (`staticRow` when it is a border row).
  void emitRow(Value n, Value oh, std::optional<int64_t> staticRow) {
    SmallVector<int64_t> rows;
    for (int64_t kh = 0; kh < g.r; ++kh)
      if (!staticRow ||
          tapInside(*staticRow, kh, g.strideH, g.dilH, g.padTop, g.h))
        rows.push_back(kh);
    auto [lo, hi] = inside(g.ow, g.w, g.strideW, g.dilW, g.s, g.padLeft);
    for (int64_t ow = 0; ow < lo; ++ow)
      emitChannels(n, oh, rows, index(ow), 1, ow);
    int64_t full = (hi - lo) / block.pixels * block.pixels;
    forLoop(lo, lo + full, block.pixels, [&](Value ow) {
      emitChannels(n, oh, rows, ow, block.pixels, std::nullopt);
    });
    if (int64_t rest = hi - lo - full)
      emitChannels(n, oh, rows, index(lo + full), rest, std::nullopt);
    for (int64_t ow = hi; ow < g.ow; ++ow)
      emitChannels(n, oh, rows, index(ow), 1, ow);
  }

  /// The channel blocks of `pixels` output pixels from column `ow`
  /// (`staticCol`: a border pixel, whose outside taps are left out).
  void emitChannels(Value n, Value oh, ArrayRef<int64_t> rows, Value ow,
                    int64_t pixels, std::optional<int64_t> staticCol) {
    int64_t step = block.vectors * kLanes;
    int64_t fullBlocks = g.c / step;
    int64_t full = fullBlocks * step;
    int64_t rest = g.c - full;
    auto partial = [&]() {
      emitBlock(n, oh, rows, ow, pixels, staticCol, index(full),
                llvm::divideCeil(rest, kLanes), rest % kLanes != 0);
    };
    if (!blockLo) {
      forLoop(0, full, step, [&](Value c) {
        emitBlock(n, oh, rows, ow, pixels, staticCol, c, block.vectors,
                  /*masked=*/false);
      });
      if (rest)
        partial();
      return;
    }
    // This thread's blocks [blockLo, blockHi); the partial one, the last,
    // belongs to the thread whose chunk reaches past the full ones.
    OpBuilder::InsertionGuard guard(b);
    Value fullHi =
        arith::MinUIOp::create(b, loc, blockHi, index(fullBlocks));
    auto loop = scf::ForOp::create(b, loc, blockLo, fullHi, index(1));
    b.setInsertionPoint(loop.getBody()->getTerminator());
    emitBlock(n, oh, rows, ow, pixels, staticCol,
              mul(loop.getInductionVar(), step), block.vectors,
              /*masked=*/false);
    b.setInsertionPointAfter(loop);
    if (!rest)
      return;
    Value ownsPartial = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ugt, blockHi, index(fullBlocks));
    auto ifPartial = scf::IfOp::create(b, loc, ownsPartial, false);
    b.setInsertionPointToStart(ifPartial.thenBlock());
    partial();
  }

  /// One register block: `pixels` x `vectors` accumulators over the taps;
  /// the last vector masked past C when `masked`.
  void emitBlock(Value n, Value oh, ArrayRef<int64_t> rows, Value ow,
                 int64_t pixels, std::optional<int64_t> staticCol, Value c0,
                 int64_t vectors, bool masked) {
    auto inBounds = [&](int64_t v) {
      return SmallVector<bool>{!(masked && v == vectors - 1)};
    };
    auto read = [&](Value from, ValueRange at, int64_t v) -> Value {
      return vector::TransferReadOp::create(b, loc, vecType, from, at, zeroF,
                                            inBounds(v));
    };
    SmallVector<Value> channel, col;
    for (int64_t v = 0; v < vectors; ++v)
      channel.push_back(add(c0, v * kLanes));
    for (int64_t p = 0; p < pixels; ++p)
      col.push_back(add(ow, p));
    SmallVector<Value> acc;
    for (int64_t p = 0; p < pixels; ++p)
      for (int64_t v = 0; v < vectors; ++v)
        acc.push_back(zeroInit ? zeroVec
                               : read(output, {n, oh, col[p], channel[v]}, v));
    Value rowBase = add(mul(oh, g.strideH), -g.padTop);
    for (int64_t kh : rows) {
      Value ih = add(rowBase, kh * g.dilH);
      // The filter row's vectors, then pixel by pixel its S taps: an
      // input vector is used by neighbouring pixels' taps (stride 1) while
      // it is still in a register.
      SmallVector<Value> taps;
      for (int64_t kw = 0; kw < g.s; ++kw)
        for (int64_t v = 0; v < vectors; ++v)
          taps.push_back(read(filter, {index(kh), index(kw), channel[v]}, v));
      for (int64_t p = 0; p < pixels; ++p) {
        Value colBase = add(mul(col[p], g.strideW), -g.padLeft);
        for (int64_t kw = 0; kw < g.s; ++kw) {
          if (staticCol &&
              !tapInside(*staticCol + p, kw, g.strideW, g.dilW, g.padLeft, g.w))
            continue;
          Value iw = add(colBase, kw * g.dilW);
          for (int64_t v = 0; v < vectors; ++v) {
            Value x = read(input, {n, ih, iw, channel[v]}, v);
            Value &a = acc[p * vectors + v];
            a = vector::FMAOp::create(b, loc, x, taps[kw * vectors + v], a);
          }
        }
      }
    }
    for (int64_t p = 0; p < pixels; ++p)
      for (int64_t v = 0; v < vectors; ++v)
        vector::TransferWriteOp::create(b, loc, acc[p * vectors + v], output,
                                        ValueRange{n, oh, col[p], channel[v]},
                                        inBounds(v));
  }

  OpBuilder &b;
  Location loc;
  const Geometry &g;
  Blocking block;
  Value input, filter, output;
  bool zeroInit;
  /// With the channel blocks split among threads: this thread's range of
  /// block indices (null otherwise).
  Value blockLo, blockHi;
  VectorType vecType;
  Value zeroF, zeroVec;
};

/// A read-only buffer of tensor `t` (identity layout: bufferization copies
/// a strided buffer into one, where it has to).
Value readOnlyBuffer(OpBuilder &b, Location loc, Value t) {
  auto type = cast<RankedTensorType>(t.getType());
  return bufferization::ToBufferOp::create(
      b, loc, MemRefType::get(type.getShape(), type.getElementType()), t,
      /*read_only=*/true);
}

/// Rewrites one static f32 depthwise convolution (on tensors or memrefs);
/// its remark.
std::string rewrite(linalg::DepthwiseConv2DNhwcHwcOp op, unsigned requestedThreads,
                    unsigned minFlopsPerThread) {
  Value input = op.getDpsInputOperand(0)->get();
  Value filter = op.getDpsInputOperand(1)->get();
  Value init = op.getDpsInitOperand(0)->get();
  auto inType = cast<ShapedType>(input.getType());
  auto fltType = cast<ShapedType>(filter.getType());
  auto outType = cast<ShapedType>(init.getType());
  auto strides = op.getStrides().getValues<int64_t>();
  auto dilations = op.getDilations().getValues<int64_t>();
  Geometry g{inType.getDimSize(0), inType.getDimSize(1), inType.getDimSize(2),
             inType.getDimSize(3), fltType.getDimSize(0), fltType.getDimSize(1),
             outType.getDimSize(1), outType.getDimSize(2), strides[0],
             strides[1], dilations[0], dilations[1], 0, 0};
  bool onTensors = op.hasPureTensorSemantics();
  // A zero pad of H and W: its source is read, the pad's taps skipped. The
  // output size is the op's; H and W are the source's.
  tensor::PadOp foldedPad;
  if (auto pad = input.getDefiningOp<tensor::PadOp>())
    if (std::optional<std::array<int64_t, 4>> amounts =
            tensorop::foldableZeroPad(pad)) {
      input = pad.getSource();
      auto src = cast<RankedTensorType>(input.getType());
      g.h = src.getDimSize(1);
      g.w = src.getDimSize(2);
      g.padTop = (*amounts)[0];
      g.padLeft = (*amounts)[2];
      foldedPad = pad;
    }
  linalg::FillOp fill = onTensors ? tensorop::zeroFillOf(init) : nullptr;
  Blocking block = chooseBlocking(g);
  // Threads: no more than rows, and each with minFlopsPerThread at least.
  int64_t flops = 2 * g.n * g.oh * g.ow * g.c * g.r * g.s;
  int64_t threads = std::min<int64_t>(
      requestedThreads,
      std::max<int64_t>(g.n * g.oh, channelBlocks(g, block)));
  if (minFlopsPerThread)
    threads = std::min<int64_t>(threads, flops / minFlopsPerThread);
  threads = std::max<int64_t>(threads, 1);
  std::string remark;
  llvm::raw_string_ostream os(remark);
  os << "tensorop: depthwise convolution in register blocks of "
     << block.pixels << " pixels x " << std::min(block.vectors * kLanes, g.c)
     << " channels over the whole filter window"
     << (foldedPad ? " (its zero padding folded: border taps left out)" : "");
  if (threads > 1)
    os << (splitsChannels(g, block, threads) ? ", channel blocks"
                                             : ", output rows")
       << " split over " << threads << " threads";
  else if (requestedThreads > 1)
    os << ", on one thread (" << flops << " flops, "
       << (std::max<int64_t>(g.n * g.oh, channelBlocks(g, block)) < 2
               ? "one output row of one channel block"
               : "less than min-flops-per-thread for two")
       << ")";

  Location loc = op.getLoc();
  if (!onTensors) {
    // Bufferized IR: the loops on the op's own buffers.
    OpBuilder b(op);
    DepthwiseEmitter(b, loc, g, block, input, filter, init, false).emit(threads);
    op->erase();
    return remark + " (on its memrefs)";
  }
  // The output buffer: the function argument the result is materialized
  // into, if that is its only use (the loops then run there, as late as
  // the store was); otherwise a new one the result reads.
  auto store = op->hasOneUse() ? dyn_cast<bufferization::MaterializeInDestinationOp>(
                                     *op->user_begin())
                               : nullptr;
  bool intoArgument = store && isa<MemRefType>(store.getDest().getType()) &&
                      store.getWritable() && store.getRestrict();
  OpBuilder b(intoArgument ? store.getOperation() : op.getOperation());
  Value inBuf = readOnlyBuffer(b, loc, input);
  Value fltBuf = readOnlyBuffer(b, loc, filter);
  Value outBuf;
  if (intoArgument) {
    outBuf = store.getDest();
    os << " (computed in the buffer it is stored into)";
  } else {
    outBuf = memref::AllocOp::create(
        b, loc, MemRefType::get(outType.getShape(), outType.getElementType()));
  }
  if (!fill)
    memref::CopyOp::create(b, loc, readOnlyBuffer(b, loc, init), outBuf);
  else
    os << " (zero init: the output is written once)";
  DepthwiseEmitter(b, loc, g, block, inBuf, fltBuf, outBuf, bool(fill)).emit(threads);
  if (intoArgument) {
    store->erase();
  } else {
    Value result = bufferization::ToTensorOp::create(
        b, loc, cast<RankedTensorType>(outType), outBuf, /*restrict=*/true,
        /*writable=*/true);
    op->replaceAllUsesWith(ValueRange{result});
  }
  op->erase();
  if (fill && fill->use_empty())
    fill->erase();
  if (foldedPad && foldedPad->use_empty())
    foldedPad->erase();
  return remark;
}

struct DepthwiseConvPass
    : public tensorop::impl::TensorOpDepthwiseConvBase<DepthwiseConvPass> {
  using TensorOpDepthwiseConvBase::TensorOpDepthwiseConvBase;

  void runOnOperation() override {
    SmallVector<linalg::DepthwiseConv2DNhwcHwcOp> convs;
    getOperation().walk(
        [&](linalg::DepthwiseConv2DNhwcHwcOp op) { convs.push_back(op); });
    for (linalg::DepthwiseConv2DNhwcHwcOp op : convs) {
      bool ok = op.hasPureTensorSemantics() || op.hasPureBufferSemantics();
      for (Value v : op->getOperands()) {
        auto type = cast<ShapedType>(v.getType());
        ok &= type.hasStaticShape() && type.getElementType().isF32();
      }
      if (!ok) {
        op.emitRemark() << "tensorop: depthwise convolution not vectorized "
                           "(only static f32 ones are); lowered by the "
                           "upstream pipeline";
        continue;
      }
      Location loc = op.getLoc();
      std::string remark = rewrite(op, threads, minFlopsPerThread);
      emitRemark(loc) << remark;
    }
  }
};
} // namespace

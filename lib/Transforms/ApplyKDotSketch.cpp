//===- ApplyKDotSketch.cpp - A GEMM of few columns, vectorized along K ----===//
//
// The loop nest of a sketch whose kernel vectorizes along K (x86_gemm_kdot,
// include/tensorop/Dialect/KDotSketch.h): C has few columns, one K block.
// B is copied once per call into an N x K buffer (each column's K values
// contiguous; rows up to whole blocks of nr, zeros past N), or read in
// place when the GEMM already stores it N x K; then one loop runs over the
// rows of C in blocks of mr, each block a microkernel call over all of K
// per block of nr columns, reading its rows of A in place. With threads > 1 the rows are split into
// one chunk per thread (an scf.forall), all reading the one copy of B,
// made before the threads start.
//
// A sketch's n_tail puts the same loop nest on the last few columns of a
// GEMM whose other columns a broadcast kernel computes: the GEMM is split
// in two on column ranges of B and C first.
//
//===----------------------------------------------------------------------===//

#include "KDotGemm.h"
#include "TransposeCopy.h"

#include "tensorop/Advisor/Advisor.h"
#include "tensorop/Advisor/UKernelRequest.h"
#include "tensorop/Dialect/KDotSketch.h"
#include "tensorop/Emitters/Emitter.h"
#include "tensorop/Support/IntMath.h"
#include "tensorop/Targets/PassHints.h"
#include "tensorop/Transforms/MatmulSupport.h"
#include "tensorop/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tensorop;

namespace {
Value subview(OpBuilder &b, Location loc, Value source,
              ArrayRef<OpFoldResult> offsets, ArrayRef<OpFoldResult> sizes) {
  SmallVector<OpFoldResult> strides(offsets.size(), b.getIndexAttr(1));
  return memref::SubViewOp::create(b, loc, source, offsets, sizes, strides);
}

} // namespace

LogicalResult mlir::tensorop::applyKDotSketch(
    RewriterBase &rewriter, linalg::MatmulOp op, SketchAttr sketch,
    const GemmProblem &p, linalg::FillOp zeroFill, StringRef emitterDir,
    unsigned emitterTimeout, PassHints &passHints) {
  auto fail = [&](const Twine &why) {
    return op.emitError() << "tensorop: a sketch with the x86_gemm_kdot "
                             "emitter (vectorized along K) needs "
                          << why;
  };
  if (p.input != GemmInputType::F32)
    return fail(Twine("fp32 operands, got ") + gemmInputTypeName(p.input));
  if (p.isDynamic())
    return fail("static M, N and K");
  if (p.transposeA)
    return fail("A stored M x K (this GEMM reads A transposed)");
  if (sketch.getEpilogue())
    return fail("no fused epilogue");
  Value a = op.getDpsInputOperand(0)->get();
  Value b = op.getDpsInputOperand(1)->get();
  Value c = op.getDpsInitOperand(0)->get();
  std::string why;
  std::optional<int64_t> lda = inPlaceRowStride(a.getType(), &why);
  // A row stride known only at run time (a strided view) is the kernel's
  // operand (a_stride_operand).
  bool ldaAtRunTime = !lda && hasRuntimeRowStride(a.getType());
  if (!lda && !ldaAtRunTime)
    return fail("A's rows in place: " + why);
  // B already stored N x K with contiguous rows is read as it is.
  // Column blocks of nr (the kernel's width: at most N); the kernel reads
  // all nr rows of its block of B transposed, so the copy has rows up to a
  // whole number of blocks (zeros past N).
  int64_t nr = std::min(sketch.getNr(), p.n);
  int64_t paddedN = roundUp(p.n, nr);
  std::optional<int64_t> ldbt;
  if (p.transposeB && paddedN == p.n)
    ldbt = inPlaceRowStride(b.getType());

  TargetAttr target = sketch.getTarget();
  llvm::Expected<const TargetHints &> hints =
      passHints.forSketch(target.getName());
  if (!hints)
    return op.emitError() << llvm::toString(hints.takeError());
  // A block of more than 8 columns (2 or 3 rows of A) loads B's nr rows
  // once per block of rows: each 16-k load then starts a cache line (a row
  // stride of K floats split most of them in two: 6000x9x777, 3 x 9, 0.92x
  // -> 1.50x libxsmm with rows padded to 16 floats; 4000x10x1000, 2 x 10,
  // 0.73x -> 1.15x). The padding is never read. Blocks of up to 8 columns
  // keep rows of K floats (not re-measured).
  constexpr int64_t kPaddedBtColumns = 8;
  int64_t btStride = p.k;
  if (ldbt)
    btStride = *ldbt;
  else if (nr > kPaddedBtColumns)
    btStride = (p.k + 15) / 16 * 16;
  EmitterRequest request =
      ukernelEmitterRequest(sketch.getUkernel(), target, sketch.getMr(), nr,
                            *hints, ldaAtRunTime ? kRuntimeRowStride : *lda * 4,
                            btStride * 4, emitterDir, emitterTimeout);
  // One call covers all of K: from a zeroed C the kernel stores its tile
  // and the fill goes.
  bool storeC = zeroFill && p.k > 0;
  if (storeC)
    request.spec["c_update"] = "store";
  llvm::Expected<EmittedKernel> kernel = runEmitter(request);
  if (!kernel)
    return op.emitError() << llvm::toString(kernel.takeError());
  if (storeC)
    rewriter.eraseOp(zeroFill);

  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  auto cst = [&](int64_t v) {
    return arith::ConstantIndexOp::create(rewriter, loc, v).getResult();
  };
  Value bt = b;
  Value btBuffer;
  if (!ldbt) {
    btBuffer = memref::AllocOp::create(
        rewriter, loc,
        MemRefType::get({paddedN, btStride}, rewriter.getF32Type()),
        rewriter.getI64IntegerAttr(64));
    Value dst = btBuffer;
    if (paddedN != p.n) {
      Value zeroF =
          arith::ConstantOp::create(rewriter, loc, rewriter.getF32FloatAttr(0));
      linalg::FillOp::create(rewriter, loc, zeroF, btBuffer);
    }
    if (paddedN != p.n || btStride != p.k)
      dst = subview(rewriter, loc, btBuffer,
                    {rewriter.getIndexAttr(0), rewriter.getIndexAttr(0)},
                    {rewriter.getIndexAttr(p.n), rewriter.getIndexAttr(p.k)});
    if (p.transposeB)
      // N x K with strided rows: a plain copy into contiguous ones.
      linalg::CopyOp::create(rewriter, loc, b, dst);
    else
      emitTransposeCopy(rewriter, loc, b, dst);
    bt = btBuffer;
  }

  // Row chunks of whole register blocks, one per thread.
  int64_t mr = sketch.getMr(), threads = sketch.getThreads();
  int64_t chunk = ceilDiv(p.m, threads);
  chunk = roundUp(chunk, mr);
  int64_t chunks = ceilDiv(p.m, chunk);
  Value first = cst(0), last = cst(p.m);
  scf::ForallOp forall;
  if (chunks > 1) {
    forall = scf::ForallOp::create(
        rewriter, loc, ArrayRef<OpFoldResult>{rewriter.getIndexAttr(chunks)},
        ValueRange{}, std::nullopt);
    rewriter.setInsertionPointToStart(forall.getBody());
    first = arith::MulIOp::create(rewriter, loc, forall.getInductionVar(0),
                                  cst(chunk));
    last = arith::MinSIOp::create(
        rewriter, loc, cst(p.m),
        arith::AddIOp::create(rewriter, loc, first, cst(chunk)));
  }
  auto rows = scf::ForOp::create(rewriter, loc, first, last, cst(mr));
  // tensorop-omp-team-size sizes the team of a loop nest carrying a sketch.
  rows->setAttr(kSketchAttrName, sketch);
  {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(rows.getBody());
    Value i = rows.getInductionVar();
    Value mRem = arith::MinSIOp::create(
        rewriter, loc, cst(mr),
        arith::SubIOp::create(rewriter, loc, last, i));
    OpFoldResult zero = rewriter.getIndexAttr(0);
    Value aRows = subview(rewriter, loc, a, {i, zero},
                          {mRem, rewriter.getIndexAttr(p.k)});
    // The column blocks, right after one another: the block's rows of A
    // are then still in L1/L2 for the next one.
    auto cols = scf::ForOp::create(rewriter, loc, cst(0), cst(p.n), cst(nr));
    rewriter.setInsertionPointToStart(cols.getBody());
    Value j = cols.getInductionVar();
    Value nRem = arith::MinSIOp::create(
        rewriter, loc, cst(nr), arith::SubIOp::create(rewriter, loc, cst(p.n), j));
    Value bCols = subview(rewriter, loc, bt, {j, zero},
                          {rewriter.getIndexAttr(nr),
                           rewriter.getIndexAttr(p.k)});
    Value cRows = subview(rewriter, loc, c, {i, j}, {mRem, nRem});
    auto call = UKernelOp::create(
        rewriter, loc, rewriter.getStringAttr(kernel->name), aRows, bCols,
        cRows, cst(p.k), mRem, nRem, Value(), Value(), Value(), Value(),
        /*bPanelOut=*/Value(), rewriter.getStringAttr(kernel->asmText),
        rewriter.getStringAttr(kernel->constraints),
        rewriter.getStringAttr(kernel->dialect), rewriter.getI64IntegerAttr(mr),
        rewriter.getI64IntegerAttr(nr),
        rewriter.getStringAttr(kernel->hash.substr(0, 16)));
    call.setAStrideOperand(ldaAtRunTime);
  }
  if (btBuffer) {
    rewriter.setInsertionPointAfter(forall ? forall.getOperation()
                                           : rows.getOperation());
    memref::DeallocOp::create(rewriter, loc, btBuffer);
  }
  rewriter.eraseOp(op);
  return success();
}

LogicalResult mlir::tensorop::applyNTailSketch(
    RewriterBase &rewriter, linalg::MatmulOp op, SketchAttr sketch,
    const GemmProblem &p, linalg::FillOp zeroFill, StringRef emitterDir,
    unsigned emitterTimeout, PassHints &passHints) {
  NTailAttr tail = sketch.getNTail();
  int64_t columns = tail.getColumns();
  auto fail = [&](const Twine &why) {
    return op.emitError() << "tensorop: a sketch with an n_tail (the last "
                          << columns << " columns by x86_gemm_kdot) needs "
                          << why;
  };
  if (p.input != GemmInputType::F32)
    return fail(Twine("fp32 operands, got ") + gemmInputTypeName(p.input));
  if (p.isDynamic())
    return fail("static M, N and K");
  if (p.transposeA || p.transposeB)
    return fail("A stored M x K and B stored K x N (this GEMM reads one "
                "transposed)");
  if (p.n <= columns)
    return fail("more than " + Twine(columns) + " columns, got N = " +
                Twine(p.n));
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  Value a = op.getDpsInputOperand(0)->get();
  Value b = op.getDpsInputOperand(1)->get();
  Value c = op.getDpsInitOperand(0)->get();
  int64_t mainColumns = p.n - columns;
  auto columnsOf = [&](Value matrix, int64_t rows, int64_t first,
                       int64_t count) {
    return subview(rewriter, loc, matrix,
                   {rewriter.getIndexAttr(0), rewriter.getIndexAttr(first)},
                   {rewriter.getIndexAttr(rows), rewriter.getIndexAttr(count)});
  };
  Value bMain = columnsOf(b, p.k, 0, mainColumns);
  Value cMain = columnsOf(c, p.m, 0, mainColumns);
  Value bTail = columnsOf(b, p.k, mainColumns, columns);
  Value cTail = columnsOf(c, p.m, mainColumns, columns);
  // Each part's fill right before it: applySketch and applyKDotSketch then
  // find it (zeroFillOfResult) and store their tiles instead.
  auto part = [&](Value bPart, Value cPart) {
    if (zeroFill)
      linalg::FillOp::create(rewriter, loc,
                             zeroFill.getDpsInputOperand(0)->get(), cPart);
    auto mm = linalg::MatmulOp::create(rewriter, loc, ValueRange{a, bPart},
                                       ValueRange{cPart});
    for (NamedAttribute attr : op->getDiscardableAttrs())
      if (attr.getName() != kSketchAttrName)
        mm->setAttr(attr.getName(), attr.getValue());
    return mm;
  };
  linalg::MatmulOp mainOp = part(bMain, cMain);
  linalg::MatmulOp tailOp = part(bTail, cTail);
  if (zeroFill)
    rewriter.eraseOp(zeroFill);
  rewriter.eraseOp(op);

  SketchAttr mainSketch = sketch.withNTail({});
  UKernelSpecAttr kernel = tail.getUkernel();
  SketchAttr tailSketch = SketchAttr::get(
      rewriter.getContext(), roundUp(p.m, tail.getMr()),
      roundUp(columns, tail.getNr()), p.k, tail.getMr(), tail.getNr(), "mkn", "mn", "none", kTransposedPackB, kernel,
      sketch.getTarget(), sketch.getSource(), tail.getThreads(),
      EpilogueAttr(), NTailAttr());
  if (failed(applySketch(rewriter, mainOp, mainSketch, emitterDir,
                         emitterTimeout, passHints)))
    return failure();
  return applySketch(rewriter, tailOp, tailSketch, emitterDir, emitterTimeout,
                     passHints);
}

//===- AnnotateConv.cpp - Choose a sketch per 2-D convolution -------------===//

#include "AnnotateConv.h"

#include "tensorop/Advisor/Advisor.h"
#include "tensorop/Advisor/SketchDatabase.h"
#include "tensorop/Dialect/TensorOpDialect.h"
#include "tensorop/Transforms/ConvSupport.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::tensorop;

namespace {
/// Whether `dest` is a memref whose rows a collapse_shape can merge into a
/// view (identity layout: contiguous).
bool collapsibleDestination(Value dest) {
  auto type = dyn_cast<MemRefType>(dest.getType());
  return type && type.getLayout().isIdentity();
}

/// A 1x1, stride-1 convolution without padding is the GEMM
/// out[(n,h,w)][f] += in[(n,h,w)][c] * filter[c][f] on the same memory:
/// collapse, multiply, expand. Tensors only (the collapses are free there;
/// bufferization keeps them views).
///
/// The output must stay free of reshapes on its way from the tensor.empty
/// to the memref it ends in: upstream's empty-tensor elimination follows
/// same-typed values only, so a fill of the 4-D empty collapsed into the
/// matmul, or the matmul's result expanded into materialize_in_destination,
/// left the GEMM writing a temporary the size of the output (zero-filled,
/// then copied over; 25 MB per call at N=8 56x56x256, allocated and
/// page-faulted in each time): 0.55x oneDNN where the same GEMM through the
/// GEMM path ran at 0.88x. So a fill of an empty is rebuilt on a 2-D
/// empty, and a result written into a contiguous memref goes into a 2-D
/// view of it.
linalg::MatmulOp rewriteAsMatmul(linalg::Conv2DNhwcHwcfOp op,
                                 const ConvProblem &p) {
  IRRewriter rewriter(op);
  Location loc = op.getLoc();
  SmallVector<ReassociationIndices> rows = {{0, 1, 2}, {3}};
  Value in = op.getDpsInputOperand(0)->get();
  Value flt = op.getDpsInputOperand(1)->get();
  Value out = op.getDpsInitOperand(0)->get();
  Value a = tensor::CollapseShapeOp::create(rewriter, loc, in, rows);
  Value b = tensor::CollapseShapeOp::create(rewriter, loc, flt, rows);
  auto outType = cast<RankedTensorType>(out.getType());
  auto gemmType = RankedTensorType::get(
      {p.n * p.outH() * p.outW(), p.f}, outType.getElementType());
  Value c;
  auto fill = out.getDefiningOp<linalg::FillOp>();
  if (fill && fill->hasOneUse() &&
      fill.getDpsInitOperand(0)->get().getDefiningOp<tensor::EmptyOp>()) {
    Value empty = tensor::EmptyOp::create(rewriter, loc, gemmType.getShape(),
                                          gemmType.getElementType());
    c = linalg::FillOp::create(rewriter, loc, fill.getInputs(),
                               ValueRange{empty})
            .getResult(0);
  } else {
    c = tensor::CollapseShapeOp::create(rewriter, loc, out, rows);
  }
  auto mm = linalg::MatmulOp::create(rewriter, loc, c.getType(),
                                     ValueRange{a, b}, ValueRange{c});
  Value result = mm.getResult(0);
  auto store = op->hasOneUse() ? dyn_cast<bufferization::MaterializeInDestinationOp>(
                                     *op->getUsers().begin())
                               : nullptr;
  if (store && store.getSource() == op->getResult(0) && store.getRestrict() &&
      store.getWritable() && collapsibleDestination(store.getDest())) {
    rewriter.setInsertionPoint(store);
    Value view = memref::CollapseShapeOp::create(rewriter, loc,
                                                 store.getDest(), rows);
    rewriter.modifyOpInPlace(store, [&] {
      store.getSourceMutable().assign(result);
      store.getDestMutable().assign(view);
    });
    rewriter.eraseOp(op);
  } else {
    Value expanded =
        tensor::ExpandShapeOp::create(rewriter, loc, outType, result, rows);
    rewriter.replaceOp(op, expanded);
  }
  if (fill && fill->use_empty())
    rewriter.eraseOp(fill);
  return mm;
}

/// The remark that says which sketch a convolution got: its source (the
/// advisor's "builtin", "llm:MODEL", or "db:HASH") and `from` (if any).
void remarkSketch(linalg::Conv2DNhwcHwcfOp op, const ConvProblem &p,
                  ConvSketchAttr sketch, bool padFolded, StringRef from) {
  op.emitRemark() << "tensorop: " << convSignature(p)
                  << (padFolded ? " (zero tensor.pad folded into the kernel)"
                                : "")
                  << ": sketch mr=" << sketch.getMr()
                  << " nr=" << sketch.getNr() << " cb=" << sketch.getCb()
                  << " taps=\"" << sketch.getTaps() << "\" loop_order=\""
                  << sketch.getLoopOrder() << "\" pack_input=\""
                  << sketch.getPackInput() << "\" pack_filter=\""
                  << sketch.getPackFilter()
                  << "\" threads=" << sketch.getThreads() << " ("
                  << sketch.getSource()
                  << (from.empty() ? std::string() : "; " + from.str()) << ")";
}

/// The best verified tuning record of this convolution on this machine
/// (keyed by convSignature and the target fingerprint), as a sketch whose
/// source names the record; null if there is none (said in a remark);
/// failure (diagnosed) when the record cannot be this convolution's sketch.
FailureOr<ConvSketchAttr>
lookupTunedConvSketch(linalg::Conv2DNhwcHwcfOp op, const ConvProblem &p,
                      const ConvAnnotateOptions &options) {
  SketchDatabase &db = *options.db;
  std::string signature = convSignature(p);
  size_t reported = db.warnings().size();
  llvm::Expected<std::optional<TunedSketch>> best =
      db.best(signature, options.fingerprint);
  // Rows that failed their integrity checks were skipped: say which.
  for (size_t i = reported; i < db.warnings().size(); ++i)
    op.emitWarning() << "tensorop: " << db.warnings()[i];
  if (!best) {
    op.emitError() << "tensorop: " << llvm::toString(best.takeError());
    return failure();
  }
  if (!*best) {
    op.emitRemark() << "tensorop: no verified record in " << db.path()
                    << " for '" << signature << "' on '" << options.fingerprint
                    << "'; using the advisor";
    return ConvSketchAttr();
  }
  const TunedSketch &r = **best;
  auto attr = dyn_cast_or_null<ConvSketchAttr>(
      parseAttribute(r.config, op.getContext()));
  if (!attr) {
    op.emitError() << "tensorop: record " << r.configHash << " in " << db.path()
                   << " for '" << signature
                   << "' holds no valid #tensorop.conv_sketch: " << r.config;
    return failure();
  }
  if (attr.getTarget().getName() != options.targetName) {
    op.emitError() << "tensorop: record " << r.configHash << " in " << db.path()
                   << " for '" << signature << "' is a sketch for target '"
                   << attr.getTarget().getName()
                   << "' but the pipeline compiles for '" << options.targetName
                   << "'";
    return failure();
  }
  ConvSketchChoice choice = ConvSketchChoice::fromAttr(attr);
  choice.source = "db:" + r.configHash;
  std::string error;
  ConvSketchAttr sketch = choice.toAttr(op.getContext(), *options.hints, error);
  if (!sketch) {
    op.emitError() << "tensorop: record " << r.configHash << " in " << db.path()
                   << " is not a legal sketch for '" << options.targetName
                   << "': " << error;
    return failure();
  }
  op.emitRemark() << "tensorop: using the tuned convolution sketch "
                  << r.configHash << " from " << db.path() << " ("
                  << llvm::formatv("{0:F1}", r.gflops.value_or(0))
                  << " GFLOP/s when measured)";
  return sketch;
}
} // namespace

namespace {
/// Pixels (N*H*W) up to which a 1x1 stride-1 convolution with a prepacked
/// filter takes the convolution path (see annotateConv).
constexpr int64_t kPrepackedConvPathMaxPixels = 256;

/// For a 1x1 stride-1 convolution marked tensorop.prepacked_filter = {pack,
/// size} that takes the GEMM path: adds @pack(filter, packed), a copy of
/// the R x S x C x F filter, and @size() -> its bytes, next to the
/// enclosing function.
LogicalResult addIdentityFilterPacking(linalg::Conv2DNhwcHwcfOp op,
                                       Attribute mark,
                                       const ConvProblem &p) {
  FailureOr<PrepackedFilterNames> names = parsePrepackedFilterMark(op, mark);
  if (failed(names))
    return failure();
  auto function = op->getParentOfType<func::FuncOp>();
  auto module = function ? function->getParentOfType<ModuleOp>() : nullptr;
  if (!module)
    return op.emitError() << "tensorop: a prepacked filter's convolution "
                             "must be in a function of a module";
  if (failed(checkPrepackedNamesFree(op, *names, module)))
    return failure();
  MLIRContext *ctx = op.getContext();
  Location loc = op.getLoc();
  OpBuilder b(ctx);
  b.setInsertionPointAfter(function);
  auto filterType = MemRefType::get({p.r, p.s, p.c, p.f}, b.getF32Type());
  SmallVector<Type, 2> packArgs = {filterType, filterType};
  auto pack = func::FuncOp::create(b, loc, names->pack.getValue(),
                                   FunctionType::get(ctx, packArgs, {}));
  Block *entry = pack.addEntryBlock();
  b.setInsertionPointToStart(entry);
  memref::CopyOp::create(b, loc, entry->getArgument(0), entry->getArgument(1));
  func::ReturnOp::create(b, loc);
  b.setInsertionPointAfter(pack);
  SmallVector<Type, 1> sizeResults = {b.getIndexType()};
  auto size = func::FuncOp::create(
      b, loc, names->size.getValue(),
      FunctionType::get(ctx, TypeRange(), sizeResults));
  b.setInsertionPointToStart(size.addEntryBlock());
  func::ReturnOp::create(
      b, loc,
      ValueRange{arith::ConstantIndexOp::create(b, loc,
                                                p.r * p.s * p.c * p.f * 4)});
  return success();
}
} // namespace

LogicalResult mlir::tensorop::annotateConv(linalg::Conv2DNhwcHwcfOp op,
                                           const ConvAnnotateOptions &options,
                                           linalg::MatmulOp &gemm) {
  std::string reason;
  // A zero tensor.pad in front becomes the kernel's own padding.
  std::optional<std::array<int64_t, 4>> padding;
  FailureOr<ConvProblem> problem = matchConvWithFoldedPad(op, reason, &padding);
  Attribute present = op->getAttr(kSketchAttrName);
  if (failed(problem)) {
    if (op->hasAttr(kConvPrepackedFilterAttrName))
      return op.emitError() << "tensorop: the convolution has a prepacked "
                               "filter but cannot take the sketch path that "
                               "reads it: "
                            << reason;
    if (present)
      return op.emitError() << "tensorop: the convolution carries a sketch "
                               "but cannot take one: "
                            << reason;
    op.emitRemark() << "tensorop: not handled (" << reason
                    << "); lowered by the upstream pipeline";
    return success();
  }
  bool padded = problem->padTop || problem->padBottom || problem->padLeft ||
                problem->padRight;
  if (padding && padded) {
    op->setAttr(kConvPaddingAttrName,
                DenseI64ArrayAttr::get(op.getContext(), *padding));
    auto pad = op.getDpsInputOperand(0)->get().getDefiningOp<tensor::PadOp>();
    auto toTensor =
        pad.getSource().getDefiningOp<bufferization::ToTensorOp>();
    if (toTensor && toTensor.getRestrict())
      op->setAttr(kConvPadRestrictAttrName, UnitAttr::get(op.getContext()));
  }

  if (present) {
    auto sketch = dyn_cast<ConvSketchAttr>(present);
    if (!sketch)
      return op.emitError() << "tensorop: attribute '" << kSketchAttrName
                            << "' on a convolution is not a "
                               "#tensorop.conv_sketch: "
                            << present;
    if (sketch.getTarget().getName() != options.targetName)
      return op.emitError()
             << "tensorop: the sketch is for target '"
             << sketch.getTarget().getName()
             << "' but the pipeline compiles for '" << options.targetName
             << "'";
    op.emitRemark() << "tensorop: " << convSignature(*problem)
                    << ": keeping the sketch the input carries";
    return success();
  }

  // 1x1, stride 1, no padding: a GEMM over the pixels. With a prepacked
  // filter and many pixels it stays one: the packed layout is then the
  // HWCF filter itself (the GEMM's C x F B, which the GEMM path packs as
  // it packs any B) and the pack function a copy. With few pixels the
  // filter's packing is most of the call and the convolution path on
  // panels packed once pays (quiet, 1 thread, docs/benchmarks/cpu-conv.md,
  // fourteenth session: at 49 and 196 pixels 0.97-1.02x oneDNN against
  // 0.89-0.95x as a GEMM; at 784 and more 0.63-0.97x against 0.85-1.17x).
  bool prepacked = op->hasAttr(kConvPrepackedFilterAttrName);
  if (convTakesGemmPath(op, *problem) &&
      (!prepacked ||
       problem->n * problem->h * problem->w > kPrepackedConvPathMaxPixels)) {
    if (Attribute mark = op->getAttr(kConvPrepackedFilterAttrName)) {
      if (failed(addIdentityFilterPacking(op, mark, *problem)))
        return failure();
      op->removeAttr(kConvPrepackedFilterAttrName);
      op.emitRemark() << "tensorop: " << convSignature(*problem)
                      << ": prepacked filter on the GEMM path: its packed "
                         "layout is the HWCF filter (packing copies it)";
    }
    op.emitRemark() << "tensorop: " << convSignature(*problem)
                    << ": 1x1 stride-1 convolution routed to the GEMM path (M "
                       "= N*H*W = "
                    << problem->n * problem->h * problem->w
                    << ", N = F = " << problem->f << ", K = C = " << problem->c
                    << ")";
    gemm = rewriteAsMatmul(op, *problem);
    return success();
  }

  // A tuned record for this convolution on this machine comes first.
  if (options.db) {
    FailureOr<ConvSketchAttr> tuned =
        lookupTunedConvSketch(op, *problem, options);
    if (failed(tuned))
      return failure();
    if (*tuned) {
      op->setAttr(kSketchAttrName, *tuned);
      remarkSketch(op, *problem, *tuned, padding && padded,
                   "from the tuning database");
      return success();
    }
  }
  llvm::Expected<ConvSketchChoice> choice =
      options.advisor->proposeConv(*problem, *options.hints);
  // What an LLM advisor went through: rejected answers and fallbacks are
  // warnings, the rest remarks (as for GEMMs).
  for (const AdvisorNote &note : options.advisor->notes()) {
    if (note.isProblem())
      op.emitWarning() << "tensorop: advisor '" << options.advisor->name()
                       << "': " << note.text;
    else
      op.emitRemark() << "tensorop: advisor '" << options.advisor->name()
                      << "': " << note.text;
  }
  if (!choice)
    return op.emitError() << "tensorop: advisor '" << options.advisor->name()
                          << "' failed: "
                          << llvm::toString(choice.takeError());
  choice->threads = options.threads;
  std::string error;
  ConvSketchAttr sketch = choice->toAttr(op.getContext(), *options.hints, error);
  if (!sketch)
    return op.emitError() << "tensorop: advisor '" << options.advisor->name()
                          << "' proposed an illegal convolution sketch: "
                          << error;
  op->setAttr(kSketchAttrName, sketch);
  remarkSketch(op, *problem, sketch, padding && padded, "");
  return success();
}

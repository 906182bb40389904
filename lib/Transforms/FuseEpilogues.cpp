//===- FuseEpilogues.cpp - Elementwise consumers into the GEMM's store ----===//
//
// For each sketched linalg.matmul, its elementwise consumer (a
// linalg.generic, or a named elementwise op such as linalg.add / linalg.max,
// generalized) is read as epilogue steps (EpilogueMatch.cpp). When it is
// one, the steps go onto the matmul's sketch (#tensorop.epilogue) and the
// consumer is rewritten to work in place on the matmul's result — on
// tensors its output becomes the matmul's result, so bufferization gives
// both one buffer — and marked; tensorop-apply-sketch then passes the bias
// and residual to the microkernel and erases the consumer, so C is written
// once. A remark says what was fused, or why a consumer was not (it then
// runs as it is, after the GEMM). NVIDIA matmuls (#tensorop.gpu_sketch, on
// memrefs: the GPU pipeline bufferizes first) are read the same way; the
// steps go on the GPU sketch and tensorop-gpu-apply-sketch passes the bias
// and residual to the kernel.
//
//===----------------------------------------------------------------------===//

#include "tensorop/Transforms/EpilogueSupport.h"
#include "tensorop/Transforms/GpuMatmulSupport.h"
#include "tensorop/Transforms/MatmulSupport.h"
#include "tensorop/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/StringExtras.h"

namespace mlir::tensorop {
#define GEN_PASS_DEF_TENSOROPFUSEEPILOGUES
#include "tensorop/Transforms/Passes.h.inc"
} // namespace mlir::tensorop

using namespace mlir;
using namespace mlir::tensorop;

namespace {
/// The consumer to try: the single user of a tensor result, or on memrefs
/// the op right after the matmul when it reads or writes C.
linalg::LinalgOp consumerOf(linalg::MatmulOp mm, Value c) {
  if (mm.hasPureTensorSemantics()) {
    Value result = mm->getResult(0);
    if (!result.hasOneUse())
      return {};
    return dyn_cast<linalg::LinalgOp>(*result.getUsers().begin());
  }
  auto next = dyn_cast_or_null<linalg::LinalgOp>(mm->getNextNode());
  if (!next || next.getNumDpsInits() != 1)
    return {};
  if (llvm::is_contained(next->getOperands(), c))
    return next;
  return {};
}

bool isElementwiseCandidate(linalg::LinalgOp op) {
  return isa<linalg::GenericOp>(op) || linalg::isElementwise(op);
}

std::string stepList(ArrayRef<EpilogueStep> steps) {
  SmallVector<std::string> texts;
  for (const EpilogueStep &s : steps)
    texts.push_back(s.text());
  return llvm::join(texts, ", ");
}

/// The consumer rewritten in place on the matmul's result (tensors): ins
/// without the result, outs = the result, the body unchanged.
linalg::GenericOp rewriteInPlace(RewriterBase &rewriter, linalg::GenericOp g,
                                 const EpilogueMatch &m, Value result) {
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  for (OpOperand *in : g.getDpsInputOperands()) {
    if (int(in->getOperandNumber()) == m.cInput)
      continue;
    inputs.push_back(in->get());
    maps.push_back(g.getMatchingIndexingMap(in));
  }
  maps.push_back(g.getMatchingIndexingMap(g.getDpsInitOperand(0)));
  rewriter.setInsertionPoint(g);
  auto fused = linalg::GenericOp::create(
      rewriter, g.getLoc(), TypeRange{result.getType()}, inputs,
      ValueRange{result}, maps, g.getIteratorTypesArray());
  Block &old = g.getRegion().front();
  Block *body = rewriter.createBlock(&fused.getRegion());
  IRMapping map;
  for (BlockArgument arg : old.getArguments()) {
    if (int(arg.getArgNumber()) == m.cInput ||
        arg.getArgNumber() == g.getNumDpsInputs())
      continue;
    map.map(arg, body->addArgument(arg.getType(), arg.getLoc()));
  }
  BlockArgument out = body->addArgument(
      old.getArgument(g.getNumDpsInputs()).getType(), g.getLoc());
  map.map(old.getArgument(m.cInput), out);
  rewriter.setInsertionPointToStart(body);
  for (Operation &op : old)
    rewriter.clone(op, map);
  rewriter.replaceOp(g, fused->getResults());
  return fused;
}

struct FuseEpiloguesPass
    : public tensorop::impl::TensorOpFuseEpiloguesBase<FuseEpiloguesPass> {
  void runOnOperation() override {
    SmallVector<linalg::MatmulOp> matmuls;
    getOperation().walk([&](linalg::MatmulOp mm) {
      if (mm->getAttrOfType<SketchAttr>(kSketchAttrName) ||
          mm->getAttrOfType<GpuSketchAttr>(kGpuSketchAttrName))
        matmuls.push_back(mm);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::MatmulOp mm : matmuls)
      fuse(rewriter, mm);
  }

  void fuse(RewriterBase &rewriter, linalg::MatmulOp mm) {
    auto sketch = mm->getAttrOfType<SketchAttr>(kSketchAttrName);
    auto gpuSketch = mm->getAttrOfType<GpuSketchAttr>(kGpuSketchAttrName);
    Value c = mm.getDpsInitOperand(0)->get();
    linalg::LinalgOp consumer = consumerOf(mm, c);
    if (!consumer || !isElementwiseCandidate(consumer))
      return;
    auto notFused = [&](const Twine &why) {
      consumer->emitRemark() << "tensorop: not fused into the matmul's "
                                "microkernel (runs as a separate op after "
                                "it): "
                             << why;
    };
    if (gpuSketch) {
      if (gpuSketch.getEpilogue())
        return notFused("the matmul already has an epilogue");
      if (!gpuKernelAppliesEpilogues(gpuSketch.getKernel()))
        return notFused("the NVIDIA '" + gpuSketch.getKernel() +
                        "' kernel has no epilogue (wgmma and mma_sync "
                        "have one)");
      std::string reason;
      if (failed(matchGpuMatmul(mm, reason)))
        return;
    } else {
      if (sketch.getEpilogue())
        return notFused("the matmul already has an epilogue");
      if (!emitterAppliesEpilogues(sketch.getUkernel().getEmitter()))
        return notFused("the " + sketch.getUkernel().getEmitter() +
                        " microkernel has no epilogue yet (x86_gemm_fma, "
                        "riscv_gemm_rvv, arm_gemm_neon and the NVIDIA "
                        "tensor-core kernels have one)");
      std::string reason;
      FailureOr<GemmProblem> problem = matchSupportedMatmul(mm, reason);
      if (failed(problem))
        return;
      // With K = 0 at run time no microkernel runs, so none could apply it.
      if (problem->dynamicK)
        return notFused("K is dynamic (at K = 0 no microkernel runs to "
                        "apply the epilogue)");
    }

    // Named elementwise ops are read in their generic form (a copy, kept
    // only when it is fused).
    auto generic = dyn_cast<linalg::GenericOp>(consumer.getOperation());
    bool generalized = false;
    if (!generic) {
      rewriter.setInsertionPoint(consumer);
      Operation *copy = rewriter.clone(*consumer);
      FailureOr<linalg::GenericOp> g =
          linalg::generalizeNamedOp(rewriter, cast<linalg::LinalgOp>(copy));
      if (failed(g)) {
        rewriter.eraseOp(copy);
        return notFused("it has no generic form");
      }
      generic = *g;
      generalized = true;
    }
    Value matched = mm.hasPureTensorSemantics() ? mm->getResult(0) : c;
    std::string why;
    FailureOr<EpilogueMatch> m = matchEpilogue(generic, matched, why);
    if (failed(m)) {
      if (generalized)
        rewriter.eraseOp(generic);
      return notFused(why);
    }
    if (mm.hasPureTensorSemantics()) {
      linalg::GenericOp fused = rewriteInPlace(rewriter, generic, *m, matched);
      if (generalized)
        rewriter.replaceOp(consumer, fused->getResults());
      generic = fused;
    } else {
      // On memrefs the consumer must already write C in place.
      if (generic.getDpsInitOperand(0)->get() != c) {
        if (generalized)
          rewriter.eraseOp(generic);
        return notFused("it writes another buffer than the matmul's C");
      }
      if (generalized)
        rewriter.eraseOp(consumer);
    }
    generic->setAttr(kFusedEpilogueAttrName, rewriter.getUnitAttr());
    EpilogueAttr steps = epilogueAttr(&getContext(), m->steps);
    if (gpuSketch)
      mm->setAttr(kGpuSketchAttrName, gpuSketch.withEpilogue(steps));
    else
      mm->setAttr(kSketchAttrName, sketch.withEpilogue(steps));
    mm->emitRemark() << "tensorop: fused the elementwise consumer into the "
                        "microkernel's store: epilogue ["
                     << stepList(m->steps) << "]";
  }
};
} // namespace

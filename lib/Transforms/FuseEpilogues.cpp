//===- FuseEpilogues.cpp - Elementwise consumers into the GEMM's store ----===//
//
// For each sketched linalg.matmul, the chain of elementwise consumers after
// it (linalg.generic ops, or named elementwise ops such as linalg.add /
// linalg.max, generalized) is read as epilogue steps (EpilogueMatch.cpp),
// one consumer after the other, as importers emit them: bias add, then
// GELU, then a residual add, each its own op. Every consumer that reads as
// steps is rewritten to work in place on the value before it — on tensors
// its output becomes that value, so bufferization gives the whole chain the
// matmul's buffer — and marked; the steps of all of them go onto the
// matmul's sketch (#tensorop.epilogue). tensorop-apply-sketch then passes
// the bias and residual to the microkernel and erases the marked ops, so C
// is written once. A remark says what was fused, and one on the op the
// chain stops at says why (it and what follows run as they are, after the
// GEMM). NVIDIA matmuls (#tensorop.gpu_sketch, on memrefs: the GPU pipeline
// bufferizes first) are read the same way; the steps go on the GPU sketch
// and tensorop-gpu-apply-sketch passes the bias and residual to the kernel.
//
//===----------------------------------------------------------------------===//

#include "ConvEpilogues.h"

#include "tensorop/Support/IntMath.h"
#include "tensorop/Targets/PassHints.h"
#include "tensorop/Transforms/EpilogueSupport.h"
#include "tensorop/Transforms/GpuMatmulSupport.h"
#include "tensorop/Transforms/MatmulSupport.h"
#include "tensorop/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"

namespace mlir::tensorop {
#define GEN_PASS_DEF_TENSOROPFUSEEPILOGUES
#include "tensorop/Transforms/Passes.h.inc"
} // namespace mlir::tensorop

using namespace mlir;
using namespace mlir::tensorop;

namespace {
/// The next consumer in a chain after `last` (the matmul, or the consumer
/// fused before): on tensors the single user of `value`, `last`'s result;
/// on memrefs the op right after `last` when it reads or writes C. On
/// tensors, `users` is set to `value`'s number of users when there are
/// several (the chain cannot go on: the other users need the intermediate).
linalg::LinalgOp nextConsumer(Operation *last, Value value, Value c,
                              bool onTensors, unsigned &users) {
  users = 0;
  if (onTensors) {
    // (One op reading it twice is one user; the match refuses it.)
    llvm::SmallPtrSet<Operation *, 4> distinct(value.getUsers().begin(),
                                               value.getUsers().end());
    if (distinct.size() != 1) {
      users = distinct.size();
      return {};
    }
    return dyn_cast<linalg::LinalgOp>(*distinct.begin());
  }
  auto next = dyn_cast_or_null<linalg::LinalgOp>(last->getNextNode());
  if (!next || next.getNumDpsInits() != 1)
    return {};
  if (llvm::is_contained(next->getOperands(), c))
    return next;
  return {};
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

/// `sketch` less its N tail, for the GEMM writing `c` (M x N): a column
/// tile that held all N - columns columns the sketch was chosen for now
/// holds all N, so that N's remainder stays one edge block (with its own
/// tail kernel on the small path) rather than a block of its own.
SketchAttr withoutNTail(SketchAttr sketch, Value c) {
  NTailAttr tail = sketch.getNTail();
  int64_t n = cast<ShapedType>(c.getType()).getDimSize(1);
  int64_t nc = sketch.getNc();
  if (!ShapedType::isDynamic(n) && nc >= n - tail.getColumns())
    nc = roundUp(n, sketch.getNr());
  return SketchAttr::get(sketch.getContext(), sketch.getMc(), nc,
                         sketch.getKc(), sketch.getMr(), sketch.getNr(),
                         sketch.getLoopOrder(), sketch.getMicroOrder(),
                         sketch.getPackA(), sketch.getPackB(),
                         sketch.getUkernel(), sketch.getTarget(),
                         sketch.getSource(), sketch.getThreads(),
                         sketch.getEpilogue(), NTailAttr());
}

/// The op a chain of consumers is fused into, as the chain loop sees it: a
/// sketched matmul, or a sketched convolution (ConvEpilogues.cpp).
struct Producer {
  Operation *op;
  Value c; ///< Its output operand.
  bool onTensors;
  EpilogueOutput output;
  StringRef noun; ///< "matmul", "convolution"
  /// Whether a consumer narrowing the f32 C to bf16 / f16 may fuse (as the
  /// output step to_bf16 / to_f16): x86 AVX-512 matmul kernels.
  bool narrowOutput = false;
};

/// The consumer `c` of a matmul or of the last fused consumer, as an
/// epilogue, or why not.
struct ChainLink {
  linalg::GenericOp generic; ///< The consumer, or its generic form.
  bool generalized = false;  ///< `generic` is a copy of a named op.
  EpilogueMatch match;
};

struct FuseEpiloguesPass
    : public tensorop::impl::TensorOpFuseEpiloguesBase<FuseEpiloguesPass> {
  using Base::Base;

  /// The hints of this run's sketches, as they were planned (set for the
  /// run: a pass is copied when cloned, and the hints are not).
  PassHints *hints = nullptr;

  void runOnOperation() override {
    PassHints runHints(target, hintsDir);
    hints = &runHints;
    llvm::scope_exit reset([&] { hints = nullptr; });
    SmallVector<Operation *> sketched;
    getOperation().walk([&](Operation *op) {
      if ((isa<linalg::MatmulOp>(op) &&
           (op->getAttrOfType<SketchAttr>(kSketchAttrName) ||
            op->getAttrOfType<GpuSketchAttr>(kGpuSketchAttrName))) ||
          (isa<linalg::Conv2DNhwcHwcfOp>(op) &&
           op->getAttrOfType<ConvSketchAttr>(kSketchAttrName)))
        sketched.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (Operation *op : sketched) {
      auto linalgOp = cast<linalg::LinalgOp>(op);
      Producer p{op, linalgOp.getDpsInitOperand(0)->get(),
                 linalgOp.hasPureTensorSemantics(), EpilogueOutput::Matmul,
                 "matmul"};
      if (auto mm = dyn_cast<linalg::MatmulOp>(op)) {
        // A 1x1 convolution on the GEMM path: its consumers on the rows
        // (ConvEpilogues.cpp).
        flattenConsumersOfExpandedMatmul(rewriter, mm);
        p.narrowOutput = writesNarrowOutput(mm);
        fuse(rewriter, p, [&] {
          return whyNoEpilogue(mm,
                               mm->getAttrOfType<SketchAttr>(kSketchAttrName));
        });
      } else {
        p.output = EpilogueOutput::ConvNhwf;
        p.noun = "convolution";
        fuse(rewriter, p, [&] {
          return whyConvTakesNoEpilogue(
              op->getAttrOfType<ConvSketchAttr>(kSketchAttrName));
        });
      }
    }
  }

  /// Whether `mm`'s kernel can round its result to bf16 / f16 as it stores
  /// (x86_gemm_fma on AVX-512: vcvtneps2bf16 / vcvtps2ph and masked 16-bit
  /// stores).
  bool writesNarrowOutput(linalg::MatmulOp mm) {
    auto sketch = mm->getAttrOfType<SketchAttr>(kSketchAttrName);
    if (!sketch || sketch.getUkernel().getEmitter() != "x86_gemm_fma")
      return false;
    llvm::Expected<const TargetHints &> h =
        hints->forSketch(sketch.getTarget().getName());
    if (!h) {
      // The hints apply-sketch will fail on too: say so here, where it is
      // first read, rather than plan without them.
      mm.emitError() << llvm::toString(h.takeError());
      signalPassFailure();
      return false;
    }
    return h->isa == "avx512";
  }

  /// Why `mm` cannot take an epilogue at all, or "" ("-": no remark).
  std::string whyNoEpilogue(linalg::MatmulOp mm, SketchAttr sketch) {
    if (auto gpu = mm->getAttrOfType<GpuSketchAttr>(kGpuSketchAttrName)) {
      if (gpu.getEpilogue())
        return "the matmul already has an epilogue";
      if (!gpuKernelAppliesEpilogues(gpu.getKernel()))
        return ("the NVIDIA '" + gpu.getKernel() +
                "' kernel has no epilogue (wgmma and mma_sync have one)")
            .str();
      // The wgmma kernels that compute C^T = B^T A^T store C from their
      // own fragments, without the epilogue.
      if (gpu.getKernel() == "wgmma" &&
          (gpu.getPrecision() == "tf32" || gpu.getBlockM() < 64))
        return "the NVIDIA wgmma kernel for tf32 or few rows (block_m < 64, "
               "C^T = B^T A^T) has no epilogue";
      std::string reason;
      return failed(matchGpuMatmul(mm, reason)) ? "-" : "";
    }
    if (sketch.getEpilogue())
      return "the matmul already has an epilogue";
    if (!emitterAppliesEpilogues(sketch.getUkernel().getEmitter()))
      return ("the " + sketch.getUkernel().getEmitter() +
              " microkernel has no epilogue yet (x86_gemm_fma, "
              "riscv_gemm_rvv, arm_gemm_neon and the NVIDIA tensor-core "
              "kernels have one)")
          .str();
    std::string reason;
    FailureOr<GemmProblem> problem = matchSupportedMatmul(mm, reason);
    // (A matmul the sketch path does not take gets its remark there.)
    if (failed(problem))
      return "-";
    // With K = 0 at run time no microkernel runs, so none could apply it.
    if (problem->dynamicK)
      return "K is dynamic (at K = 0 no microkernel runs to apply the "
             "epilogue)";
    return "";
  }

  /// Reads `consumer` (of `value`) as epilogue steps appended to `steps`.
  /// Named elementwise ops are read in their generic form (a copy, which the
  /// caller keeps only when it fuses it). On failure `why` says why and
  /// nothing is left behind.
  FailureOr<ChainLink> readLink(RewriterBase &rewriter, const Producer &p,
                                linalg::LinalgOp consumer, Value value,
                                ArrayRef<EpilogueStep> steps,
                                std::string &why) {
    ChainLink link;
    FailureOr<linalg::GenericOp> form =
        genericForm(rewriter, consumer, link.generalized);
    if (failed(form)) {
      why = "it has no generic form";
      return failure();
    }
    link.generic = *form;
    auto fail = [&](const Twine &text) -> FailureOr<ChainLink> {
      why = text.str();
      if (link.generalized)
        rewriter.eraseOp(link.generic);
      return failure();
    };
    FailureOr<EpilogueMatch> m = matchEpilogue(link.generic, value, why,
                                               p.output, p.narrowOutput);
    if (failed(m))
      return fail(why);
    link.match = *m;
    // On memrefs the consumer must already write C in place (one that
    // narrows C to bf16 / f16 writes its own output).
    if (!p.onTensors && !m->steps.back().isOutput() &&
        link.generic.getDpsInitOperand(0)->get() != p.c)
      return fail("it writes another buffer than the " + p.noun +
                  (p.output == EpilogueOutput::Matmul ? "'s C" : "'s output"));
    // The microkernel reads the bias and residual where the producer is
    // (what only pure ops compute after it moves before it).
    for (int input : {m->biasInput, m->residualInput}) {
      if (input < 0)
        continue;
      Value operand = link.generic.getDpsInputOperand(input)->get();
      if (!hoistBefore(operand, p.op))
        return fail(
            "its " + Twine(input == m->biasInput ? "bias" : "residual") +
            " is computed after the " + p.noun +
            " (the microkernel reads it where the " + p.noun + " runs)");
    }
    // A narrowing consumer's own output is written by the microkernel too:
    // it must exist where the producer runs (a tensor.empty moves up).
    if (m->steps.back().isOutput() &&
        !hoistBefore(link.generic.getDpsInitOperand(0)->get(), p.op))
      return fail("its 16-bit output is created after the " + p.noun +
                  " (the microkernel writes it where the " + p.noun +
                  " runs)");
    SmallVector<EpilogueStep> all(steps);
    llvm::append_range(all, m->steps);
    std::string stepsWhy = checkEpilogueSteps(all);
    if (!stepsWhy.empty())
      return fail("with the consumers fused before it, " + stepsWhy);
    return link;
  }

  /// Fuses the chain of elementwise consumers after `p.op` (a matmul or a
  /// convolution; `whyNot` says why it takes no epilogue at all, "-" for
  /// silently, "" if it does): each consumer is
  /// appended while it reads as epilogue steps and the value it consumes
  /// has no other user (on memrefs: while the next op writes C in place).
  ///
  /// Why a chain loop rather than upstream linalg elementwise-op fusion
  /// (fuseElementwiseOps on the generics first, then one match): that
  /// fusion works on tensors only, while a chain written in place on
  /// memrefs needs the same treatment; it fuses a producer with other users
  /// by duplicating it, which would make the matmul's epilogue recompute
  /// work the program still does separately; and it merges everything or
  /// nothing, so a chain whose third op is no epilogue would lose the first
  /// two, and the remark could not name the op the chain stops at. Here
  /// each consumer stays an op of its own (marked, in place on C), the
  /// prefix that reads as steps is fused, and tensorop-apply-sketch erases
  /// the marked ops it applies.
  void fuse(RewriterBase &rewriter, const Producer &p,
            llvm::function_ref<std::string()> whyNot) {
    Value c = p.c;
    bool onTensors = p.onTensors;
    Operation *last = p.op;
    Value value = onTensors ? p.op->getResult(0) : c;
    SmallVector<EpilogueStep> steps;
    unsigned fused = 0;
    while (true) {
      unsigned users = 0;
      linalg::LinalgOp consumer =
          nextConsumer(last, value, c, onTensors, users);
      if (!consumer) {
        bool elementwiseUser = llvm::any_of(value.getUsers(), [](Operation *u) {
          auto l = dyn_cast<linalg::LinalgOp>(u);
          return l && isElementwiseCandidate(l);
        });
        if (users > 1 && elementwiseUser) {
          if (fused)
            last->emitRemark()
                << "tensorop: the chain of fused consumers ends here: this "
                   "op's result has "
                << users
                << " users (a consumer is fused only as the sole user)";
          else if (whyNot().empty())
            p.op->emitRemark()
                << "tensorop: no consumer fused into the microkernel: the "
                << p.noun << "'s result has " << users
                << " users (a consumer is fused only as the sole user)";
        }
        break;
      }
      if (!isElementwiseCandidate(consumer))
        break;
      auto notFused = [&](const Twine &why) {
        InFlightDiagnostic d = consumer->emitRemark();
        if (fused)
          d << "tensorop: the chain of fused consumers stops here: ";
        else
          d << "tensorop: ";
        d << "not fused into the " << p.noun
          << "'s microkernel (runs as a separate op after it): " << why;
      };
      if (!fused) {
        std::string why = whyNot();
        if (why == "-")
          return;
        if (!why.empty())
          return notFused(why);
      }
      std::string why;
      FailureOr<ChainLink> link =
          readLink(rewriter, p, consumer, value, steps, why);
      if (failed(link)) {
        notFused(why);
        break;
      }
      linalg::GenericOp generic = link->generic;
      bool narrows = link->match.steps.back().isOutput();
      if (narrows) {
        // It writes its own (bf16 / f16) output, which bufferization keeps
        // apart from the f32 C: the kernel reads C's partial sums and
        // writes the output; it ends the chain.
        if (link->generalized)
          rewriter.replaceOp(consumer, generic->getResults());
      } else if (onTensors && link->match.cInput < 0) {
        // It reads the result through its init already (outs = the
        // result, as a chain on memrefs is written): in place as it is.
        if (link->generalized)
          rewriter.replaceOp(consumer, generic->getResults());
        value = generic->getResult(0);
      } else if (onTensors) {
        linalg::GenericOp inPlace =
            rewriteInPlace(rewriter, generic, link->match, value);
        if (link->generalized)
          rewriter.replaceOp(consumer, inPlace->getResults());
        generic = inPlace;
        value = inPlace->getResult(0);
      } else if (link->generalized) {
        rewriter.eraseOp(consumer);
      }
      generic->setAttr(kFusedEpilogueAttrName, rewriter.getUnitAttr());
      llvm::append_range(steps, link->match.steps);
      last = generic;
      ++fused;
      if (narrows)
        break;
    }
    if (!fused)
      return;
    EpilogueAttr epilogue = epilogueAttr(&getContext(), steps);
    if (auto gpu = p.op->getAttrOfType<GpuSketchAttr>(kGpuSketchAttrName)) {
      p.op->setAttr(kGpuSketchAttrName, gpu.withEpilogue(epilogue));
    } else {
      Attribute sketch = p.op->getAttr(kSketchAttrName);
      if (auto gemm = dyn_cast<SketchAttr>(sketch)) {
        // The N tail's kernel (x86_gemm_kdot) applies no epilogue: the
        // main kernel takes its columns back, masking its last vector.
        if (NTailAttr tail = gemm.getNTail()) {
          p.op->emitRemark()
              << "tensorop: the sketch's n_tail (its last " << tail.getColumns()
              << " columns by x86_gemm_kdot) goes: that kernel applies no "
                 "epilogue; the main kernel computes those columns too";
          gemm = withoutNTail(gemm, p.c);
        }
        p.op->setAttr(kSketchAttrName, gemm.withEpilogue(epilogue));
      } else
        p.op->setAttr(kSketchAttrName,
                      cast<ConvSketchAttr>(sketch).withEpilogue(epilogue));
    }
    InFlightDiagnostic d = p.op->emitRemark();
    if (fused == 1)
      d << "tensorop: fused the elementwise consumer";
    else
      d << "tensorop: fused a chain of " << fused << " elementwise consumers";
    d << " into the "
      << (p.output == EpilogueOutput::ConvNhwf ? "convolution microkernel"
                                               : "microkernel")
      << "'s store: epilogue [" << stepList(steps) << "]";
  }
};
} // namespace

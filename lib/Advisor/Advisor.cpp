//===- Advisor.cpp - Advisor selection and the typed answer ---------------===//

#include "tensorop/Advisor/Advisor.h"
#include "tensorop/Dialect/TensorOpDialect.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"

#include <cstring>

using namespace mlir;
using namespace mlir::tensorop;

SketchAttr SketchChoice::toAttr(MLIRContext *ctx, const TargetHints &target,
                                std::string &error) const {
  // Route verifier messages into `error` instead of the context's handler.
  auto emitToLoc = [&]() { return mlir::emitError(UnknownLoc::get(ctx)); };
  llvm::function_ref<InFlightDiagnostic()> emit = emitToLoc;
  ScopedDiagnosticHandler handler(ctx, [&](Diagnostic &diag) {
    error = diag.str();
    return success();
  });
  TargetAttr targetAttr = target.toAttr(ctx);
  UKernelSpecAttr ukernel = UKernelSpecAttr::getChecked(
      emit, ctx, StringRef(emitter), kUnroll, StringRef(broadcast), prefetchB);
  if (!ukernel)
    return {};
  return SketchAttr::getChecked(emit, ctx, mc, nc, kc, mr, nr,
                                StringRef(loopOrder), StringRef(microOrder),
                                StringRef(packA), StringRef(packB), ukernel,
                                targetAttr, StringRef(source), threads);
}

llvm::Error mlir::tensorop::checkAdvisorName(llvm::StringRef spec) {
  if (spec == "builtin" || spec == "llm")
    return llvm::Error::success();
  if (spec.starts_with("replay:")) {
    if (spec.drop_front(strlen("replay:")).empty())
      return llvm::createStringError("advisor 'replay:DIR' needs a directory");
    return llvm::Error::success();
  }
  return llvm::createStringError("unknown advisor '" + spec + "' (known: " +
                                 kAdvisorNames + ")");
}

SketchChoice SketchChoice::fromAttr(SketchAttr a) {
  SketchChoice c;
  c.mc = a.getMc();
  c.nc = a.getNc();
  c.kc = a.getKc();
  c.mr = a.getMr();
  c.nr = a.getNr();
  c.loopOrder = a.getLoopOrder().str();
  c.microOrder = a.getMicroOrder().str();
  c.packA = a.getPackA().str();
  c.packB = a.getPackB().str();
  UKernelSpecAttr uk = a.getUkernel();
  c.emitter = uk.getEmitter().str();
  c.kUnroll = uk.getKUnroll();
  c.broadcast = uk.getBroadcast().str();
  c.prefetchB = uk.getPrefetchB();
  c.source = a.getSource().str();
  c.threads = a.getThreads();
  return c;
}

llvm::Expected<std::unique_ptr<Advisor>>
mlir::tensorop::createAdvisor(llvm::StringRef spec) {
  if (llvm::Error e = checkAdvisorName(spec))
    return std::move(e);
  if (spec == "builtin")
    return createBuiltinAdvisor();
  if (spec == "llm")
    return createLLMAdvisor();
  return createReplayAdvisor(spec.drop_front(strlen("replay:")));
}

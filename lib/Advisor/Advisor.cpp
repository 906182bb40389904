//===- Advisor.cpp - Advisor selection and the typed answer ---------------===//

#include "tensorop/Advisor/Advisor.h"
#include "tensorop/Advisor/ConvAdvisor.h"
#include "tensorop/Dialect/KDotSketch.h"
#include "tensorop/Dialect/TensorOpDialect.h"
#include "tensorop/Emitters/Emitter.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"

#include <cstdlib>
#include <map>
#include <mutex>

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
      emit, ctx, StringRef(emitter), kUnroll, StringRef(broadcast), prefetchB,
      prefetchBCols, prefetchA);
  if (!ukernel)
    return {};
  NTailAttr tail;
  if (nTail.columns) {
    UKernelSpecAttr tailKernel = UKernelSpecAttr::getChecked(
        emit, ctx, StringRef(kKDotEmitter), nTail.kUnroll, StringRef("none"),
        int64_t(0), int64_t(0), nTail.prefetchA);
    if (!tailKernel)
      return {};
    tail = NTailAttr::getChecked(emit, ctx, nTail.columns, nTail.mr,
                                 nTail.nr, tailKernel, nTail.threads);
    if (!tail)
      return {};
  }
  return SketchAttr::getChecked(emit, ctx, mc, nc, kc, mr, nr,
                                StringRef(loopOrder), StringRef(microOrder),
                                StringRef(packA), StringRef(packB), ukernel,
                                targetAttr, StringRef(source), threads,
                                EpilogueAttr(), tail);
}

llvm::Error mlir::tensorop::checkAdvisorName(llvm::StringRef spec) {
  if (spec == "builtin" || spec == "llm")
    return llvm::Error::success();
  if (spec.starts_with("replay:")) {
    llvm::StringRef dir = spec.drop_front(strlen("replay:"));
    if (dir.empty())
      return llvm::createStringError("advisor 'replay:DIR' needs a directory");
    // A missing directory is a typo, not a run where nothing was recorded:
    // it only warned per op and fell back to the builtin advisor.
    if (!llvm::sys::fs::is_directory(dir))
      return llvm::createStringError(
          "advisor '" + spec + "': " +
          (llvm::sys::fs::exists(dir) ? "'" + dir + "' is not a directory"
                                      : "no directory '" + dir + "'") +
          " (replay:DIR reads the answers TENSOROP_LLM_RECORD_DIR=DIR "
          "recorded)");
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
  c.prefetchBCols = uk.getPrefetchBCols();
  c.prefetchA = uk.getPrefetchA();
  c.source = a.getSource().str();
  c.threads = a.getThreads();
  if (NTailAttr tail = a.getNTail()) {
    c.nTail.columns = tail.getColumns();
    c.nTail.mr = tail.getMr();
    c.nTail.nr = tail.getNr();
    c.nTail.kUnroll = tail.getUkernel().getKUnroll();
    c.nTail.prefetchA = tail.getUkernel().getPrefetchA();
    c.nTail.threads = tail.getThreads();
  }
  return c;
}

namespace {
struct AdvisorRegistry {
  std::mutex mutex;
  std::map<std::string, AdvisorFactory> factories;
};
AdvisorRegistry &advisorRegistry() {
  static AdvisorRegistry registry;
  return registry;
}
} // namespace

void mlir::tensorop::registerAdvisor(llvm::StringRef name,
                                     AdvisorFactory factory) {
  AdvisorRegistry &r = advisorRegistry();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.factories[name.str()] = std::move(factory);
}

std::vector<std::string> mlir::tensorop::availableAdvisors() {
  AdvisorRegistry &r = advisorRegistry();
  std::lock_guard<std::mutex> lock(r.mutex);
  std::vector<std::string> names = {"builtin"};
  for (const auto &entry : r.factories)
    names.push_back(entry.first);
  llvm::sort(names);
  return names;
}

llvm::Expected<std::unique_ptr<Advisor>>
mlir::tensorop::createAdvisor(llvm::StringRef spec) {
  if (llvm::Error e = checkAdvisorName(spec))
    return std::move(e);
  if (spec == "builtin")
    return createBuiltinAdvisor();
  auto [name, argument] = spec.split(':');
  AdvisorFactory factory;
  {
    AdvisorRegistry &r = advisorRegistry();
    std::lock_guard<std::mutex> lock(r.mutex);
    auto it = r.factories.find(name.str());
    if (it != r.factories.end())
      factory = it->second;
  }
  if (factory)
    return factory(argument);
  // A known name (checkAdvisorName) whose library registered nothing.
  return llvm::createStringError(
      "advisor=" + name.str() +
      " is not available: this build/consumer did not link TensorOp::LLM "
      "(or did not call mlir::tensorop::registerAllPasses())");
}

llvm::Expected<ConvSketchChoice>
Advisor::proposeConv(const ConvProblem &problem, const TargetHints &target) {
  notesList.clear();
  promptTokenCount = completionTokenCount = 0;
  notesList.push_back(AdvisorNote::warning(
      "has no answers for convolutions; the builtin convolution choice is "
      "used"));
  return builtinConvChoice(problem, target);
}

std::string mlir::tensorop::llmEmitterDir() {
  if (const char *env = std::getenv("TENSOROP_LLM_EMITTER_DIR"))
    return env;
  std::string base = tensoropCacheDir();
  return (base.empty() ? std::string("/tmp/tensorop") : base) +
         "/llm-emitters";
}

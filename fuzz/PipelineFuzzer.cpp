//===- PipelineFuzzer.cpp - Fuzz the CPU pipeline on mutated MLIR --------===//
//
// Any module text either fails to parse or verify (a diagnostic), or runs
// through the whole --tensorop-pipeline for a CPU target with the builtin
// advisor: annotate, bufferize, apply the sketch (emitter scripts run, their
// code checked with LLVM MC; cached by spec in-process and on disk), lower
// to the LLVM dialect. A pass may fail with a diagnostic; it must not crash,
// leak or hit undefined behaviour in our code. Not run per input: the JIT,
// LLVM's code generation and the kernel itself (docs/Reliability.md).
//
// The target is chosen from the input's length (x86-avx512, x86-avx2,
// riscv-rvv, arm-neon), so a given input always takes the same path and
// mutations reach all four.
//
//===----------------------------------------------------------------------===//

#include "tensorop/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace mlir::tensorop;

namespace {
const DialectRegistry &registry() {
  static DialectRegistry *r = [] {
    auto *reg = new DialectRegistry();
    registerPipelineDialects(*reg);
    return reg;
  }();
  return *r;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // A fresh context per input: attributes and types are uniqued for the
  // context's lifetime, so one shared context would grow without bound.
  MLIRContext ctx(registry(), MLIRContext::Threading::DISABLED);
  ctx.allowUnregisteredDialects(false);
  ScopedDiagnosticHandler quiet(&ctx, [](Diagnostic &) { return success(); });

  auto buffer = llvm::MemoryBuffer::getMemBufferCopy(
      llvm::StringRef(reinterpret_cast<const char *>(data), size), "fuzz.mlir");
  llvm::SourceMgr sources;
  sources.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sources, &ctx);
  if (!module || failed(verify(*module)))
    return 0;

  static const char *targets[] = {"x86-avx512", "x86-avx2", "riscv-rvv",
                                  "arm-neon"};
  PipelineOptions options;
  options.target = targets[size % 4];
  PassManager pm(&ctx);
  std::string error;
  if (failed(buildTensorOpPipeline(pm, options, error)))
    __builtin_trap(); // fixed, valid options: a failure is our bug
  (void)pm.run(*module);
  return 0;
}

//===- CompilerContext.cpp - The MLIR context the subcommands share -------===//

#include "tensorop/Driver/CompilerContext.h"

#include "tensorop/Runtime/JitGemm.h"
#include "tensorop/Transforms/Passes.h"

#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"

std::unique_ptr<mlir::MLIRContext> tensorop::makeCompilerContext() {
  mlir::registerAllPasses();
  mlir::tensorop::registerAllTensorOpPasses();
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::tensorop::registerTensorOpDialect(registry);
  mlir::tensorop::registerJitDialects(registry);
  auto ctx = std::make_unique<mlir::MLIRContext>(registry);
  ctx->loadAllAvailableDialects();
  return ctx;
}

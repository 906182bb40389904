//===- TensorOpPlugin.cpp - TensorOp as a plugin for stock mlir-opt -------===//
//
//   mlir-opt-22 --load-dialect-plugin=build/lib/TensorOpPlugin.so \
//     --pass-pipeline="builtin.module(tensorop-pipeline{target=host})" in.mlir
//
//===----------------------------------------------------------------------===//

#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "tensorop/Transforms/Passes.h"

extern "C" LLVM_ATTRIBUTE_WEAK mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  // mlir-opt has no --version for plugins; the version is here for whoever
  // loads the library (test/Plugin/plugin-info.test reads it).
  return {MLIR_PLUGIN_API_VERSION, "TensorOp",
          TENSOROP_VERSION " (LLVM " LLVM_VERSION_STRING ")",
          [](mlir::DialectRegistry *registry) {
            mlir::tensorop::registerTensorOpDialect(*registry);
            // The dialect hook is the one place a dialect plugin can add
            // passes; they are then usable inside --pass-pipeline=...
            mlir::tensorop::registerAllTensorOpPasses();
          }};
}

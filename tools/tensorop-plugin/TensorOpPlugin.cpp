//===- TensorOpPlugin.cpp - TensorOp for stock mlir-opt -------------------===//
//
// One shared object, two plugin forms for mlir-opt-22:
//   --load-dialect-plugin: the dialect (parsing and printing tensorop
//     attributes and ops), the NVIDIA LLVM IR translations, and our passes;
//   --load-pass-plugin: our passes and --tensorop-pipeline only (the
//     pipeline's passes load the dialects they need themselves).
//
//===----------------------------------------------------------------------===//

#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "tensorop/InitAllTensorOp.h"

extern "C" LLVM_ATTRIBUTE_WEAK mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  // mlir-opt has no --version for plugins; the version is here for whoever
  // loads the library (test/Plugin/plugin-info.test reads it).
  return {MLIR_PLUGIN_API_VERSION, "TensorOp",
          TENSOROP_VERSION " (LLVM " LLVM_VERSION_STRING ")",
          [](mlir::DialectRegistry *registry) {
            mlir::tensorop::registerAllDialects(*registry);
            // The dialect hook is the one place a dialect plugin can add
            // passes; they are then usable inside --pass-pipeline=...
            mlir::tensorop::registerAllPasses();
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "TensorOp", LLVM_VERSION_STRING,
          [] { mlir::tensorop::registerAllPasses(); }};
}

//===- consumer-opt.cpp - A downstream mlir-opt with TensorOp -------------===//
//
// Registers TensorOp's dialects and passes and nothing else of MLIR's: no
// mlir::registerAllPasses, no mlir::registerAllDialects.
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "tensorop/InitAllTensorOp.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::tensorop::registerAllDialects(registry);
  mlir::tensorop::registerAllPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "A downstream tool with TensorOp\n",
                        registry));
}

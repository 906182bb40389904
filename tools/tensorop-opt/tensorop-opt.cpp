//===- tensorop-opt.cpp - mlir-opt with the TensorOp dialect and passes ---===//

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "tensorop/InitAllTensorOp.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::tensorop::registerAllPasses();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::tensorop::registerAllDialects(registry);
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "TensorOp optimizer driver\n", registry));
}

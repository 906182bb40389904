//===- consumer-gen.cpp - `tensorop gen` from a downstream program --------===//
//
// Generates and verifies one kernel through TensorOp::Driver, the library
// behind `tensorop gen`: consumer-gen REQUEST OUTDIR.
//
//===----------------------------------------------------------------------===//

#include "tensorop/Driver/GenDriver.h"
#include "tensorop/InitAllTensorOp.h"

int main(int argc, char **argv) {
  if (argc != 3)
    return 2;
  // Also points the drivers at the installed hints and emitters.
  mlir::tensorop::registerAllPasses();
  tensorop::GenOptions options;
  options.request = argv[1];
  options.outDir = argv[2];
  options.noBench = true;
  return tensorop::generateKernel(options);
}

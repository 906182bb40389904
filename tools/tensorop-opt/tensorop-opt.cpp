//===- tensorop-opt.cpp - mlir-opt with the TensorOp dialect and passes ---===//

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "tensorop/InitAllTensorOp.h"
#include "tensorop/Advisor/Advisor.h"
#include "tensorop/Support/ToolInfo.h"

int main(int argc, char **argv) {
  // First: what LLVM's libraries registered moves to --help-hidden; the
  // options MlirOptMain registers below stay in --help.
  mlir::tensorop::hideLibraryOptions();
  mlir::tensorop::setToolVersionPrinter("tensorop-opt");
  mlir::registerAllPasses();
  mlir::tensorop::registerAllPasses();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::tensorop::registerAllDialects(registry);
  std::string overview =
      "tensorop-opt: mlir-opt with the TensorOp dialect and passes (" +
      mlir::tensorop::versionLine() +
      ")\n\n"
      "TensorOp passes (their options are listed with the passes below):\n"
      "  --tensorop-pipeline=\"target=T advisor=A db=PATH threads=N "
      "bare-ptr-abi=1\"\n"
      "      the whole path from linalg to the LLVM dialect\n"
      "      targets T: " +
      mlir::tensorop::knownTargetList() +
      "\n"
      "      advisors A: " +
      mlir::tensorop::kAdvisorNames.str() +
      " (NVIDIA targets: builtin, llm)\n"
      "  --tensorop-annotate-sketch, --tensorop-apply-sketch, "
      "--tensorop-lower-ukernel,\n"
      "  --tensorop-omp-team-size, --tensorop-keep-ukernel-loops,\n"
      "  --tensorop-deallocate-buffers, "
      "--tensorop-gpu-lower-matmul\n"
      "      the pipeline's stages, one at a time\n";
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, overview, registry));
}

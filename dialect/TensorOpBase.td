//===- TensorOpBase.td - The tensorop dialect --------------*- tablegen -*-===//
//
// The tensorop dialect carries TensorOp's decisions through the pipeline: the
// target a kernel is generated for, the sketch an advisor chose for an
// operator, and the microkernels that emitter scripts printed.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_BASE_TD
#define TENSOROP_BASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def TensorOp_Dialect : Dialect {
  let name = "tensorop";
  let cppNamespace = "::mlir::tensorop";
  let summary = "Sketches, targets and emitted microkernels of TensorOp";
  let description = [{
    The `tensorop` dialect records what TensorOp's advisor chose for a tensor
    operator (`#tensorop.sketch`), the hardware it targets
    (`#tensorop.target`), and the microkernels printed by emitter scripts
    (`tensorop.ukernel`, which carries the emitted assembly until it is
    spliced in as `llvm.inline_asm`).
  }];
  let useDefaultAttributePrinterParser = 1;
  let dependentDialects = ["::mlir::memref::MemRefDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

#endif // TENSOROP_BASE_TD

//===- TensorOpDialect.h - The tensorop dialect -----------------*- C++ -*-===//

#ifndef TENSOROP_DIALECT_TENSOROPDIALECT_H
#define TENSOROP_DIALECT_TENSOROPDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "tensorop/Dialect/TensorOpDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "tensorop/Dialect/TensorOpAttrs.h.inc"

#define GET_OP_CLASSES
#include "tensorop/Dialect/TensorOpOps.h.inc"

namespace mlir::tensorop {
/// Name of the discardable attribute that carries a sketch on a linalg op.
constexpr llvm::StringLiteral kSketchAttrName = "tensorop.sketch";

/// Vector registers a register block of `mr` x `nr` f32 needs on a target
/// with `lanes` f32 lanes per register: mr*nv accumulators, nv B vectors and
/// one broadcast register (nv = nr / lanes).
int64_t registerBlockVectorRegisters(int64_t mr, int64_t nr, int64_t lanes);
} // namespace mlir::tensorop

#endif // TENSOROP_DIALECT_TENSOROPDIALECT_H

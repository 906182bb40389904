//===- EpilogueBlock.cpp - The block a fused epilogue's kernel reads ------===//

#include "tensorop/Emitters/Emitter.h"
#include "tensorop/Transforms/EpilogueSupport.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::tensorop;

Value mlir::tensorop::emitEpilogueBlock(OpBuilder &b, Location loc,
                                        const EmittedKernel &kernel) {
  Value block = memref::AllocOp::create(
      b, loc, MemRefType::get({kernel.epilogueBlockBytes}, b.getI8Type()),
      b.getI64IntegerAttr(64));
  int64_t count = kernel.epilogueConstants.size();
  if (count == 0)
    return block;
  auto index = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Type f32 = b.getF32Type();
  Value constants =
      memref::ViewOp::create(b, loc, MemRefType::get({16 * count}, f32), block,
                             index(64), ValueRange{});
  auto splat = VectorType::get({16}, f32);
  for (auto [i, value] : llvm::enumerate(kernel.epilogueConstants)) {
    Value v = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(splat, float(value)));
    auto write = vector::TransferWriteOp::create(
        b, loc, v, constants, ValueRange{index(16 * int64_t(i))});
    write.setInBoundsAttr(b.getBoolArrayAttr({true}));
  }
  return block;
}

//===- TransposeCopy.cpp - A 2-D transposing copy as a linalg op ----------===//

#include "TransposeCopy.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

using namespace mlir;

void mlir::tensorop::emitTransposeCopy(OpBuilder &b, Location loc, Value src,
                                       Value dst) {
  MLIRContext *ctx = b.getContext();
  AffineExpr d0 = getAffineDimExpr(0, ctx), d1 = getAffineDimExpr(1, ctx);
  linalg::GenericOp::create(
      b, loc, ValueRange{src}, ValueRange{dst},
      ArrayRef<AffineMap>{AffineMap::get(2, 0, {d0, d1}, ctx),
                          AffineMap::get(2, 0, {d1, d0}, ctx)},
      ArrayRef<utils::IteratorType>{utils::IteratorType::parallel,
                                    utils::IteratorType::parallel},
      [](OpBuilder &nb, Location nloc, ValueRange args) {
        linalg::YieldOp::create(nb, nloc, args[0]);
      });
}

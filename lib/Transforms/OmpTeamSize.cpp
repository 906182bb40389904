//===- OmpTeamSize.cpp - Size OpenMP teams by their loop's trip count -----===//

#include "tensorop/Transforms/Passes.h"

#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/IR/Matchers.h"

namespace mlir::tensorop {
#define GEN_PASS_DEF_TENSOROPOMPTEAMSIZE
#include "tensorop/Transforms/Passes.h.inc"
} // namespace mlir::tensorop

using namespace mlir;
using namespace mlir::tensorop;

namespace {
/// Iterations of `loop` if all its bounds and steps are constants.
std::optional<int64_t> constantTripCount(omp::LoopNestOp loop) {
  int64_t trips = 1;
  for (auto [lb, ub, step] :
       llvm::zip(loop.getLoopLowerBounds(), loop.getLoopUpperBounds(),
                 loop.getLoopSteps())) {
    APInt l, u, s;
    if (!matchPattern(lb, m_ConstantInt(&l)) ||
        !matchPattern(ub, m_ConstantInt(&u)) ||
        !matchPattern(step, m_ConstantInt(&s)) || s.getSExtValue() <= 0)
      return std::nullopt;
    int64_t extent = u.getSExtValue() - l.getSExtValue();
    if (loop.getLoopInclusive())
      extent += 1;
    trips *= std::max<int64_t>(0, (extent + s.getSExtValue() - 1) /
                                      s.getSExtValue());
  }
  return trips;
}

struct OmpTeamSizePass
    : public tensorop::impl::TensorOpOmpTeamSizeBase<OmpTeamSizePass> {
  void runOnOperation() override {
    getOperation().walk([](omp::ParallelOp par) {
      if (par.getNumThreads())
        return;
      // Only the teams of threaded sketches (apply-sketch leaves the sketch
      // on the outermost loop of each chunk's nest) and of forall loops marked
      // kOmpTeamAttrName. Other scf.parallel loops
      // (the input's own) keep the runtime's default team, which a trip
      // count of thousands must not replace.
      bool fromSketch = par.getRegion()
                            .walk([](Operation *op) {
                              return op->hasAttr(kSketchAttrName) ||
                                             op->hasAttr(kOmpTeamAttrName)
                                         ? WalkResult::interrupt()
                                         : WalkResult::advance();
                            })
                            .wasInterrupted();
      if (!fromSketch)
        return;
      // convert-scf-to-openmp puts one omp.wsloop directly in the region.
      omp::LoopNestOp nest;
      for (Operation &op : par.getRegion().getOps())
        if (auto ws = dyn_cast<omp::WsloopOp>(op))
          nest = dyn_cast<omp::LoopNestOp>(ws.getWrappedLoop());
      if (!nest)
        return;
      std::optional<int64_t> trips = constantTripCount(nest);
      if (!trips || *trips < 1)
        return;
      OpBuilder b(par);
      Value n =
          arith::ConstantIntOp::create(b, par.getLoc(), b.getI32Type(), *trips);
      par.getNumThreadsMutable().assign(n);
    });
  }
};
} // namespace

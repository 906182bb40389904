//===- FusedChain.cpp - The consumers fused into a matmul's epilogue ------===//
//
// What tensorop-apply-sketch (CPU) and tensorop-gpu-apply-sketch (NVIDIA)
// read back after tensorop-fuse-epilogues: the marked consumers in place on
// C and the bias and residual they pass to the kernel.
//
//===----------------------------------------------------------------------===//

#include "tensorop/Transforms/EpilogueSupport.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/AffineExpr.h"

using namespace mlir;
using namespace mlir::tensorop;

std::optional<FusedChain>
mlir::tensorop::findFusedChain(linalg::MatmulOp op, Value c,
                               EpilogueAttr epilogue) {
  FusedChain chain;
  SmallVector<EpilogueStep> steps;
  for (Operation *next = op->getNextNode(); next; next = next->getNextNode()) {
    auto g = dyn_cast<linalg::GenericOp>(next);
    bool mentionsC = llvm::is_contained(next->getOperands(), c);
    if (!g || !g->hasAttr(kFusedEpilogueAttrName)) {
      if (mentionsC)
        break;
      continue;
    }
    if (g.getDpsInitOperand(0)->get() != c) {
      if (mentionsC)
        break;
      continue; // Another matmul's.
    }
    if (!g.hasPureBufferSemantics())
      return std::nullopt;
    std::string why;
    FailureOr<EpilogueMatch> m = matchEpilogue(g, c, why);
    if (failed(m))
      return std::nullopt;
    if (m->biasInput >= 0) {
      OpOperand *bias = g.getDpsInputOperand(m->biasInput);
      chain.bias = bias->get();
      chain.biasAlongN = g.getMatchingIndexingMap(bias).getResult(0) ==
                         getAffineDimExpr(1, op.getContext());
    }
    // The microkernel reads the residual's rows with unit stride.
    if (m->residualInput >= 0) {
      chain.residual = g.getDpsInputOperand(m->residualInput)->get();
      auto type = cast<MemRefType>(chain.residual.getType());
      SmallVector<int64_t> strides;
      int64_t offset;
      if (failed(type.getStridesAndOffset(strides, offset)) ||
          strides[1] != 1)
        return std::nullopt;
    }
    llvm::append_range(steps, m->steps);
    chain.ops.push_back(g);
  }
  SmallVector<std::string> want, got;
  for (const EpilogueStep &s : epilogueSteps(epilogue))
    want.push_back(s.text());
  for (const EpilogueStep &s : steps)
    got.push_back(s.text());
  if (chain.ops.empty() || want != got)
    return std::nullopt;
  return chain;
}


//===- LowerUKernel.cpp - tensorop.ukernel to llvm.inline_asm -------------===//
//
// The emitted code takes the seven 64-bit operands of the contract in
// tensorop/Emitters/UKernelOperands.h (A panel, B panel and C addresses, kc,
// C's row stride in bytes, m_rem, n_rem), each tied in/out so the code may
// advance them. Addresses are computed with upstream memref ops
// (aligned base pointer + offset), which the usual memref-to-LLVM lowering
// then handles. A kernel with a fused epilogue takes an eighth operand, the
// address of its epilogue block, whose header this pass writes first; one
// that stores B's packed panel as it reads B (b_panel_out), the panel's;
// one that reads A (B) at a run-time row stride, that stride last (A's
// before B's).
//
//===----------------------------------------------------------------------===//

#include "tensorop/Emitters/UKernelOperands.h"
#include "tensorop/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::tensorop {
#define GEN_PASS_DEF_TENSOROPLOWERUKERNEL
#include "tensorop/Transforms/Passes.h.inc"
} // namespace mlir::tensorop

using namespace mlir;
using namespace mlir::tensorop;

namespace {
struct LowerUKernelPattern : public OpRewritePattern<UKernelOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(UKernelOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type i64 = rewriter.getI64Type();
    auto toI64 = [&](Value index) -> Value {
      return arith::IndexCastOp::create(rewriter, loc, i64, index);
    };
    auto bytes = [&](Value elements, int64_t size = 4) -> Value {
      Value four = arith::ConstantIndexOp::create(rewriter, loc, size);
      return arith::MulIOp::create(rewriter, loc, elements, four);
    };
    // Address of the first element: aligned base pointer + offset * 4 (2
    // for the 16-bit output).
    auto address = [&](Value memref, memref::ExtractStridedMetadataOp &meta,
                       int64_t size = 4) -> Value {
      meta = memref::ExtractStridedMetadataOp::create(rewriter, loc, memref);
      Value base =
          memref::ExtractAlignedPointerAsIndexOp::create(rewriter, loc, memref);
      return toI64(arith::AddIOp::create(rewriter, loc, base,
                                         bytes(meta.getOffset(), size)));
    };
    memref::ExtractStridedMetadataOp metaA, metaB, metaC;
    // (A and B may be bf16 views of k pairs read in place: 2-byte
    // elements.)
    auto elementBytes = [](Value v) -> int64_t {
      return cast<MemRefType>(v.getType()).getElementType().isBF16() ? 2 : 4;
    };
    Value a = address(op.getA(), metaA, elementBytes(op.getA()));
    Value b = address(op.getB(), metaB, elementBytes(op.getB()));
    Value c = address(op.getC(), metaC);
    Value ldc = toI64(bytes(metaC.getStrides()[0]));
    // In the order of the operand contract (UKernelOperands.h).
    SmallVector<Value> operands(kNumUKernelOperands);
    operands[kUKernelAPanel] = a;
    operands[kUKernelBPanel] = b;
    operands[kUKernelC] = c;
    operands[kUKernelKc] = toI64(op.getKc());
    operands[kUKernelLdcBytes] = ldc;
    operands[kUKernelMRem] = toI64(op.getMRem());
    operands[kUKernelNRem] = toI64(op.getNRem());
    if (Value block = op.getEpilogue()) {
      // The block's header: bias and residual addresses of this tile and
      // the residual's row stride in bytes (0 where absent); with an output
      // step the output tile's address and row stride in bytes.
      memref::ExtractStridedMetadataOp metaBlock, metaBias, metaResidual,
          metaOut;
      Value zero = arith::ConstantIntOp::create(rewriter, loc, i64, 0);
      SmallVector<Value, 5> header = {zero, zero, zero};
      if (op.getBias())
        header[0] = address(op.getBias(), metaBias);
      if (op.getResidual()) {
        header[1] = address(op.getResidual(), metaResidual);
        header[2] = toI64(bytes(metaResidual.getStrides()[0]));
      }
      if (Value out = op.getOut()) {
        header.push_back(address(out, metaOut, 2));
        header.push_back(toI64(bytes(metaOut.getStrides()[0], 2)));
      }
      Value view = memref::ViewOp::create(
          rewriter, loc,
          MemRefType::get({int64_t(header.size())}, i64), block,
          arith::ConstantIndexOp::create(rewriter, loc, 0), ValueRange{});
      for (auto [i, value] : llvm::enumerate(header))
        memref::StoreOp::create(
            rewriter, loc, value, view,
            ValueRange{arith::ConstantIndexOp::create(rewriter, loc, i)});
      operands.push_back(address(block, metaBlock));
    }
    if (Value panel = op.getBPanelOut()) {
      // The fused copy of B: the packed panel the code fills.
      memref::ExtractStridedMetadataOp metaPanel;
      assert(operands.size() == kUKernelBPanelOut && "verifier: no epilogue");
      operands.push_back(address(panel, metaPanel));
    }
    // A read in place at a row stride known only at run time: the stride
    // in bytes, last (UKernelOperands.h).
    if (op.getAStrideOperand())
      operands.push_back(toI64(bytes(metaA.getStrides()[0])));
    if (op.getBStrideOperand())
      operands.push_back(toI64(bytes(metaB.getStrides()[0])));
    auto resultType = LLVM::LLVMStructType::getLiteral(
        rewriter.getContext(), SmallVector<Type>(operands.size(), i64));
    auto dialect = LLVM::AsmDialectAttr::get(
        rewriter.getContext(), op.getAsmDialect() == "intel"
                                   ? LLVM::AsmDialect::AD_Intel
                                   : LLVM::AsmDialect::AD_ATT);
    auto code = LLVM::InlineAsmOp::create(
        rewriter, loc, resultType, operands, op.getAsmString(),
        op.getConstraints(),
        /*has_side_effects=*/true,
        /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
        dialect,
        /*operand_attrs=*/ArrayAttr());
    // tensorop-keep-ukernel-loops finds the kernels by this mark.
    code->setAttr(kMicrokernelAttrName, rewriter.getUnitAttr());
    rewriter.eraseOp(op);
    return success();
  }
};

struct LowerUKernelPass
    : public tensorop::impl::TensorOpLowerUKernelBase<LowerUKernelPass> {
  void runOnOperation() override {
    SmallVector<UKernelOp> kernels;
    getOperation().walk([&](UKernelOp op) { kernels.push_back(op); });
    PatternRewriter rewriter(&getContext());
    LowerUKernelPattern pattern(&getContext());
    for (UKernelOp op : kernels) {
      rewriter.setInsertionPoint(op);
      if (failed(pattern.matchAndRewrite(op, rewriter))) {
        op.emitError("cannot lower tensorop.ukernel");
        return signalPassFailure();
      }
    }
  }
};
} // namespace

//===- StaticScratch.cpp - Temporaries in a scratch area kept across calls ===//
//
// A function's temporaries, allocated and freed on every call, cost page
// faults whenever malloc hands the memory back to the kernel in between
// (glibc does above its mmap threshold and when the free top of the heap
// exceeds its trim threshold). This pass gives each function one static
// region for all of them (the layout of tensorop-bind-workspace), claimed
// per call through a busy flag:
//
//   %old = memref.atomic_rmw assign %c1, @busy[0]   // claim
//   %region = scf.if (%old == 0) { get_global @scratch } else { alloc }
//   ... every temporary a memref.view of %region ...
//   scf.if (%old == 0) { atomic_rmw assign %c0, @busy[0] } else { dealloc }
//
// A concurrent call (another thread) finds the flag set and allocates its
// own region, so calls stay thread-safe; a lone caller reuses pages that
// stay mapped.
//
//===----------------------------------------------------------------------===//

#include "BufferLayout.h"

#include "tensorop/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::tensorop {
#define GEN_PASS_DEF_TENSOROPSTATICSCRATCH
#include "tensorop/Transforms/Passes.h.inc"
} // namespace mlir::tensorop

using namespace mlir;
using namespace mlir::tensorop;

namespace {
/// A temporary the function frees itself: static, identity layout, with a
/// memref.dealloc of it in the function (so it does not outlive the call),
/// at most 64-byte alignment, and its address not taken out of MLIR's view
/// (memref.extract_aligned_pointer_as_index: e.g. a test's guard page
/// mprotect'ed behind it, which must stay fresh memory of its own).
bool isOwnTemporary(memref::AllocOp op) {
  MemRefType type = op.getType();
  std::optional<uint64_t> alignment = op.getAlignment();
  return type.hasStaticShape() && type.getLayout().isIdentity() &&
         type.getElementType().isIntOrFloat() &&
         (!alignment || *alignment <= uint64_t(kBufferAlign)) &&
         llvm::any_of(op->getUsers(),
                      [](Operation *u) { return isa<memref::DeallocOp>(u); }) &&
         llvm::none_of(op->getUsers(), [](Operation *u) {
           return isa<memref::ExtractAlignedPointerAsIndexOp>(u);
         });
}

struct StaticScratchPass
    : public tensorop::impl::TensorOpStaticScratchBase<StaticScratchPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<func::FuncOp> fns(module.getOps<func::FuncOp>());
    for (func::FuncOp fn : fns)
      scratchFunction(fn, symbols);
  }

  void scratchFunction(func::FuncOp fn, SymbolTable &symbols) {
    if (fn.isExternal() || !fn.getBody().hasOneBlock())
      return;
    SmallVector<memref::AllocOp> allocs;
    fn.walk([&](memref::AllocOp op) {
      if (isOwnTemporary(op))
        allocs.push_back(op);
    });
    if (allocs.empty())
      return;
    FailureOr<BufferLayout> layout =
        layOutBuffers(allocs, /*emitErrors=*/false);
    if (failed(layout))
      return;
    int64_t bytes = layout->total + kBufferAlign;
    if (bytes > maxBytes)
      return;

    MLIRContext *ctx = fn.getContext();
    Location loc = fn.getLoc();
    OpBuilder b(ctx);
    // The module's scratch area and its busy flag (zero pages until used).
    auto regionType = MemRefType::get({bytes}, b.getI8Type());
    auto flagType = MemRefType::get({1}, b.getI32Type());
    b.setInsertionPoint(fn);
    auto scratch = memref::GlobalOp::create(
        b, loc, ("__tensorop_scratch_" + fn.getSymName()).str(),
        b.getStringAttr("private"), regionType, b.getUnitAttr(),
        /*constant=*/false, b.getI64IntegerAttr(kBufferAlign));
    symbols.insert(scratch);
    auto busy = memref::GlobalOp::create(
        b, loc, ("__tensorop_scratch_busy_" + fn.getSymName()).str(),
        b.getStringAttr("private"), flagType,
        DenseElementsAttr::get(RankedTensorType::get({1}, b.getI32Type()),
                               b.getI32IntegerAttr(0).getValue()),
        /*constant=*/false, /*alignment=*/nullptr);
    symbols.insert(busy);

    // Claim the area, or allocate when another call holds it.
    b.setInsertionPointToStart(&fn.getBody().front());
    Value flag =
        memref::GetGlobalOp::create(b, loc, flagType, busy.getSymName());
    Value c0 = arith::ConstantIndexOp::create(b, loc, 0);
    Value one = arith::ConstantIntOp::create(b, loc, 1, 32);
    Value zero = arith::ConstantIntOp::create(b, loc, 0, 32);
    Value old = memref::AtomicRMWOp::create(
        b, loc, arith::AtomicRMWKind::assign, one, flag, ValueRange{c0});
    Value own =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, old, zero);
    auto pick = scf::IfOp::create(b, loc, TypeRange{regionType}, own,
                                  /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(pick.thenBlock());
      Value area = memref::GetGlobalOp::create(b, loc, regionType,
                                               scratch.getSymName());
      scf::YieldOp::create(b, loc, area);
      b.setInsertionPointToStart(pick.elseBlock());
      Value fresh = memref::AllocOp::create(
          b, loc, regionType, b.getI64IntegerAttr(kBufferAlign));
      scf::YieldOp::create(b, loc, fresh);
    }
    Value region = pick.getResult(0);
    bindBuffers(b, loc, region, *layout);

    // Release it (or free the fresh one) before returning.
    Operation *ret = fn.getBody().front().getTerminator();
    b.setInsertionPoint(ret);
    auto release = scf::IfOp::create(b, loc, TypeRange{}, own,
                                     /*withElseRegion=*/true);
    b.setInsertionPointToStart(release.thenBlock());
    memref::AtomicRMWOp::create(b, loc, arith::AtomicRMWKind::assign, zero,
                                flag, ValueRange{c0});
    b.setInsertionPointToStart(release.elseBlock());
    memref::DeallocOp::create(b, loc, region);
  }
};
} // namespace

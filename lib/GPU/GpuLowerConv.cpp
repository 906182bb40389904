//===- GpuLowerConv.cpp - linalg.conv_2d_nhwc_hwcf -> implicit-GEMM kernel ===//
//
// tensorop-gpu-lower-conv: each NHWC/HWCF convolution on device memory
// becomes a gpu.launch_func of the wgmma GEMM kernel whose A operand is the
// im2col view of the input, loaded by TMA in im2col mode (no buffer): the
// sketch is the GEMM's (#tensorop.gpu_sketch), the geometry goes to the
// emitter as its "conv" field. Two input forms:
//
//   memrefs   linalg.fill 0 -> %out (optional: else the kernel accumulates)
//             linalg.conv_2d_nhwc_hwcf ins(%in, %flt) outs(%out)
//   tensors   (what `tensorop gen` writes: padding needs a tensor.pad)
//             %i = bufferization.to_tensor %in; %p = tensor.pad %i (zero)
//             %f = bufferization.to_tensor %flt
//             %z = linalg.fill 0 -> tensor.empty
//             %r = linalg.conv_2d_nhwc_hwcf ins(%p, %f) outs(%z)
//             bufferization.materialize_in_destination %r in %out
//
// It runs before bufferization so that the padding never becomes a padded
// copy of the input: TMA's zero fill is the padding.
//
//===----------------------------------------------------------------------===//

#include "CheckedGpuPassOptions.h"
#include "GpuKernelLaunch.h"

#include "tensorop/Advisor/SketchDatabase.h"
#include "tensorop/Dialect/TensorOpDialect.h"
#include "tensorop/GPU/GpuAdvisor.h"
#include "tensorop/GPU/GpuTunedSketch.h"
#include "tensorop/GPU/Passes.h"
#include "tensorop/Transforms/GpuMatmulSupport.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Pass/Pass.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlir::tensorop {
#define GEN_PASS_DECL_TENSOROPGPULOWERCONV
#define GEN_PASS_DEF_TENSOROPGPULOWERCONV
#include "GpuPasses.h.inc"
} // namespace mlir::tensorop

using namespace mlir;
using namespace mlir::tensorop;

namespace {

/// Whether `v` is a floating-point zero constant.
bool isZeroConstant(Value v) {
  FloatAttr f;
  return matchPattern(v, m_Constant(&f)) && f.getValue().isZero();
}

/// The operands of one convolution as the kernel sees them, and the ops that
/// go away with it.
struct ConvOperands {
  Value input, filter, output; ///< memrefs (device memory)
  SmallVector<int64_t, 4> padding = {0, 0, 0, 0}; ///< top, left, bottom, right
  bool accumulate = false;
  SmallVector<Operation *> erase; ///< users first
};

/// The memref behind a bufferization.to_tensor, or null.
Value memrefBehind(Value tensor) {
  auto toTensor = tensor.getDefiningOp<bufferization::ToTensorOp>();
  return toTensor ? toTensor.getBuffer() : Value();
}

/// The memref form, or the tensor form `tensorop gen` writes; a failure says
/// why the conv is not one of them.
FailureOr<ConvOperands> matchConvForm(linalg::Conv2DNhwcHwcfOp op,
                                      std::string &reason) {
  ConvOperands o;
  Value in = op.getDpsInputOperand(0)->get();
  Value flt = op.getDpsInputOperand(1)->get();
  Value out = op.getDpsInitOperand(0)->get();
  if (op.hasPureBufferSemantics()) {
    o.input = in;
    o.filter = flt;
    o.output = out;
    o.accumulate = true;
    if (auto fill = dyn_cast_or_null<linalg::FillOp>(op->getPrevNode()))
      if (fill.getOutputs().size() == 1 && fill.getOutputs()[0] == out &&
          isZeroConstant(fill.getInputs()[0])) {
        o.accumulate = false;
        o.erase.push_back(fill);
      }
    o.erase.insert(o.erase.begin(), op);
    return o;
  }
  reason = "a linalg.conv_2d_nhwc_hwcf on tensors must be the form `tensorop "
           "gen` writes: bufferization.to_tensor of the input (optionally "
           "zero-padded by tensor.pad) and filter memrefs, a zero-filled "
           "tensor.empty as output, the result materialized into the output "
           "memref";
  if (!op->hasOneUse())
    return failure();
  auto store =
      dyn_cast<bufferization::MaterializeInDestinationOp>(*op->user_begin());
  if (!store || !isa<MemRefType>(store.getDest().getType()))
    return failure();
  auto fill = out.getDefiningOp<linalg::FillOp>();
  if (!fill || !fill->hasOneUse() || !isZeroConstant(fill.getInputs()[0]) ||
      !fill.getOutputs()[0].getDefiningOp<tensor::EmptyOp>())
    return failure();
  o.output = store.getDest();
  o.filter = memrefBehind(flt);
  if (auto pad = in.getDefiningOp<tensor::PadOp>()) {
    Value yielded = pad.getConstantPaddingValue();
    if (!yielded || !isZeroConstant(yielded))
      return failure();
    ArrayRef<int64_t> low = pad.getStaticLow(), high = pad.getStaticHigh();
    if (low.size() != 4 || high.size() != 4 || low[0] || low[3] || high[0] ||
        high[3] || ShapedType::isDynamic(low[1]) ||
        ShapedType::isDynamic(low[2]) || ShapedType::isDynamic(high[1]) ||
        ShapedType::isDynamic(high[2]) || !pad->hasOneUse())
      return failure();
    o.padding = {low[1], low[2], high[1], high[2]};
    o.input = memrefBehind(pad.getSource());
    o.erase.push_back(pad);
  } else {
    o.input = memrefBehind(in);
  }
  if (!o.input || !o.filter)
    return failure();
  o.erase.insert(o.erase.begin(), {store.getOperation(), op.getOperation()});
  o.erase.push_back(fill);
  o.erase.push_back(fill.getOutputs()[0].getDefiningOp());
  return o;
}

struct GpuLowerConvPass
    : public CheckedGpuPassOptions<
          tensorop::impl::TensorOpGpuLowerConvBase<GpuLowerConvPass>> {
  using CheckedGpuPassOptions::CheckedGpuPassOptions;

  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    registerTensorOpGpuTranslations(registry);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<linalg::Conv2DNhwcHwcfOp> convs;
    module.walk([&](linalg::Conv2DNhwcHwcfOp op) { convs.push_back(op); });
    if (convs.empty())
      return;
    llvm::Expected<GpuTarget> gpuTarget = loadGpuTarget(target, hintsDir);
    if (!gpuTarget) {
      convs.front().emitError() << llvm::toString(gpuTarget.takeError());
      return signalPassFailure();
    }
    if (advisor != "builtin") {
      convs.front().emitError()
          << "advisor '" << advisor
          << "' is not available for convolutions on NVIDIA targets (use "
             "'builtin' or a #tensorop.gpu_sketch on the conv)";
      return signalPassFailure();
    }
    std::unique_ptr<SketchDatabase> tuned; // db=, when given
    if (!db.empty()) {
      llvm::Expected<std::unique_ptr<SketchDatabase>> opened =
          openGpuSketchDatabase(db, &getContext());
      if (!opened) {
        convs.front().emitError()
            << "tensorop: " << llvm::toString(opened.takeError());
        return signalPassFailure();
      }
      tuned = std::move(*opened);
    }
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    UnitAttr::get(&getContext()));
    for (linalg::Conv2DNhwcHwcfOp op : convs)
      if (failed(lower(op, *gpuTarget, tuned.get())))
        return signalPassFailure();
  }

  LogicalResult lower(linalg::Conv2DNhwcHwcfOp op, const GpuTarget &t,
                      SketchDatabase *tuned);
  unsigned counter = 0;
};
} // namespace

LogicalResult GpuLowerConvPass::lower(linalg::Conv2DNhwcHwcfOp op,
                                      const GpuTarget &t,
                                      SketchDatabase *tuned) {
  std::string reason;
  FailureOr<ConvOperands> form = matchConvForm(op, reason);
  if (failed(form))
    return op.emitError(reason);
  FailureOr<GpuGemmProblem> matched = matchGpuConv(op, form->padding, reason);
  if (failed(matched))
    return op.emitError(reason);
  GpuGemmProblem p = *matched;
  p.accumulate = form->accumulate;
  for (Value v : {form->input, form->filter, form->output}) {
    auto m = dyn_cast<MemRefType>(v.getType());
    if (!m || !m.hasStaticShape() || !m.getLayout().isIdentity())
      return op.emitError("NVIDIA targets take convolutions on static, "
                          "contiguous memrefs (device memory)");
  }

  GpuSketchChoice sketch;
  if (Attribute given = op->getAttr(kGpuSketchAttrName)) {
    auto attr = dyn_cast<GpuSketchAttr>(given);
    if (!attr)
      return op.emitError() << "'" << kGpuSketchAttrName
                            << "' must be a #tensorop.gpu_sketch, got "
                            << given;
    if (attr.getTarget().getName() != t.hints.name)
      return op.emitError() << "the conv's #tensorop.gpu_sketch is for target '"
                            << attr.getTarget().getName() << "', not '"
                            << t.hints.name << "'";
    sketch = GpuSketchChoice::fromAttr(attr);
  } else {
    FailureOr<std::optional<GpuSketchChoice>> fromDb =
        std::optional<GpuSketchChoice>();
    if (tuned)
      fromDb = lookupTunedGpuSketch(op, *tuned, p, t);
    if (failed(fromDb))
      return failure();
    if (*fromDb) {
      sketch = **fromDb;
    } else {
      llvm::Expected<GpuSketchChoice> proposed = proposeGpuSketch(p, t);
      if (!proposed)
        return op.emitError() << "no NVIDIA kernel for this convolution: "
                              << llvm::toString(proposed.takeError());
      sketch = *proposed;
    }
  }
  if (llvm::Error e = checkGpuSketch(sketch, p, t))
    return op.emitError() << "illegal sketch for " << t.hints.name << ": "
                          << llvm::toString(std::move(e));
  GpuSketchAttr sketchAttr = sketch.toAttr(op.getContext(), t);

  auto func = op->getParentOfType<FunctionOpInterface>();
  std::string base = func ? func.getName().str() : "tensorop";
  unsigned index = counter++;
  std::string kernelName =
      index == 0 ? base + "_conv_kernel"
                 : llvm::formatv("{0}_conv_kernel{1}", base, index).str();
  if (failed(emitGpuKernelLaunch(op, sketch, sketchAttr, p, t, form->input,
                                 form->filter, form->output,
                                 GpuEpilogueOperands(), kernelName,
                                 emitterDir, emitterTimeout)))
    return failure();
  for (Operation *dead : form->erase)
    dead->erase();
  return success();
}

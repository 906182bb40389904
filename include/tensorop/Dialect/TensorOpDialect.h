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

#include <optional>
#include <string>

#include "tensorop/Dialect/TensorOpDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "tensorop/Dialect/TensorOpAttrs.h.inc"

#define GET_OP_CLASSES
#include "tensorop/Dialect/TensorOpOps.h.inc"

namespace mlir::tensorop {
/// Name of the discardable attribute that carries a sketch on a linalg op
/// (a #tensorop.sketch on a matmul, a #tensorop.conv_sketch on a convolution).
constexpr llvm::StringLiteral kSketchAttrName = "tensorop.sketch";
/// Unit attribute tensorop-decompose-batch-matmul leaves on a batch matmul
/// it could not rewrite (after a remark saying why), so later passes do not
/// remark on it again.
constexpr llvm::StringLiteral kBatchNotHandledAttrName =
    "tensorop.batch_not_handled";

/// Vector registers a register block of `mr` x `nr` f32 needs on `target`
/// (a target name such as "x86-avx512") with `lanes` f32 lanes per register,
/// by the rule of the target's emitter (which refuses a block past it):
///  - x86: mr*nv accumulators + nv B vectors + 1 broadcast register
///    (nv = ceil(nr / lanes));
///  - arm-neon: the same, but A is loaded as whole vectors of 4 rows and a
///    row remainder of 3 as two loads (8 + 4 bytes): mr/4 + {0,1,1,2}[mr%4];
///  - riscv-rvv: registers come in groups of LMUL (the smallest of 1, 2, 4,
///    8 with LMUL*lanes >= nr): (mr accumulator groups + 1 B group) * LMUL;
///    an nr past 8*lanes has no LMUL and needs more than any register file.
int64_t registerBlockVectorRegisters(int64_t mr, int64_t nr, int64_t lanes,
                                     llvm::StringRef target);

/// Name of the discardable attribute that carries a GPU sketch on a linalg
/// op (and, after the lowering, on its gpu.func and gpu.launch_func).
constexpr llvm::StringLiteral kGpuSketchAttrName = "tensorop.gpu_sketch";

/// The fields of a #tensorop.gpu_sketch that its own rules read (the typed
/// GpuSketchChoice of the NVIDIA advisor fills one too).
struct GpuSketchFields {
  llvm::StringRef kernel, precision;
  int64_t blockM, blockN, blockK, warpsM, warpsN, consumers, stages, groupM,
      ctas, clusterM, clusterN;
  /// How C is stored: "global" or "smem_tma".
  llvm::StringRef store = "global";
  int64_t splitK = 1;
};

/// One rule of a GPU sketch broken: the field it names and why.
struct GpuSketchViolation {
  llvm::StringRef field;
  std::string why;
};

/// The rules a GPU sketch obeys whatever GEMM it is applied to, on a target
/// of compute capability `sm` (80, 90): kernel family and precision,
/// family vs target, tile divisibility by the warp layout or warpgroups,
/// stages, tile-order group, cluster shape. The #tensorop.gpu_sketch
/// verifier and checkGpuSketch (which adds the problem's own rules) both
/// use it. std::nullopt when the sketch obeys them all.
std::optional<GpuSketchViolation>
findGpuSketchViolation(const GpuSketchFields &sketch, int64_t sm);

/// About how many registers a thread of the GEMV kernel
/// (python_emitters/nvidia_gemv.py) needs: its sums (8 columns of a 2-byte
/// type, 4 of f32/tf32, per row), the A and B chunks of `blockK` rows, and
/// ~30 more.
int64_t gemvThreadRegisters(llvm::StringRef precision, int64_t blockM,
                            int64_t blockK);

/// The compute capability of an NVIDIA target's chip ("sm_90a" -> 90),
/// std::nullopt for anything else.
std::optional<int64_t> gpuComputeCapability(llvm::StringRef chip);
} // namespace mlir::tensorop

#endif // TENSOROP_DIALECT_TENSOROPDIALECT_H

//===- Microkernels.h - The microkernels a lowered module runs --*- C++ -*-===//
//
// gen's reports name the microkernels the object really runs, read from the
// lowered module's inline assembly, not from the sketch: the sketch names
// the emitter script (`x86_gemm_fma` writes both the fp32 FMA kernel and the
// bf16 vdpbf16ps one), so a bf16 report that showed only the sketch read as
// an fp32 FMA kernel.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_DRIVER_MICROKERNELS_H
#define TENSOROP_DRIVER_MICROKERNELS_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/JSON.h"

#include <string>
#include <vector>

namespace tensorop {
/// One distinct microkernel spliced into a module as inline assembly.
struct MicrokernelInfo {
  /// The emitter's kernel name, e.g. x86_avx512_bf16_4x64_u4_explicit.
  std::string name;
  std::string description; ///< the rest of its first comment line
  /// The multiply-accumulate instructions its code contains, in the order
  /// first seen (vfmadd231ps, vdpbf16ps, fmla, vfmacc.vf, ...). The first
  /// is the product's: every emitter writes the K loop before the store
  /// path, where a fused epilogue's polynomial (GELU's vfmadd213ps) comes.
  std::vector<std::string> multiplyAccumulate;
};

/// The distinct microkernels of `module` (LLVM dialect), in the order first
/// seen: each `llvm.inline_asm` whose first line is the emitters' comment
/// "NAME: description" ('#' or '//' comments). Kernels sharing a name are
/// listed once.
std::vector<MicrokernelInfo> listMicrokernels(mlir::ModuleOp module);

/// report.json's `microkernels`: one object per kernel.
llvm::json::Array microkernelsJson(llvm::ArrayRef<MicrokernelInfo> kernels);

/// One line for stdout: "NAME (vdpbf16ps), NAME2 (vfmadd231ps; also
/// vfmadd213ps)", or "none (no inline-assembly microkernel)".
std::string microkernelsLine(llvm::ArrayRef<MicrokernelInfo> kernels);

/// report.md's paragraph: one bullet per kernel with its description.
std::string microkernelsMarkdown(llvm::ArrayRef<MicrokernelInfo> kernels);
} // namespace tensorop

#endif

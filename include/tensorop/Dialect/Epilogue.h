//===- Epilogue.h - Steps of a fused GEMM epilogue --------------*- C++ -*-===//
//
// The steps a #tensorop.epilogue lists, typed. The text form ("bias_n",
// "scale(0.5)", "clamp(0, 6)") is what the attribute holds and what the
// emitters' spec field "epilogue" takes (python_emitters/tensorop_emit/
// epilogue.py parses the same strings); the double evaluation here is the
// reference the pattern matcher and gen's verification compare against.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_DIALECT_EPILOGUE_H
#define TENSOROP_DIALECT_EPILOGUE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace mlir::tensorop {

struct EpilogueStep {
  enum Kind {
    BiasN,
    BiasM,
    Residual,
    Scale,
    Clamp,
    Relu,
    Tanh,
    Sigmoid,
    Silu,
    GeluTanh,
    GeluErf,
    /// The last step only: round x (fp32) to nearest even in bf16 / f16
    /// and write it to the output, which then has that type while the
    /// matmul's C stays fp32 (x86 AVX-512 only; docs/Epilogues.md).
    ToBF16,
    ToF16
  };
  Kind kind;
  double a = 0, b = 0; ///< scale: a; clamp: [a, b].

  /// The text form, e.g. "clamp(0, 6)" (arguments printed to round-trip f32).
  std::string text() const;
  /// Steps without operands: x -> f(x).
  bool isUnary() const {
    return kind != BiasN && kind != BiasM && kind != Residual && !isOutput();
  }
  /// The step that narrows the stored output (to_bf16, to_f16).
  bool isOutput() const { return kind == ToBF16 || kind == ToF16; }
  /// f(x) for a unary step, in double.
  double apply(double x) const;
};

/// The step names, in the order of EpilogueStep::Kind.
llvm::ArrayRef<llvm::StringLiteral> epilogueStepNames();

/// Parses one step's text; nullopt with `why` set if it is not one.
std::optional<EpilogueStep> parseEpilogueStep(llvm::StringRef text,
                                              std::string &why);

/// Parses every step of `texts` into `steps`, in order; false with `why`
/// set (parseEpilogueStep's reason) at the first that is not one. The list
/// as a whole is checkEpilogueSteps' job.
bool parseEpilogueSteps(llvm::ArrayRef<std::string> texts,
                        llvm::SmallVectorImpl<EpilogueStep> &steps,
                        std::string &why);

/// Checks a list of steps as a whole (non-empty, at most one bias, at most
/// one residual, an output step only last); "" if fine, else why not.
std::string checkEpilogueSteps(llvm::ArrayRef<EpilogueStep> steps);

/// Whether the microkernel `emitter` (a sketch's ukernel emitter) takes the
/// epilogue steps in its store path: the shipped x86, RVV and NEON fp32 GEMM
/// emitters and the NVIDIA tensor-core kernels (nvidia_gemm_wgmma,
/// nvidia_gemm_mma).
bool emitterAppliesEpilogues(llvm::StringRef emitter);
/// Whether the NVIDIA kernel family `kernel` (a #tensorop.gpu_sketch's
/// `kernel`: wgmma, mma_sync, ffma) applies epilogue steps.
bool gpuKernelAppliesEpilogues(llvm::StringRef kernel);

/// The element type an output step writes ("bf16", "f16"), or "" when
/// the last step is none (the output is C's type).
llvm::StringRef epilogueOutputType(llvm::ArrayRef<EpilogueStep> steps);

/// Rounds `x` to the nearest bf16 / f16 value (ties to even, through fp32
/// as the kernels round: vcvtneps2bf16, vcvtps2ph).
double roundToBF16(double x);
double roundToF16(double x);

/// y = steps(x) with the operands of the operand steps, in double (an
/// output step rounds as the kernel does).
double applyEpilogue(llvm::ArrayRef<EpilogueStep> steps, double x, double bias,
                     double residual);

} // namespace mlir::tensorop

#endif // TENSOROP_DIALECT_EPILOGUE_H

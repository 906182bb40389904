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
    GeluErf
  };
  Kind kind;
  double a = 0, b = 0; ///< scale: a; clamp: [a, b].

  /// The text form, e.g. "clamp(0, 6)" (arguments printed to round-trip f32).
  std::string text() const;
  /// Steps without operands: x -> f(x).
  bool isUnary() const { return kind != BiasN && kind != BiasM && kind != Residual; }
  /// f(x) for a unary step, in double.
  double apply(double x) const;
};

/// The step names, in the order of EpilogueStep::Kind.
llvm::ArrayRef<llvm::StringLiteral> epilogueStepNames();

/// Parses one step's text; nullopt with `why` set if it is not one.
std::optional<EpilogueStep> parseEpilogueStep(llvm::StringRef text,
                                              std::string &why);

/// Checks a list of steps as a whole (non-empty, at most one bias, at most
/// one residual); "" if fine, else why not.
std::string checkEpilogueSteps(llvm::ArrayRef<EpilogueStep> steps);

/// Whether the microkernel `emitter` (a sketch's ukernel emitter) takes the
/// epilogue steps in its store path: the shipped x86, RVV and NEON fp32 GEMM
/// emitters and the NVIDIA tensor-core kernels (nvidia_gemm_wgmma,
/// nvidia_gemm_mma).
bool emitterAppliesEpilogues(llvm::StringRef emitter);
/// Whether the NVIDIA kernel family `kernel` (a #tensorop.gpu_sketch's
/// `kernel`: wgmma, mma_sync, ffma) applies epilogue steps.
bool gpuKernelAppliesEpilogues(llvm::StringRef kernel);

/// y = steps(x) with the operands of the operand steps, in double.
double applyEpilogue(llvm::ArrayRef<EpilogueStep> steps, double x, double bias,
                     double residual);

} // namespace mlir::tensorop

#endif // TENSOROP_DIALECT_EPILOGUE_H

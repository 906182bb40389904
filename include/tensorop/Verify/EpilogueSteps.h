//===- EpilogueSteps.h - Fused-epilogue steps in fp64, LLVM-free -*- C++ -*-===//
//
// The reference side of a fused GEMM epilogue for tools that link no LLVM
// (tensorop-gpu-runner on the GPU machine): the step texts of
// #tensorop.epilogue and the emitters' "epilogue" field ("bias_n", "relu",
// "scale(0.5)", "clamp(0, 6)", ...) parsed and applied in double. The
// compiler's own typed steps are lib/Dialect/Epilogue.cpp (which needs
// LLVM); both follow docs/Epilogues.md's table (change them together).
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_VERIFY_EPILOGUESTEPS_H
#define TENSOROP_VERIFY_EPILOGUESTEPS_H

#include <string>
#include <vector>

namespace tensorop {

struct EpilogueRefStep {
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
  Kind kind = Relu;
  double a = 0, b = 0; ///< scale: a; clamp: [a, b]
};

/// The steps of `texts`; "" or what is wrong (unknown step, arguments,
/// more than one bias or residual).
std::string parseEpilogueRefSteps(const std::vector<std::string> &texts,
                                  std::vector<EpilogueRefStep> &steps);

/// x after the steps, with this element's bias and residual values.
double applyEpilogueRef(const std::vector<EpilogueRefStep> &steps, double x,
                        double bias, double residual);

/// The largest factor by which the steps can stretch an error in x (their
/// slope, bounded: GELU's is below 1.13, SiLU's below 1.1, the others' 1,
/// a scale's |s|), times 1.2.
double epilogueRefSlope(const std::vector<EpilogueRefStep> &steps);

} // namespace tensorop

#endif // TENSOROP_VERIFY_EPILOGUESTEPS_H

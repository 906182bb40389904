//===- EpilogueRequest.cpp - "... with bias and ReLU" in a GEMM request ---===//
//
// The epilogue words of a GEMM request, in the order written: "bias" (a
// bias along N, one per output column; "row bias", "per-row bias" or "bias
// per row": along M, one per output row), "relu", "relu6" (clamp to
// [0, 6]), "gelu" (the erf form, as PyTorch's default), "gelu-tanh",
// "silu"/"swish", "sigmoid", "tanh" and "residual" (an M x N tensor added).
// They are taken out of the request's words; every other epilogue-like word
// ("clamp", "softmax", ...) stays and is refused by name by checkGemmWords.
//
//===----------------------------------------------------------------------===//

#include "tensorop/Advisor/Request.h"

#include "llvm/ADT/StringSwitch.h"

using namespace llvm;

StringRef mlir::tensorop::epilogueStepOfWord(StringRef w) {
  return StringSwitch<StringRef>(w)
      .Case("bias", "bias_n")
      .Case("relu", "relu")
      .Case("relu6", "clamp(0, 6)")
      .Cases({"gelu", "gelu-erf"}, "gelu_erf")
      .Case("gelu-tanh", "gelu_tanh")
      .Cases({"silu", "swish"}, "silu")
      .Case("sigmoid", "sigmoid")
      .Case("tanh", "tanh")
      .Case("residual", "residual")
      .Default("");
}

void mlir::tensorop::takeEpilogueWords(SmallVectorImpl<StringRef> &tokens,
                                       std::vector<std::string> &steps) {
  SmallVector<StringRef> kept;
  for (size_t i = 0; i < tokens.size(); ++i) {
    StringRef w = tokens[i];
    auto next = [&](size_t d) {
      return i + d < tokens.size() ? tokens[i + d] : StringRef();
    };
    // A bias along M: "row bias", "per-row bias", "bias per row".
    if ((w == "row" || w == "per-row") && next(1) == "bias") {
      steps.push_back("bias_m");
      ++i;
      continue;
    }
    if (w == "bias" && next(1) == "per" && next(2) == "row") {
      steps.push_back("bias_m");
      i += 2;
      continue;
    }
    StringRef step = epilogueStepOfWord(w);
    if (step.empty())
      kept.push_back(w);
    else
      steps.push_back(step.str());
  }
  tokens.assign(kept.begin(), kept.end());
}

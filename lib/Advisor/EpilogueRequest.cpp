//===- EpilogueRequest.cpp - "... with bias and ReLU" in a GEMM request ---===//
//
// The epilogue words of a GEMM request, in the order written: "bias" (a
// bias along N, one per output column; "row bias", "per-row bias" or "bias
// per row": along M, one per output row), "relu", "relu6" (clamp to
// [0, 6]), "gelu" (the erf form, as PyTorch's default), "gelu-tanh",
// "silu"/"swish", "sigmoid", "tanh" and "residual" (an M x N tensor added).
// Steps with numbers are phrases read before the words: "scale 0.5",
// "scaled by 2" (scale(s): x *= s, after the steps before it, unlike
// NAME_ex's alpha), "clamp to [-1, 1]", "clamp(-1, 1)", "clamped between 0
// and 6" (clamp(lo, hi)). They are taken out of the request's words; every
// other epilogue-like word ("softmax", "clamp" without its bounds, ...)
// stays and is refused by name by checkGemmWords.
//
//===----------------------------------------------------------------------===//

#include "tensorop/Advisor/Request.h"

#include "tensorop/Dialect/Epilogue.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Regex.h"

using namespace llvm;

/// The placeholder word of the I-th numbered step in the request's text.
static std::string placeholder(size_t i) {
  return "epilogue-step-" + std::to_string(i);
}

std::string
mlir::tensorop::takeEpilogueNumberPhrases(std::string &lower,
                                          std::vector<std::string> &steps) {
  static const char *num =
      "(-?[0-9]+(\\.[0-9]*)?([e][-+]?[0-9]+)?|-?\\.[0-9]+)";
  Regex scale(std::string("(scaled|scaling|scale)( +by)?( *[=:])? *") + num);
  Regex clamp(std::string("(clamped|clamping|clamp|clipped|clip)( +(to|"
                          "between|in|into))?( *[=:])? *[[(]? *") +
              num + " *(,|and|to|\\.\\.) *" + num + " *[])]?");
  // Phrases in the order written: repeatedly the earliest match of either.
  while (true) {
    SmallVector<StringRef, 12> ms, mc;
    bool hasScale = scale.match(lower, &ms), hasClamp = clamp.match(lower, &mc);
    if (!hasScale && !hasClamp)
      return "";
    bool isScale = hasScale && (!hasClamp || ms[0].data() < mc[0].data());
    StringRef phrase = isScale ? ms[0] : mc[0];
    std::string text =
        isScale ? "scale(" + ms[4].str() + ")"
                : "clamp(" + mc[5].str() + ", " + mc[9].str() + ")";
    std::string why;
    std::optional<EpilogueStep> step = parseEpilogueStep(text, why);
    // (A number out of the fp32 range is refused there: 1e40 passed once
    // and became inf in the kernel, which then failed verification.)
    if (!step)
      return "the request's '" + phrase.trim().str() + "': " + why;
    size_t at = phrase.data() - lower.data(), size = phrase.size();
    std::string word = " " + placeholder(steps.size()) + " ";
    steps.push_back(step->text());
    lower.replace(at, size, word);
  }
}

StringRef mlir::tensorop::epilogueStepOfWord(StringRef w) {
  return StringSwitch<StringRef>(w)
      .Case("bias", "bias_n")
      .Case("relu", "relu")
      .Case("relu6", "clamp(0, 6)")
      .Cases({"gelu", "gelu-erf", "gelu_erf"}, "gelu_erf")
      .Cases({"gelu-tanh", "gelu_tanh"}, "gelu_tanh")
      .Cases({"silu", "swish"}, "silu")
      .Case("sigmoid", "sigmoid")
      .Case("tanh", "tanh")
      .Case("residual", "residual")
      .Default("");
}

void mlir::tensorop::takeEpilogueWords(
    SmallVectorImpl<StringRef> &tokens, std::vector<std::string> &steps,
    ArrayRef<std::string> numberedSteps) {
  SmallVector<StringRef> kept;
  for (size_t i = 0; i < tokens.size(); ++i) {
    StringRef w = tokens[i];
    if (w.consume_front("epilogue-step-")) {
      size_t index;
      if (!w.getAsInteger(10, index) && index < numberedSteps.size()) {
        steps.push_back(numberedSteps[index]);
        continue;
      }
      w = tokens[i];
    }
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

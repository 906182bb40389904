//===- Epilogue.cpp - Steps of a fused GEMM epilogue ----------------------===//

#include "tensorop/Dialect/Epilogue.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <cstdint>
#include <cstring>

using namespace llvm;
using namespace mlir::tensorop;

ArrayRef<StringLiteral> mlir::tensorop::epilogueStepNames() {
  static constexpr StringLiteral kNames[] = {
      "bias_n", "bias_m",  "residual", "scale",     "clamp",   "relu",
      "tanh",   "sigmoid", "silu",     "gelu_tanh", "gelu_erf",
      "to_bf16", "to_f16"};
  return kNames;
}

static unsigned arity(EpilogueStep::Kind kind) {
  return kind == EpilogueStep::Scale ? 1 : kind == EpilogueStep::Clamp ? 2 : 0;
}

std::string EpilogueStep::text() const {
  std::string name = epilogueStepNames()[kind].str();
  // %.9g round-trips every f32 value.
  auto num = [](double v) { return llvm::formatv("{0}", llvm::format("%.9g", v)).str(); };
  if (arity(kind) == 1)
    return name + "(" + num(a) + ")";
  if (arity(kind) == 2)
    return name + "(" + num(a) + ", " + num(b) + ")";
  return name;
}

/// Whether `v` rounds to a finite f32 (to nearest even, as the emitters
/// write the constants). APFloat, not a cast: a double beyond the float
/// range cast to float is undefined behaviour.
static bool fitsF32(double v) {
  APFloat f(v);
  bool losesInfo = false;
  APFloat::opStatus status = f.convert(
      APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven, &losesInfo);
  return !(status & APFloat::opOverflow);
}

static double sigmoid(double x) { return 1 / (1 + std::exp(-x)); }

double EpilogueStep::apply(double x) const {
  switch (kind) {
  case Scale:
    return x * a;
  case Clamp:
    return std::min(std::max(x, a), b);
  case Relu:
    return x > 0 ? x : 0;
  case Tanh:
    return std::tanh(x);
  case Sigmoid:
    return sigmoid(x);
  case Silu:
    return x * sigmoid(x);
  case GeluTanh:
    return 0.5 * x *
           (1 + std::tanh(std::sqrt(2 / M_PI) * (x + 0.044715 * x * x * x)));
  case GeluErf:
    return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0)));
  case ToBF16:
    return roundToBF16(x);
  case ToF16:
    return roundToF16(x);
  case BiasN:
  case BiasM:
  case Residual:
    break;
  }
  return x;
}

double mlir::tensorop::roundToBF16(double x) {
  float f = float(x);
  if (std::isnan(f))
    return f;
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  // Round to nearest, ties to even, on the 16 bits that go (an overflow
  // carries into the exponent and gives infinity, as vcvtneps2bf16 does).
  bits += 0x7fff + ((bits >> 16) & 1);
  bits &= 0xffff0000u;
  std::memcpy(&f, &bits, 4);
  return f;
}

double mlir::tensorop::roundToF16(double x) {
  return double(_Float16(float(x)));
}

StringRef mlir::tensorop::epilogueOutputType(ArrayRef<EpilogueStep> steps) {
  if (steps.empty() || !steps.back().isOutput())
    return "";
  return steps.back().kind == EpilogueStep::ToBF16 ? "bf16" : "f16";
}

std::optional<EpilogueStep>
mlir::tensorop::parseEpilogueStep(StringRef text, std::string &why) {
  StringRef name = text.take_until([](char c) { return c == '('; }).trim();
  const auto *it = llvm::find(epilogueStepNames(), name);
  if (it == epilogueStepNames().end()) {
    why = ("unknown epilogue step '" + text + "' (known: " +
           join(epilogueStepNames(), ", ") + ")")
              .str();
    return std::nullopt;
  }
  EpilogueStep step{EpilogueStep::Kind(it - epilogueStepNames().begin())};
  SmallVector<double, 2> args;
  StringRef rest = text.drop_front(text.find('(') == StringRef::npos
                                       ? text.size()
                                       : text.find('('));
  if (!rest.empty()) {
    if (!rest.consume_front("(") || !rest.consume_back(")")) {
      why = ("epilogue step '" + text + "': arguments go in one (...)").str();
      return std::nullopt;
    }
    SmallVector<StringRef> parts;
    rest.split(parts, ',');
    for (StringRef p : parts) {
      double v;
      if (p.trim().getAsDouble(v) || !std::isfinite(v)) {
        why = ("epilogue step '" + text + "': '" + p.trim() +
               "' is not a finite number")
                  .str();
        return std::nullopt;
      }
      // Every kernel computes the steps in fp32 (the accumulators' type;
      // a 16-bit C is rounded once, after the last step): a number finite
      // as a double but not as an f32 became inf in the kernel.
      if (!fitsF32(v)) {
        why = ("epilogue step '" + text + "': '" + p.trim() +
               "' is out of range for f32, the type the epilogue computes "
               "in (at most 3.4e38 in magnitude)")
                  .str();
        return std::nullopt;
      }
      args.push_back(v);
    }
  }
  if (args.size() != arity(step.kind)) {
    why = formatv("epilogue step '{0}' takes {1} argument(s), got {2}", text,
                  arity(step.kind), args.size())
              .str();
    return std::nullopt;
  }
  if (!args.empty())
    step.a = args[0];
  if (args.size() > 1)
    step.b = args[1];
  if (step.kind == EpilogueStep::Clamp && step.a > step.b) {
    why = ("epilogue step '" + text + "': lo > hi").str();
    return std::nullopt;
  }
  return step;
}

bool mlir::tensorop::parseEpilogueSteps(ArrayRef<std::string> texts,
                                        SmallVectorImpl<EpilogueStep> &steps,
                                        std::string &why) {
  for (const std::string &text : texts) {
    std::optional<EpilogueStep> step = parseEpilogueStep(text, why);
    if (!step)
      return false;
    steps.push_back(*step);
  }
  return true;
}

std::string mlir::tensorop::checkEpilogueSteps(ArrayRef<EpilogueStep> steps) {
  if (steps.empty())
    return "an epilogue needs at least one step";
  auto count = [&](auto pred) { return llvm::count_if(steps, pred); };
  if (count([](const EpilogueStep &s) {
        return s.kind == EpilogueStep::BiasN || s.kind == EpilogueStep::BiasM;
      }) > 1)
    return "an epilogue takes at most one bias (bias_n or bias_m)";
  if (count([](const EpilogueStep &s) {
        return s.kind == EpilogueStep::Residual;
      }) > 1)
    return "an epilogue takes at most one residual";
  if (steps.size() > 16)
    return "an epilogue takes at most 16 steps";
  for (const EpilogueStep &s : steps.drop_back())
    if (s.isOutput())
      return "an epilogue's output step (to_bf16, to_f16) must be its last";
  return "";
}

bool mlir::tensorop::emitterAppliesEpilogues(StringRef emitter) {
  return emitter == "x86_gemm_fma" || emitter == "riscv_gemm_rvv" ||
         emitter == "arm_gemm_neon" || emitter == "nvidia_gemm_wgmma" ||
         emitter == "nvidia_gemm_mma";
}

bool mlir::tensorop::gpuKernelAppliesEpilogues(StringRef kernel) {
  return kernel == "wgmma" || kernel == "mma_sync";
}

double mlir::tensorop::applyEpilogue(ArrayRef<EpilogueStep> steps, double x,
                                     double bias, double residual) {
  for (const EpilogueStep &s : steps) {
    if (s.kind == EpilogueStep::BiasN || s.kind == EpilogueStep::BiasM)
      x += bias;
    else if (s.kind == EpilogueStep::Residual)
      x += residual;
    else
      x = s.apply(x);
  }
  return x;
}

//===- EpilogueSteps.cpp - Fused-epilogue steps in fp64, LLVM-free --------===//

#include "tensorop/Verify/EpilogueSteps.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

using namespace tensorop;

namespace {
struct Name {
  const char *text;
  EpilogueRefStep::Kind kind;
  int arity;
};
const Name kNames[] = {
    {"bias_n", EpilogueRefStep::BiasN, 0},
    {"bias_m", EpilogueRefStep::BiasM, 0},
    {"residual", EpilogueRefStep::Residual, 0},
    {"scale", EpilogueRefStep::Scale, 1},
    {"clamp", EpilogueRefStep::Clamp, 2},
    {"relu", EpilogueRefStep::Relu, 0},
    {"tanh", EpilogueRefStep::Tanh, 0},
    {"sigmoid", EpilogueRefStep::Sigmoid, 0},
    {"silu", EpilogueRefStep::Silu, 0},
    {"gelu_tanh", EpilogueRefStep::GeluTanh, 0},
    {"gelu_erf", EpilogueRefStep::GeluErf, 0},
};

double sigmoid(double x) { return 1 / (1 + std::exp(-x)); }
} // namespace

std::string
tensorop::parseEpilogueRefSteps(const std::vector<std::string> &texts,
                                std::vector<EpilogueRefStep> &steps) {
  steps.clear();
  int biases = 0, residuals = 0;
  for (const std::string &raw : texts) {
    std::string text;
    for (char ch : raw)
      if (ch != ' ')
        text += ch;
    size_t open = text.find('(');
    std::string name = text.substr(0, open);
    const Name *known = nullptr;
    for (const Name &n : kNames)
      if (name == n.text)
        known = &n;
    if (!known)
      return "unknown epilogue step '" + raw + "'";
    std::vector<double> args;
    if (open != std::string::npos) {
      if (text.back() != ')')
        return "epilogue step '" + raw + "': arguments go in one (...)";
      std::string inner = text.substr(open + 1, text.size() - open - 2);
      size_t at = 0;
      while (at <= inner.size() && !inner.empty()) {
        size_t comma = inner.find(',', at);
        std::string part = inner.substr(at, comma == std::string::npos
                                                ? std::string::npos
                                                : comma - at);
        char *end = nullptr;
        double v = std::strtod(part.c_str(), &end);
        if (part.empty() || *end || !std::isfinite(v))
          return "epilogue step '" + raw + "': '" + part +
                 "' is not a finite number";
        args.push_back(v);
        if (comma == std::string::npos)
          break;
        at = comma + 1;
      }
    }
    if (int(args.size()) != known->arity)
      return "epilogue step '" + raw + "' takes " +
             std::to_string(known->arity) + " argument(s)";
    EpilogueRefStep step;
    step.kind = known->kind;
    if (!args.empty())
      step.a = args[0];
    if (args.size() > 1)
      step.b = args[1];
    if (step.kind == EpilogueRefStep::Clamp && step.a > step.b)
      return "epilogue step '" + raw + "': lo > hi";
    biases += step.kind == EpilogueRefStep::BiasN ||
              step.kind == EpilogueRefStep::BiasM;
    residuals += step.kind == EpilogueRefStep::Residual;
    steps.push_back(step);
  }
  if (steps.empty())
    return "an epilogue needs at least one step";
  if (biases > 1 || residuals > 1)
    return "an epilogue takes at most one bias and one residual";
  return "";
}

double tensorop::applyEpilogueRef(const std::vector<EpilogueRefStep> &steps,
                                  double x, double bias, double residual) {
  for (const EpilogueRefStep &s : steps) {
    switch (s.kind) {
    case EpilogueRefStep::BiasN:
    case EpilogueRefStep::BiasM:
      x += bias;
      break;
    case EpilogueRefStep::Residual:
      x += residual;
      break;
    case EpilogueRefStep::Scale:
      x *= s.a;
      break;
    case EpilogueRefStep::Clamp:
      x = std::min(std::max(x, s.a), s.b);
      break;
    case EpilogueRefStep::Relu:
      x = x > 0 ? x : 0;
      break;
    case EpilogueRefStep::Tanh:
      x = std::tanh(x);
      break;
    case EpilogueRefStep::Sigmoid:
      x = sigmoid(x);
      break;
    case EpilogueRefStep::Silu:
      x = x * sigmoid(x);
      break;
    case EpilogueRefStep::GeluTanh:
      x = 0.5 * x *
          (1 + std::tanh(std::sqrt(2 / M_PI) * (x + 0.044715 * x * x * x)));
      break;
    case EpilogueRefStep::GeluErf:
      x = 0.5 * x * (1 + std::erf(x / std::sqrt(2.0)));
      break;
    }
  }
  return x;
}

double tensorop::epilogueRefSlope(const std::vector<EpilogueRefStep> &steps) {
  double slope = 1.2;
  for (const EpilogueRefStep &s : steps)
    if (s.kind == EpilogueRefStep::Scale)
      slope *= std::max(1.0, std::fabs(s.a));
  return slope;
}

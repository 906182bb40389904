//===- EpilogueGemm.cpp - gen's GEMM with a fused epilogue ----------------===//

#include "tensorop/Driver/EpilogueGemm.h"
#include "tensorop/Dialect/Epilogue.h"
#include "tensorop/Runtime/GemmEntryPoints.h"
#include "tensorop/Verify/Buffers.h"
#include "tensorop/Verify/CpuGemm.h"
#include "tensorop/Verify/CpuGemmLowp.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace llvm;
using namespace tensorop;

bool tensorop::epilogueHasBias(ArrayRef<std::string> steps) {
  return llvm::is_contained(steps, "bias_n") || epilogueBiasAlongM(steps);
}

bool tensorop::epilogueBiasAlongM(ArrayRef<std::string> steps) {
  return llvm::is_contained(steps, "bias_m");
}

bool tensorop::epilogueHasResidual(ArrayRef<std::string> steps) {
  return llvm::is_contained(steps, "residual");
}

std::string tensorop::epilogueEntryPoint(StringRef name,
                                         ArrayRef<std::string> steps,
                                         StringRef inCType,
                                         StringRef outCType,
                                         StringRef cCType) {
  std::string bias = epilogueHasBias(steps)
                         ? ("const " + outCType + " *bias, ").str()
                         : "";
  std::string res = epilogueHasResidual(steps)
                        ? ("const " + outCType + " *R, ").str()
                        : "";
  return formatv("void {0}(const {3} *A, const {3} *B, {1}{2}{4} *C);", name,
                 bias, res, inCType, cCType.empty() ? outCType : cCType)
      .str();
}

/// A step with numbers as the header says it ("x = x * 0.5"); other
/// texts as they are.
static std::string numberedStepLine(const std::string &text) {
  std::string why;
  std::optional<mlir::tensorop::EpilogueStep> step =
      mlir::tensorop::parseEpilogueStep(text, why);
  auto num = [](double v) { return formatv("{0}", format("%.9g", v)).str(); };
  if (step && step->kind == mlir::tensorop::EpilogueStep::Scale)
    return "x = x * " + num(step->a);
  if (step && step->kind == mlir::tensorop::EpilogueStep::Clamp)
    return "x = min(max(x, " + num(step->a) + "), " + num(step->b) + ")";
  return text;
}

/// The header's lines on a fused epilogue ("" without one).
std::string tensorop::epilogueHeaderComment(ArrayRef<std::string> steps,
                                            StringRef elements,
                                            bool onConvOutput) {
  if (steps.empty())
    return "";
  std::string text =
      onConvOutput ? "\n * Then, fused into the kernel's store, per element x = "
                     "output[n][i][j][f] (i, j:\n * the output's row and "
                     "column) in this order:"
                   : "\n * Then, fused into the kernel's store, per element x "
                     "of C in this order:";
  std::string biasN =
      onConvOutput
          ? ("x += bias[f]  (bias: F " + elements + ", one per output channel)")
                .str()
          : ("x += bias[col]  (bias: N " + elements + ")").str();
  std::string residual =
      onConvOutput ? std::string("x += residual[n][i][j][f]  (residual: N x OH "
                                 "x OW x F, NHWC, contiguous)")
                   : ("x += R[row][col]  (R: M x N " + elements +
                      ", row-major, contiguous)")
                         .str();
  for (const std::string &s : steps)
    text += "\n *   " +
            StringSwitch<std::string>(s)
                .Case("bias_n", biasN)
                .Case("bias_m", ("x += bias[row]  (bias: M " + elements + ")").str())
                .Case("clamp(0, 6)", "x = min(max(x, 0), 6)  (ReLU6)")
                .Case("residual", residual)
                .Case("relu", "x = max(x, 0)")
                .Case("gelu_erf", "x = 0.5 x (1 + erf(x / sqrt(2)))  (fp32 "
                                  "approximation, error <= 4.2e-7 in erf)")
                .Case("gelu_tanh", "x = 0.5 x (1 + tanh(sqrt(2/pi) (x + "
                                   "0.044715 x^3)))")
                .Case("silu", "x = x / (1 + exp(-x))")
                .Case("sigmoid", "x = 1 / (1 + exp(-x))")
                .Case("tanh", "x = tanh(x)")
                .Default(numberedStepLine(s));
  return text;
}

/// The body lines of one step on %v<i> (f32), as a model would write it.
std::string tensorop::epilogueStepBody(StringRef step, int i,
                                       StringRef residual) {
  std::string v = formatv("%v{0}", i).str(), o = formatv("%v{0}", i + 1).str();
  auto c = [&](StringRef nm, double x) {
    return formatv("    {0}_{1} = arith.constant {2:e} : f32\n", o, nm, x)
        .str();
  };
  if (step == "bias_n" || step == "bias_m")
    return formatv("    {0} = arith.addf {1}, %b : f32\n", o, v).str();
  std::string why;
  std::optional<mlir::tensorop::EpilogueStep> parsed =
      mlir::tensorop::parseEpilogueStep(step, why);
  if (parsed && parsed->kind == mlir::tensorop::EpilogueStep::Clamp)
    return c("lo", parsed->a) + c("hi", parsed->b) +
           formatv("    {0}_a = arith.maximumf {1}, {0}_lo : f32\n"
                   "    {0} = arith.minimumf {0}_a, {0}_hi : f32\n",
                   o, v)
               .str();
  if (parsed && parsed->kind == mlir::tensorop::EpilogueStep::Scale)
    return c("s", parsed->a) +
           formatv("    {0} = arith.mulf {1}, {0}_s : f32\n", o, v).str();
  if (step == "residual")
    return formatv("    {0} = arith.addf {1}, {2} : f32\n", o, v, residual)
        .str();
  if (step == "relu")
    return c("z", 0) +
           formatv("    {0} = arith.maximumf {1}, {0}_z : f32\n", o, v).str();
  if (step == "tanh")
    return formatv("    {0} = math.tanh {1} : f32\n", o, v).str();
  if (step == "sigmoid" || step == "silu")
    return c("one", 1) +
           formatv("    {0}_n = arith.negf {1} : f32\n"
                   "    {0}_e = math.exp {0}_n : f32\n"
                   "    {0}_d = arith.addf {0}_one, {0}_e : f32\n"
                   "    {0} = arith.divf {2}, {0}_d : f32\n",
                   o, v, step == "silu" ? v : o + "_one")
               .str();
  if (step == "gelu_erf")
    return c("h", 0.5) + c("one", 1) + c("r2", 0.7071067811865476) +
           formatv("    {0}_a = arith.mulf {1}, {0}_r2 : f32\n"
                   "    {0}_e = math.erf {0}_a : f32\n"
                   "    {0}_p = arith.addf {0}_e, {0}_one : f32\n"
                   "    {0}_x = arith.mulf {1}, {0}_h : f32\n"
                   "    {0} = arith.mulf {0}_x, {0}_p : f32\n",
                   o, v)
               .str();
  // gelu_tanh
  return c("h", 0.5) + c("one", 1) + c("k0", 0.7978845608028654) +
         c("k1", 0.044715) +
         formatv("    {0}_x2 = arith.mulf {1}, {1} : f32\n"
                 "    {0}_x3 = arith.mulf {0}_x2, {1} : f32\n"
                 "    {0}_a = arith.mulf {0}_x3, {0}_k1 : f32\n"
                 "    {0}_b = arith.addf {1}, {0}_a : f32\n"
                 "    {0}_u = arith.mulf {0}_b, {0}_k0 : f32\n"
                 "    {0}_t = math.tanh {0}_u : f32\n"
                 "    {0}_p = arith.addf {0}_t, {0}_one : f32\n"
                 "    {0}_hx = arith.mulf {0}_h, {1} : f32\n"
                 "    {0} = arith.mulf {0}_hx, {0}_p : f32\n",
                 o, v)
             .str();
}

/// The matmul's operand types and its indexing maps for the request's
/// transposes: a transposed A is stored K x M, a transposed B N x K (a
/// linear layer's x * W^T), as linalg.matmul's indexing_maps read them.
namespace {
struct MatmulOperands {
  std::string aType, bType, maps;
};
} // namespace

static MatmulOperands matmulOperands(int64_t m, int64_t n, int64_t k,
                                     StringRef inType, bool transposeA,
                                     bool transposeB) {
  MatmulOperands o;
  o.aType = transposeA ? formatv("memref<{0}x{1}x{2}>", k, m, inType).str()
                       : formatv("memref<{0}x{1}x{2}>", m, k, inType).str();
  o.bType = transposeB ? formatv("memref<{0}x{1}x{2}>", n, k, inType).str()
                       : formatv("memref<{0}x{1}x{2}>", k, n, inType).str();
  if (transposeA || transposeB)
    o.maps = mlir::tensorop::matmulIndexingMaps(transposeA, transposeB) +
             "\n                ";
  return o;
}

std::string tensorop::epilogueGemmModuleSource(StringRef name, int64_t m,
                                               int64_t n, int64_t k,
                                               ArrayRef<std::string> steps,
                                               StringRef inType,
                                               StringRef outType,
                                               bool transposeA,
                                               bool transposeB) {
  bool bias = epilogueHasBias(steps), res = epilogueHasResidual(steps);
  MatmulOperands operands =
      matmulOperands(m, n, k, inType, transposeA, transposeB);
  // A 16-bit C (and bias, R): the body widens its values to f32, computes,
  // and narrows the result.
  const bool narrow = outType != "f32";
  std::string ct = formatv("memref<{0}x{1}x{2}>", m, n, outType).str();
  std::string args, ins, insTypes, maps, blockArgs;
  auto addInput = [&](StringRef arg, StringRef type, StringRef map,
                      StringRef blockArg) {
    args += formatv(", %{0}: {1}", arg, type).str();
    ins += (ins.empty() ? "%" : ", %") + arg.str();
    insTypes += (insTypes.empty() ? "" : ", ") + type.str();
    maps += map.str() + ", ";
    blockArgs += (narrow ? blockArg.str() + "_in" : blockArg.str()) + ": " +
                 outType.str() + ", ";
  };
  if (bias && epilogueBiasAlongM(steps))
    addInput("bias", formatv("memref<{0}x{1}>", m, outType).str(),
             "affine_map<(d0, d1) -> (d0)>", "%b");
  else if (bias)
    addInput("bias", formatv("memref<{0}x{1}>", n, outType).str(),
             "affine_map<(d0, d1) -> (d1)>", "%b");
  if (res)
    addInput("R", ct, "affine_map<(d0, d1) -> (d0, d1)>", "%r");
  std::string body;
  if (narrow) {
    for (auto [arg, used] : {std::pair<StringRef, bool>{"%b", bias},
                             {"%r", res}, {"%v0", true}})
      if (used)
        body += formatv("    {0} = arith.extf {0}_in : {1} to f32\n", arg,
                        outType)
                    .str();
  }
  for (auto [i, step] : llvm::enumerate(steps))
    body += epilogueStepBody(step, i);
  std::string yielded = formatv("%v{0}", steps.size()).str();
  if (narrow) {
    body += formatv("    %y = arith.truncf {0} : f32 to {1}\n", yielded,
                    outType)
                .str();
    yielded = "%y";
  }
  std::string generic =
      ins.empty()
          ? formatv("  linalg.generic {{indexing_maps = [{0}affine_map<(d0, "
                    "d1) -> (d0, d1)>], iterator_types = [\"parallel\", "
                    "\"parallel\"]} outs(%C : {1}) {{\n",
                    maps, ct)
                .str()
          : formatv("  linalg.generic {{indexing_maps = [{0}affine_map<(d0, "
                    "d1) -> (d0, d1)>], iterator_types = [\"parallel\", "
                    "\"parallel\"]} ins({1} : {2}) outs(%C : {3}) {{\n",
                    maps, ins, insTypes, ct)
                .str();
  return formatv(R"mlir(
func.func @{0}(%A: {13}, %B: {14}{4}, %C: {5}) {{
  %zero = arith.constant 0.0 : {11}
  linalg.fill ins(%zero : {11}) outs(%C : {5})
  linalg.matmul {15}ins(%A, %B : {13}, {14})
                outs(%C : {5})
{6}  ^bb0({7}%v0{12}: {11}):
{8}    linalg.yield {9} : {11}
  }
  return
}
)mlir",
                 name, m, n, k, args, ct, generic, blockArgs, body, yielded,
                 inType, outType, narrow ? "_in" : "", operands.aType,
                 operands.bType, operands.maps)
      .str();
}

std::string tensorop::narrowGemmModuleSource(StringRef name, int64_t m,
                                             int64_t n, int64_t k,
                                             ArrayRef<std::string> steps,
                                             StringRef inType,
                                             StringRef outType,
                                             bool transposeA,
                                             bool transposeB) {
  bool bias = epilogueHasBias(steps), res = epilogueHasResidual(steps);
  MatmulOperands operands =
      matmulOperands(m, n, k, inType, transposeA, transposeB);
  std::string acc = formatv("memref<{0}x{1}xf32>", m, n).str();
  std::string id = "affine_map<(d0, d1) -> (d0, d1)>";
  std::string args, ins = "%acc", insTypes = acc, maps = id + ", ",
                    blockArgs = "%v0: f32, ";
  if (bias) {
    bool alongM = epilogueBiasAlongM(steps);
    std::string type = formatv("memref<{0}xf32>", alongM ? m : n).str();
    args += ", %bias: " + type;
    ins += ", %bias";
    insTypes += ", " + type;
    maps += alongM ? "affine_map<(d0, d1) -> (d0)>, "
                   : "affine_map<(d0, d1) -> (d1)>, ";
    blockArgs += "%b: f32, ";
  }
  if (res) {
    args += ", %R: " + acc;
    ins += ", %R";
    insTypes += ", " + acc;
    maps += id + ", ";
    blockArgs += "%r: f32, ";
  }
  std::string body;
  for (auto [i, step] : llvm::enumerate(steps))
    body += epilogueStepBody(step, i);
  return formatv(R"mlir(
func.func @{0}(%A: {15}, %B: {16}{5}, %C: memref<{1}x{2}x{6}>) {{
  %zero = arith.constant 0.0 : f32
  %acc = memref.alloc() {{alignment = 64 : i64} : {7}
  linalg.fill ins(%zero : f32) outs(%acc : {7})
  linalg.matmul {17}ins(%A, %B : {15}, {16})
                outs(%acc : {7})
  linalg.generic {{indexing_maps = [{8}{9}], iterator_types = ["parallel", "parallel"]}
      ins({10} : {11}) outs(%C : memref<{1}x{2}x{6}>) {{
  ^bb0({12}%o: {6}):
{13}    %y = arith.truncf %v{14} : f32 to {6}
    linalg.yield %y : {6}
  }
  memref.dealloc %acc : {7}
  return
}
)mlir",
                 name, m, n, k, inType, args, outType, acc, maps, id, ins,
                 insTypes, blockArgs, body, steps.size(), operands.aType,
                 operands.bType, operands.maps)
      .str();
}

EpilogueGemmCheck tensorop::checkEpilogueGemm(void *fn, int64_t m, int64_t n,
                                              int64_t k,
                                              ArrayRef<std::string> steps,
                                              uint64_t seed,
                                              ElementType input,
                                              ElementType output,
                                              bool transposeA,
                                              bool transposeB) {
  EpilogueGemmCheck result;
  SmallVector<mlir::tensorop::EpilogueStep> parsed;
  if (!mlir::tensorop::parseEpilogueSteps(steps, parsed, result.error))
    return result;
  const bool alongM = epilogueBiasAlongM(steps);
  AlignedBuffer a(m * k), b(k * n), bias(alongM ? m : n), r(m * n), c(m * n);
  if (!a.ok() || !b.ok() || !bias.ok() || !r.ok() || !c.ok()) {
    result.error = "cannot allocate the verification buffers";
    return result;
  }
  fillRandom(a.data, a.size, seed);
  fillRandom(b.data, b.size, seed + 1);
  fillRandom(bias.data, bias.size, seed + 2);
  fillRandom(r.data, r.size, seed + 3);
  fillNaN(c.data, c.size);
  // bf16/f16 inputs: the kernel reads the bits, the reference the rounded
  // values (products of two of them are exact in fp32).
  const bool halfInputs =
      input == ElementType::BF16 || input == ElementType::F16;
  std::vector<uint16_t> a16(halfInputs ? a.size : 0),
      b16(halfInputs ? b.size : 0);
  if (halfInputs) {
    roundTo16BitStorage(input, a.data, a16);
    roundTo16BitStorage(input, b.data, b16);
  }
  // The kernel reads a transposed operand stored the other way round: the
  // same (rounded) values, copied into that layout; the reference below
  // keeps A as M x K and B as K x N.
  std::vector<float> aT(transposeA && !halfInputs ? a.size : 0),
      bT(transposeB && !halfInputs ? b.size : 0);
  std::vector<uint16_t> a16T(transposeA && halfInputs ? a.size : 0),
      b16T(transposeB && halfInputs ? b.size : 0);
  auto transpose = [](const auto *from, auto &to, int64_t rows,
                      int64_t cols) {
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j)
        to[j * rows + i] = from[i * cols + j];
  };
  const void *aIn = halfInputs ? static_cast<const void *>(a16.data())
                               : static_cast<const void *>(a.data);
  const void *bIn = halfInputs ? static_cast<const void *>(b16.data())
                               : static_cast<const void *>(b.data);
  if (transposeA && halfInputs) {
    transpose(a16.data(), a16T, m, k);
    aIn = a16T.data();
  } else if (transposeA) {
    transpose(a.data, aT, m, k);
    aIn = aT.data();
  }
  if (transposeB && halfInputs) {
    transpose(b16.data(), b16T, k, n);
    bIn = b16T.data();
  } else if (transposeB) {
    transpose(b.data, bT, k, n);
    bIn = bT.data();
  }
  bool hasBias = epilogueHasBias(steps), hasRes = epilogueHasResidual(steps);
  using F2 = void (*)(const void *, const void *, float *);
  using F3 = void (*)(const void *, const void *, const float *, float *);
  using F4 = void (*)(const void *, const void *, const float *,
                      const float *, float *);
  // A 16-bit C: NaN bits before, read back as floats after.
  const bool out16 =
      output == ElementType::BF16 || output == ElementType::F16;
  std::vector<uint16_t> c16(out16 ? c.size : 0,
                            output == ElementType::BF16 ? 0x7fc0 : 0x7e00);
  float *cOut = out16 ? reinterpret_cast<float *>(c16.data()) : c.data;
  if (hasBias && hasRes)
    reinterpret_cast<F4>(fn)(aIn, bIn, bias.data, r.data, cOut);
  else if (hasBias || hasRes)
    reinterpret_cast<F3>(fn)(aIn, bIn, hasBias ? bias.data : r.data, cOut);
  else
    reinterpret_cast<F2>(fn)(aIn, bIn, cOut);
  for (size_t i = 0; i < c16.size(); ++i)
    c.data[i] = output == ElementType::BF16 ? bf16ToFloat(c16[i])
                                            : halfToFloat(c16[i]);
  const double u16 = out16 ? unitRoundoff(output) : 0;
  GemmReference ref = computeReference(a.data, b.data, m, n, k);
  if (!ref.ok()) {
    result.error = "cannot allocate the fp64 reference";
    return result;
  }
  result.bound = epilogueBoundText();
  if (out16)
    result.bound = "b + u16*(|E(R)| + b), b = " + result.bound +
                   "; u16 = " + (output == ElementType::BF16 ? "2^-8" : "2^-11") +
                   " (C's one rounding)";
  Check check =
      judgeEpilogueOutput(c.data, ref, parsed, bias.data, r.data, m, n,
                          alongM, epilogueSlope(parsed), u16);
  result.failures = check.failures();
  result.maxRatio = check.maxRatio;
  return result;
}

// The steps amplify the GEMM's rounding by at most their slope (<= 1.13
// for GELU, 1 for the others here); the kernel's fp32 tanh / erf err by
// <= 4.2e-7 (docs/Epilogues.md), the steps' own roundings by a few ulp.
std::string tensorop::epilogueBoundText() {
  return "|C - E(R)| <= L*(2*K*6e-8*(|A||B|) + 6e-8*|R|) + "
         "2e-6*(1 + |R| + |E(R)|), E = the steps in fp64, L = 1.2 "
         "times the scale steps' |s| (at least 1)";
}

double tensorop::epilogueSlope(
    ArrayRef<mlir::tensorop::EpilogueStep> steps) {
  // A scale step multiplies the error by |s|.
  double slope = 1.2;
  for (const mlir::tensorop::EpilogueStep &step : steps)
    if (step.kind == mlir::tensorop::EpilogueStep::Scale)
      slope *= std::max(1.0, std::fabs(step.a));
  return slope;
}

Check tensorop::judgeEpilogueOutput(
    const float *c, const GemmReference &ref,
    ArrayRef<mlir::tensorop::EpilogueStep> steps, const float *bias,
    const float *r, int64_t m, int64_t n, bool alongM, double slope,
    double u16) {
  Check check;
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      size_t at = i * n + j;
      double acc = ref.values.value[at];
      double want = mlir::tensorop::applyEpilogue(
          steps, acc, bias[alongM ? i : j], r[at]);
      double bound = slope * ref.bound(ref.values.magnitude[at], acc) +
                     2e-6 * (1 + std::fabs(acc) + std::fabs(want));
      bound += u16 * (std::fabs(want) + bound);
      check.add(judgeElement(c[at], want, bound));
    }
  return check;
}

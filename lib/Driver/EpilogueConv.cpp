//===- EpilogueConv.cpp - gen's convolution with a fused epilogue ---------===//

#include "tensorop/Driver/EpilogueConv.h"
#include "tensorop/Dialect/Epilogue.h"
#include "tensorop/Driver/EpilogueGemm.h"
#include "tensorop/Verify/Buffers.h"
#include "tensorop/Verify/CpuConv.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace llvm;
using namespace tensorop;

std::string tensorop::epilogueConvEntryPoint(StringRef name,
                                             ArrayRef<std::string> steps) {
  return formatv("void {0}(const float *input, const float *filter, "
                 "{1}{2}float *output);",
                 name, epilogueHasBias(steps) ? "const float *bias, " : "",
                 epilogueHasResidual(steps) ? "const float *residual, " : "")
      .str();
}

mlir::tensorop::ConvConsumer
tensorop::epilogueConvConsumer(const Conv2DShape &s,
                               ArrayRef<std::string> steps) {
  std::string out =
      formatv("{0}x{1}x{2}x{3}xf32", s.n, s.outH(), s.outW(), s.f).str();
  std::string bias = formatv("{0}xf32", s.f).str();
  const char *id = "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>";
  const char *channel = "affine_map<(d0, d1, d2, d3) -> (d3)>";
  mlir::tensorop::ConvConsumer c;
  std::string ins = "%r", insTypes = "tensor<" + out + ">",
              maps = std::string(id) + ", ", blockArgs = "%v0: f32, ";
  if (epilogueHasBias(steps)) {
    c.arguments += ", %bias: memref<" + bias + ">";
    c.body += formatv("  %bt = bufferization.to_tensor %bias restrict : "
                      "memref<{0}> to tensor<{0}>\n",
                      bias)
                  .str();
    ins += ", %bt";
    insTypes += ", tensor<" + bias + ">";
    maps += std::string(channel) + ", ";
    blockArgs += "%b: f32, ";
  }
  if (epilogueHasResidual(steps)) {
    c.arguments += ", %residual: memref<" + out + ">";
    c.body += formatv("  %rt = bufferization.to_tensor %residual restrict : "
                      "memref<{0}> to tensor<{0}>\n",
                      out)
                  .str();
    ins += ", %rt";
    insTypes += ", tensor<" + out + ">";
    maps += std::string(id) + ", ";
    blockArgs += "%res: f32, "; // (%r is the convolution's result)
  }
  std::string body;
  for (auto [i, step] : llvm::enumerate(steps))
    body += epilogueStepBody(step, i, "%res");
  c.body += formatv("  %ey = tensor.empty() : tensor<{0}>\n"
                    "  %y = linalg.generic {{indexing_maps = [{1}{2}], "
                    "iterator_types = [\"parallel\", \"parallel\", "
                    "\"parallel\", \"parallel\"]} ins({3} : {4}) outs(%ey : "
                    "tensor<{0}>) {{\n"
                    "  ^bb0({5}%o: f32):\n{6}    linalg.yield %v{7} : f32\n"
                    "  } -> tensor<{0}>\n",
                    out, maps, id, ins, insTypes, blockArgs, body, steps.size())
                .str();
  c.result = "%y";
  return c;
}

EpilogueConvCheck tensorop::checkEpilogueConv(void *fn, const Conv2DShape &s,
                                              ArrayRef<std::string> steps,
                                              uint64_t seed,
                                              void (*pack)(const float *,
                                                           float *),
                                              size_t packedBytes) {
  EpilogueConvCheck result;
  SmallVector<mlir::tensorop::EpilogueStep> parsed;
  if (!mlir::tensorop::parseEpilogueSteps(steps, parsed, result.error))
    return result;
  size_t pixels = size_t(s.n) * s.outH() * s.outW();
  AlignedBuffer in(size_t(s.n) * s.h * s.w * s.c),
      flt(size_t(s.r) * s.s * s.c * s.f), bias(s.f), res(pixels * s.f),
      out(pixels * s.f);
  if (!in.ok() || !flt.ok() || !bias.ok() || !res.ok() || !out.ok()) {
    result.error = "cannot allocate the verification buffers";
    return result;
  }
  fillRandom(in.data, in.size, seed);
  fillRandom(flt.data, flt.size, seed + 1);
  fillRandom(bias.data, bias.size, seed + 2);
  fillRandom(res.data, res.size, seed + 3);
  fillNaN(out.data, out.size);
  // The prepacked entry reads the filter packed by NAME_pack_filter.
  AlignedBuffer packed(pack ? (packedBytes + 3) / 4 : 1);
  if (!packed.ok()) {
    result.error = "cannot allocate the packed filter";
    return result;
  }
  const float *filterArg = flt.data;
  if (pack) {
    fillNaN(packed.data, packed.size);
    pack(flt.data, packed.data);
    filterArg = packed.data;
  }
  bool hasBias = epilogueHasBias(steps), hasRes = epilogueHasResidual(steps);
  using F3 = void (*)(const float *, const float *, float *);
  using F4 = void (*)(const float *, const float *, const float *, float *);
  using F5 = void (*)(const float *, const float *, const float *,
                      const float *, float *);
  if (hasBias && hasRes)
    reinterpret_cast<F5>(fn)(in.data, filterArg, bias.data, res.data,
                             out.data);
  else if (hasBias || hasRes)
    reinterpret_cast<F4>(fn)(in.data, filterArg,
                             hasBias ? bias.data : res.data, out.data);
  else
    reinterpret_cast<F3>(fn)(in.data, filterArg, out.data);
  ConvReference ref = computeConvReference(in.data, flt.data, s);
  if (!ref.ok()) {
    result.error = "cannot allocate the fp64 reference";
    return result;
  }
  // As for GEMM epilogues (EpilogueGemm.cpp): the steps amplify the
  // convolution's rounding by at most L; the kernel's fp32 tanh / erf and
  // the steps' own roundings stay under 2e-6 (1 + |R| + |E(R)|).
  result.bound = describeConvBound(s) +
                 ", times L, plus 2e-6*(1 + |R| + |E(R)|), E = the steps "
                 "in fp64, L = 1.2 times the scale steps' |s| (at least 1)";
  double slope = 1.2;
  for (const mlir::tensorop::EpilogueStep &step : parsed)
    if (step.kind == mlir::tensorop::EpilogueStep::Scale)
      slope *= std::max(1.0, std::fabs(step.a));
  Check check;
  for (size_t p = 0; p < pixels; ++p)
    for (int64_t f = 0; f < s.f; ++f) {
      size_t at = p * s.f + f;
      double acc = ref.values.value[at];
      double want = mlir::tensorop::applyEpilogue(parsed, acc, bias.data[f],
                                                  res.data[at]);
      double bound = slope * ref.bound(ref.values.magnitude[at], acc) +
                     2e-6 * (1 + std::fabs(acc) + std::fabs(want));
      check.add(judgeElement(out.data[at], want, bound));
    }
  result.failures = check.failures();
  result.maxRatio = check.maxRatio;
  return result;
}

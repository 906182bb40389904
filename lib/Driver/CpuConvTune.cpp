//===- CpuConvTune.cpp - One CPU convolution in tensorop tune -------------===//
//
// A linalg.conv_2d_nhwc_hwcf the sketch path takes (annotate-sketch's
// problem: a zero tensor.pad in front folded into the kernel's padding) is
// searched over ConvSearchSpace (every knob of #tensorop.conv_sketch, the
// builtin choice first). Each candidate is the module `tensorop gen` builds
// for the convolution (convModuleSource) with the sketch attached, compiled
// by the backend and run by `tensorop worker --conv=...`, which verifies it
// as gen does (guarded NaN-filled output, fp64 reference, small-integer
// exact test, again after timing) and times it. Rows are keyed by
// convSignature, the key annotate-sketch's db= looks up.
//
//===----------------------------------------------------------------------===//

#include "ConvShapes.h"
#include "CpuTuneOp.h"

#include "tensorop/Dialect/TensorOpDialect.h"
#include "tensorop/Driver/WorkerDriver.h"
#include "tensorop/Emitters/Emitter.h"
#include "tensorop/LLM/LLMAdvisor.h"
#include "tensorop/Runtime/ConvModule.h"
#include "tensorop/Support/TextFiles.h"
#include "tensorop/Targets/TargetHints.h"
#include "tensorop/Tuner/ConvSearchSpace.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace mlir::tensorop;
using namespace tensorop;

namespace {
class CpuConvSearch : public CpuTuneOp {
public:
  CpuConvSearch(mlir::MLIRContext &ctx, const ConvProblem &p,
                const TargetHints &hints, const ConvSketchChoice &defaults,
                std::string target, std::string emitterDir,
                const double &peakGflops)
      : ctx(ctx), shape(conv2DShapeOf(p)), hints(hints),
        convSpace(p, hints, defaults), defaults(defaults),
        target(std::move(target)),
        emitterDir(std::move(emitterDir)), emitterName(defaults.emitter),
        peakGflops(peakGflops) {
    signature = convSignature(p);
    op = Operator::conv2d(shape, "f32", "f32");
    builtinPoint = convSpace.toPoint(defaults);
    ConvSketchChoice builtinChoice =
        builtinPoint ? convSpace.toChoice(*builtinPoint) : defaults;
    builtin.hash = convConfigHash(builtinChoice);
    std::string illegal;
    if (ConvSketchAttr attr = builtinChoice.toAttr(&ctx, hints, illegal))
      raw_string_ostream(builtin.config) << attr;
  }

  const SearchSpace &space() const override { return convSpace; }
  std::string knobsTitle() const override {
    return signature + " on " + target + ": " +
           std::to_string(convSpace.size()) + " points";
  }
  std::optional<TuneCandidate> candidateAt(ArrayRef<int64_t> point) override {
    return candidateOf(convSpace.toChoice(point));
  }
  std::optional<std::vector<int64_t>> pointOf(StringRef config) override {
    auto attr =
        dyn_cast_or_null<ConvSketchAttr>(mlir::parseAttribute(config, &ctx));
    if (!attr)
      return std::nullopt;
    return convSpace.toPoint(ConvSketchChoice::fromAttr(attr));
  }
  std::optional<TuneProposal>
  askModel(const TuneModel &model,
           std::vector<CandidateRecord> history) override {
    // The convolution's own system prompt (the schema checkConvSketchAnswer
    // reads; the tuner's model was opened with the GEMM one), then the
    // history as the GEMM search gives it.
    if (convSystem.empty())
      convSystem = readTextFile(defaultHintsDir() +
                                "/prompts/conv_sketch_system.txt");
    if (convSystem.empty()) {
      errs() << "tensorop tune: llm proposal failed: prompt template "
                "conv_sketch_system.txt is missing\n";
      return std::nullopt;
    }
    std::string prompt =
        formatv("Tuning an fp32 2-D convolution (input NHWC, filter HWCF) "
                "N={0} H={1} W={2} C={3} F={4} R={5} S={6} stride={7}x{8} "
                "dilation={9}x{10} padding (top, bottom, left, right) = "
                "{11}, {12}, {13}, {14}, output {15}x{16}, on {17}. Measured "
                "so far (GFLOP/s, higher is better):\n",
                shape.n, shape.h, shape.w, shape.c, shape.f, shape.r, shape.s,
                shape.strideH, shape.strideW, shape.dilationH,
                shape.dilationW, shape.padTop, shape.padBottom, shape.padLeft,
                shape.padRight, shape.outH(), shape.outW(), target)
            .str() +
        historyForModel(std::move(history), 1.0,
                        [](const CandidateRecord &r) { return r.config; });
    std::optional<ConvSketchChoice> choice =
        askModelForProposal<ConvSketchChoice>(
            model, prompt,
            [&](StringRef answer) {
              return checkConvSketchAnswer(answer, defaults, hints,
                                           "llm:" + model.model);
            },
            convSystem);
    if (!choice)
      return std::nullopt;
    return TuneProposal{candidateOf(*choice), convSpace.toPoint(*choice)};
  }
  double reward(double gflops) const override {
    return peakGflops > 0
               ? std::min(1.0, gflops / (peakGflops * convSpace.maxThreads()))
               : 0;
  }
  std::string emitterHash() const override {
    return emitterSourceHash(emitterDir, emitterName);
  }
  void describeSpace(json::Object &summary) const override {
    summary["space_size"] = int64_t(convSpace.size());
  }

  std::string moduleSource(StringRef symbol, StringRef config) const override {
    return convModuleSource(symbol, shape, config);
  }
  std::vector<std::string> workerArgs() const override {
    std::array<int64_t, 3> d = sandboxDims();
    return {"--m=" + std::to_string(d[0]), "--n=" + std::to_string(d[1]),
            "--k=" + std::to_string(d[2]),
            "--conv=" + convShapeArgument(shape)};
  }
  std::array<int64_t, 3> sandboxDims() const override {
    return {shape.n * shape.outH() * shape.outW(), shape.f,
            shape.contractionLength()};
  }
  bool hasBaseline() const override { return true; }
  int64_t threadsOf(StringRef config) const override {
    auto attr =
        dyn_cast_or_null<ConvSketchAttr>(mlir::parseAttribute(config, &ctx));
    return attr ? attr.getThreads() : 1;
  }

private:
  std::optional<TuneCandidate> candidateOf(const ConvSketchChoice &choice) {
    return tuneCandidateOf(choice, ctx, hints,
                           [](const ConvSketchChoice &c) {
                             return convConfigHash(c);
                           });
  }

  mlir::MLIRContext &ctx;
  Conv2DShape shape;
  TargetHints hints;
  ConvSearchSpace convSpace;
  /// The builtin choice: what a model's answer leaves out (emitter,
  /// threads) comes from it.
  ConvSketchChoice defaults;
  std::string convSystem; ///< hints/prompts/conv_sketch_system.txt, read once
  std::string target;
  std::string emitterDir; ///< --emitter-dir ("" = the shipped emitters)
  std::string emitterName;
  const double &peakGflops;
};
} // namespace

std::unique_ptr<CpuTuneOp>
tensorop::makeCpuConvSearch(mlir::MLIRContext &ctx, const ConvProblem &problem,
                            const TargetHints &hints,
                            const ConvSketchChoice &builtin, std::string target,
                            std::string emitterDir, const double &peakGflops) {
  return std::make_unique<CpuConvSearch>(ctx, problem, hints, builtin,
                                         std::move(target),
                                         std::move(emitterDir), peakGflops);
}

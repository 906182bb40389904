//===- CpuTune.cpp - The CPU hooks of tensorop tune -----------------------===//
//
// x86, RVV and NEON targets in the one tune loop (TuneLoop.cpp): the
// #tensorop.sketch space of each supported matmul (GemmSearchSpace, the
// builtin advisor's sketch first) and the #tensorop.conv_sketch space of
// each convolution the sketch path takes (CpuConvTune.cpp), each candidate
// lowered and compiled to an object here and verified and timed in a
// `tensorop worker` process with a wall-clock limit.
//
//===----------------------------------------------------------------------===//

#include "ConvShapes.h"
#include "CpuTuneOp.h"

#include "tensorop/Driver/CompilerContext.h"
#include "tensorop/Driver/KernelSandbox.h"
#include "tensorop/Driver/TuneBackend.h"
#include "tensorop/Process/ProcessRunner.h"
#include "tensorop/Verify/CpuConv.h"
#include "tensorop/Verify/CpuGemm.h"
#include "tensorop/Verify/Timing.h"

#include "tensorop/Advisor/Advisor.h"
#include "tensorop/Dialect/TensorOpDialect.h"
#include "tensorop/Emitters/Emitter.h"
#include "tensorop/LLM/LLMAdvisor.h"
#include "tensorop/Runtime/JitGemm.h"
#include "tensorop/Runtime/ObjectFile.h"
#include "tensorop/Targets/TargetHints.h"
#include "tensorop/Transforms/ConvSupport.h"
#include "tensorop/Transforms/MatmulSupport.h"
#include "tensorop/Tuner/ConvSearchSpace.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <set>
#include <variant>

using namespace llvm;
using namespace mlir::tensorop;
using namespace tensorop;

/// Why tune skips `op`, which the pipeline rewrites into ops it does tune
/// (a batch matmul's slices, an NCHW convolution's NHWC form) or computes
/// in loops of its own (depthwise); "" for any other op.
static std::string untunedRewrittenOp(mlir::Operation *op) {
  if (std::string why = batchMatmulNotTuned(op); !why.empty())
    return why;
  if (isa<mlir::linalg::Conv2DNchwFchwOp>(op))
    return "an NCHW convolution: the pipeline computes it as the NHWC "
           "linalg.conv_2d_nhwc_hwcf of the same shape (a 1x1 stride-1 one "
           "as a GEMM per image), which is what to tune";
  if (isa<mlir::linalg::DepthwiseConv2DNhwcHwcOp>(op))
    return "a depthwise convolution runs in loops of its own, with no "
           "sketch to search";
  return "";
}

namespace {

/// Runs the worker on one object with a wall-clock limit; the result is the
/// worker's JSON, or a crash/timeout record. A candidate whose microkernel
/// is model-written (`modelWritten`) runs in the sandboxed worker
/// (KernelSandbox.h).
CandidateRecord runWorker(StringRef object, StringRef symbol,
                          const CpuTuneOp &op, StringRef config,
                          int workerRounds, unsigned candidateTimeout,
                          bool baseline = false,
                          double *baselineGflops = nullptr) {
  CandidateRecord r;
  bool modelWritten = usesModelWrittenEmitter(config);
  std::vector<std::string> args = {"--symbol=" + symbol.str()};
  for (const std::string &a : op.workerArgs())
    args.push_back(a);
  args.push_back("--rounds=" + std::to_string(workerRounds));
  // The baselines run on the sketch's threads (oneDNN would take every
  // core, and be timed against a one-thread kernel).
  if (op.hasBaseline())
    args.push_back("--threads=" + std::to_string(op.threadsOf(config)));
  if (baseline)
    args.push_back("--conv-baseline");
  ChildOutcome o;
  if (modelWritten) {
    std::array<int64_t, 3> d = op.sandboxDims();
    o = runWorkerSandboxed(object, args, d[0], d[1], d[2], /*threads=*/1,
                           candidateTimeout);
  } else {
    args.insert(args.begin(), {"worker", "--object=" + object.str()});
    o = runWithLimit(sys::fs::getMainExecutable(nullptr, nullptr), args,
                     candidateTimeout);
  }
  std::string text = StringRef(o.stdoutText).trim().str();
  if (o.rc == 0 && !text.empty()) {
    Expected<json::Value> v = json::parse(text);
    if (v && v->getAsObject()) {
      json::Object *o = v->getAsObject();
      r.status = o->getString("status").value_or("crash").str();
      r.error = o->getString("error").value_or("").str();
      if (auto x = o->getNumber("median_seconds"))
        r.medianSeconds = *x;
      if (auto x = o->getNumber("min_seconds"))
        r.minSeconds = *x;
      if (auto x = o->getNumber("gflops"))
        r.gflops = *x;
      if (auto x = o->getNumber("error_ratio"))
        r.errorRatio = *x;
      if (auto x = o->getNumber("onednn_gflops"); x && baselineGflops)
        *baselineGflops = *x;
      return r;
    }
    consumeError(v.takeError());
  }
  r.status = o.killed ? status::kTimeout : status::kCrash;
  if (o.killed)
    r.error = formatv("no result within {0} s; the worker was killed",
                      unsigned(candidateTimeout))
                  .str();
  else
    r.error = "the worker died (" +
              (o.message.empty() ? "exit " + std::to_string(o.rc)
                                 : o.message) +
              ")";
  return r;
}

class CpuOpSearch : public CpuTuneOp {
public:
  CpuOpSearch(mlir::MLIRContext &ctx, const GemmProblem &p,
              const TargetHints &hints, const SketchChoice &defaults,
              std::string target, std::string emitterDir,
              const double &peakGflops)
      : ctx(ctx), problem(p), hints(hints), gemmSpace(p, hints, defaults),
        target(std::move(target)), emitterDir(std::move(emitterDir)),
        peakGflops(peakGflops) {
    signature = opSignature(p);
    op = Operator::matmul(p.m, p.n, p.k, "f32", "f32", p.transposeA,
                          p.transposeB);
    // The builtin sketch as the tree's first point gives it, so its row is
    // found by hash and text.
    builtinPoint = gemmSpace.toPoint(defaults);
    SketchChoice builtinChoice =
        builtinPoint ? gemmSpace.toChoice(*builtinPoint) : defaults;
    builtin.hash = configHash(builtinChoice);
    std::string illegal;
    if (SketchAttr attr = builtinChoice.toAttr(&ctx, hints, illegal))
      raw_string_ostream(builtin.config) << attr;
  }

  const GemmProblem &gemm() const { return problem; }
  const TargetHints &targetHints() const { return hints; }

  const SearchSpace &space() const override { return gemmSpace; }
  std::string knobsTitle() const override {
    return signature + " on " + target + ": " +
           std::to_string(gemmSpace.size()) + " points";
  }
  std::optional<TuneCandidate>
  candidateAt(ArrayRef<int64_t> point) override {
    return candidateOf(gemmSpace.toChoice(point));
  }
  std::optional<std::vector<int64_t>> pointOf(StringRef config) override {
    auto attr = dyn_cast_or_null<SketchAttr>(mlir::parseAttribute(config, &ctx));
    if (!attr)
      return std::nullopt;
    return gemmSpace.toPoint(SketchChoice::fromAttr(attr));
  }
  std::optional<TuneProposal>
  askModel(const TuneModel &model,
           std::vector<CandidateRecord> history) override {
    // The search history the paper gives its LLM: the best and the worst
    // configurations so far with their speed, and the failures.
    std::string prompt =
        formatv("Tuning an fp32 GEMM M={0} N={1} K={2} on {3}. Measured so "
                "far (GFLOP/s, higher is better):\n",
                problem.m, problem.n, problem.k, target)
            .str() +
        historyForModel(std::move(history), 1.0,
                        [](const CandidateRecord &r) { return r.config; });
    std::optional<SketchChoice> choice = askModelForProposal<SketchChoice>(
        model, prompt, [&](StringRef answer) {
          return checkSketchAnswer(answer, problem, hints,
                                   "llm:" + model.model);
        });
    if (!choice)
      return std::nullopt;
    return TuneProposal{candidateOf(*choice), gemmSpace.toPoint(*choice)};
  }
  double reward(double gflops) const override {
    // Of what all the offered threads could reach.
    return peakGflops > 0
               ? std::min(1.0, gflops / (peakGflops * gemmSpace.maxThreads()))
               : 0;
  }
  std::string emitterHash() const override {
    // The emitter script and the helper modules it imports (the same
    // script name for every CPU target, as the rows have always had it).
    return emitterSourceHash(emitterDir, "x86_gemm_fma");
  }
  void describeSpace(json::Object &summary) const override {
    summary["space_size"] = int64_t(gemmSpace.size());
  }

  std::string moduleSource(StringRef symbol, StringRef config) const override {
    return gemmModuleSource(symbol, problem.m, problem.n, problem.k, config);
  }
  std::vector<std::string> workerArgs() const override {
    return {"--m=" + std::to_string(problem.m),
            "--n=" + std::to_string(problem.n),
            "--k=" + std::to_string(problem.k)};
  }
  std::array<int64_t, 3> sandboxDims() const override {
    return {problem.m, problem.n, problem.k};
  }

private:
  std::optional<TuneCandidate> candidateOf(const SketchChoice &choice) {
    return tuneCandidateOf(choice, ctx, hints, [](const SketchChoice &c) {
      return configHash(c);
    });
  }

  mlir::MLIRContext &ctx;
  GemmProblem problem;
  TargetHints hints;
  GemmSearchSpace gemmSpace;
  std::string target;
  std::string emitterDir; ///< --emitter-dir ("" = the shipped emitters)
  /// The FMA peak the backend measures before the search (the rewards'
  /// scale).
  const double &peakGflops;
};

class CpuTuneBackend : public TuneBackend {
public:
  StringRef unit() const override { return "GFLOP/s"; }
  double gflopsPerUnit() const override { return 1; }
  mlir::MLIRContext &context() override { return *ctx; }

  Error setUp(const TuneOptions &options) override {
    o = options;
    ctx = makeCompilerContext();
    Expected<std::string> resolved = resolveTargetName(o.target);
    if (!resolved)
      return resolved.takeError();
    resolvedTarget = *resolved;
    // Every candidate is verified and timed in a worker process here: an
    // RVV or NEON kernel cannot run on this machine, and each candidate
    // was recorded as a crash.
    if (!StringRef(resolvedTarget).starts_with("x86-"))
      return createStringError(
          "target " + resolvedTarget +
          " cannot be tuned here: tune runs every candidate on this "
          "machine (x86 targets; NVIDIA targets on a GPU here or through "
          "--gpu-batch); tensorop gen builds " +
          resolvedTarget + " kernels from an advisor's sketch (--advisor)");
    // (target=host: this machine's caches and CPU facts, as gen's.)
    Expected<TargetHints> h = loadHintsForTarget(o.target);
    if (!h)
      return h.takeError();
    hints = *h;
    return Error::success();
  }
  std::string target() const override { return resolvedTarget; }
  std::string fingerprint() const override {
    return targetFingerprint(resolvedTarget);
  }

  Expected<std::vector<std::unique_ptr<OpTuneSearch>>>
  match(mlir::ModuleOp module, StringRef input) override {
    // In module order: GEMMs and the convolutions the sketch path takes.
    std::vector<std::variant<GemmProblem, ConvProblem>> problems;
    std::set<std::string> signatures;
    std::string lowPrecisionSkipped;
    module.walk([&](mlir::Operation *any) {
      // Ops the pipeline takes by rewriting them are not searched here;
      // each is said, with what to tune instead (they went unmentioned).
      if (std::string why = untunedRewrittenOp(any); !why.empty()) {
        any->emitRemark() << "tensorop tune: skipped (" << why << ")";
        return;
      }
      if (auto conv = dyn_cast<mlir::linalg::Conv2DNhwcHwcfOp>(any)) {
        std::string reason;
        mlir::FailureOr<ConvProblem> p = matchConvWithFoldedPad(conv, reason);
        if (mlir::failed(p)) {
          conv.emitRemark() << "tensorop tune: skipped (" << reason << ")";
          return;
        }
        // annotate-sketch makes it a linalg.matmul: its sketch is a GEMM's.
        // Said on stderr by name (as the NVIDIA backend says what it skips).
        if (convTakesGemmPath(conv, *p)) {
          errs() << "tensorop tune: skipped '" << convSignature(*p)
                 << "' (a 1x1 stride-1 convolution without padding takes the "
                    "GEMM path; tune the GEMM M="
                 << p->n * p->h * p->w << " N=" << p->f << " K=" << p->c
                 << " instead)\n";
          return;
        }
        if (signatures.insert(convSignature(*p)).second)
          problems.push_back(*p);
        return;
      }
      auto op = dyn_cast<mlir::linalg::MatmulOp>(any);
      if (!op)
        return;
      std::string reason;
      mlir::FailureOr<GemmProblem> p = matchSupportedMatmul(op, reason);
      if (mlir::failed(p)) {
        op.emitRemark() << "tensorop tune: skipped (" << reason << ")";
        return;
      }
      if (p->transposeA || p->transposeB) {
        op.emitRemark() << "tensorop tune: skipped (transposed operands are "
                           "not tuned yet)";
        return;
      }
      // Candidates are built and verified as fp32 GEMMs: a bf16/f16 one
      // would be measured on the wrong kernel and recorded under its name.
      if (p->input != GemmInputType::F32) {
        lowPrecisionSkipped = std::string(gemmInputTypeName(p->input)) +
                              " GEMMs are not tuned yet; the builtin "
                              "advisor chooses their sketch";
        op.emitRemark() << "tensorop tune: skipped (" << lowPrecisionSkipped
                        << ")";
        return;
      }
      // A dynamic matmul is tuned at its representative size; the result
      // line names only that size ("m=512 n=512"), as if the module said so.
      if (p->isDynamic())
        op.emitRemark() << "tensorop tune: dynamic dimensions: tuned at "
                        << "M=" << p->m << " N=" << p->n << " K=" << p->k
                        << " (the size the pipeline chooses its sketch for: "
                           "tensorop.size_hint, else 512), whose record "
                           "db= uses for every runtime size";
      if (signatures.insert(opSignature(*p)).second)
        problems.push_back(*p);
    });
    if (problems.empty())
      return createStringError("no supported GEMM or convolution in " + input +
                               (lowPrecisionSkipped.empty()
                                    ? ""
                                    : " (" + lowPrecisionSkipped + ")"));
    for (const auto &problem : problems) {
      if (const auto *p = std::get_if<GemmProblem>(&problem)) {
        if (std::string tooBig = checkGemmBufferBudget(p->m, p->n, p->k);
            !tooBig.empty())
          return createStringError(tooBig);
      } else {
        const ConvProblem &c = std::get<ConvProblem>(problem);
        Conv2DShape s = conv2DShapeOf(c);
        if (std::string tooBig = checkConvBufferBudget(s); !tooBig.empty())
          return createStringError(tooBig);
      }
    }
    allConvolutions = llvm::all_of(problems, [](const auto &problem) {
      return std::holds_alternative<ConvProblem>(problem);
    });
    std::vector<std::unique_ptr<OpTuneSearch>> ops;
    for (const auto &problem : problems) {
      std::unique_ptr<OpTuneSearch> op;
      int64_t startThreads = o.threads, maxThreads = 1;
      if (const auto *p = std::get_if<GemmProblem>(&problem)) {
        // The defaults run on the threads asked (the search varies them):
        // the builtin advisor chooses for that team.
        GemmProblem team = *p;
        team.threads = o.threads;
        Expected<SketchChoice> defaults =
            createBuiltinAdvisor()->propose(team, hints);
        if (!defaults)
          return defaults.takeError();
        defaults->threads = o.threads;
        op = std::make_unique<CpuOpSearch>(*ctx, *p, hints, *defaults,
                                           resolvedTarget, o.emitterDir,
                                           peakGflops);
        maxThreads =
            static_cast<const GemmSearchSpace &>(op->space()).maxThreads();
      } else {
        const ConvProblem &conv = std::get<ConvProblem>(problem);
        Expected<ConvSketchChoice> defaults = builtinConvChoice(conv, hints);
        if (!defaults)
          return defaults.takeError();
        defaults->threads = o.threads;
        op = makeCpuConvSearch(*ctx, conv, hints, *defaults, resolvedTarget,
                               o.emitterDir, peakGflops);
        maxThreads =
            static_cast<const ConvSearchSpace &>(op->space()).maxThreads();
      }
      if (startThreads < 1 || startThreads > maxThreads)
        return createStringError(
            formatv("--threads={0} is outside 1..{1} (this machine's "
                    "hardware threads, capped at the target's cores)",
                    startThreads, maxThreads)
                .str());
      ops.push_back(std::move(op));
    }
    return ops;
  }

  std::optional<std::string> hashOfStoredConfig(StringRef config) override {
    return configHashOfText(ctx.get(), config);
  }

  Error startMeasuring(TuningDB &) override {
    // The rewards' scale (the operators read it at search time).
    peakGflops = measureFmaPeakGflops();
    sys::fs::createUniqueDirectory("tensorop-tune", workDir);
    return Error::success();
  }
  StringRef promptFile() const override { return "gemm_sketch_system.txt"; }
  std::string measuredWhere() const override {
    return "measured here, each candidate in a `tensorop worker` process";
  }
  bool queuesCandidates() const override { return false; }
  bool batchFull(unsigned) const override { return false; }
  std::string builtinNote() const override { return ""; }

  Expected<std::optional<CandidateRecord>>
  measure(OpTuneSearch &op, unsigned, const TuneCandidate &c,
          const CandidateRecord &, int64_t) override {
    auto &cpu = static_cast<CpuTuneOp &>(op);
    std::string symbol = "cand_" + c.hash;
    CandidateRecord result;
    Expected<std::string> object = compile(cpu, symbol, c.config);
    if (!object) {
      result.status = status::kCompileError;
      result.error = toString(object.takeError());
      return result;
    }
    result =
        runWorker(*object, symbol, cpu, c.config, o.rounds, o.candidateTimeout);
    sys::fs::remove(*object);
    return result;
  }

  std::optional<std::vector<ConfirmedSpeed>>
  confirm(OpTuneSearch &op, unsigned, ArrayRef<std::string> configs,
          bool) override {
    auto &cpu = static_cast<CpuTuneOp &>(op);
    std::vector<std::string> objects;
    for (size_t i = 0; i < configs.size(); ++i) {
      Expected<std::string> object =
          compile(cpu, "confirm_" + std::to_string(i), configs[i]);
      if (!object)
        consumeError(object.takeError());
      objects.push_back(object ? *object : "");
    }
    // A convolution's worker also times oneDNN's convolution in the same
    // rounds (the reference of the summary's ratio).
    bool baseline = cpu.hasBaseline();
    std::vector<std::vector<double>> samples(configs.size()),
        references(configs.size());
    for (int round = 0; round < 3; ++round)
      for (size_t i = 0; i < configs.size(); ++i) {
        if (objects[i].empty())
          continue;
        double reference = 0;
        CandidateRecord m = runWorker(
            objects[i], "confirm_" + std::to_string(i), cpu, configs[i],
            o.rounds, o.candidateTimeout, baseline, &reference);
        if (m.status == status::kOk && m.gflops) {
          samples[i].push_back(*m.gflops);
          if (reference > 0)
            references[i].push_back(reference);
        }
      }
    std::vector<ConfirmedSpeed> speeds;
    for (size_t i = 0; i < configs.size(); ++i) {
      if (samples[i].empty())
        continue;
      ConfirmedSpeed s;
      s.config = configs[i];
      s.builtin = i == 0;
      s.gflops = median(samples[i]);
      if (!references[i].empty())
        s.referenceGflops = median(references[i]);
      s.rounds = int64_t(samples[i].size());
      speeds.push_back(std::move(s));
    }
    return speeds;
  }
  std::string confirmationMethod() const override {
    return "builtin and the best three, timed again interleaved, median of 3";
  }
  /// oneDNN where every operator is a convolution (their confirmation
  /// times it in the same rounds); GEMMs have no reference here.
  StringRef referenceName() const override {
    return allConvolutions ? "oneDNN" : "";
  }

  Error finish() override {
    if (!workDir.empty())
      sys::fs::remove_directories(workDir);
    return Error::success();
  }

private:
  /// Lowers and compiles one sketch of `op` to an object in the scratch
  /// directory; the object's path.
  Expected<std::string> compile(const CpuTuneOp &op, StringRef symbol,
                                StringRef config) {
    Expected<LoweredModule> lowered = lowerWithPipeline(
        *ctx, op.moduleSource(symbol, config),
        "target=" + o.target + " advisor=builtin", /*barePtrAbi=*/true);
    if (!lowered)
      return lowered.takeError();
    std::string object = (workDir + "/" + symbol + ".o").str();
    if (Error e = emitObjectFile(*lowered->module, hints.triple, hints.cpu,
                                 hints.features, object))
      return std::move(e);
    return object;
  }

  TuneOptions o;
  std::unique_ptr<mlir::MLIRContext> ctx;
  std::string resolvedTarget;
  TargetHints hints;
  double peakGflops = 0;
  SmallString<128> workDir;
  bool allConvolutions = false;
};

} // namespace

std::unique_ptr<TuneBackend> tensorop::createCpuTuneBackend() {
  return std::make_unique<CpuTuneBackend>();
}

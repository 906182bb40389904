//===- GpuTune.cpp - The NVIDIA hooks of tensorop tune --------------------===//
//
// nvidia-sm80/sm90 in the one tune loop (TuneLoop.cpp): the
// #tensorop.gpu_sketch knobs of each GEMM an NVIDIA target supports
// (GpuSearchSpace; the kernel family stays the builtin advisor's), each
// candidate compiled here (emitter, NVPTX, ptxas) and measured by
// tensorop-gpu-runner, in its own process with a wall-clock limit:
//  - here, when this machine has the GPU;
//  - in a batch (--gpu-batch=DIR): the GPU machine has no MLIR, so the next
//    candidates are compiled into DIR with a run.sh that runs each there;
//    the next call reads the results into the database and writes the next
//    batch, until the budget is spent and a last confirmation batch has run.
//
//===----------------------------------------------------------------------===//

#include "tensorop/Driver/TuneBackend.h"

#include "tensorop/Driver/GpuBatchScript.h"

#include "tensorop/Dialect/TensorOpDialect.h"
#include "tensorop/Emitters/Emitter.h"
#include "tensorop/GPU/GpuAdvisor.h"
#include "tensorop/GPU/GpuGen.h"
#include "tensorop/GPU/GpuSearchSpace.h"
#include "tensorop/Process/ProcessRunner.h"
#include "tensorop/Support/TextFiles.h"
#include "tensorop/Transforms/GpuMatmulSupport.h"
#include "tensorop/Verify/Timing.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <set>

using namespace llvm;
using namespace mlir::tensorop;
using namespace tensorop;

namespace {
/// The library's median in a runner's timing: cuBLAS for GEMMs, cuDNN for
/// convolutions (the runner times whichever fits the kernel).
double libraryTflops(const json::Object &timing) {
  if (std::optional<double> v = timing.getNumber("cublas_tflops_median"))
    return *v;
  return timing.getNumber("cudnn_tflops_median").value_or(0);
}


/// Dense tensor-core / FFMA peak of the H100/H200 SXM (datasheet), the scale
/// of the search's rewards.
double peakTflops(StringRef precision) {
  if (precision == "bf16" || precision == "f16")
    return 990;
  if (precision == "tf32")
    return 495;
  return 67;
}

std::string joinPath(StringRef dir, StringRef file) {
  SmallString<256> p(dir);
  sys::path::append(p, file);
  return std::string(p);
}

/// How one runner process ended, as the runner (or run.sh) left it.
using RunnerOutcome = ::tensorop::ChildOutcome;

/// A runner that cannot set the GPU up at all (no device, no driver) is not
/// the candidate's failure: the tuner stops instead of recording it.
bool isSetupFailure(StringRef error) {
  for (StringRef s : {"cuInit", "cuDeviceGet", "cuDevicePrimaryCtxRetain",
                      "cublasCreate", "cannot read", "usage:",
                      "error while loading shared libraries"})
    if (error.contains(s))
      return true;
  return false;
}

/// The database record of a runner outcome. `setupError` is set instead
/// when the runner could not reach the GPU.
CandidateRecord classify(const RunnerOutcome &o, unsigned limit,
                         std::string &setupError) {
  CandidateRecord r;
  json::Object *obj = nullptr;
  Expected<json::Value> parsed = json::parse(o.stdoutText);
  if (parsed)
    obj = parsed->getAsObject();
  else
    consumeError(parsed.takeError());
  std::string error =
      obj ? obj->getString("error").value_or("").str() : std::string();
  if (o.killed || o.rc == 124 || o.rc == 137) {
    r.status = status::kTimeout;
    r.error = formatv("no result within {0} s; the runner was killed", limit)
                  .str();
    return r;
  }
  if (o.rc == 3) {
    r.status = status::kTimeout;
    r.error = error.empty() ? "the kernel did not finish" : error;
    return r;
  }
  if (o.rc == 2 && isSetupFailure(error + o.stderrText)) {
    setupError = error.empty() ? o.stderrText : error;
    return r;
  }
  if ((o.rc == 0 || o.rc == 1) && obj && obj->get("verified")) {
    bool verified = obj->getBoolean("verified").value_or(false);
    const json::Object *ver = obj->getObject("verification");
    const json::Object *random = ver ? ver->getObject("random") : nullptr;
    if (random)
      if (auto x = random->getNumber("max_error_ratio"))
        r.errorRatio = *x;
    const json::Object *timing = obj->getObject("timing");
    if (verified && o.rc == 0) {
      double tflops = 0, best = 0, ms = 0;
      if (timing) {
        tflops = timing->getNumber("tensorop_tflops_median").value_or(0);
        best = timing->getNumber("tensorop_tflops_best").value_or(0);
        ms = timing->getNumber("tensorop_ms_median").value_or(0);
      }
      if (tflops <= 0) {
        r.status = status::kCrash;
        r.error = "the runner verified the kernel but reported no time";
        return r;
      }
      r.status = status::kOk;
      r.gflops = tflops * 1000;
      r.medianSeconds = ms / 1000;
      r.minSeconds = best > 0 ? ms / 1000 * tflops / best : ms / 1000;
      return r;
    }
    r.status = status::kWrongAnswer;
    std::string detail;
    raw_string_ostream os(detail);
    if (ver)
      os << json::Value(json::Object(*ver));
    r.error = "not verified (the output differs from the fp64 reference): " +
              detail;
    if (timing && timing->getBoolean("faster_than_peak").value_or(false))
      r.error = "faster than the GPU's peak (a kernel that skips work): " +
                detail;
    return r;
  }
  // A CUDA error in the kernel: an illegal address is an out-of-bounds
  // access; anything else (launch failure, trap, a signal) a crash.
  std::string what = StringRef(error.empty() ? o.stderrText : error).trim().str();
  r.status = StringRef(what).contains("ILLEGAL_ADDRESS") ||
                     StringRef(what).contains("MISALIGNED_ADDRESS")
                 ? status::kOutOfBounds
                 : status::kCrash;
  // The CUDA error's name first: listings show the start of the message.
  size_t at = what.find("CUDA_ERROR_");
  std::string name;
  if (at != std::string::npos) {
    size_t end = at;
    while (end < what.size() && (isAlnum(what[end]) || what[end] == '_'))
      ++end;
    name = what.substr(at, end - at) + ": ";
  }
  r.error = name + (o.rc < 0 ? "the runner died" : "the runner failed") +
            " (exit " + std::to_string(o.rc) + ")" +
            (what.empty() ? "" : ": " + what);
  return r;
}

/// Runs `runner` with `args` here, stdout/stderr captured, killed after
/// `limit` seconds; why it could not run, or died, goes to its stderr text
/// (what classify reads).
RunnerOutcome runRunner(StringRef runner, ArrayRef<std::string> args,
                        unsigned limit) {
  RunnerOutcome o = ::tensorop::runWithLimit(runner, args, limit);
  if (o.failedToRun)
    o.stderrText = "cannot run " + runner.str() + ": " + o.message;
  else if (o.rc < 0 && !o.killed)
    o.stderrText += o.message;
  return o;
}

/// What the runner says of the GPU, e.g. "NVIDIA H200 (cc 9.0, 132 SMs,
/// driver 13000)".
std::string describeDevice(StringRef deviceJson) {
  Expected<json::Value> v = json::parse(deviceJson);
  if (!v || !v->getAsObject()) {
    if (!v)
      consumeError(v.takeError());
    return "";
  }
  json::Object &o = *v->getAsObject();
  return formatv("{0} (cc {1}, {2} SMs, driver {3})",
                 o.getString("name").value_or("?"),
                 o.getString("compute_capability").value_or("?"),
                 o.getInteger("sms").value_or(0),
                 o.getInteger("driver").value_or(0))
      .str();
}

class GpuOpSearch : public OpTuneSearch {
public:
  GpuOpSearch(mlir::MLIRContext &ctx, const GpuGemmProblem &p,
              const GpuTarget &target, const GpuSketchChoice &builtinChoice,
              const std::string &device)
      : ctx(ctx), problem(p), target(target), builtinChoice(builtinChoice),
        gpuSpace(p, target, builtinChoice), device(device) {
    signature = gpuOpSignature(p);
    op = p.conv ? Operator::conv2d(gpuConvShape(*p.conv), p.precision,
                                     p.cType)
                : Operator::matmul(p.m, p.n, p.k, p.precision, p.cType);
    raw_string_ostream(builtin.config) << builtinChoice.toAttr(&ctx, target);
    builtin.hash = gpuConfigHash(builtinChoice);
    builtinPoint = gpuSpace.toPoint(builtinChoice);
  }

  const GpuGemmProblem &gemm() const { return problem; }

  const SearchSpace &space() const override { return gpuSpace; }
  std::string knobsTitle() const override {
    return signature + " on " + target.hints.name + " (" +
           builtinChoice.kernel + ")";
  }
  std::optional<TuneCandidate>
  candidateAt(ArrayRef<int64_t> point) override {
    return candidateOf(gpuSpace.toChoice(point));
  }
  std::optional<std::vector<int64_t>> pointOf(StringRef config) override {
    auto attr =
        dyn_cast_or_null<GpuSketchAttr>(mlir::parseAttribute(config, &ctx));
    if (!attr)
      return std::nullopt;
    return gpuSpace.toPoint(GpuSketchChoice::fromAttr(attr));
  }
  std::optional<TuneProposal>
  askModel(const TuneModel &model,
           std::vector<CandidateRecord> history) override {
    // The paper's history prompt: the best and the worst so far with their
    // speed, the failures with their kind.
    const GpuGemmProblem &p = problem;
    std::string what =
        p.conv ? "a convolution (" + signature + ") as the implicit GEMM"
               : std::string("a GEMM");
    std::string text =
        formatv("Tuning {10} M={0} N={1} K={2}, A and B {3}, C {4}, "
                "computed in {5}, on {6} ({7}). The kernel family is {8}; "
                "the builtin sketch is: {9}.\nMeasured so far (TFLOP/s, "
                "higher is better):\n",
                p.m, p.n, p.k, p.aType, p.cType, p.precision,
                target.hints.name,
                device.empty() ? "the batch's GPU" : device,
                builtinChoice.kernel, builtinChoice.describe(), what)
            .str() +
        historyForModel(std::move(history), 1e-3,
                        [&](const CandidateRecord &r) {
                          auto attr = dyn_cast_or_null<GpuSketchAttr>(
                              mlir::parseAttribute(r.config, &ctx));
                          return attr ? GpuSketchChoice::fromAttr(attr)
                                            .describe()
                                      : r.config;
                        });
    std::optional<GpuSketchChoice> choice =
        askModelForProposal<GpuSketchChoice>(
            model, text, [&](StringRef answer) {
              return checkGpuSketchAnswer(answer, p, target, builtinChoice,
                                          "llm:" + model.model);
            });
    if (!choice)
      return std::nullopt;
    return TuneProposal{candidateOf(*choice), gpuSpace.toPoint(*choice)};
  }
  double reward(double gflops) const override {
    return std::min(1.0, gflops / 1000 / peakTflops(problem.precision));
  }
  std::string emitterHash() const override {
    return emitterSourceHash(defaultEmitterDir(), builtinChoice.emitter());
  }
  void describeSpace(json::Object &summary) const override {
    summary["space_size_first_level"] = int64_t(gpuSpace.options(0, {}).size());
  }

private:
  /// Pruned by the same check the lowering applies: not a candidate.
  std::optional<TuneCandidate> candidateOf(const GpuSketchChoice &choice) {
    if (Error e = checkGpuSketch(choice, problem, target)) {
      consumeError(std::move(e));
      return std::nullopt;
    }
    TuneCandidate c;
    raw_string_ostream(c.config) << choice.toAttr(&ctx, target);
    c.hash = gpuConfigHash(choice);
    return c;
  }

  mlir::MLIRContext &ctx;
  GpuGemmProblem problem;
  GpuTarget target;
  GpuSketchChoice builtinChoice;
  GpuSearchSpace gpuSpace;
  const std::string &device; ///< the backend's, known after startMeasuring
};

class NvidiaTuneBackend : public TuneBackend {
public:
  StringRef unit() const override { return "TFLOP/s"; }
  double gflopsPerUnit() const override { return 1000; }
  mlir::MLIRContext &context() override { return *ctx; }

  Error setUp(const TuneOptions &options) override {
    o = options;
    batch = !o.batchDir.empty();
    Expected<GpuTarget> t = loadGpuTarget(o.target);
    if (!t)
      return t.takeError();
    gpu = *t;
    ctx = makeGpuCompilerContext();
    return Error::success();
  }
  std::string target() const override { return o.target; }
  // GPU rows are keyed by the target; the device that measured them is in
  // their provenance.
  std::string fingerprint() const override { return gpu->hints.name; }

  Expected<std::vector<std::unique_ptr<OpTuneSearch>>>
  match(mlir::ModuleOp module, StringRef input) override {
    std::vector<GpuGemmProblem> problems;
    std::set<std::string> signatures;
    auto add = [&](mlir::Operation *op, FailureOr<GpuGemmProblem> p,
                   const std::string &reason) {
      if (failed(p)) {
        op->emitRemark() << "tensorop tune: skipped (" << reason << ")";
        return;
      }
      if (signatures.insert(gpuOpSignature(*p)).second)
        problems.push_back(*p);
    };
    // In module order: matmuls and convolutions (implicit GEMMs).
    module.walk([&](mlir::Operation *op) {
      std::string reason;
      // The pipeline runs a batch matmul's slices as linalg.matmuls: said,
      // with what to tune instead (skipped without a word before).
      if (std::string why = batchMatmulNotTuned(op); !why.empty())
        op->emitRemark() << "tensorop tune: skipped (" << why << ")";
      else if (auto mm = dyn_cast<mlir::linalg::MatmulOp>(op))
        add(op, matchGpuMatmul(mm, reason), reason);
      else if (auto conv = dyn_cast<mlir::linalg::Conv2DNhwcHwcfOp>(op))
        add(op, matchGpuConv(conv, gpuConvInputPadding(conv), reason),
            reason);
      else if (isa<mlir::linalg::ConvolutionOpInterface>(op))
        // The NVIDIA pipeline refuses every other convolution (NCHW,
        // depthwise, ...): said here too, not skipped without a word.
        op->emitRemark() << "tensorop tune: skipped (NVIDIA targets run "
                            "only linalg.conv_2d_nhwc_hwcf convolutions; "
                         << op->getName()
                         << " is refused by their pipeline)";
    });
    if (problems.empty())
      return createStringError("no GEMM or convolution an NVIDIA target "
                               "supports in " +
                               input);
    std::vector<std::unique_ptr<OpTuneSearch>> ops;
    // An op no kernel takes is skipped, said by name; the others are tuned.
    std::string skipped;
    for (const GpuGemmProblem &p : problems) {
      Expected<GpuSketchChoice> builtin = proposeGpuSketch(p, *gpu);
      if (!builtin) {
        std::string why = toString(builtin.takeError());
        errs() << "tensorop tune: skipped '" << gpuOpSignature(p)
               << "' (no NVIDIA kernel: " << why << ")\n";
        skipped += "\n  " + gpuOpSignature(p) + ": " + why;
        continue;
      }
      ops.push_back(
          std::make_unique<GpuOpSearch>(*ctx, p, *gpu, *builtin, device));
    }
    if (ops.empty())
      return createStringError("no NVIDIA kernel for any op of " + input +
                               ":" + skipped);
    return ops;
  }

  std::optional<std::string> hashOfStoredConfig(StringRef config) override {
    return gpuConfigHashOfText(ctx.get(), config);
  }

  Error startMeasuring(TuningDB &db) override {
    this->db = &db;
    // Where the runner runs: here (check it finds a GPU first), or on the
    // machine run.sh is taken to.
    if (!batch) {
      RunnerOutcome info = runRunner(o.runner, {"--device-info"}, 60);
      if (info.rc != 0)
        return createStringError("no GPU to measure on: `" + o.runner +
                    " --device-info` failed: " +
                    StringRef(info.stdoutText + info.stderrText).trim() +
                    "\n  Tune on the GPU machine, or compile the candidates "
                    "here with --gpu-batch=DIR and run DIR/run.sh there.");
      device = describeDevice(info.stdoutText);
      Expected<json::Value> v = json::parse(info.stdoutText);
      std::string cc;
      if (v && v->getAsObject())
        cc = v->getAsObject()->getString("compute_capability").value_or("").str();
      else if (!v)
        consumeError(v.takeError());
      int major = cc.empty() ? 0 : std::atoi(cc.c_str());
      if ((gpu->sm >= 90 && major != 9) || major * 10 < gpu->sm)
        return createStringError("the GPU here is " + device + "; target " + o.target +
                    " needs compute capability " +
                    std::to_string(gpu->sm / 10) + "." +
                    std::to_string(gpu->sm % 10));
      errs() << "tensorop tune: measuring on " << device << " with " << o.runner
             << "\n";
    }
    // A batch that came back from the GPU machine: its results go into the
    // database before anything else.
    confirmationPath = batch ? joinPath(o.batchDir, "confirmation.json") : "";
    if (batch) {
      if (std::error_code ec = sys::fs::create_directories(o.batchDir))
        return createStringError("cannot create " + o.batchDir + ": " + ec.message());
      std::string manifestPath = joinPath(o.batchDir, "batch.json");
      if (sys::fs::exists(manifestPath)) {
        if (!sys::fs::exists(joinPath(o.batchDir, "done")))
          return createStringError(o.batchDir +
                      " holds a batch that has not run (to the end) yet: run `sh " +
                      joinPath(o.batchDir, "run.sh") +
                      "` on the GPU machine (tensorop-gpu-runner on PATH or "
                      "TENSOROP_GPU_RUNNER set), bring the directory back and "
                      "rerun this command. To drop the batch, delete the "
                      "directory (its candidates stay 'pending' and are "
                      "compiled again later).");
        Expected<json::Value> manifest = json::parse(readTextFile(manifestPath));
        if (!manifest || !manifest->getAsObject()) {
          if (!manifest)
            consumeError(manifest.takeError());
          return createStringError(manifestPath + " is not a batch manifest");
        }
        json::Object &m = *manifest->getAsObject();
        std::string batchDevice =
            describeDevice(readTextFile(joinPath(o.batchDir, "device.json")));
        bool confirm = m.getString("kind").value_or("") == "confirm";
        std::map<std::string, unsigned> kinds;
        // Confirmation samples: op -> config -> (ours, cuBLAS).
        std::map<std::string,
                 std::map<std::string, std::pair<std::vector<double>,
                                                 std::vector<double>>>>
            samples;
        std::map<std::string, std::string> builtinOf;
        const json::Array *entries = m.getArray("entries");
        for (const json::Value &ev : entries ? *entries : json::Array()) {
          const json::Object *e = ev.getAsObject();
          if (!e)
            continue;
          std::string base = e->getString("file").value_or("").str();
          RunnerOutcome out;
          std::string rcText =
              StringRef(readTextFile(joinPath(o.batchDir, base + ".rc"))).trim().str();
          out.rc = rcText.empty() ? -1 : std::atoi(rcText.c_str());
          out.stdoutText = readTextFile(joinPath(o.batchDir, base + ".result.json"));
          out.stderrText =
              readTextFile(joinPath(o.batchDir, base + ".result.json.err"));
          std::string setupError;
          CandidateRecord r = classify(out, unsigned(m.getInteger("timeout")
                                                        .value_or(o.candidateTimeout)),
                                       setupError);
          if (!setupError.empty())
            return createStringError("the GPU machine's runner could not use the GPU: " +
                        setupError + "\n  (" + o.batchDir +
                        " is kept; fix the machine and run run.sh again)");
          if (confirm) {
            std::string op = e->getString("op").value_or("").str();
            std::string config = e->getString("config").value_or("").str();
            if (e->getBoolean("builtin").value_or(false))
              builtinOf[op] = config;
            auto &slot = samples[op][config];
            if (r.status == status::kOk) {
              Expected<json::Value> v = json::parse(out.stdoutText);
              if (v && v->getAsObject())
                if (const json::Object *t =
                        v->getAsObject()->getObject("timing")) {
                  slot.first.push_back(
                      t->getNumber("tensorop_tflops_median").value_or(0));
                  slot.second.push_back(
                      libraryTflops(*t));
                }
              if (!v)
                consumeError(v.takeError());
            }
            continue;
          }
          int64_t id = e->getInteger("id").value_or(-1);
          // The GPU of a several-GPU batch (run.sh writes FILE.gpu).
          std::string gpu =
              StringRef(readTextFile(joinPath(o.batchDir, base + ".gpu")))
                  .trim()
                  .str();
          r.provenance =
              e->getString("provenance").value_or("").str() + "; measured on " +
              (batchDevice.empty() ? "the batch's GPU" : batchDevice) +
              (gpu.empty() || gpu == "default" ? "" : ", GPU " + gpu);
          r.emitterHash = e->getString("emitter_hash").value_or("").str();
          if (r.error.size() > 4000)
            r.error = r.error.substr(0, 4000) + "...";
          if (Error err = db.finish(id, r))
            return createStringError(toString(std::move(err)));
          ++kinds[r.status];
        }
        if (confirm) {
          for (auto &[op, configs] : samples) {
            json::Array rows;
            for (auto &[config, s] : configs) {
              double ours = s.first.empty() ? 0 : median(s.first);
              double blas = s.second.empty() ? 0 : median(s.second);
              rows.push_back(json::Object{{"config", config},
                                          {"builtin", builtinOf[op] == config},
                                          {"tflops_median", ours},
                                          {"cublas_tflops_median", blas},
                                          {"rounds", int64_t(s.first.size())}});
            }
            confirmationDoc[op] = std::move(rows);
          }
          confirmationDoc["device"] = batchDevice;
          if (Error err = writeTextFile(
                  confirmationPath,
                  formatv("{0:2}\n", json::Value(json::Object(confirmationDoc)))
                      .str()))
            return createStringError(toString(std::move(err)));
          errs() << "tensorop tune: read the confirmation batch from "
                 << o.batchDir << " (" << batchDevice << ")\n";
        } else {
          std::string counts;
          for (auto &[kind, n] : kinds)
            counts += " " + kind + "=" + std::to_string(n);
          errs() << "tensorop tune: read " << (entries ? entries->size() : 0)
                 << " results from " << o.batchDir << " (" << batchDevice
                 << "):" << counts << "\n";
        }
        // The batch is in the database now; its files go.
        std::error_code ec;
        for (sys::fs::directory_iterator it(o.batchDir, ec), end;
             it != end && !ec; it.increment(ec))
          if (sys::path::filename(it->path()) != "confirmation.json")
            sys::fs::remove(it->path());
      }
      if (sys::fs::exists(confirmationPath)) {
        Expected<json::Value> v = json::parse(readTextFile(confirmationPath));
        if (v && v->getAsObject())
          confirmationDoc = std::move(*v->getAsObject());
        else if (!v)
          consumeError(v.takeError());
      }
    }
    if (batch)
      workDir = o.batchDir;
    else
      sys::fs::createUniqueDirectory("tensorop-gpu-tune", workDir);
    runnerArgsNote = formatv("--rounds {0} --no-cublas --timeout {1}",
                             o.rounds, std::max(1u, o.candidateTimeout / 2))
                         .str();
    return Error::success();
  }
  StringRef promptFile() const override { return "gpu_sketch_system.txt"; }
  std::string measuredWhere() const override {
    return batch ? "batches in `" + o.batchDir + "`" : "measured on " + device;
  }
  bool queuesCandidates() const override { return batch; }
  bool batchFull(unsigned queued) const override {
    return batch && queued >= o.batchSize;
  }
  std::string builtinNote() const override { return " (the builtin sketch)"; }

  Expected<std::optional<CandidateRecord>>
  measure(OpTuneSearch &op, unsigned opIndex, const TuneCandidate &c,
          const CandidateRecord &start, int64_t id) override {
    auto &gpuOp = static_cast<GpuOpSearch &>(op);
    std::string name = formatv("op{0}_{1}", opIndex, c.hash).str();
    Expected<GpuCompiledKernel> compiled =
        compileGpuKernel(*ctx, gpuOp.gemm(), o.target, c.config, workDir, name);
    if (!compiled) {
      CandidateRecord r = start;
      r.status = status::kCompileError;
      r.error = toString(compiled.takeError());
      return r;
    }
    if (batch) {
      entries.push_back(json::Object{
          {"id", id},
          {"op", op.signature},
          {"config", c.config},
          {"hash", c.hash},
          {"file", name},
          {"launch", sys::path::filename(compiled->launchPath).str()},
          {"provenance", start.provenance},
          {"emitter_hash", op.emitterHash()}});
      return std::nullopt;
    }
    RunnerOutcome out = runRunner(
        o.runner,
        {compiled->launchPath, "--rounds", std::to_string(o.rounds),
         "--no-cublas", "--timeout",
         std::to_string(std::max(1u, o.candidateTimeout / 2))},
        o.candidateTimeout);
    std::string setupError;
    CandidateRecord r = classify(out, o.candidateTimeout, setupError);
    if (!setupError.empty()) {
      if (Error e = db->forget(id))
        consumeError(std::move(e));
      return createStringError("the runner could not use the GPU: " +
                               setupError);
    }
    r.provenance = start.provenance + "; measured on " + device;
    sys::fs::remove(compiled->launchPath);
    sys::fs::remove(compiled->binaryPath);
    return r;
  }

  std::optional<std::vector<ConfirmedSpeed>>
  confirm(OpTuneSearch &op, unsigned opIndex, ArrayRef<std::string> configs,
          bool searchFinished) override {
    auto &gpuOp = static_cast<GpuOpSearch &>(op);
    if (!batch)
      return confirmHere(gpuOp, configs);
    if (const json::Array *rows = confirmationDoc.getArray(op.signature)) {
      // The confirmation batch ran on the GPU machine.
      std::vector<ConfirmedSpeed> speeds;
      for (const json::Value &v : *rows)
        if (const json::Object *c = v.getAsObject())
          speeds.push_back(ConfirmedSpeed{
              c->getString("config").value_or("").str(),
              c->getBoolean("builtin").value_or(false),
              c->getNumber("tflops_median").value_or(0) * 1000,
              c->getNumber("cublas_tflops_median").value_or(0) * 1000,
              c->getInteger("rounds").value_or(0)});
      return speeds;
    }
    if (searchFinished && !configs.empty()) {
      // The last batch: the confirmation runs on the GPU machine too,
      // interleaved as confirmHere runs it (round by round: builtin, best,
      // 2nd, 3rd, builtin, ...), so that a drift of the GPU's clocks over
      // the batch falls on every sketch alike.
      std::vector<std::pair<size_t, std::string>> compiled; // config, launch
      for (size_t i = 0; i < configs.size(); ++i) {
        std::string name = formatv("confirm{0}_{1}", opIndex, i).str();
        Expected<GpuCompiledKernel> k = compileGpuKernel(
            *ctx, gpuOp.gemm(), o.target, configs[i], workDir, name);
        if (!k) {
          consumeError(k.takeError());
          continue;
        }
        compiled.emplace_back(i, sys::path::filename(k->launchPath).str());
      }
      for (int round = 0; round < 3; ++round)
        for (const auto &[i, launch] : compiled)
          confirmEntries.push_back(json::Object{
              {"op", op.signature},
              {"config", configs[i]},
              {"builtin", i == 0},
              {"file", formatv("confirm{0}_{1}_r{2}", opIndex, i, round).str()},
              {"launch", launch},
              {"round", round}});
    }
    return std::nullopt;
  }
  std::string confirmationMethod() const override {
    return "builtin and the best three timed again, interleaved, 3 runner "
           "processes each, against cuBLAS in the same process";
  }
  StringRef referenceName() const override { return "cuBLAS"; }

  Error finish() override {
    if (!batch && !workDir.empty())
      sys::fs::remove_directories(workDir);
    bool confirm = entries.empty() && !confirmEntries.empty();
    if (confirm)
      entries = std::move(confirmEntries);
    if (batch && !entries.empty()) {
      GpuBatchScriptOptions script;
      script.gpus = o.gpus.empty() ? "all" : o.gpus;
      script.timeoutSeconds = o.candidateTimeout;
      script.confirmation = confirm;
      std::string timeoutArg =
          std::to_string(std::max(1u, o.candidateTimeout / 2));
      std::vector<GpuBatchJob> jobs;
      for (const json::Value &v : entries) {
        const json::Object &e = *v.getAsObject();
        GpuBatchJob job;
        job.file = e.getString("file").value_or("").str();
        job.runnerArgs.push_back(e.getString("launch").value_or("").str());
        std::string argText =
            confirm ? "--rounds 10 --timeout " + timeoutArg : runnerArgsNote;
        SmallVector<StringRef> args;
        StringRef(argText).split(args, ' ', -1, false);
        for (StringRef a : args)
          job.runnerArgs.push_back(a.str());
        jobs.push_back(std::move(job));
      }
      std::string runScript = gpuBatchRunScript(script, jobs);
      json::Object manifest{{"tool", "tensorop tune"},
                            {"kind", confirm ? "confirm" : "candidates"},
                            {"target", o.target},
                            {"db", o.dbPath},
                            {"timeout", int64_t(o.candidateTimeout)},
                            {"entries", std::move(entries)}};
      if (Error e = writeTextFile(joinPath(o.batchDir, "run.sh"), runScript))
        return createStringError(toString(std::move(e)));
      if (Error e = writeTextFile(
              joinPath(o.batchDir, "batch.json"),
              formatv("{0:2}\n", json::Value(std::move(manifest))).str()))
        return createStringError(toString(std::move(e)));
      if (o.batchRunsHere)
        errs() << "tensorop tune: queued " << jobs.size()
               << (confirm ? " confirmation runs" : " candidates") << "\n";
      else
        errs() << "tensorop tune: wrote a " << (confirm ? "confirmation " : "")
               << "batch of " << (confirm ? "runs" : "candidates") << " to "
               << o.batchDir << ". Run `sh " << joinPath(o.batchDir, "run.sh")
               << "` on the GPU machine (with tensorop-gpu-runner on PATH or "
                  "TENSOROP_GPU_RUNNER=/path/to/it), bring "
               << o.batchDir << " back and rerun this command.\n";
    }
    return Error::success();
  }

private:
  /// The builtin sketch and the best three, timed again interleaved, each
  /// against cuBLAS in the same runner process.
  std::vector<ConfirmedSpeed> confirmHere(GpuOpSearch &op,
                                          ArrayRef<std::string> configs) {
    std::vector<std::pair<std::vector<double>, std::vector<double>>> s(
        configs.size());
    std::vector<std::string> launches(configs.size());
    for (size_t i = 0; i < configs.size(); ++i) {
      Expected<GpuCompiledKernel> k =
          compileGpuKernel(*ctx, op.gemm(), o.target, configs[i], workDir,
                           "confirm_" + std::to_string(i));
      if (k)
        launches[i] = k->launchPath;
      else
        consumeError(k.takeError());
    }
    for (int round = 0; round < 3; ++round)
      for (size_t i = 0; i < configs.size(); ++i) {
        if (launches[i].empty())
          continue;
        RunnerOutcome out = runRunner(
            o.runner,
            {launches[i], "--rounds", "10", "--timeout",
             std::to_string(std::max(1u, o.candidateTimeout / 2))},
            o.candidateTimeout);
        Expected<json::Value> v = json::parse(out.stdoutText);
        if (out.rc == 0 && v && v->getAsObject())
          if (const json::Object *t = v->getAsObject()->getObject("timing")) {
            s[i].first.push_back(
                t->getNumber("tensorop_tflops_median").value_or(0));
            s[i].second.push_back(
                libraryTflops(*t));
          }
        if (!v)
          consumeError(v.takeError());
      }
    std::vector<ConfirmedSpeed> speeds;
    for (size_t i = 0; i < configs.size(); ++i)
      speeds.push_back(ConfirmedSpeed{
          configs[i], i == 0,
          (s[i].first.empty() ? 0.0 : median(s[i].first)) * 1000,
          (s[i].second.empty() ? 0.0 : median(s[i].second)) * 1000,
          int64_t(s[i].first.size())});
    return speeds;
  }

  TuneOptions o;
  bool batch = false;
  std::optional<GpuTarget> gpu;
  std::unique_ptr<mlir::MLIRContext> ctx;
  TuningDB *db = nullptr;
  /// What the runner here says of the GPU ("" in batch mode).
  std::string device;
  SmallString<128> workDir;
  std::string runnerArgsNote;
  /// Confirmation results read back from a batch: op -> rows.
  json::Object confirmationDoc;
  std::string confirmationPath;
  json::Array entries; ///< the next batch of candidates
  /// Confirmation runs wait until no op has candidates left to measure: one
  /// batch is either candidates or the confirmation.
  json::Array confirmEntries;
};

} // namespace

std::unique_ptr<TuneBackend> tensorop::createNvidiaTuneBackend() {
  return std::make_unique<NvidiaTuneBackend>();
}

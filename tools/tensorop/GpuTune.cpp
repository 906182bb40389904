//===- GpuTune.cpp - tensorop tune for NVIDIA targets ---------------------===//

#include "GpuTune.h"
#include "TextFiles.h"
#include "TuneModel.h"

#include "tensorop/Dialect/TensorOpDialect.h"
#include "tensorop/Emitters/Emitter.h"
#include "tensorop/GPU/GpuAdvisor.h"
#include "tensorop/GPU/GpuGen.h"
#include "tensorop/GPU/GpuSearchSpace.h"
#include "tensorop/LLM/LLMClient.h"
#include "tensorop/Process/ProcessRunner.h"
#include "tensorop/Targets/TargetHints.h"
#include "tensorop/Tuner/MCTS.h"
#include "tensorop/Tuner/TuneKnobs.h"
#include "tensorop/Tuner/TuneOutcome.h"
#include "tensorop/Tuner/TuningDB.h"
#include "tensorop/Verify/CpuGemm.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <map>
#include <set>

using namespace llvm;
using namespace mlir::tensorop;
using tensorop::GpuTuneOptions;
using tensorop::readTextFile;
using tensorop::writeTextFile;
using ::tensorop::historyForModel;

namespace {

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

std::string shellQuote(StringRef s) {
  std::string out = "'";
  for (char c : s)
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

struct OpState {
  GpuGemmProblem problem;
  std::string signature;
  GpuSketchChoice builtin;
  std::string builtinConfig, builtinHash;
};

} // namespace

std::string tensorop::progressSvg(const std::vector<double> &bestSoFar,
                                  const std::string &title,
                                  const std::string &unit) {
  const double w = 640, h = 360, left = 60, right = 20, top = 40,
               bottom = 50;
  double maxY = 1;
  for (double v : bestSoFar)
    maxY = std::max(maxY, v);
  maxY *= 1.1;
  size_t n = std::max<size_t>(bestSoFar.size(), 2);
  auto x = [&](size_t i) { return left + (w - left - right) * i / (n - 1); };
  auto y = [&](double v) { return top + (h - top - bottom) * (1 - v / maxY); };
  std::string s;
  raw_string_ostream os(s);
  os << formatv("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" "
                "height=\"{1}\" font-family=\"sans-serif\" font-size=\"12\">\n",
                w, h);
  os << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  os << formatv("<text x=\"{0}\" y=\"20\" font-size=\"14\">{1}</text>\n",
                left, title);
  os << formatv("<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" "
                "stroke=\"black\"/>\n",
                left, h - bottom, w - right);
  os << formatv("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" "
                "stroke=\"black\"/>\n",
                left, top, h - bottom);
  for (int t = 0; t <= 4; ++t) {
    double v = maxY * t / 4;
    os << formatv("<text x=\"5\" y=\"{0}\">{1:F0}</text>\n", y(v) + 4, v);
  }
  os << formatv("<text x=\"{0}\" y=\"{1}\">candidates tried ({2})</text>\n",
                w / 2 - 60, h - 15, bestSoFar.size());
  os << formatv("<text x=\"5\" y=\"{0}\">{1}</text>\n", top - 8, unit);
  os << "<polyline fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"2\" "
        "points=\"";
  for (size_t i = 0; i < bestSoFar.size(); ++i)
    os << formatv("{0:F1},{1:F1} ", x(i), y(bestSoFar[i]));
  os << "\"/>\n</svg>\n";
  return s;
}

int tensorop::runGpuTune(const GpuTuneOptions &o) {
  auto fail = [](const Twine &msg) {
    errs() << "tensorop tune: " << msg << "\n";
    return 2;
  };
  bool batch = !o.batchDir.empty();
  Expected<GpuTarget> target = loadGpuTarget(o.target);
  if (!target)
    return fail(toString(target.takeError()));
  std::unique_ptr<mlir::MLIRContext> context = makeGpuCompilerContext();
  mlir::MLIRContext &ctx = *context;
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(o.input, &ctx);
  if (!module)
    return fail("cannot parse " + o.input);
  std::vector<OpState> ops;
  std::set<std::string> signatures;
  module->walk([&](mlir::linalg::MatmulOp op) {
    std::string reason;
    FailureOr<GpuGemmProblem> p = matchGpuMatmul(op, reason);
    if (failed(p)) {
      op.emitRemark() << "tensorop tune: skipped (" << reason << ")";
      return;
    }
    OpState s;
    s.problem = *p;
    s.signature = gpuOpSignature(*p);
    if (signatures.insert(s.signature).second)
      ops.push_back(s);
  });
  if (ops.empty())
    return fail("no GEMM an NVIDIA target supports in " + o.input);
  for (OpState &s : ops) {
    Expected<GpuSketchChoice> builtin = proposeGpuSketch(s.problem, *target);
    if (!builtin)
      return fail(toString(builtin.takeError()));
    s.builtin = *builtin;
    raw_string_ostream(s.builtinConfig) << s.builtin.toAttr(&ctx, *target);
    s.builtinHash = gpuConfigHash(s.builtin);
  }

  if (o.printKnobs) {
    for (OpState &s : ops) {
      GpuSearchSpace space(s.problem, *target, s.builtin);
      if (std::optional<std::vector<int64_t>> point =
              space.toPoint(s.builtin))
        outs() << printTuneKnobs(space, *point,
                                 s.signature + " on " + o.target + " (" +
                                     s.builtin.kernel + ")");
    }
    return 0;
  }
  std::vector<KnobConstraint> knobs;
  if (!o.knobsFile.empty()) {
    Expected<std::vector<KnobConstraint>> read = readTuneKnobs(o.knobsFile);
    if (!read)
      return fail(toString(read.takeError()));
    knobs = std::move(*read);
  }
  if (o.dbPath.empty())
    return fail("--db=PATH is required");
  Expected<std::unique_ptr<TuningDB>> opened = TuningDB::open(o.dbPath);
  if (!opened)
    return fail(toString(opened.takeError()));
  TuningDB &db = **opened;
  db.setConfigHasher([&ctx](StringRef config) {
    return gpuConfigHashOfText(&ctx, config);
  });
  // GPU rows are keyed by the target; the device that measured them is in
  // their provenance.
  const std::string fingerprint = target->hints.name;
  std::string emitterDir = std::getenv("TENSOROP_EMITTER_DIR")
                               ? std::getenv("TENSOROP_EMITTER_DIR")
                               : std::string(TENSOROP_SOURCE_DIR) +
                                     "/python_emitters";

  // Where the runner runs: here (check it finds a GPU first), or on the
  // machine run.sh is taken to.
  std::string device;
  if (!batch) {
    RunnerOutcome info = runRunner(o.runner, {"--device-info"}, 60);
    if (info.rc != 0)
      return fail("no GPU to measure on: `" + o.runner +
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
    if ((target->sm >= 90 && major != 9) || major * 10 < target->sm)
      return fail("the GPU here is " + device + "; target " + o.target +
                  " needs compute capability " +
                  std::to_string(target->sm / 10) + "." +
                  std::to_string(target->sm % 10));
    errs() << "tensorop tune: measuring on " << device << " with " << o.runner
           << "\n";
  }

  // A batch that came back from the GPU machine: its results go into the
  // database before anything else.
  json::Object confirmationDoc;
  std::string confirmationPath =
      batch ? joinPath(o.batchDir, "confirmation.json") : "";
  if (batch) {
    if (std::error_code ec = sys::fs::create_directories(o.batchDir))
      return fail("cannot create " + o.batchDir + ": " + ec.message());
    std::string manifestPath = joinPath(o.batchDir, "batch.json");
    if (sys::fs::exists(manifestPath)) {
      if (!sys::fs::exists(joinPath(o.batchDir, "done")))
        return fail(o.batchDir +
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
        return fail(manifestPath + " is not a batch manifest");
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
          return fail("the GPU machine's runner could not use the GPU: " +
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
                    t->getNumber("cublas_tflops_median").value_or(0));
              }
            if (!v)
              consumeError(v.takeError());
          }
          continue;
        }
        int64_t id = e->getInteger("id").value_or(-1);
        r.provenance = e->getString("provenance").value_or("").str() +
                       "; measured on " +
                       (batchDevice.empty() ? "the batch's GPU" : batchDevice);
        r.emitterHash = e->getString("emitter_hash").value_or("").str();
        if (r.error.size() > 4000)
          r.error = r.error.substr(0, 4000) + "...";
        if (Error err = db.finish(id, r))
          return fail(toString(std::move(err)));
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
          return fail(toString(std::move(err)));
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

  // The model, asked every --llm-every candidates for a proposal.
  Expected<TuneModel> model = openTuneModel(o.advisor, "gpu_sketch_system.txt");
  if (!model)
    return fail(toString(model.takeError()));
  LLMClient *llm = model->client.get();
  const std::string &llmModel = model->model, &llmSystem = model->system;

  SmallString<128> workDir;
  if (batch)
    workDir = o.batchDir;
  else
    sys::fs::createUniqueDirectory("tensorop-gpu-tune", workDir);
  bool tty = sys::Process::StandardErrIsDisplayed();
  auto deadline = std::chrono::steady_clock::now() +
                  std::chrono::milliseconds(int64_t(o.seconds * 1000));
  std::string runnerArgsNote =
      formatv("--rounds {0} --no-cublas --timeout {1}", o.rounds,
              std::max(1u, o.candidateTimeout / 2))
          .str();
  json::Array entries; // The next batch (batch mode).
  // Confirmation runs wait until no op has candidates left to measure: one
  // batch is either candidates or the confirmation.
  json::Array confirmEntries;
  json::Array summaries;
  // One line per op for stdout (formatTuneOutcome).
  std::vector<std::string> outcomes;
  std::string markdown = "# tensorop tune (" + o.target + ")\n\nInput `" +
                         o.input + "`, budget " + std::to_string(o.budget) +
                         " candidates per op, seed " + std::to_string(o.seed) +
                         ", database `" + o.dbPath + "`, " +
                         (batch ? "batches in `" + o.batchDir + "`"
                                : "measured on " + device) +
                         ".\n\n";
  int exitCode = 0;
  unsigned opIndex = 0;
  for (OpState &op : ops) {
    ++opIndex;
    const GpuGemmProblem &p = op.problem;
    const std::string &sig = op.signature;
    GpuSearchSpace space(p, *target, op.builtin);
    // The tree searches the space as --knobs restricts it (if given).
    Expected<std::unique_ptr<ConstrainedSpace>> searchSpace =
        ConstrainedSpace::create(space, knobs);
    if (!searchSpace)
      return fail(toString(searchSpace.takeError()));
    MCTS search(**searchSpace, o.seed);
    double peak = peakTflops(p.precision);
    std::string emitterHash =
        emitterSourceHash(emitterDir, op.builtin.emitter());
    unsigned done = 0, resumed = 0, queued = 0;
    double best = 0;
    std::map<std::string, int> failures;
    std::map<std::string, int64_t> abandoned; // pending rows, by hash
    auto reward = [&](const CandidateRecord &r) {
      return r.status == status::kOk
                 ? std::min(1.0, r.gflops.value_or(0) / 1000 / peak)
                 : 0.0;
    };
    // The history (this run's earlier batches, or an earlier run) rebuilds
    // the tree before it grows.
    Expected<std::vector<CandidateRecord>> rows = db.list(sig);
    if (!rows)
      return fail(toString(rows.takeError()));
    for (const CandidateRecord &r : *rows) {
      if (r.targetFingerprint != fingerprint)
        continue;
      if (r.status == status::kPending) {
        abandoned[r.configHash] = r.id;
        continue;
      }
      auto attr = dyn_cast_or_null<GpuSketchAttr>(
          mlir::parseAttribute(r.config, &ctx));
      if (attr)
        if (auto point = space.toPoint(GpuSketchChoice::fromAttr(attr)))
          search.observe(*point, reward(r));
      ++done;
      ++resumed;
      if (r.status != status::kOk)
        ++failures[r.status];
      best = std::max(best, r.status == status::kOk
                                ? r.gflops.value_or(0) / 1000
                                : 0.0);
    }
    auto progress = [&](bool final) {
      std::string fails;
      for (auto &[kind, count] : failures)
        fails += " " + kind + "=" + std::to_string(count);
      std::string line =
          formatv("[tune] {0}: {1}/{2} candidates ({3} from the db), best "
                  "{4:F1} TFLOP/s, failures:{5}",
                  sig, done, o.budget, resumed, best,
                  fails.empty() ? " none" : fails)
              .str();
      if (tty)
        errs() << "\r" << line << "\033[K" << (final ? "\n" : "");
      else
        errs() << line << "\n";
    };
    // The paper's history prompt: the best and the worst so far with their
    // speed, the failures with their kind.
    unsigned askedAt = ~0u;
    auto askModel = [&](const OpState &op) -> std::optional<GpuSketchChoice> {
      Expected<std::vector<CandidateRecord>> rows = db.list(op.signature);
      std::vector<CandidateRecord> history;
      if (rows)
        history = std::move(*rows);
      else
        consumeError(rows.takeError());
      llvm::erase_if(history, [&](const CandidateRecord &r) {
        return r.targetFingerprint != fingerprint ||
               r.status == status::kPending;
      });
      std::string text =
          formatv("Tuning a GEMM M={0} N={1} K={2}, A and B {3}, C {4}, "
                  "computed in {5}, on {6} ({7}). The kernel family is {8}; "
                  "the builtin sketch is: {9}.\nMeasured so far (TFLOP/s, "
                  "higher is better):\n",
                  p.m, p.n, p.k, p.aType, p.cType, p.precision, o.target,
                  device.empty() ? "the batch's GPU" : device,
                  op.builtin.kernel, op.builtin.describe())
              .str() +
          historyForModel(std::move(history), 1e-3,
                          [&](const CandidateRecord &r) {
                            auto attr = dyn_cast_or_null<GpuSketchAttr>(
                                mlir::parseAttribute(r.config, &ctx));
                            return attr ? GpuSketchChoice::fromAttr(attr)
                                              .describe()
                                        : r.config;
                          });
      ChatRequest chat;
      chat.messages = {{"system", llmSystem}, {"user", text}};
      Expected<ChatResponse> answer = llm->chat(chat);
      if (!answer) {
        errs() << "tensorop tune: llm proposal failed: "
               << toString(answer.takeError()) << "\n";
        return std::nullopt;
      }
      Expected<GpuSketchChoice> c = checkGpuSketchAnswer(
          answer->content, p, *target, op.builtin, "llm:" + llmModel);
      if (!c) {
        errs() << "tensorop tune: llm proposal rejected: "
               << toString(c.takeError()) << "\n";
        return std::nullopt;
      }
      return *c;
    };
    bool exhausted = false;
    while (done + queued < o.budget && (!batch || queued < o.batchSize)) {
      if (o.seconds > 0 && std::chrono::steady_clock::now() >= deadline)
        break;
      // Every --llm-every candidates the model proposes one from the
      // history; a proposal that fails its checks is reported and the tree
      // goes on.
      std::optional<GpuSketchChoice> proposal;
      unsigned count = done + queued;
      if (llm && count > 0 && count % o.llmEvery == 0 && count != askedAt) {
        askedAt = count;
        proposal = askModel(op);
      }
      std::optional<std::vector<int64_t>> point;
      GpuSketchChoice choice;
      if (proposal) {
        choice = *proposal;
        point = space.toPoint(choice); // Outside the tree's space: nullopt.
      } else {
        point = search.next();
        if (!point) {
          exhausted = true; // Every point of the space was tried.
          break;
        }
        choice = space.toChoice(*point);
      }
      // The tree learns a proposal's result like one of its own.
      auto feedback = [&](double r) {
        if (proposal && point)
          search.observe(*point, r);
        else if (!proposal)
          search.report(*point, r);
      };
      if (Error e = checkGpuSketch(choice, p, *target)) {
        // Pruned by the same check the lowering applies: not a candidate.
        consumeError(std::move(e));
        feedback(0);
        continue;
      }
      std::string config;
      raw_string_ostream(config) << choice.toAttr(&ctx, *target);
      std::string hash = gpuConfigHash(choice);
      if (proposal) {
        Expected<std::optional<CandidateRecord>> known =
            db.find(sig, fingerprint, hash);
        if (!known)
          return fail(toString(known.takeError()));
        if (*known && (*known)->status != status::kPending) {
          errs() << "tensorop tune: llm proposal " << hash
                 << " was measured already (" << (*known)->status << ")\n";
          continue;
        }
      }
      CandidateRecord start = candidateToStart(
          sig, fingerprint, config, hash, emitterHash, bool(proposal),
          llmModel,
          formatv("mcts seed={0}, advisor={1}{2}", o.seed, o.advisor,
                  hash == op.builtinHash ? " (the builtin sketch)" : "")
              .str());
      std::string name = formatv("op{0}_{1}", opIndex, hash).str();
      int64_t id;
      if (abandoned.count(hash)) {
        id = abandoned[hash];
      } else {
        Expected<Claim> claimed = db.claim(
            start, batch ? status::kPending : status::kStarted);
        if (!claimed)
          return fail(toString(claimed.takeError()));
        if (claimed->kind != Claim::Claimed) {
          // Another tuner sharing the database took this candidate during
          // this run: its result informs the tree but is not counted
          // against this tuner's budget, nor as its failure.
          CandidateRecord r = claimed->record;
          if (claimed->kind == Claim::InFlight) {
            Expected<CandidateRecord> ended = db.waitFor(claimed->id);
            if (!ended)
              return fail(toString(ended.takeError()));
            r = *ended;
          }
          feedback(r.status == status::kOk && r.integrityProblem.empty()
                       ? reward(r)
                       : 0);
          continue;
        }
        id = claimed->id;
      }
      Expected<GpuCompiledKernel> compiled =
          compileGpuKernel(ctx, p, o.target, config, workDir, name);
      if (!compiled) {
        CandidateRecord r = start;
        r.status = status::kCompileError;
        r.error = toString(compiled.takeError());
        if (r.error.size() > 4000)
          r.error = r.error.substr(0, 4000) + "...";
        if (Error e = db.finish(id, r))
          return fail(toString(std::move(e)));
        ++failures[r.status];
        ++done;
        feedback(0);
        progress(false);
        continue;
      }
      if (batch) {
        entries.push_back(json::Object{
            {"id", id},
            {"op", sig},
            {"config", config},
            {"hash", hash},
            {"file", name},
            {"launch", sys::path::filename(compiled->launchPath).str()},
            {"provenance", start.provenance},
            {"emitter_hash", emitterHash}});
        ++queued;
        continue;
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
        if (Error e = db.forget(id))
          consumeError(std::move(e));
        return fail("the runner could not use the GPU: " + setupError);
      }
      r.provenance = start.provenance + "; measured on " + device;
      r.emitterHash = emitterHash;
      if (r.error.size() > 4000)
        r.error = r.error.substr(0, 4000) + "...";
      if (Error e = db.finish(id, r))
        return fail(toString(std::move(e)));
      sys::fs::remove(compiled->launchPath);
      sys::fs::remove(compiled->binaryPath);
      ++done;
      if (r.status != status::kOk)
        ++failures[r.status];
      best = std::max(best, r.status == status::kOk
                                ? r.gflops.value_or(0) / 1000
                                : 0.0);
      feedback(reward(r));
      progress(false);
    }
    if (!batch || queued == 0)
      progress(true);

    // Confirmation: the builtin sketch and the best three, timed again
    // interleaved, each against cuBLAS in the same runner process.
    Expected<std::vector<CandidateRecord>> all = db.list(sig);
    if (!all)
      return fail(toString(all.takeError()));
    std::vector<CandidateRecord> ok;
    std::vector<double> bestSoFar;
    double running = 0;
    std::optional<CandidateRecord> builtinRow;
    for (const CandidateRecord &r : *all) {
      if (r.targetFingerprint != fingerprint || r.status == status::kPending)
        continue;
      if (r.status == status::kOk) {
        ok.push_back(r);
        running = std::max(running, r.gflops.value_or(0) / 1000);
      }
      if (r.configHash == op.builtinHash)
        builtinRow = r;
      bestSoFar.push_back(running);
    }
    llvm::sort(ok, [](const CandidateRecord &a, const CandidateRecord &b) {
      return a.medianSeconds.value_or(1e30) < b.medianSeconds.value_or(1e30);
    });
    std::vector<std::string> confirmConfigs = {op.builtinConfig};
    for (size_t i = 0; i < ok.size() && confirmConfigs.size() < 4; ++i)
      if (ok[i].configHash != op.builtinHash)
        confirmConfigs.push_back(ok[i].config);
    json::Array confirmed;
    bool budgetSpent = done >= o.budget || exhausted ||
                       (o.seconds > 0 &&
                        std::chrono::steady_clock::now() >= deadline);
    if (!batch && !ok.empty()) {
      std::vector<std::pair<std::vector<double>, std::vector<double>>> s(
          confirmConfigs.size());
      std::vector<std::string> launches(confirmConfigs.size());
      for (size_t i = 0; i < confirmConfigs.size(); ++i) {
        Expected<GpuCompiledKernel> k =
            compileGpuKernel(ctx, p, o.target, confirmConfigs[i], workDir,
                             "confirm_" + std::to_string(i));
        if (k)
          launches[i] = k->launchPath;
        else
          consumeError(k.takeError());
      }
      for (int round = 0; round < 3; ++round)
        for (size_t i = 0; i < confirmConfigs.size(); ++i) {
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
                  t->getNumber("cublas_tflops_median").value_or(0));
            }
          if (!v)
            consumeError(v.takeError());
        }
      for (size_t i = 0; i < confirmConfigs.size(); ++i)
        confirmed.push_back(json::Object{
            {"config", confirmConfigs[i]},
            {"builtin", i == 0},
            {"tflops_median",
             s[i].first.empty() ? 0.0 : median(s[i].first)},
            {"cublas_tflops_median",
             s[i].second.empty() ? 0.0 : median(s[i].second)},
            {"rounds", int64_t(s[i].first.size())}});
    } else if (batch && queued == 0 && budgetSpent && !ok.empty() &&
               !confirmationDoc.get(sig)) {
      // The last batch: the confirmation runs on the GPU machine too.
      for (size_t i = 0; i < confirmConfigs.size(); ++i) {
        std::string name = formatv("confirm{0}_{1}", opIndex, i).str();
        Expected<GpuCompiledKernel> k = compileGpuKernel(
            ctx, p, o.target, confirmConfigs[i], workDir, name);
        if (!k) {
          consumeError(k.takeError());
          continue;
        }
        for (int round = 0; round < 3; ++round)
          confirmEntries.push_back(json::Object{
              {"op", sig},
              {"config", confirmConfigs[i]},
              {"builtin", i == 0},
              {"file", name + "_r" + std::to_string(round)},
              {"launch", sys::path::filename(k->launchPath).str()},
              {"round", round}});
      }
    } else if (const json::Array *c = confirmationDoc.getArray(sig)) {
      confirmed = *c;
    }
    // The confirmed speeds: builtin, best, cuBLAS.
    double confBuiltin = 0, confBest = 0, confBlas = 0;
    std::string confBestConfig;
    for (const json::Value &v : confirmed) {
      const json::Object *c = v.getAsObject();
      if (!c)
        continue;
      double t = c->getNumber("tflops_median").value_or(0);
      if (c->getBoolean("builtin").value_or(false))
        confBuiltin = t;
      if (t > confBest) {
        confBest = t;
        confBestConfig = c->getString("config").value_or("").str();
        confBlas = c->getNumber("cublas_tflops_median").value_or(0);
      }
    }
    // Record the confirmed speeds: the pipeline's db= prefers confirmed
    // rows (TuningDB::best).
    for (const json::Value &v : confirmed) {
      const json::Object *c = v.getAsObject();
      double t = c ? c->getNumber("tflops_median").value_or(0) : 0;
      if (t <= 0)
        continue;
      StringRef config = c->getString("config").value_or("");
      bool isBuiltin = c->getBoolean("builtin").value_or(false);
      auto row = llvm::find_if(ok, [&](const CandidateRecord &r) {
        return isBuiltin ? r.configHash == op.builtinHash : r.config == config;
      });
      if (row != ok.end())
        if (Error e = db.confirm(row->id, t * 1000))
          return fail(toString(std::move(e)));
    }
    Expected<std::optional<CandidateRecord>> winner =
        db.best(sig, fingerprint);
    if (!winner)
      return fail(toString(winner.takeError()));
    json::Object summary{
        {"op", sig},
        {"target", o.target},
        {"fingerprint", fingerprint},
        {"candidates", done},
        {"from_db", resumed},
        {"pending", queued},
        {"best_tflops", best},
        {"builtin_config", op.builtinConfig},
        {"builtin_tflops",
         builtinRow && builtinRow->status == status::kOk
             ? builtinRow->gflops.value_or(0) / 1000
             : 0.0},
        {"confirmation", std::move(confirmed)},
        {"confirmed_builtin_tflops", confBuiltin},
        {"confirmed_best_tflops", confBest},
        {"confirmed_gain", confBuiltin > 0 ? confBest / confBuiltin : 0.0},
        {"confirmed_best_vs_cublas", confBlas > 0 ? confBest / confBlas : 0.0},
        {"space_size_first_level", int64_t(space.options(0, {}).size())}};
    json::Object fails;
    for (auto &[kind, count] : failures)
      fails[kind] = count;
    summary["failures"] = std::move(fails);
    if (*winner) {
      summary["best_config_hash"] = (*winner)->configHash;
      summary["best_config"] = (*winner)->config;
      summary["best_provenance"] = (*winner)->provenance;
    } else if (queued == 0) {
      exitCode = 1;
    }
    TuneOutcome outcome;
    outcome.op = sig;
    outcome.target = o.target;
    outcome.unit = "TFLOP/s";
    outcome.confirmed = confBuiltin > 0 && confBest > 0;
    outcome.best = outcome.confirmed ? confBest : best;
    outcome.builtin = outcome.confirmed
                          ? confBuiltin
                          : (builtinRow && builtinRow->status == status::kOk
                                 ? builtinRow->gflops.value_or(0) / 1000
                                 : 0.0);
    outcome.notConfirmedBecause =
        queued > 0 || (batch && !confirmationDoc.get(sig))
            ? "the confirmation has not run yet: run the batch"
            : "the builtin or the best did not run again";
    if (*winner)
      outcome.recordHash = (*winner)->configHash;
    summary["confirmed"] = outcome.confirmed;
    outcomes.push_back(formatTuneOutcome(outcome));
    summaries.push_back(std::move(summary));
    markdown +=
        formatv("## {0}\n\n- candidates: {1} ({2} from the database), {3} "
                "waiting in the batch\n- the builtin sketch: {4:F1} TFLOP/s\n"
                "- best: {5:F1} TFLOP/s{6}\n- failures:",
                sig, done, resumed, queued,
                builtinRow && builtinRow->status == status::kOk
                    ? builtinRow->gflops.value_or(0) / 1000
                    : 0.0,
                best,
                *winner ? " (`" + (*winner)->config + "`)" : std::string())
            .str();
    for (auto &[kind, count] : failures)
      markdown += " " + kind + " " + std::to_string(count);
    markdown += failures.empty() ? " none\n" : "\n";
    if (confBest > 0)
      markdown +=
          formatv("- confirmation (builtin and the best three timed again, "
                  "interleaved, 3 runner processes each, against cuBLAS in "
                  "the same process): builtin {0:F1}, best {1:F1} TFLOP/s "
                  "({2:F3}x); cuBLAS {3:F1} TFLOP/s in the best one's runs "
                  "({4:F3}x)\n",
                  confBuiltin, confBest,
                  confBuiltin > 0 ? confBest / confBuiltin : 0.0, confBlas,
                  confBlas > 0 ? confBest / confBlas : 0.0)
              .str();
    if (!o.reportDir.empty() && !bestSoFar.empty()) {
      sys::fs::create_directories(o.reportDir);
      std::string svgName = "progress-" + std::to_string(opIndex) + ".svg";
      if (Error e = writeTextFile(joinPath(o.reportDir, svgName),
                              progressSvg(bestSoFar,
                                          sig + ": best TFLOP/s so far",
                                          "TFLOP/s")))
        consumeError(std::move(e));
      markdown += "\n![best so far](" + svgName + ")\n\n";
    }
  }
  if (!batch)
    sys::fs::remove_directories(workDir);

  bool confirm = entries.empty() && !confirmEntries.empty();
  if (confirm)
    entries = std::move(confirmEntries);
  if (batch && !entries.empty()) {
    std::string runScript =
        "#!/bin/sh\n"
        "# Written by `tensorop tune --gpu-batch`: runs every kernel of this\n"
        "# batch in its own tensorop-gpu-runner process with a wall-clock\n"
        "# limit, leaving NAME.result.json and NAME.rc beside it; then `done`.\n"
        "cd \"$(dirname \"$0\")\" || exit 2\n"
        "R=\"${TENSOROP_GPU_RUNNER:-tensorop-gpu-runner}\"\n"
        "rm -f done\n"
        "if ! \"$R\" --device-info > device.json 2> device.err; then\n"
        "  echo \"run.sh: $R finds no GPU:\"; cat device.json device.err; "
        "exit 2\nfi\n"
        "total=" +
        std::to_string(entries.size()) +
        "\nn=0\n"
        "run() {\n"
        "  base=$1; shift\n"
        "  timeout -k 5 " +
        std::to_string(o.candidateTimeout) +
        " \"$R\" \"$@\" > \"$base.result.json\" 2> \"$base.result.json.err\"\n"
        "  echo $? > \"$base.rc\"\n"
        "  n=$((n + 1)); echo \"run.sh: $n/$total $base: exit $(cat "
        "\"$base.rc\")\"\n"
        "}\n";
    std::string timeoutArg =
        std::to_string(std::max(1u, o.candidateTimeout / 2));
    for (const json::Value &v : entries) {
      const json::Object &e = *v.getAsObject();
      std::string base = e.getString("file").value_or("").str();
      std::string launch = e.getString("launch").value_or("").str();
      runScript += "run " + shellQuote(base) + " " + shellQuote(launch) +
                   (confirm ? " --rounds 10 --timeout " + timeoutArg
                            : " " + runnerArgsNote) +
                   "\n";
    }
    runScript += "touch done\necho \"run.sh: all $total done\"\n";
    json::Object manifest{{"tool", "tensorop tune"},
                          {"kind", confirm ? "confirm" : "candidates"},
                          {"target", o.target},
                          {"db", o.dbPath},
                          {"timeout", int64_t(o.candidateTimeout)},
                          {"entries", std::move(entries)}};
    if (Error e = writeTextFile(joinPath(o.batchDir, "run.sh"), runScript))
      return fail(toString(std::move(e)));
    if (Error e = writeTextFile(
            joinPath(o.batchDir, "batch.json"),
            formatv("{0:2}\n", json::Value(std::move(manifest))).str()))
      return fail(toString(std::move(e)));
    errs() << "tensorop tune: wrote a " << (confirm ? "confirmation " : "")
           << "batch of " << (confirm ? "runs" : "candidates") << " to "
           << o.batchDir << ". Run `sh " << joinPath(o.batchDir, "run.sh")
           << "` on the GPU machine (with tensorop-gpu-runner on PATH or "
              "TENSOROP_GPU_RUNNER=/path/to/it), bring "
           << o.batchDir << " back and rerun this command.\n";
  }
  if (!o.reportDir.empty()) {
    sys::fs::create_directories(o.reportDir);
    if (Error e = writeTextFile(joinPath(o.reportDir, "report.md"), markdown))
      consumeError(std::move(e));
  }
  if (o.json)
    outs() << formatv("{0:2}\n", json::Value(std::move(summaries)));
  else
    for (const std::string &line : outcomes)
      outs() << line << "\n";
  return exitCode;
}

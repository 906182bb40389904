//===- TuneCommand.cpp - tensorop tune: MCTS over sketches, measured ------===//
//
//   tensorop tune model.mlir --target=host --budget=64 --db=tune.db
//
// For every supported GEMM in the module: a Monte Carlo tree search over its
// sketch space (the builtin advisor ranks expansions and supplies the first
// point), each candidate compiled here and measured in a `tensorop worker`
// process with a wall-clock limit, every result (failures included) in the
// tuning database before the next candidate starts.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"
#include "CompilerContext.h"
#include "GpuTune.h"
#include "TextFiles.h"
#include "TuneModel.h"

#include "tensorop/Advisor/Advisor.h"
#include "tensorop/Emitters/Emitter.h"
#include "tensorop/LLM/LLMClient.h"
#include "tensorop/Process/ProcessRunner.h"
#include "tensorop/Runtime/JitGemm.h"
#include "tensorop/Runtime/ObjectFile.h"
#include "tensorop/Targets/TargetHints.h"
#include "tensorop/Transforms/MatmulSupport.h"
#include "tensorop/Transforms/Passes.h"
#include "tensorop/Tuner/MCTS.h"
#include "tensorop/Tuner/SearchSpace.h"
#include "tensorop/Tuner/TuneKnobs.h"
#include "tensorop/Tuner/TuneOutcome.h"
#include "tensorop/Tuner/TuningDB.h"
#include "tensorop/Verify/CpuGemm.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdlib>
#include <map>
#include <unistd.h>

using namespace llvm;
using namespace mlir::tensorop;
using ::tensorop::ChildOutcome;
using ::tensorop::historyForModel;
using ::tensorop::runWithLimit;

namespace {
cl::SubCommand tuneCmd("tune", "Tune every supported op of a module: MCTS "
                               "over sketches, each candidate verified and "
                               "timed in an isolated worker");
cl::opt<std::string> input(cl::Positional, cl::sub(tuneCmd), cl::Required,
                           cl::desc("<input.mlir>"));
cl::opt<std::string> tTarget(
    "target", cl::sub(tuneCmd), cl::init("host"),
    cl::desc("Target: host, x86-avx512, x86-avx2, nvidia-sm80, nvidia-sm90"));
cl::opt<unsigned> budget("budget", cl::sub(tuneCmd), cl::init(32),
                         cl::desc("Candidates per op (resumed ones count)"));
cl::opt<std::string> dbPath("db", cl::sub(tuneCmd), cl::init(""),
                            cl::desc("Tuning database (SQLite, created if "
                                     "absent)"));
cl::opt<double> seconds("seconds", cl::sub(tuneCmd), cl::init(0),
                        cl::desc("Stop after this many seconds (0: no "
                                 "limit)"));
cl::opt<uint64_t> tSeed("seed", cl::sub(tuneCmd), cl::init(1),
                        cl::desc("Seed of the search"));
cl::opt<bool> jsonOut("json", cl::sub(tuneCmd), cl::init(false),
                      cl::desc("Print a JSON summary on stdout"));
cl::opt<std::string> reportDir("o", cl::sub(tuneCmd), cl::init(""),
                               cl::desc("Write report.md and progress.svg "
                                        "here"));
cl::opt<std::string> emitterDir(
    "emitter-dir", cl::sub(tuneCmd), cl::init(""),
    cl::desc("Emitter scripts directory (default: the shipped ones)"));
cl::opt<unsigned> candidateTimeout(
    "candidate-timeout", cl::sub(tuneCmd), cl::init(60),
    cl::desc("Wall-clock seconds a candidate's worker may run"));
cl::opt<std::string> tuneAdvisor(
    "advisor", cl::sub(tuneCmd), cl::init("builtin"),
    cl::desc("Who proposes expansions: builtin (its cost model ranks the "
             "tree's options), or llm (also asked every --llm-every "
             "candidates for a new sketch given the best and worst so far)"));
cl::opt<unsigned> llmEvery("llm-every", cl::sub(tuneCmd), cl::init(4),
                           cl::desc("With --advisor=llm: candidates between "
                                    "two proposals of the model"));
cl::opt<int> workerRounds("rounds", cl::sub(tuneCmd), cl::init(5),
                          cl::desc("Timed rounds per candidate"));
cl::opt<std::string> gpuRunner(
    "gpu-runner", cl::sub(tuneCmd), cl::init(""),
    cl::desc("NVIDIA targets: the measuring process (default: "
             "tensorop-gpu-runner beside this tool, else on PATH)"));
cl::opt<std::string> gpuBatch(
    "gpu-batch", cl::sub(tuneCmd), cl::init(""),
    cl::desc("NVIDIA targets, GPU on another machine: compile the next "
             "candidates into this directory with a run.sh for the GPU "
             "machine and stop; rerun after run.sh has run there to read the "
             "results and write the next batch"));
cl::opt<std::string> knobsFile(
    "knobs", cl::sub(tuneCmd), cl::init(""),
    cl::desc("An MLIR file of transform.tune.knob ops (upstream's tune "
             "extension) naming knobs of the space: their options restrict "
             "the search, a selected value fixes a knob"));
cl::opt<bool> printKnobs(
    "print-knobs", cl::sub(tuneCmd), cl::init(false),
    cl::desc("Print each op's space as transform.tune.knob ops (the builtin "
             "advisor's values selected) and stop"));
cl::opt<unsigned> batchSize("batch-size", cl::sub(tuneCmd), cl::init(16),
                            cl::desc("Candidates per op in one --gpu-batch"));
cl::opt<unsigned> tuneThreads(
    "threads", cl::sub(tuneCmd), cl::init(1),
    cl::desc("Threads of the starting sketch (the builtin advisor's, as "
             "gen --threads=N builds it). The threads knob itself ranges "
             "over 1..cores, but as the last knob of the tree a small "
             "budget seldom reaches it"));

struct Outcome {
  CandidateRecord record;
  bool resumed = false;
};

/// Runs the worker on one object with a wall-clock limit; the result is the
/// worker's JSON, or a crash/timeout record.
CandidateRecord measure(StringRef object, StringRef symbol,
                        const GemmProblem &p) {
  CandidateRecord r;
  std::string self = sys::fs::getMainExecutable(nullptr, nullptr);
  ChildOutcome o = runWithLimit(
      self,
      {"worker", "--object=" + object.str(), "--symbol=" + symbol.str(),
       "--m=" + std::to_string(p.m), "--n=" + std::to_string(p.n),
       "--k=" + std::to_string(p.k),
       "--rounds=" + std::to_string(workerRounds)},
      candidateTimeout);
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

/// The search history the paper gives its LLM: the best and the worst
/// configurations so far with their speed, and the failures.
std::string historyPrompt(const GemmProblem &p, StringRef target,
                          std::vector<CandidateRecord> rows) {
  return formatv("Tuning an fp32 GEMM M={0} N={1} K={2} on {3}. Measured so "
                 "far (GFLOP/s, higher is better):\n",
                 p.m, p.n, p.k, target)
             .str() +
         historyForModel(std::move(rows), 1.0,
                         [](const CandidateRecord &r) { return r.config; });
}

} // namespace

bool tensorop::tuneSubcommand() { return bool(tuneCmd); }

int tensorop::runTune() {
  auto fail = [](const Twine &msg) {
    errs() << "tensorop tune: " << msg << "\n";
    return 2;
  };
  if (budget == 0)
    return fail("--budget must be positive");
  if (!emitterDir.empty())
    ::setenv("TENSOROP_EMITTER_DIR", emitterDir.c_str(), 1);
  if (StringRef(tTarget).starts_with("nvidia")) {
    GpuTuneOptions o;
    o.input = input;
    o.target = tTarget;
    o.dbPath = dbPath;
    o.reportDir = reportDir;
    o.budget = budget;
    o.seconds = seconds;
    o.seed = tSeed;
    o.json = jsonOut;
    o.candidateTimeout = candidateTimeout;
    o.rounds = workerRounds;
    o.batchDir = gpuBatch;
    o.batchSize = std::max(1u, unsigned(batchSize));
    o.knobsFile = knobsFile;
    o.printKnobs = printKnobs;
    o.advisor = tuneAdvisor;
    o.llmEvery = std::max(1u, unsigned(llmEvery));
    o.runner = gpuRunner;
    if (o.runner.empty()) {
      SmallString<256> beside(sys::path::parent_path(
          sys::fs::getMainExecutable(nullptr, nullptr)));
      sys::path::append(beside, "tensorop-gpu-runner");
      if (sys::fs::can_execute(beside))
        o.runner = std::string(beside);
      else if (ErrorOr<std::string> onPath =
                   sys::findProgramByName("tensorop-gpu-runner"))
        o.runner = *onPath;
      else if (gpuBatch.empty())
        return fail("no tensorop-gpu-runner beside this tool or on PATH "
                    "(give --gpu-runner=PATH, or use --gpu-batch=DIR to "
                    "measure on another machine)");
    }
    return runGpuTune(o);
  }

  std::unique_ptr<mlir::MLIRContext> context = makeCompilerContext();
  mlir::MLIRContext &ctx = *context;

  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(input, &ctx);
  if (!module)
    return fail("cannot parse " + input);
  std::vector<GemmProblem> problems;
  std::set<std::string> signatures;
  module->walk([&](mlir::linalg::MatmulOp op) {
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
    if (signatures.insert(opSignature(*p)).second)
      problems.push_back(*p);
  });
  if (problems.empty())
    return fail("no supported GEMM in " + input);
  for (const GemmProblem &p : problems)
    if (std::string tooBig = checkGemmBufferBudget(p.m, p.n, p.k);
        !tooBig.empty())
      return fail(tooBig);

  Expected<std::string> target = resolveTargetName(tTarget);
  if (!target)
    return fail(toString(target.takeError()));
  std::vector<KnobConstraint> knobs;
  if (!knobsFile.empty()) {
    Expected<std::vector<KnobConstraint>> read = readTuneKnobs(knobsFile);
    if (!read)
      return fail(toString(read.takeError()));
    knobs = std::move(*read);
  }
  Expected<TargetHints> hints = loadTargetHints(*target);
  if (!hints)
    return fail(toString(hints.takeError()));
  if (printKnobs) {
    for (const GemmProblem &p : problems) {
      Expected<SketchChoice> defaults =
          createBuiltinAdvisor()->propose(p, *hints);
      if (!defaults)
        return fail(toString(defaults.takeError()));
      GemmSearchSpace space(p, *hints, *defaults);
      if (std::optional<std::vector<int64_t>> point = space.toPoint(*defaults))
        outs() << printTuneKnobs(space, *point,
                                 opSignature(p) + " on " + *target + ": " +
                                     std::to_string(space.size()) +
                                     " points");
    }
    return 0;
  }
  if (dbPath.empty())
    return fail("--db=PATH is required");
  Expected<std::unique_ptr<TuningDB>> opened = TuningDB::open(dbPath);
  if (!opened)
    return fail(toString(opened.takeError()));
  TuningDB &db = **opened;
  db.setConfigHasher(
      [&ctx](StringRef config) { return configHashOfText(&ctx, config); });
  if (db.suspectMarkedOnOpen())
    errs() << "tensorop tune: " << db.suspectMarkedOnOpen()
           << " candidate(s) left running by an earlier run marked suspect "
              "(not measured again)\n";
  std::string fingerprint = targetFingerprint(*target);
  double peak = measureFmaPeakGflops();
  // The emitter script and the helper modules it imports.
  std::string emitterHash =
      mlir::tensorop::emitterSourceHash(emitterDir, "x86_gemm_fma");
  SmallString<128> workDir;
  sys::fs::createUniqueDirectory("tensorop-tune", workDir);

  Expected<TuneModel> model =
      openTuneModel(tuneAdvisor, "gemm_sketch_system.txt");
  if (!model)
    return fail(toString(model.takeError()));
  LLMClient *llm = model->client.get();
  const std::string &llmModel = model->model, &llmSystem = model->system;
  bool tty = sys::Process::StandardErrIsDisplayed();
  auto deadline =
      std::chrono::steady_clock::now() +
      std::chrono::milliseconds(int64_t(seconds.getValue() * 1000));
  json::Array summaries;
  // One line per op for stdout (formatTuneOutcome).
  std::vector<std::string> outcomes;
  std::string markdown = "# tensorop tune\n\nInput `" + input +
                         "`, target `" + *target + "` (" + fingerprint +
                         "), budget " + std::to_string(budget) +
                         " candidates per op, seed " +
                         std::to_string(tSeed) + ", database `" + dbPath +
                         "`.\n\n";
  int exitCode = 0;
  for (const GemmProblem &p : problems) {
    std::string sig = opSignature(p);
    Expected<SketchChoice> defaults = createBuiltinAdvisor()->propose(p, *hints);
    if (!defaults)
      return fail(toString(defaults.takeError()));
    defaults->threads = tuneThreads;
    GemmSearchSpace space(p, *hints, *defaults);
    if (defaults->threads < 1 || defaults->threads > space.maxThreads())
      return fail(formatv("--threads={0} is outside 1..{1} (this machine's "
                          "hardware threads, capped at the target's cores)",
                          defaults->threads, space.maxThreads())
                      .str());
    // The tree searches the space as --knobs restricts it (if given).
    Expected<std::unique_ptr<ConstrainedSpace>> searchSpace =
        ConstrainedSpace::create(space, knobs);
    if (!searchSpace)
      return fail(toString(searchSpace.takeError()));
    MCTS search(**searchSpace, tSeed);
    std::map<std::string, int> failures;
    std::vector<double> bestSoFar;
    double best = 0, first = -1;
    std::string bestConfig;
    std::string firstConfig; // The builtin advisor's sketch (first point).
    unsigned done = 0, resumed = 0, byOthers = 0;
    auto start = std::chrono::steady_clock::now();
    auto progress = [&](bool final) {
      std::string fails;
      for (auto &[kind, count] : failures)
        fails += " " + kind + "=" + std::to_string(count);
      std::string left =
          seconds > 0
              ? formatv(", {0:F0} s left",
                        std::max(0.0, std::chrono::duration<double>(
                                          deadline -
                                          std::chrono::steady_clock::now())
                                          .count()))
                    .str()
              : "";
      std::string line =
          formatv("[tune] {0}: {1}/{2} candidates ({3} from the db{7}), "
                  "best {4:F1} GFLOP/s, failures:{5}{6}",
                  sig, done, unsigned(budget), resumed, best,
                  fails.empty() ? " none" : fails, left,
                  byOthers ? formatv(", {0} more by other tuners", byOthers)
                                 .str()
                           : "")
              .str();
      if (tty)
        errs() << "\r" << line << "\033[K" << (final ? "\n" : "");
      else
        errs() << line << "\n";
    };
    while (done < budget) {
      if (seconds > 0 && std::chrono::steady_clock::now() >= deadline)
        break;
      // Every llm-every candidates the model proposes one from the history;
      // a proposal that fails its checks is reported and the tree goes on.
      std::optional<SketchChoice> proposal;
      if (llm && done > 0 && done % std::max(1u, unsigned(llmEvery)) == 0) {
        Expected<std::vector<CandidateRecord>> rows = db.list(sig);
        ChatRequest chat;
        chat.messages = {{"system", llmSystem},
                         {"user", historyPrompt(p, *target,
                                                rows ? *rows
                                                     : std::vector<CandidateRecord>())}};
        if (!rows)
          consumeError(rows.takeError());
        Expected<ChatResponse> answer = llm->chat(chat);
        if (!answer) {
          errs() << "tensorop tune: llm proposal failed: "
                 << toString(answer.takeError()) << "\n";
        } else {
          Expected<SketchChoice> c = checkSketchAnswer(
              answer->content, p, *hints, "llm:" + llmModel);
          if (!c)
            errs() << "tensorop tune: llm proposal rejected: "
                   << toString(c.takeError()) << "\n";
          else
            proposal = *c;
        }
      }
      std::optional<std::vector<int64_t>> point;
      if (!proposal) {
        point = search.next();
        if (!point)
          break; // The space is exhausted.
      }
      SketchChoice choice = proposal ? *proposal : space.toChoice(*point);
      std::string illegal;
      SketchAttr attr = choice.toAttr(&ctx, *hints, illegal);
      if (!attr) {
        // Pruned by the verifier's own legality check; not a candidate.
        if (point)
          search.report(*point, 0);
        continue;
      }
      std::string config;
      raw_string_ostream(config) << attr;
      std::string hash = configHash(choice);
      CandidateRecord start = candidateToStart(
          sig, fingerprint, config, hash, emitterHash, bool(proposal),
          llmModel,
          formatv("mcts seed={0}, advisor={1}", tSeed, tuneAdvisor.getValue())
              .str());
      Expected<Claim> claimed = db.claim(start);
      if (!claimed)
        return fail(toString(claimed.takeError()));
      CandidateRecord result;
      // Rows another tuner measures during this run are its budget, not
      // ours: they inform the search but are not counted.
      bool counts = true;
      if (claimed->kind == Claim::InFlight) {
        Expected<CandidateRecord> ended = db.waitFor(claimed->id);
        if (!ended)
          return fail(toString(ended.takeError()));
        result = *ended;
        counts = false;
        ++byOthers;
      } else if (claimed->kind == Claim::Known) {
        result = claimed->record;
        counts = claimed->id <= db.maxIdAtOpen();
        ++(counts ? resumed : byOthers);
      } else {
        Expected<int64_t> id = claimed->id;
        std::string symbol = "cand_" + hash;
        Expected<LoweredModule> lowered = lowerWithPipeline(
            ctx, gemmModuleSource(symbol, p.m, p.n, p.k, config),
            "target=" + *target + " advisor=builtin", /*barePtrAbi=*/true);
        std::string object = (workDir + "/" + symbol + ".o").str();
        if (!lowered) {
          result.status = status::kCompileError;
          result.error = toString(lowered.takeError());
        } else if (Error e = emitObjectFile(*lowered->module, hints->triple,
                                            hints->cpu, hints->features,
                                            object)) {
          result.status = status::kCompileError;
          result.error = toString(std::move(e));
        } else {
          result = measure(object, symbol, p);
          sys::fs::remove(object);
        }
        result.emitterHash = emitterHash;
        if (result.error.size() > 4000)
          result.error = result.error.substr(0, 4000) + "...";
        if (Error e = db.finish(*id, result))
          return fail(toString(std::move(e)));
      }
      if (counts)
        ++done;
      double gflops = result.status == status::kOk &&
                              result.integrityProblem.empty()
                          ? result.gflops.value_or(0)
                          : 0;
      if (result.status != status::kOk && counts)
        ++failures[result.status];
      if (first < 0) {
        first = gflops;
        firstConfig = config;
      }
      if (gflops > best) {
        best = gflops;
        bestConfig = hash;
      }
      bestSoFar.push_back(best);
      if (point)
        // Rewards in [0, 1] of what all the offered threads could reach.
        search.report(*point,
                      peak > 0 ? std::min(1.0, gflops / (peak *
                                                         space.maxThreads()))
                               : 0);
      progress(false);
    }
    progress(true);

    // Confirmation: the builtin sketch and the best three verified ones are
    // timed again, interleaved, so the reported gain does not rest on
    // measurements taken minutes apart (the first one is taken while the
    // machine settles).
    json::Array confirmed;
    double confirmedFirst = 0, confirmedBest = 0;
    std::string confirmedBestHash;
    {
      Expected<std::vector<CandidateRecord>> rows = db.list(sig);
      if (!rows)
        return fail(toString(rows.takeError()));
      std::vector<CandidateRecord> ok;
      for (CandidateRecord &row : *rows)
        if (row.status == status::kOk && row.targetFingerprint == fingerprint)
          ok.push_back(row);
      llvm::sort(ok, [](const CandidateRecord &a, const CandidateRecord &b) {
        return a.medianSeconds.value_or(1e30) < b.medianSeconds.value_or(1e30);
      });
      std::vector<std::string> configs;
      // The database row of each config (0: the builtin did not verify),
      // where its confirmed speed is recorded.
      std::vector<int64_t> rowIds;
      if (!firstConfig.empty()) {
        configs.push_back(firstConfig);
        auto it = llvm::find_if(ok, [&](const CandidateRecord &r) {
          return r.config == firstConfig;
        });
        rowIds.push_back(it == ok.end() ? 0 : it->id);
      }
      for (size_t i = 0; i < ok.size() && configs.size() < 4; ++i)
        if (ok[i].config != firstConfig) {
          configs.push_back(ok[i].config);
          rowIds.push_back(ok[i].id);
        }
      std::vector<std::string> objects;
      for (size_t i = 0; i < configs.size(); ++i) {
        std::string symbol = "confirm_" + std::to_string(i);
        Expected<LoweredModule> l = lowerWithPipeline(
            ctx, gemmModuleSource(symbol, p.m, p.n, p.k, configs[i]),
            "target=" + *target + " advisor=builtin", true);
        std::string object = (workDir + "/" + symbol + ".o").str();
        if (!l) {
          consumeError(l.takeError());
          object.clear();
        } else if (Error e = emitObjectFile(*l->module, hints->triple,
                                            hints->cpu, hints->features,
                                            object)) {
          consumeError(std::move(e));
          object.clear();
        }
        objects.push_back(object);
      }
      std::vector<std::vector<double>> samples(configs.size());
      for (int round = 0; round < 3; ++round)
        for (size_t i = 0; i < configs.size(); ++i) {
          if (objects[i].empty())
            continue;
          CandidateRecord m =
              measure(objects[i], "confirm_" + std::to_string(i), p);
          if (m.status == status::kOk && m.gflops)
            samples[i].push_back(*m.gflops);
        }
      for (size_t i = 0; i < configs.size(); ++i) {
        if (samples[i].empty())
          continue;
        double med = median(samples[i]);
        if (i == 0 && !firstConfig.empty())
          confirmedFirst = med;
        if (med > confirmedBest) {
          confirmedBest = med;
          confirmedBestHash = configs[i];
        }
        confirmed.push_back(json::Object{{"config", configs[i]},
                                         {"gflops_median_of_3", med},
                                         {"builtin", i == 0}});
        // The pipeline's db= prefers confirmed rows (TuningDB::best).
        if (rowIds[i])
          if (Error e = db.confirm(rowIds[i], med))
            return fail(toString(std::move(e)));
      }
    }
    double took = std::chrono::duration<double>(
                      std::chrono::steady_clock::now() - start)
                      .count();
    Expected<std::optional<CandidateRecord>> winner = db.best(sig, fingerprint);
    if (!winner)
      return fail(toString(winner.takeError()));
    json::Object summary{{"op", sig},
                         {"target", *target},
                         {"fingerprint", fingerprint},
                         {"candidates", done},
                         {"from_db", resumed},
                         {"seconds", took},
                         {"first_candidate_gflops", first},
                         {"confirmed_builtin_gflops", confirmedFirst},
                         {"confirmed_best_gflops", confirmedBest},
                         {"confirmed_gain",
                          confirmedFirst > 0 ? confirmedBest / confirmedFirst
                                             : 0.0},
                         {"confirmation", std::move(confirmed)},
                         {"best_gflops", best},
                         {"space_size", int64_t(space.size())}};
    json::Object fails;
    for (auto &[kind, count] : failures)
      fails[kind] = count;
    summary["failures"] = std::move(fails);
    if (*winner) {
      summary["best_config_hash"] = (*winner)->configHash;
      summary["best_config"] = (*winner)->config;
      summary["best_gflops_in_db"] = (*winner)->gflops.value_or(0);
    } else {
      exitCode = 1;
    }
    TuneOutcome outcome;
    outcome.op = sig;
    outcome.target = *target;
    outcome.unit = "GFLOP/s";
    outcome.confirmed = confirmedFirst > 0 && confirmedBest > 0;
    outcome.best = outcome.confirmed ? confirmedBest : best;
    outcome.builtin = outcome.confirmed ? confirmedFirst : first;
    outcome.notConfirmedBecause =
        firstConfig.empty() ? "the builtin sketch was not a candidate"
                            : "the builtin or the best did not run again";
    if (*winner)
      outcome.recordHash = (*winner)->configHash;
    summary["confirmed"] = outcome.confirmed;
    outcomes.push_back(formatTuneOutcome(outcome));
    summaries.push_back(std::move(summary));
    markdown += formatv("## {0}\n\n- candidates: {1} ({2} taken from the "
                        "database), {3:F1} s\n- the builtin advisor's "
                        "sketch (first candidate): {4:F1} GFLOP/s\n- best: "
                        "{5:F1} GFLOP/s ({6})\n- failures:",
                        sig, done, resumed, took, first, best, bestConfig)
                    .str();
    for (auto &[kind, count] : failures)
      markdown += " " + kind + " " + std::to_string(count);
    markdown += failures.empty() ? " none\n" : "\n";
    markdown += formatv("- confirmation (builtin and the best three, timed "
                        "again interleaved, median of 3): builtin {0:F1}, "
                        "best {1:F1} GFLOP/s ({2:F3}x)\n",
                        confirmedFirst, confirmedBest,
                        confirmedFirst > 0 ? confirmedBest / confirmedFirst
                                           : 0.0)
                    .str();
    if (*winner)
      markdown += "- best record: `" + (*winner)->config + "`\n";
    if (!reportDir.empty()) {
      sys::fs::create_directories(reportDir);
      std::string svgName = "progress-" + std::to_string(summaries.size()) +
                            ".svg";
      std::error_code ec;
      raw_fd_ostream svg(reportDir + "/" + svgName, ec);
      if (!ec)
        svg << progressSvg(bestSoFar, sig + ": best GFLOP/s so far", "GFLOP/s");
      markdown += "\n![best so far](" + svgName + ")\n\n";
    }
  }
  sys::fs::remove_directories(workDir);
  if (!reportDir.empty()) {
    std::error_code ec;
    raw_fd_ostream md(reportDir + "/report.md", ec);
    if (!ec)
      md << markdown;
  }
  if (jsonOut)
    outs() << formatv("{0:2}\n", json::Value(std::move(summaries)));
  else
    for (const std::string &line : outcomes)
      outs() << line << "\n";
  return exitCode;
}

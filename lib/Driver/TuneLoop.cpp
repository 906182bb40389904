//===- TuneLoop.cpp - tensorop tune: one search loop for every backend ----===//
//
//   tensorop tune model.mlir --target=T --budget=64 --db=tune.db
//
// For every operator of the module the target's family tunes: a Monte Carlo
// tree search over its sketch space (the builtin advisor supplies the first
// point and ranks expansions), every --llm-every candidates a proposal of the
// model from the history, each candidate compiled and measured by the
// backend (TuneBackend.h), every result (failures included) in the tuning
// database before the next starts; rows another tuner sharing the database
// runs are waited for and count against neither its budget nor its
// failures. Then the builtin sketch and the best three are timed again,
// interleaved (the confirmation), and the result is printed: one line per
// operator on stdout (or --json), progress on stderr, a report with --report.
//
//===----------------------------------------------------------------------===//

#include "tensorop/Driver/TuneBackend.h"

#include "tensorop/Driver/Backend.h"

#include "tensorop/Support/TextFiles.h"
#include "tensorop/Tuner/MCTS.h"
#include "tensorop/Tuner/TuneKnobs.h"
#include "tensorop/Tuner/TuneOutcome.h"
#include "tensorop/Verify/Timing.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdlib>
#include <map>

using namespace llvm;
using namespace mlir::tensorop;
using namespace tensorop;

OpTuneSearch::~OpTuneSearch() = default;
TuneBackend::~TuneBackend() = default;

namespace {
using Clock = std::chrono::steady_clock;

int fail(const Twine &msg) {
  errs() << "tensorop tune: " << msg << "\n";
  return 2;
}

/// Longest error text kept in a row.
std::string truncatedError(std::string error) {
  if (error.size() > 4000)
    error = error.substr(0, 4000) + "...";
  return error;
}

/// A row's speed in GFLOP/s if it verified and its integrity holds, else 0.
double verifiedGflops(const CandidateRecord &r) {
  return r.status == status::kOk && r.integrityProblem.empty()
             ? r.gflops.value_or(0)
             : 0;
}

/// One run over all operators: the state the per-operator search shares.
class TuneRun {
public:
  TuneRun(const TuneOptions &o, TuneBackend &backend, TuningDB &db,
          const TuneModel &model, Clock::time_point deadline)
      : o(o), backend(backend), db(db), model(model), deadline(deadline),
        scale(backend.gflopsPerUnit()),
        tty(sys::Process::StandardErrIsDisplayed()) {}

  /// Searches, confirms and summarizes one operator; an error stops the run.
  Error tuneOp(OpTuneSearch &op, unsigned opIndex,
               const std::vector<KnobConstraint> &knobs);

  json::Array summaries;
  std::vector<std::string> outcomes; ///< one line per op for stdout
  std::string markdown;
  int exitCode = 0;

private:
  const TuneOptions &o;
  TuneBackend &backend;
  TuningDB &db;
  const TuneModel &model;
  Clock::time_point deadline;
  double scale; ///< GFLOP/s per printed unit
  bool tty;
};

/// The counters of one operator's search.
struct SearchState {
  unsigned done = 0, resumed = 0, queued = 0, byOthers = 0;
  double best = 0; ///< GFLOP/s
  std::map<std::string, int> failures;
  std::vector<double> bestSoFar; ///< GFLOP/s after each candidate

  /// Counts a finished row: this run's budget (`counts`) or another tuner's.
  void count(const CandidateRecord &r, bool counts, bool fromDb) {
    if (counts) {
      ++done;
      if (fromDb)
        ++resumed;
      if (r.status != status::kOk)
        ++failures[r.status];
    } else {
      ++byOthers;
    }
    best = std::max(best, verifiedGflops(r));
    bestSoFar.push_back(best);
  }
  std::string failureList(StringRef sep, StringRef none) const {
    std::string s;
    for (auto &[kind, n] : failures)
      s += " " + kind + sep.str() + std::to_string(n);
    return s.empty() ? " " + none.str() : s;
  }
};

Error TuneRun::tuneOp(OpTuneSearch &op, unsigned opIndex,
                      const std::vector<KnobConstraint> &knobs) {
  const std::string &sig = op.signature;
  const std::string fingerprint = backend.fingerprint();
  const bool queues = backend.queuesCandidates();
  // The tree searches the space as --knobs restricts it (if given).
  Expected<std::unique_ptr<ConstrainedSpace>> searchSpace =
      ConstrainedSpace::create(op.space(), knobs);
  if (!searchSpace)
    return searchSpace.takeError();
  MCTS search(**searchSpace, o.seed);
  std::string emitterHash = op.emitterHash();
  SearchState s;
  auto start = Clock::now();
  auto reward = [&](const CandidateRecord &r) {
    return op.reward(verifiedGflops(r));
  };

  // Rows pending in a batch that was dropped, by hash: compiled again.
  std::map<std::string, int64_t> abandoned;
  if (queues) {
    // Each call resumes the last: the tree is rebuilt from the history.
    Expected<std::vector<CandidateRecord>> rows = db.list(sig);
    if (!rows)
      return rows.takeError();
    for (const CandidateRecord &r : *rows) {
      if (r.targetFingerprint != fingerprint)
        continue;
      if (r.status == status::kPending) {
        abandoned[r.configHash] = r.id;
        continue;
      }
      if (std::optional<std::vector<int64_t>> point = op.pointOf(r.config))
        search.observe(*point, reward(r));
      s.count(r, /*counts=*/true, /*fromDb=*/true);
    }
  }

  // Without a terminal every line stays: the final one is printed only
  // when it says something the last one did not (it repeated the last
  // candidate's line).
  std::string lastLine;
  auto progress = [&](bool final) {
    std::string left =
        o.seconds > 0
            ? formatv(", {0:F0} s left",
                      std::max(0.0, std::chrono::duration<double>(
                                        deadline - Clock::now())
                                        .count()))
                  .str()
            : "";
    std::string line =
        formatv("[tune] {0}: {1}/{2} candidates ({3} from the db{4}), "
                "best {5:F1} {6}, failures:{7}",
                sig, s.done, o.budget, s.resumed,
                s.byOthers ? formatv(", {0} more by other tuners", s.byOthers)
                                 .str()
                           : "",
                s.best / scale, backend.unit(), s.failureList("=", "none"))
            .str();
    if (tty) {
      errs() << "\r" << line << left << "\033[K" << (final ? "\n" : "");
      return;
    }
    // (The seconds left change on every call; the counts decide.)
    if (final && line == lastLine)
      return;
    errs() << line << left << "\n";
    lastLine = line;
  };

  bool exhausted = false;
  unsigned askedAt = ~0u;
  while (s.done + s.queued < o.budget && !backend.batchFull(s.queued)) {
    if (o.seconds > 0 && Clock::now() >= deadline)
      break;
    // Every --llm-every candidates the model proposes one from the history;
    // a proposal that fails its checks is reported and the tree goes on.
    std::optional<TuneProposal> proposal;
    unsigned countSoFar = s.done + s.queued;
    if (model.client && countSoFar > 0 &&
        countSoFar % std::max(1u, o.llmEvery) == 0 &&
        countSoFar != askedAt) {
      askedAt = countSoFar;
      Expected<std::vector<CandidateRecord>> rows = db.list(sig);
      std::vector<CandidateRecord> history;
      if (rows)
        history = std::move(*rows);
      else
        consumeError(rows.takeError());
      llvm::erase_if(history, [&](const CandidateRecord &r) {
        return r.targetFingerprint != fingerprint ||
               r.status == status::kPending;
      });
      proposal = op.askModel(model, std::move(history));
    }
    std::optional<std::vector<int64_t>> point;
    std::optional<TuneCandidate> candidate;
    if (proposal) {
      point = proposal->point; // Outside the tree's space: nullopt.
      candidate = proposal->candidate;
    } else {
      point = search.next();
      if (!point) {
        exhausted = true; // Every point of the space was tried.
        break;
      }
      candidate = op.candidateAt(*point);
    }
    // The tree learns a proposal's result like one of its own.
    auto feedback = [&](double r) {
      if (proposal && point)
        search.observe(*point, r);
      else if (!proposal)
        search.report(*point, r);
    };
    if (!candidate) {
      // Pruned by the backend's legality check: not a candidate.
      feedback(0);
      continue;
    }
    if (proposal) {
      Expected<std::optional<CandidateRecord>> known =
          db.find(sig, fingerprint, candidate->hash);
      if (!known)
        return known.takeError();
      if (*known && (*known)->status != status::kPending) {
        errs() << "tensorop tune: llm proposal " << candidate->hash
               << " was measured already (" << (*known)->status << ")\n";
        continue;
      }
    }
    CandidateRecord startRow = candidateToStart(
        sig, fingerprint, candidate->config, candidate->hash, emitterHash,
        bool(proposal), model.model,
        formatv("mcts seed={0}, advisor={1}{2}", o.seed, o.advisor,
                candidate->hash == op.builtin.hash ? backend.builtinNote()
                                                   : "")
            .str());
    int64_t id;
    if (auto it = abandoned.find(candidate->hash); it != abandoned.end()) {
      id = it->second;
    } else {
      Expected<Claim> claimed =
          db.claim(startRow, queues ? status::kPending : status::kStarted);
      if (!claimed)
        return claimed.takeError();
      if (claimed->kind != Claim::Claimed) {
        // A row from an earlier run is this run's (when the tree replays
        // the history); one another tuner sharing the database took during
        // this run informs the tree but counts against neither our budget
        // nor our failures; a live tuner's row is waited for.
        CandidateRecord r = claimed->record;
        bool counts = false;
        if (claimed->kind == Claim::InFlight) {
          Expected<CandidateRecord> ended = db.waitFor(claimed->id);
          if (!ended)
            return ended.takeError();
          r = *ended;
        } else {
          counts = !queues && claimed->id <= db.maxIdAtOpen();
        }
        s.count(r, counts, /*fromDb=*/true);
        feedback(reward(r));
        progress(false);
        continue;
      }
      id = claimed->id;
    }
    Expected<std::optional<CandidateRecord>> measured =
        backend.measure(op, opIndex, *candidate, startRow, id);
    if (!measured)
      return measured.takeError();
    if (!*measured) {
      ++s.queued; // Waits in the batch.
      continue;
    }
    CandidateRecord r = std::move(**measured);
    r.emitterHash = emitterHash;
    r.error = truncatedError(std::move(r.error));
    if (Error e = db.finish(id, r))
      return e;
    s.count(r, /*counts=*/true, /*fromDb=*/false);
    feedback(reward(r));
    progress(false);
  }
  if (!queues || s.queued == 0)
    progress(true);

  // Confirmation: the builtin sketch and the best three verified ones are
  // timed again, interleaved, so the reported gain does not rest on
  // measurements taken minutes apart (the first one is taken while the
  // machine settles).
  Expected<std::vector<CandidateRecord>> all = db.list(sig);
  if (!all)
    return all.takeError();
  std::vector<CandidateRecord> ok;
  std::optional<CandidateRecord> builtinRow;
  for (const CandidateRecord &r : *all) {
    if (r.targetFingerprint != fingerprint || r.status == status::kPending)
      continue;
    if (r.status == status::kOk)
      ok.push_back(r);
    if (r.configHash == op.builtin.hash)
      builtinRow = r;
  }
  llvm::sort(ok, [](const CandidateRecord &a, const CandidateRecord &b) {
    return a.medianSeconds.value_or(1e30) < b.medianSeconds.value_or(1e30);
  });
  std::vector<std::string> configs;
  if (!ok.empty()) {
    configs.push_back(op.builtin.config);
    for (size_t i = 0; i < ok.size() && configs.size() < 4; ++i)
      if (ok[i].configHash != op.builtin.hash)
        configs.push_back(ok[i].config);
  }
  // A space with nothing in it (--knobs options no point takes, such as
  // kc = 128 where K = 1) ended as "no verified candidate ... the builtin
  // sketch was not a candidate", which did not say why.
  if (exhausted && s.done + s.queued == 0) {
    std::vector<std::string> sources;
    if (!o.knobsFile.empty())
      sources.push_back("--knobs=" + o.knobsFile);
    for (const std::string &text : o.fixedKnobs)
      sources.push_back("--fix=" + text);
    errs() << "tensorop tune: " << sig << ": no candidate to try"
           << (sources.empty()
                   ? std::string(" (the search space is empty)")
                   : " within the options of " + llvm::join(sources, " ") +
                         " (a knob's options must include values of this "
                         "op's space: --print-knobs lists them)")
           << "\n";
  }
  bool budgetSpent =
      s.done >= o.budget || exhausted ||
      (o.seconds > 0 && Clock::now() >= deadline);
  std::optional<std::vector<ConfirmedSpeed>> confirmed = backend.confirm(
      op, opIndex, configs, budgetSpent && s.queued == 0);

  // The confirmed speeds: builtin, best, and the reference library in the
  // best one's runs; recorded where the pipeline's db= prefers them
  // (TuningDB::best).
  double confBuiltin = 0, confBest = 0, confReference = 0;
  json::Array confirmation;
  std::string unitKey = StringRef(backend.unit()).take_front(1).lower() +
                        "flops"; // "gflops" or "tflops"
  std::string referenceKey = StringRef(backend.referenceName()).lower();
  for (const ConfirmedSpeed &c : confirmed ? *confirmed
                                           : std::vector<ConfirmedSpeed>()) {
    double speed = c.gflops / scale;
    json::Object row{{"config", c.config},
                     {"builtin", c.builtin},
                     {unitKey + "_median", speed},
                     {"rounds", c.rounds}};
    if (!referenceKey.empty())
      row[referenceKey + "_" + unitKey + "_median"] =
          c.referenceGflops / scale;
    confirmation.push_back(std::move(row));
    if (c.builtin)
      confBuiltin = speed;
    if (speed > confBest) {
      confBest = speed;
      confReference = c.referenceGflops / scale;
    }
    if (c.gflops <= 0)
      continue;
    auto confirmedRow = llvm::find_if(ok, [&](const CandidateRecord &r) {
      return c.builtin ? r.configHash == op.builtin.hash
                       : r.config == c.config;
    });
    if (confirmedRow != ok.end())
      if (Error e = db.confirm(confirmedRow->id, c.gflops))
        return e;
  }
  double took = std::chrono::duration<double>(Clock::now() - start).count();
  Expected<std::optional<CandidateRecord>> winner = db.best(sig, fingerprint);
  if (!winner)
    return winner.takeError();
  double builtinSpeed =
      builtinRow ? verifiedGflops(*builtinRow) / scale : 0.0;
  json::Object summary{
      {"op", sig},
      {"target", backend.target()},
      {"fingerprint", fingerprint},
      {"candidates", s.done},
      {"from_db", s.resumed},
      {"pending", s.queued},
      {"seconds", took},
      {"best_" + unitKey, s.best / scale},
      {"builtin_config", op.builtin.config},
      {"builtin_" + unitKey, builtinSpeed},
      {"confirmation", std::move(confirmation)},
      {"confirmed_builtin_" + unitKey, confBuiltin},
      {"confirmed_best_" + unitKey, confBest},
      {"confirmed_gain", confBuiltin > 0 ? confBest / confBuiltin : 0.0}};
  if (!referenceKey.empty())
    summary["confirmed_best_vs_" + referenceKey] =
        confReference > 0 ? confBest / confReference : 0.0;
  op.describeSpace(summary);
  json::Object fails;
  for (auto &[kind, n] : s.failures)
    fails[kind] = n;
  summary["failures"] = std::move(fails);
  if (*winner) {
    summary["best_config_hash"] = (*winner)->configHash;
    summary["best_config"] = (*winner)->config;
    summary["best_provenance"] = (*winner)->provenance;
    summary["best_" + unitKey + "_in_db"] =
        (*winner)->gflops.value_or(0) / scale;
  } else if (s.queued == 0) {
    exitCode = 1;
  }
  TuneOutcome outcome;
  outcome.op = sig;
  outcome.target = backend.target();
  outcome.unit = backend.unit().str();
  outcome.confirmed = confBuiltin > 0 && confBest > 0;
  outcome.best = outcome.confirmed ? confBest : s.best / scale;
  outcome.builtin = outcome.confirmed ? confBuiltin : builtinSpeed;
  outcome.notConfirmedBecause =
      !confirmed || s.queued > 0
          ? "the confirmation has not run yet: run the batch"
      : !builtinRow ? "the builtin sketch was not a candidate"
                    : "the builtin or the best did not run again";
  if (*winner)
    outcome.recordHash = (*winner)->configHash;
  summary["confirmed"] = outcome.confirmed;
  outcomes.push_back(formatTuneOutcome(outcome));
  summaries.push_back(std::move(summary));

  markdown += formatv("## {0}\n\n- candidates: {1} ({2} taken from the "
                      "database{3}), {4:F1} s\n- the builtin advisor's "
                      "sketch: {5:F1} {6}\n- best: {7:F1} {6}\n- "
                      "failures:{9}\n{8}",
                      sig, s.done, s.resumed,
                      s.queued ? formatv("; {0} waiting in the batch",
                                         s.queued)
                                     .str()
                               : "",
                      took, builtinSpeed, backend.unit(), s.best / scale,
                      *winner ? "- best record (what db= picks): `" +
                                    (*winner)->config + "`\n"
                              : std::string(),
                      s.failureList(" ", "none"))
                  .str();
  if (confBest > 0) {
    markdown += formatv("- confirmation ({0}): builtin {1:F1}, best {2:F1} "
                        "{3} ({4:F3}x)",
                        backend.confirmationMethod(), confBuiltin, confBest,
                        backend.unit(),
                        confBuiltin > 0 ? confBest / confBuiltin : 0.0)
                    .str();
    if (confReference > 0)
      markdown += formatv("; {0} {1:F1} {2} in the best one's runs ({3:F3}x)",
                          backend.referenceName(), confReference,
                          backend.unit(), confBest / confReference)
                      .str();
    markdown += "\n";
  }
  if (!o.reportDir.empty() && !s.bestSoFar.empty()) {
    sys::fs::create_directories(o.reportDir);
    std::string svgName = "progress-" + std::to_string(opIndex) + ".svg";
    std::vector<double> curve;
    for (double g : s.bestSoFar)
      curve.push_back(g / scale);
    SmallString<256> svgPath(o.reportDir);
    sys::path::append(svgPath, svgName);
    if (Error e = writeTextFile(
            svgPath, progressSvg(curve,
                                 sig + ": best " + backend.unit().str() +
                                     " so far",
                                 backend.unit().str())))
      consumeError(std::move(e));
    markdown += "\n![best so far](" + svgName + ")\n\n";
  }
  return Error::success();
}
} // namespace

int tensorop::tuneModule(const TuneOptions &options) {
  if (options.budget == 0)
    return fail("--budget must be positive");
  // Each candidate's worker would crash on no timed rounds (recorded as a
  // "crash" row per candidate), and a negative time limit was taken as none.
  if (options.rounds < 1)
    return fail("--rounds must be at least 1 (got " +
                std::to_string(options.rounds) + ")");
  if (!(options.seconds >= 0))
    return fail(formatv("--seconds must be 0 (no limit) or positive (got "
                        "{0})",
                        options.seconds));
  if (!options.emitterDir.empty())
    ::setenv("TENSOROP_EMITTER_DIR", options.emitterDir.c_str(), 1);
  return Backend::forTarget(options.target)->tune(options);
}

int tensorop::runTuneLoop(const TuneOptions &o, TuneBackend &backend) {
  if (Error e = backend.setUp(o))
    return fail(toString(std::move(e)));
  mlir::MLIRContext &ctx = backend.context();
  mlir::OwningOpRef<mlir::ModuleOp> module;
  Expected<std::vector<std::unique_ptr<OpTuneSearch>>> ops =
      std::vector<std::unique_ptr<OpTuneSearch>>{};
  {
    // Parse errors and the remarks match() attaches to the ops it skips
    // (a transposed or bf16 GEMM, ...) are printed with their source line;
    // later diagnostics (the candidates' compiles) have handlers of their
    // own.
    llvm::SourceMgr sourceMgr;
    mlir::SourceMgrDiagnosticHandler diagnostics(sourceMgr, &ctx, errs());
    // (The source line says which op; its generic form adds nothing.)
    bool printOp = ctx.shouldPrintOpOnDiagnostic();
    ctx.printOpOnDiagnostic(false);
    llvm::scope_exit restore([&] { ctx.printOpOnDiagnostic(printOp); });
    module = mlir::parseSourceFile<mlir::ModuleOp>(o.input, sourceMgr,
                                                   mlir::ParserConfig(&ctx));
    if (!module)
      return fail("cannot parse " + o.input);
    ops = backend.match(*module, o.input);
  }
  if (!ops)
    return fail(toString(ops.takeError()));

  if (o.printKnobs) {
    for (const std::unique_ptr<OpTuneSearch> &op : *ops)
      if (op->builtinPoint)
        outs() << printTuneKnobs(op->space(), *op->builtinPoint,
                                 op->knobsTitle());
      else
        // (x86_gemm_kdot sketches: their kernel has knobs of its own that
        // the tree does not search.)
        outs() << "// " << op->knobsTitle()
               << ": the builtin sketch is not a point of the search space; "
                  "no knobs to print\n";
    return 0;
  }
  std::vector<KnobConstraint> knobs;
  if (!o.knobsFile.empty()) {
    Expected<std::vector<KnobConstraint>> read = readTuneKnobs(o.knobsFile);
    if (!read)
      return fail(toString(read.takeError()));
    knobs = std::move(*read);
  }
  for (const std::string &text : o.fixedKnobs) {
    Expected<KnobConstraint> fixed = parseFixedKnob(text);
    if (!fixed)
      return fail(toString(fixed.takeError()));
    knobs.push_back(std::move(*fixed));
  }
  if (o.dbPath.empty())
    return fail("--db=PATH is required");
  Expected<std::unique_ptr<TuningDB>> opened = TuningDB::open(o.dbPath);
  if (!opened)
    return fail(toString(opened.takeError()));
  TuningDB &db = **opened;
  db.setConfigHasher(
      [&backend](StringRef config) { return backend.hashOfStoredConfig(config); });
  if (db.suspectMarkedOnOpen())
    errs() << "tensorop tune: " << db.suspectMarkedOnOpen()
           << " candidate(s) left running by an earlier run marked suspect "
              "(not measured again)\n";
  if (Error e = backend.startMeasuring(db))
    return fail(toString(std::move(e)));

  // The model, asked every --llm-every candidates for a proposal.
  Expected<TuneModel> model = openTuneModel(o.advisor, backend.promptFile());
  if (!model)
    return fail(toString(model.takeError()));

  auto deadline =
      Clock::now() + std::chrono::milliseconds(int64_t(o.seconds * 1000));
  TuneRun run(o, backend, db, *model, deadline);
  run.markdown = "# tensorop tune\n\nInput `" + o.input + "`, target `" +
                 backend.target() + "` (" + backend.fingerprint() +
                 "), budget " + std::to_string(o.budget) +
                 " candidates per op, seed " + std::to_string(o.seed) +
                 ", database `" + o.dbPath + "`, " + backend.measuredWhere() +
                 ".\n\n";
  unsigned opIndex = 0;
  for (std::unique_ptr<OpTuneSearch> &op : *ops)
    if (Error e = run.tuneOp(*op, ++opIndex, knobs))
      return fail(toString(std::move(e)));
  if (Error e = backend.finish())
    return fail(toString(std::move(e)));

  if (!o.reportDir.empty()) {
    sys::fs::create_directories(o.reportDir);
    SmallString<256> md(o.reportDir);
    sys::path::append(md, "report.md");
    if (Error e = writeTextFile(md, run.markdown))
      consumeError(std::move(e));
  }
  if (o.quietSummary)
    return run.exitCode;
  if (o.json)
    outs() << formatv("{0:2}\n", json::Value(std::move(run.summaries)));
  else
    for (const std::string &line : run.outcomes)
      outs() << line << "\n";
  return run.exitCode;
}

std::string tensorop::batchMatmulNotTuned(mlir::Operation *op) {
  if (!isa<mlir::linalg::BatchMatmulOp, mlir::linalg::BatchReduceMatmulOp>(op))
    return "";
  // Loops (batch, m, n, k) of both ops.
  SmallVector<int64_t> loops =
      cast<mlir::linalg::LinalgOp>(op).getStaticLoopRanges();
  std::string slice =
      loops.size() == 4 && llvm::none_of(loops, mlir::ShapedType::isDynamic)
          ? formatv(" (M={0} N={1} K={2})", loops[1], loops[2], loops[3])
                .str()
          : "";
  return "a batch matmul: the pipeline runs its slices as linalg.matmuls; "
         "tune a module with one slice's linalg.matmul" +
         slice + ", whose record db= then uses for every slice";
}

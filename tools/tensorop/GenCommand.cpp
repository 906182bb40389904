//===- GenCommand.cpp - tensorop gen: a verified kernel from one line -----===//
//
//   tensorop gen "97x131x67 fp32 GEMM for x86-avx512" -o out/
//
// writes out/<name>.mlir (the module it built), <name>.lowered.mlir (LLVM
// dialect), <name>.ll, <name>.o, <name>.h, report.json and report.md. The
// object itself is loaded back and verified (shared/MEASURE.md); when the
// target runs on this machine it is also timed against OpenBLAS.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"
#include "CompilerContext.h"
#include "TextFiles.h"
#include "tensorop/Verify/CpuGemm.h"

#include "tensorop/Advisor/Advisor.h"
#include "tensorop/Advisor/Request.h"
#include "tensorop/GPU/GpuGen.h"
#include "tensorop/Dialect/TensorOpDialect.h"
#include "tensorop/LLM/LLMClient.h"
#include "tensorop/Runtime/JitGemm.h"
#include "tensorop/Runtime/ObjectFile.h"
#include "tensorop/Targets/TargetHints.h"
#include "tensorop/Transforms/Passes.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"

#include <cblas.h>

#include <ctime>

using namespace llvm;
using namespace mlir::tensorop;

namespace {
cl::SubCommand genCmd("gen", "Generate a verified kernel from a one-line "
                             "request, e.g. \"97x131x67 fp32 GEMM for "
                             "x86-avx512\"");
cl::opt<std::string> request(cl::Positional, cl::sub(genCmd), cl::Required,
                             cl::desc("\"<one-line request>\""));
cl::opt<std::string> outDir("o", cl::sub(genCmd), cl::init(""),
                            cl::desc("Output directory"),
                            cl::value_desc("DIR"));
cl::opt<std::string> genAdvisor("advisor", cl::sub(genCmd),
                                cl::init("builtin"),
                                cl::desc("Advisor: builtin, llm (needs "
                                         "TENSOROP_LLM_URL/_MODEL), "
                                         "replay:DIR"));
cl::opt<std::string> genTarget(
    "target", cl::sub(genCmd), cl::init(""),
    cl::desc("Target (overrides the request's): host, x86-avx512, x86-avx2"));
cl::opt<std::string> kernelName("name", cl::sub(genCmd), cl::init(""),
                                cl::desc("Kernel (function) name"));
cl::opt<std::string> genDb("db", cl::sub(genCmd), cl::init(""),
                          cl::desc("Tuning database: use its best verified "
                                   "sketch for this op if it has one"));
cl::opt<bool> noBench("no-bench", cl::sub(genCmd), cl::init(false),
                      cl::desc("Verify but do not time against OpenBLAS"));
cl::opt<bool> parseOnly("parse-only", cl::sub(genCmd), cl::init(false),
                        cl::desc("Print what the request was understood as "
                                 "(JSON) and stop"));
cl::opt<bool> allowUnsandboxed(
    "allow-unsandboxed", cl::sub(genCmd), cl::init(false),
    cl::desc("Run LLM-written emitter scripts even where no sandbox can be "
             "made (with resource limits only). Never use this with a model "
             "you do not trust"));
cl::opt<unsigned> genSeed("seed", cl::sub(genCmd), cl::init(42),
                          cl::desc("Seed of the verification inputs"));
cl::opt<unsigned> genThreads(
    "threads", cl::sub(genCmd), cl::init(1),
    cl::desc("Threads the kernel runs on (x86-64 CPU targets; N > 1 needs "
             "LLVM's OpenMP runtime, libomp, where the object is linked); "
             "a sketch from --db keeps its own"));

std::string today() {
  std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}


/// The `source` field of a printed sketch.
std::string sketchSource(StringRef sketch) {
  size_t at = sketch.find("source = \"");
  if (at == StringRef::npos)
    return "";
  StringRef rest = sketch.drop_front(at + 10);
  return rest.take_until([](char c) { return c == '"'; }).str();
}

bool isCIdentifier(StringRef s) {
  if (s.empty() || !(isAlpha(s[0]) || s[0] == '_'))
    return false;
  return all_of(s, [](char c) { return isAlnum(c) || c == '_'; });
}

std::string header(const OpRequest &r, StringRef name, StringRef target,
                   StringRef sketch) {
  std::string guard = StringRef(name).upper() + "_H";
  // The sketch says how many threads the kernel really uses (one from a
  // tuning database may differ from --threads).
  int64_t threads = 1;
  size_t at = sketch.find("threads = ");
  if (at != StringRef::npos)
    sketch.drop_front(at + 10).consumeInteger(10, threads);
  std::string threading =
      threads > 1
          ? formatv("Runs on {0} threads through OpenMP: link with LLVM's "
                    "libomp\n * (e.g. -L/usr/lib/llvm-22/lib -lomp "
                    "-Wl,-rpath,/usr/lib/llvm-22/lib).",
                    threads)
                .str()
          : std::string("Single-threaded.");
  return formatv(R"(/* Generated by tensorop gen ({5}) for target {6}.
 * Request: {7}
 *
 * C = A * B, fp32, row-major and contiguous:
 *   A is {1} x {3} (M x K), B is {3} x {2} (K x N), C is {1} x {2} (M x N).
 * C is overwritten. {9} Each call allocates its own packing
 * buffers, so concurrent calls are safe.
 */
#ifndef {4}
#define {4}
#ifdef __cplusplus
extern "C" {
#endif

#define {8}_M {1}
#define {8}_N {2}
#define {8}_K {3}

void {0}(const float *A, const float *B, float *C);

#ifdef __cplusplus
}
#endif
#endif
)",
                 name, r.m, r.n, r.k, guard, TENSOROP_VERSION, target, r.text,
                 StringRef(name).upper(), threading)
      .str();
}
/// Verifies a cross-compiled object the way a user would run it: the C
/// harness linked statically with the object and run under qemu-user (for
/// RVV at VLEN 128 and 256). Returns the runs made, or an error if the
/// tools are missing.
Expected<json::Array> verifyUnderQemu(const TargetHints &h, StringRef name,
                                      const OpRequest &r, StringRef dir,
                                      bool &passed) {
  passed = false;
  bool riscv = h.arch == "riscv64";
  StringRef qemuName = riscv ? "qemu-riscv64" : "qemu-aarch64";
  ErrorOr<std::string> qemu = sys::findProgramByName(qemuName);
  ErrorOr<std::string> clang = sys::findProgramByName("clang-22");
  if (!qemu || !clang)
    return createStringError(
        (qemu ? "clang-22" : qemuName.str()) +
        " not found (apt-get install qemu-user clang-22 and the "
        "gcc-<arch>-linux-gnu cross tool chain)");
  std::string harness =
      std::string(TENSOROP_SOURCE_DIR) + "/tools/tensorop/harness/gemm_check.c";
  std::string exe = (dir + "/" + name + ".check").str();
  std::string targetFlag =
      riscv ? "--target=riscv64-linux-gnu" : "--target=aarch64-linux-gnu";
  std::vector<std::string> args = {*clang, targetFlag, "--gcc-toolchain=/usr",
                                   "-static", "-O2"};
  if (riscv)
    args.push_back("-march=rv64gcv");
  for (std::string a :
       {"-I" + dir.str(), "-DNAME=" + name.str(), "-DM=" + std::to_string(r.m),
        "-DN=" + std::to_string(r.n), "-DK=" + std::to_string(r.k), harness,
        (dir + "/" + name + ".o").str(), std::string("-lm"), std::string("-o"),
        exe})
    args.push_back(a);
  SmallVector<StringRef> argRefs(args.begin(), args.end());
  std::string message;
  SmallString<128> log;
  sys::fs::createTemporaryFile("tensorop-cross", "log", log);
  FileRemover removeLog(log);
  std::optional<StringRef> redirects[] = {StringRef(""), StringRef(log),
                                          StringRef(log)};
  if (sys::ExecuteAndWait(*clang, argRefs, std::nullopt, redirects, 120, 0,
                          &message) != 0) {
    auto out = MemoryBuffer::getFile(log);
    return createStringError("cannot link the verification program: " +
                             (out ? (*out)->getBuffer().str() : message));
  }
  std::vector<std::vector<std::string>> runs;
  if (riscv)
    runs = {{"-cpu", "rv64,v=true,vlen=128,vext_spec=v1.0"},
            {"-cpu", "rv64,v=true,vlen=256,vext_spec=v1.0"}};
  else
    runs = {{}};
  json::Array results;
  passed = true;
  for (auto &cpu : runs) {
    std::vector<std::string> qargs = {*qemu};
    qargs.insert(qargs.end(), cpu.begin(), cpu.end());
    qargs.push_back(exe);
    SmallVector<StringRef> qrefs(qargs.begin(), qargs.end());
    int rc = sys::ExecuteAndWait(*qemu, qrefs, std::nullopt, redirects, 600,
                                 0, &message);
    auto out = MemoryBuffer::getFile(log);
    std::string text = out ? (*out)->getBuffer().str() : "";
    passed &= rc == 0;
    results.push_back(json::Object{
        {"runner", (qemuName + (cpu.empty() ? "" : " " + cpu[1])).str()},
        {"exit", rc},
        {"output", text}});
  }
  return results;
}
/// Asks the configured LLM to turn free text into a request, and checks the
/// answer like any other (known op, dtype and target; positive sizes).
Expected<OpRequest> parseRequestWithLLM(StringRef text) {
  Expected<LLMConfig> config = LLMConfig::fromEnvironment();
  if (!config)
    return config.takeError();
  auto system = MemoryBuffer::getFile(defaultHintsDir() +
                                      "/prompts/request_parse_system.txt");
  if (!system)
    return createStringError("prompt template request_parse_system.txt is "
                             "missing from " + defaultHintsDir() + "/prompts");
  LLMClient client(*config);
  ChatRequest chat;
  chat.messages = {{"system", (*system)->getBuffer().str()},
                   {"user", text.str()}};
  Expected<ChatResponse> answer = client.chat(chat);
  if (!answer)
    return answer.takeError();
  Expected<json::Value> doc = json::parse(answer->content);
  if (!doc)
    return createStringError("the answer is not JSON: " +
                             toString(doc.takeError()));
  const json::Object *o = doc->getAsObject();
  if (!o)
    return createStringError("the answer is not a JSON object");
  if (auto err = o->getString("error"))
    return createStringError("the model says: " + *err);
  OpRequest r;
  r.text = text.str();
  r.op = o->getString("op").value_or("").str();
  r.dtype = o->getString("dtype").value_or("").str();
  r.target = o->getString("target").value_or("").str();
  r.m = o->getInteger("m").value_or(0);
  r.n = o->getInteger("n").value_or(0);
  r.k = o->getInteger("k").value_or(0);
  // The answer must say what the builtin parser would accept.
  std::string canonical = formatv("{0}x{1}x{2} {3} {4} for {5}", r.m, r.n,
                                  r.k, r.dtype, r.op, r.target)
                              .str();
  Expected<OpRequest> checked = parseRequest(canonical);
  if (!checked || r.m <= 0 || r.n <= 0 || r.k <= 0 || checked->op != r.op ||
      checked->dtype != r.dtype || checked->target != r.target) {
    if (!checked)
      consumeError(checked.takeError());
    return createStringError("the model's reading is not a valid request: " +
                             answer->content);
  }
  checked->text = text.str();
  return *checked;
}
} // namespace

bool tensorop::genSubcommand() { return bool(genCmd); }

int tensorop::runGen() {
  auto fail = [](const Twine &msg) {
    errs() << "tensorop gen: " << msg << "\n";
    return 2;
  };
  if (allowUnsandboxed)
    ::setenv("TENSOROP_ALLOW_UNSANDBOXED", "1", 1);
  Expected<OpRequest> parsed = parseRequest(request);
  if (!parsed && genAdvisor == "llm") {
    // Free text the builtin parser cannot read goes to the model.
    std::string builtinError = toString(parsed.takeError());
    parsed = parseRequestWithLLM(request);
    if (!parsed)
      return fail("cannot understand \"" + request + "\": " + builtinError +
                  "; the LLM could not either: " +
                  toString(parsed.takeError()));
    errs() << "tensorop gen: the builtin parser could not read the request ("
           << builtinError << "); the LLM read it as " << parsed->describe()
           << "\n";
  }
  if (!parsed)
    return fail("cannot understand \"" + request +
                "\": " + toString(parsed.takeError()));
  OpRequest r = *parsed;
  if (!genTarget.empty()) {
    bool requestNamedTarget = r.target != "host" ||
                              StringRef(r.text).lower().find("host") !=
                                  std::string::npos;
    if (requestNamedTarget && r.target != genTarget)
      return fail("the request names target '" + r.target +
                  "' but --target=" + genTarget);
    r.target = genTarget;
  }
  if (parseOnly) {
    outs() << formatv("{0:2}\n",
                      json::Value(json::Object{{"op", r.op},
                                               {"m", r.m},
                                               {"n", r.n},
                                               {"k", r.k},
                                               {"dtype", r.dtype},
                                               {"c_dtype", r.cType.empty()
                                                               ? r.dtype
                                                               : r.cType},
                                               {"target", r.target},
                                               {"name", r.defaultName()}}));
    return 0;
  }
  if (StringRef(r.target).starts_with("nvidia")) {
    // The NVIDIA path (lib/GPU): PTX + cubin + host object + runner launch.
    GpuGenRequest g;
    g.text = r.text;
    g.target = r.target;
    g.dtype = r.dtype;
    g.cType = r.cType;
    g.m = r.m;
    g.n = r.n;
    g.k = r.k;
    g.name = kernelName.empty() ? r.defaultName() : kernelName;
    if (!isCIdentifier(g.name))
      return fail("--name '" + g.name + "' is not a C identifier");
    g.outDir = outDir;
    g.advisor = genAdvisor;
    g.db = genDb;
    return runGpuGen(g, outs(), errs());
  }
  if (r.dtype != "f32" || (!r.cType.empty() && r.cType != "f32"))
    return fail("understood " + r.describe() + "; CPU targets support f32 "
                "only (got " + r.dtype +
                (r.cType.empty() ? "" : " -> " + r.cType) + ")");
  Expected<std::string> resolved = resolveTargetName(r.target);
  if (!resolved)
    return fail(toString(resolved.takeError()));
  Expected<TargetHints> hints = loadTargetHints(*resolved);
  if (!hints)
    return fail(toString(hints.takeError()));
  if (genThreads < 1)
    return fail("--threads must be at least 1");
  // Cross targets are verified as static programs under qemu-user, and no
  // cross-built libomp is installed to link them with.
  if (genThreads > 1 && hints->arch != "x86_64")
    return fail("--threads > 1 is supported for x86-64 targets only (the "
                "OpenMP runtime is not available for " + hints->arch + ")");
  if (outDir.empty())
    return fail("-o DIR is required");
  // The kernel is verified here (or under qemu, same buffers): refuse a
  // request whose buffers do not fit before building anything.
  if (std::string tooBig = checkGemmBufferBudget(r.m, r.n, r.k);
      !tooBig.empty())
    return fail(tooBig);
  std::string name = kernelName.empty() ? r.defaultName() : kernelName;
  if (!isCIdentifier(name))
    return fail("--name '" + name + "' is not a C identifier");

  if (std::error_code ec = sys::fs::create_directories(outDir))
    return fail("cannot create " + outDir + ": " + ec.message());
  auto path = [&](StringRef file) {
    SmallString<256> p(outDir);
    sys::path::append(p, file);
    return std::string(p);
  };
  outs() << "tensorop gen: " << r.describe() << " -> " << *resolved
         << " kernel '" << name << "'\n";

  std::unique_ptr<mlir::MLIRContext> context = makeCompilerContext();
  mlir::MLIRContext &ctx = *context;

  StringMap<bool> hostFeatures = sys::getHostCPUFeatures();
  bool hostRunsTarget =
      hints->arch == "x86_64" &&
      (hints->isa != "avx512" ||
       (hostFeatures.lookup("avx512f") && hostFeatures.lookup("avx512bw")));

  // An advisor that can be wrong (llm, replay) answers here, with a
  // validator that builds each proposed kernel and, where this CPU runs it,
  // verifies it numerically; the rejection text goes back to the model.
  std::string chosenSketch;
  json::Array advisorNotes;
  int64_t promptTokens = 0, completionTokens = 0;
  if (genAdvisor != "builtin") {
    Expected<std::unique_ptr<Advisor>> adv = createAdvisor(genAdvisor);
    if (!adv)
      return fail(toString(adv.takeError()));
    std::string buildOptions = "target=" + *resolved + " advisor=builtin";
    auto sketchText = [&](SketchChoice c, std::string &text) -> Error {
      c.threads = genThreads;
      std::string illegal;
      SketchAttr attr = c.toAttr(&ctx, *hints, illegal);
      if (!attr)
        return createStringError(illegal);
      text.clear();
      raw_string_ostream(text) << attr;
      return Error::success();
    };
    (*adv)->setValidator([&](const SketchChoice &c) -> Error {
      std::string text;
      if (Error e = sketchText(c, text))
        return e;
      std::string probe = gemmModuleSource(name, r.m, r.n, r.k, text);
      if (!hostRunsTarget) {
        Expected<LoweredModule> l =
            lowerWithPipeline(ctx, probe, buildOptions, true);
        return l ? Error::success() : l.takeError();
      }
      Expected<JitGemm> jit = compileGemm(ctx, probe, name, buildOptions);
      if (!jit)
        return jit.takeError();
      GemmComparison check = compareWithOpenBLAS(jit->fn, r.m, r.n, r.k,
                                                 genSeed, false, 5, 0.1, 0);
      if (!check.error.empty())
        return createStringError(check.error);
      if (!check.verified())
        return createStringError(formatv(
            "the kernel computes wrong results: {0} elements over the error "
            "bound (max error/bound {1:E2}), {2} wrong with small-integer "
            "inputs",
            check.before.failures(), check.before.maxRatio,
            check.exactMismatches));
      return Error::success();
    });
    GemmProblem problem;
    problem.m = r.m;
    problem.n = r.n;
    problem.k = r.k;
    problem.aRowsInPlace = true; // gen's A is a contiguous row-major buffer
    Expected<SketchChoice> choice = (*adv)->propose(problem, *hints);
    for (const AdvisorNote &note : (*adv)->notes()) {
      errs() << "tensorop gen: advisor '" << genAdvisor << "': " << note.text
             << "\n";
      advisorNotes.push_back(note.text);
    }
    promptTokens = (*adv)->promptTokens();
    completionTokens = (*adv)->completionTokens();
    if (!choice)
      return fail(toString(choice.takeError()));
    if (Error e = sketchText(*choice, chosenSketch))
      return fail("the advisor's final choice is illegal: " +
                  toString(std::move(e)));
  }

  std::string source = gemmModuleSource(name, r.m, r.n, r.k, chosenSketch);
  if (Error e = writeTextFile(path(name + ".mlir"), source))
    return fail(toString(std::move(e)));
  std::string options = "target=" + *resolved + " advisor=builtin" +
                        " threads=" + std::to_string(genThreads) +
                        (genDb.empty() ? "" : " db=" + genDb.getValue());
  Expected<LoweredModule> lowered =
      lowerWithPipeline(ctx, source, options, /*barePtrAbi=*/true);
  if (!lowered)
    return fail(toString(lowered.takeError()));
  {
    std::string text;
    raw_string_ostream os(text);
    lowered->module->print(os);
    if (Error e = writeTextFile(path(name + ".lowered.mlir"), text))
      return fail(toString(std::move(e)));
  }
  std::string obj = path(name + ".o");
  if (Error e = emitObjectFile(*lowered->module, hints->triple, hints->cpu,
                               hints->features, obj, path(name + ".ll")))
    return fail("cannot emit the object: " + toString(std::move(e)));
  if (Error e = writeTextFile(path(name + ".h"), header(r, name, *resolved, lowered->sketch)))
    return fail(toString(std::move(e)));
  outs() << "  sketch: " << lowered->sketch << "\n";

  // Verify the shipped object itself (and time it) when this CPU runs it.
  json::Object verification{{"performed", false}};
  json::Object timing{{"performed", false}};
  bool verified = false;
  bool crossRun = false; // Verified under qemu (not timed).
  bool runsHere = hostRunsTarget;
  GemmComparison cmp;
  double peak = 0;
  if (runsHere) {
    Expected<LoadedObject> loaded = loadObjectFile(obj, name);
    if (!loaded)
      return fail("cannot load " + obj + ": " + toString(loaded.takeError()));
    // The libraries get as many threads as the kernel asked for.
    setBaselineThreads(genThreads);
    peak = noBench ? 0 : measureFmaPeakGflops() * genThreads;
    if (!noBench && !openblasCoreWarning().empty())
      errs() << "tensorop gen: " << openblasCoreWarning() << "\n";
    cmp = compareWithOpenBLAS(reinterpret_cast<GemmFn>(loaded->symbol), r.m,
                              r.n, r.k, genSeed, !noBench, 7, 0.1, peak,
                              /*second=*/nullptr,
                              /*settleSeconds=*/genThreads > 1 ? 0.3 : 0);
    if (!cmp.error.empty())
      return fail(cmp.error);
    verified = cmp.verified() && !cmp.fasterThanPeak;
    verification = json::Object{
        {"performed", true},
        {"object", obj},
        {"seed", int64_t(genSeed)},
        {"inputs", "seeded uniform [-1, 1) (A, B); plus small integers in "
                   "[-4, 4] (exact results)"},
        {"reference", "OpenBLAS dgemm (fp64) of the same fp32 inputs"},
        {"bound", "|C - R| <= 2*K*6e-8*(|A||B|) + 6e-8*|R|"},
        {"output_prefill", "NaN"},
        {"max_error_ratio", cmp.before.maxRatio},
        {"elements_over_bound", cmp.before.failures()},
        {"exact_small_integer_mismatches", cmp.exactMismatches},
        {"max_error_ratio_after_timing",
         cmp.timed ? json::Value(cmp.after.maxRatio) : json::Value(nullptr)},
        {"passed", verified}};
    if (cmp.timed)
      timing = json::Object{
          {"performed", true},
          {"precision", "fp32 (both)"},
          {"threads", int64_t(genThreads)},
          {"caches", "warm"},
          {"rounds", 7},
          {"method", "alternating A B A B in one process, median and best"},
          {"settle_seconds_before_each_round", genThreads > 1 ? 0.3 : 0.0},
          {"tensorop_gflops_median", cmp.oursMedian},
          {"tensorop_gflops_best", cmp.oursBest},
          {"openblas_gflops_median", cmp.blasMedian},
          {"openblas_gflops_best", cmp.blasBest},
          {"ratio_median", cmp.oursMedian / cmp.blasMedian},
          {"onednn", cmp.haveOneDNN ? oneDNNVersion() : std::string("")},
          {"onednn_gflops_median",
           cmp.haveOneDNN ? json::Value(cmp.onednnMedian) : json::Value(nullptr)},
          {"ratio_vs_onednn_median",
           cmp.haveOneDNN ? json::Value(cmp.oursMedian / cmp.onednnMedian)
                          : json::Value(nullptr)},
          {"openblas", std::string(openblas_get_config())},
          {"openblas_core", std::string(openblas_get_corename())},
          {"openblas_coretype_env", openblasCoreWarning()},
          {"measured_fma_peak_gflops", peak},
          {"cpu", cpuModelName() + " (" + cpuFamilyModel() + ")"}};
  } else if (hints->arch == "riscv64" || hints->arch == "aarch64") {
    bool passed = false;
    Expected<json::Array> runs =
        verifyUnderQemu(*hints, name, r, outDir, passed);
    if (!runs) {
      verification["reason"] =
          "not verified: " + toString(runs.takeError());
    } else {
      verified = passed;
      verification = json::Object{
          {"performed", true},
          {"method", "tools/tensorop/harness/gemm_check.c linked statically "
                     "with the object, run under qemu-user: small-integer "
                     "inputs (exact) and seeded random inputs against an "
                     "fp64 reference, bound 2*K*6e-8*(|A||B|) + 6e-8*|R|, "
                     "NaN-prefilled C"},
          {"runs", std::move(*runs)},
          {"passed", passed}};
      crossRun = true;
    }
  } else {
    verification["reason"] =
        "the target's instruction set does not run on this machine";
  }

  json::Array files;
  for (StringRef f : {".mlir", ".lowered.mlir", ".ll", ".o", ".h"})
    files.push_back(name + f.str());
  files.push_back("report.json");
  files.push_back("report.md");
  json::Object report{
      {"tool", "tensorop gen"},
      {"version", TENSOROP_VERSION},
      {"date", today()},
      {"request", r.text},
      {"understood", json::Object{{"op", r.op},
                                  {"m", r.m},
                                  {"n", r.n},
                                  {"k", r.k},
                                  {"dtype", r.dtype},
                                  {"target", r.target}}},
      {"target", *resolved},
      {"hints", hints->path},
      {"kernel", name},
      {"abi", "void " + name +
                  "(const float *A, const float *B, float *C); row-major, "
                  "contiguous, C = A*B overwritten"},
      {"advisor", genAdvisor},
      {"advisor_notes", std::move(advisorNotes)},
      {"llm_tokens", json::Object{{"prompt", promptTokens},
                                  {"completion", completionTokens}}},
      {"sketch", lowered->sketch},
      {"sketch_source",
       StringRef(lowered->sketch).contains("source = \"db:")
           ? "tuning database " + genDb.getValue()
           : "advisor " + genAdvisor.getValue()},
      {"provenance", sketchSource(lowered->sketch)},
      {"llvm", LLVM_VERSION_STRING},
      {"verification", std::move(verification)},
      {"timing", std::move(timing)},
      {"files", std::move(files)}};
  std::string reportText =
      formatv("{0:2}\n", json::Value(std::move(report))).str();
  if (Error e = writeTextFile(path("report.json"), reportText))
    return fail(toString(std::move(e)));

  std::string md = formatv("# {0}\n\nRequest: `{1}`\n\nUnderstood: {2} "
                           "(target `{3}`), generated by tensorop {4} with "
                           "LLVM {5} on {6}.\n\n",
                           name, r.text, r.describe(), *resolved,
                           TENSOROP_VERSION, LLVM_VERSION_STRING, today())
                       .str();
  md += "## Sketch (chosen by the `" + genAdvisor + "` advisor)\n\n```\n" +
        lowered->sketch + "\n```\n\n## Verification\n\n";
  if (runsHere)
    md += formatv("The shipped object `{0}.o` was loaded and run: output "
                  "pre-filled with NaN, fp64 reference of the same inputs "
                  "(seed {1}), bound 2*K*6e-8*(|A||B|) + 6e-8*|R|.\n\n"
                  "- max error / bound: {2:E2} ({3} elements over the "
                  "bound)\n- small-integer inputs (exact): {4} mismatches\n"
                  "- result: **{5}**\n\n",
                  name, unsigned(genSeed), cmp.before.maxRatio,
                  cmp.before.failures(), cmp.exactMismatches,
                  verified ? "passed" : "FAILED")
              .str();
  else if (crossRun)
    md += std::string("Cross-compiled for ") + hints->triple +
          ": the object was linked into tools/tensorop/harness/gemm_check.c "
          "and run under qemu-user (small-integer exact test and seeded "
          "random inputs against an fp64 reference). Result: **" +
          (verified ? "passed" : "FAILED") +
          "** (see report.json for each run). Speed is not measured under "
          "emulation; see docs/estimates/ for model estimates.\n\n";
  else
    md += "Not run: the target's instruction set does not run here, and "
          "no emulator was found.\n\n";
  if (cmp.timed)
    md += formatv("## Speed ({9} thread(s), fp32 on every side, warm caches, 7 "
                  "round-robin rounds{10})\n\n| | median GFLOP/s | best GFLOP/s "
                  "|\n| --- | --- | --- |\n| TensorOp | {0:F1} | {1:F1} |\n| "
                  "OpenBLAS {4} ({5}) | {2:F1} | {3:F1} |\n\nRatio of "
                  "medians: **{6:F2}x**. Machine: {7}; measured FMA peak "
                  "{8:F1} GFLOP/s per core.\n",
                  cmp.oursMedian, cmp.oursBest, cmp.blasMedian, cmp.blasBest,
                  StringRef(openblas_get_config()).split(' ').second.split(' ').first,
                  openblas_get_corename(), cmp.oursMedian / cmp.blasMedian,
                  cpuModelName() + " (" + cpuFamilyModel() + ")",
                  peak / genThreads, unsigned(genThreads),
                  genThreads > 1 ? ", 0.3 s idle before each side's round"
                                 : "")
              .str();
  if (cmp.timed && cmp.haveOneDNN)
    md += formatv("\n{0} (`dnnl_sgemm`, same rounds, {4} thread(s)): {1:F1} "
                  "GFLOP/s median (best {2:F1}); ratio of medians **{3:F2}x**.\n",
                  oneDNNVersion(), cmp.onednnMedian, cmp.onednnBest,
                  cmp.oursMedian / cmp.onednnMedian, unsigned(genThreads))
              .str();
  if (Error e = writeTextFile(path("report.md"), md))
    return fail(toString(std::move(e)));

  if (runsHere) {
    outs() << formatv("  verified: max error/bound {0:E2}, exact test {1} "
                      "mismatches -> {2}\n",
                      cmp.before.maxRatio, cmp.exactMismatches,
                      verified ? "passed" : "FAILED");
    if (cmp.timed)
      outs() << formatv("  speed: {0:F1} GFLOP/s vs OpenBLAS {1:F1} "
                        "(median, {4} thread(s)): {2:F2}x{3}\n",
                        cmp.oursMedian, cmp.blasMedian,
                        cmp.oursMedian / cmp.blasMedian,
                        cmp.haveOneDNN
                            ? formatv("; vs oneDNN {0:F1}: {1:F2}x",
                                      cmp.onednnMedian,
                                      cmp.oursMedian / cmp.onednnMedian)
                                  .str()
                            : std::string(),
                        unsigned(genThreads));
  }
  if (crossRun)
    outs() << "  verified under qemu: " << (verified ? "passed" : "FAILED")
           << "\n";
  else if (!runsHere)
    outs() << "  NOT verified: "
           << *verification.getString("reason") << "\n";
  outs() << "  wrote " << outDir << "/{" << name << ".mlir, " << name
         << ".lowered.mlir, " << name << ".ll, " << name << ".o, " << name
         << ".h, report.json, report.md}\n";
  return (runsHere || crossRun) && !verified ? 1 : 0;
}

//===- GenDriver.cpp - tensorop gen: a verified kernel from one line ------===//
//
//   tensorop gen "97x131x67 fp32 GEMM for x86-avx512" -o out/
//
// One driver for every target: the request becomes an Operator, the target
// picks a Backend (CpuBackend.cpp, NvidiaBackend.cpp), which checks the
// operator, then compiles, verifies and writes the kernel and its reports.
//
//===----------------------------------------------------------------------===//

#include "tensorop/Driver/GenDriver.h"
#include "tensorop/Driver/Backend.h"
#include "tensorop/Driver/KernelName.h"

#include "tensorop/Advisor/Advisor.h"
#include "tensorop/Advisor/Request.h"
#include "tensorop/LLM/LLMClient.h"
#include "tensorop/Targets/TargetHints.h"
#include "tensorop/Tuner/TuningDB.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <ctime>

using namespace llvm;
using namespace mlir::tensorop;
using ::tensorop::Conv2DShape;

namespace {
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

/// --target's value: a target gen builds for. Checked before anything else
/// (--parse-only printed an unknown target and exited 0).
Error checkGenTarget(StringRef target) {
  if (target == "host" || is_contained(supportedCpuTargets(), target) ||
      is_contained(supportedGpuTargets(), target))
    return Error::success();
  // A variant is a build inside another target's objects, not a target.
  if (is_contained(cpuTargetVariants(), target))
    return createStringError("target '" + target +
                             "' is a build inside riscv-rvv's objects (the "
                             "one their entries call where VLEN >= 256), not "
                             "a target of its own: ask for riscv-rvv");
  std::string known = "host";
  for (ArrayRef<StringLiteral> list :
       {supportedCpuTargets(), supportedGpuTargets()})
    for (StringRef t : list)
      known += ", " + t.str();
  return createStringError("unknown target '" + target + "' (--target takes " +
                           known + ")");
}

/// Whether two target names build for the same machine: "host" and the
/// target it resolves to here ("for this CPU" with --target=x86-avx512 on
/// an AVX-512 CPU).
bool sameTarget(StringRef a, StringRef b) {
  auto resolve = [](StringRef t) {
    Expected<std::string> r = resolveTargetName(t);
    if (r)
      return *r;
    consumeError(r.takeError());
    return t.str();
  };
  return a == b || resolve(a) == resolve(b);
}
} // namespace

tensorop::Backend::~Backend() = default;

std::unique_ptr<tensorop::Backend>
tensorop::Backend::forTarget(StringRef target) {
  if (target.starts_with("nvidia"))
    return createNvidiaBackend();
  return createCpuBackend();
}

int tensorop::genFailure(const Twine &message) {
  errs() << "tensorop gen: " << message << "\n";
  return 2;
}

std::string tensorop::reportDate() {
  std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

int tensorop::generateKernel(const GenOptions &options) {
  const std::string &request = options.request, &genAdvisor = options.advisor,
                    &genTarget = options.target;
  auto fail = [](const Twine &msg) { return genFailure(msg); };
  if (options.allowUnsandboxed)
    ::setenv("TENSOROP_ALLOW_UNSANDBOXED", "1", 1);
  if (!genTarget.empty())
    if (Error e = checkGenTarget(genTarget))
      return fail(toString(std::move(e)));
  if (Error e = checkAdvisorName(genAdvisor))
    return fail(toString(std::move(e)));
  if (options.peakGflops < 0)
    return fail("--peak must be positive (GFLOP/s)");
  // The database too, before anything is parsed or built: a missing or
  // foreign file failed once the sketch was chosen, located at a line of
  // the module gen builds ('loc("-":5:3): tensorop: tuning database ...').
  if (!options.db.empty())
    if (Expected<std::unique_ptr<TuningDB>> db =
            TuningDB::open(options.db, /*readOnly=*/true);
        !db)
      return fail("--db: " + toString(db.takeError()));
  Expected<OpRequest> parsed = parseRequest(request);
  // A modifier the builtin parser refused by name is final: the model's
  // reading has no field for it and would drop it silently.
  if (!parsed) {
    std::string message;
    bool unsupported = false;
    handleAllErrors(parsed.takeError(), [&](const ErrorInfoBase &e) {
      unsupported = e.convertToErrorCode() ==
                    std::make_error_code(std::errc::not_supported);
      message = e.message();
    });
    if (unsupported)
      return fail("cannot generate \"" + request + "\": " + message);
    parsed = createStringError(message);
  }
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
    // "for this CPU" names the host as much as "for x86-avx512" names that
    // target: --target=arm-neon dropped those words silently. (A reading
    // by the LLM sets no targetNamed; its non-host target still counts.)
    bool requestNamedTarget =
        r.targetNamed || r.target != "host" ||
        StringRef(r.text).lower().find("host") != std::string::npos;
    // Both may name this machine: "for this CPU" and --target=x86-avx512
    // where the host is AVX-512 (the more specific name is kept).
    if (requestNamedTarget && !sameTarget(r.target, genTarget)) {
      std::string hostIs;
      if (r.target == "host" || genTarget == "host") {
        Expected<std::string> host = resolveTargetName("host");
        hostIs = host ? " (the host here is " + *host + ")" : "";
        if (!host)
          consumeError(host.takeError());
      }
      return fail("the request names target '" + r.target +
                  "' but --target=" + genTarget + hostIs);
    }
    if (genTarget != "host")
      r.target = genTarget;
  }
  // The kernel's operator, C's type and name settled before --parse-only
  // prints them: it printed the request's words ("bf16" -> a bf16 C) where
  // the CPU kernel writes an f32 C, and the name without "_bf16out".
  Expected<Operator> op = Operator::fromRequest(r);
  if (!op)
    return fail(toString(op.takeError()));
  std::unique_ptr<Backend> backend = Backend::forTarget(r.target);
  // On CPUs, bf16/f16 inputs accumulate into an fp32 C unless the request
  // names another output (which CpuBackend::prepare refuses by name).
  if (backend->family() == "cpu" && op->requestedOutType.empty() &&
      (op->dtype == "bf16" || op->dtype == "f16"))
    op->requestedOutType = "f32";
  // "bf16 output" on a CPU: the default name says so (without the words
  // the CPU kernel of the same dtype writes an f32 C under the plain name).
  else if (backend->family() == "cpu" && op->kind == OpKind::Matmul &&
           op->requestedOutType == op->dtype &&
           (op->dtype == "bf16" || op->dtype == "f16"))
    op->defaultName += "_" + op->dtype + "out";
  // What gen refuses, --parse-only refuses too (after printing what it
  // understood), with the same message and status: it printed an int8
  // GEMM for a CPU target and exited 0.
  GenJob job{options, r, *op, options.name.empty() ? op->defaultName
                                                   : options.name};
  auto refusal = [&]() -> int {
    if (std::string why = reservedKernelName(job.name); !why.empty())
      return fail("--name '" + job.name + "' cannot name a kernel: it " +
                  why);
    if (Error e = backend->prepare(job))
      return fail(toString(std::move(e)));
    return 0;
  };
  if (options.parseOnly && r.op == "conv2d") {
    const Conv2DShape &c = r.conv;
    json::Object parsed{{"op", r.op},
                        {"n", c.n},
                        {"h", c.h},
                        {"w", c.w},
                        {"c", c.c},
                        {"f", c.f},
                        {"r", c.r},
                        {"s", c.s},
                        {"stride_h", c.strideH},
                        {"stride_w", c.strideW},
                        {"dilation_h", c.dilationH},
                        {"dilation_w", c.dilationW},
                        {"pad_top", c.padTop},
                        {"pad_bottom", c.padBottom},
                        {"pad_left", c.padLeft},
                        {"pad_right", c.padRight},
                        {"out_h", c.outH()},
                        {"out_w", c.outW()},
                        {"dtype", r.dtype},
                        {"target", r.target},
                        {"name", op->defaultName}};
    if (!r.epilogue.empty())
      parsed["epilogue"] = json::Array(r.epilogue);
    outs() << formatv("{0:2}\n", json::Value(std::move(parsed)));
    outs().flush(); // before a refusal on stderr
    return refusal();
  }
  if (options.parseOnly) {
    json::Object parsed{
        {"op", r.op},
        {"m", r.m},
        {"n", r.n},
        {"k", r.k},
        {"dtype", r.dtype},
        {"c_dtype", op->outType()},
        {"target", r.target},
        {"transpose_a", r.transposeA},
        {"transpose_b", r.transposeB},
        {"batched", r.batched},
        {"batch", r.batchCount},
        {"name", op->defaultName}};
    if (!r.epilogue.empty())
      parsed["epilogue"] = json::Array(r.epilogue);
    outs() << formatv("{0:2}\n", json::Value(std::move(parsed)));
    outs().flush(); // before a refusal on stderr
    return refusal();
  }
  if (int rc = refusal())
    return rc;
  if (options.outDir.empty())
    return fail("-o DIR is required");
  return backend->generate(job);
}

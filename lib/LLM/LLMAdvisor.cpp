//===- LLMAdvisor.cpp - Sketches from an LLM, validated, with fallback ----===//
//
// The paper's first two stages with its compile-and-test feedback: the prompt
// is built from the target's hints and templates in hints/prompts/; every
// answer is checked (JSON schema, legality on the target, an emitter script
// it wrote runs sandboxed and its code assembles, then the caller's validator
// compiles and verifies the kernel) and a rejected answer goes back to the
// model with the reason, a bounded number of times. After that, or when the
// endpoint cannot be reached, the builtin advisor answers and the sketch's
// source says so.
//
//===----------------------------------------------------------------------===//

#include "tensorop/Advisor/Advisor.h"
#include "tensorop/Advisor/ConvAdvisor.h"
#include "tensorop/Advisor/UKernelRequest.h"
#include "tensorop/Dialect/TensorOpDialect.h"
#include "tensorop/Emitters/Emitter.h"
#include "tensorop/LLM/LLMAdvisor.h"

#include "AnswerJson.h"
#include "tensorop/LLM/LLMClient.h"
#include "tensorop/Targets/TargetHints.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace mlir;
using namespace mlir::tensorop;

/// Wall-clock seconds a model-written emitter script may run: 20, or
/// TENSOROP_EMITTER_TIMEOUT (whole seconds > 0) where a slow machine needs
/// more or a test wants a looping script refused sooner.
static unsigned modelEmitterTimeoutSeconds() {
  if (const char *env = std::getenv("TENSOROP_EMITTER_TIMEOUT")) {
    unsigned seconds = 0;
    if (!llvm::StringRef(env).getAsInteger(10, seconds) && seconds > 0)
      return seconds;
  }
  return 20;
}

using llvm::StringRef;

namespace {
std::string readText(StringRef path) {
  auto b = llvm::MemoryBuffer::getFile(path);
  return b ? (*b)->getBuffer().str() : std::string();
}

std::string sha16(StringRef text) {
  return llvm::toHex(llvm::SHA256::hash(llvm::arrayRefFromStringRef(text)),
                     true)
      .substr(0, 16);
}

/// Replaces ${NAME} by its value.
std::string substitute(std::string text,
                       llvm::ArrayRef<std::pair<StringRef, std::string>> vars) {
  for (auto &[name, value] : vars) {
    std::string key = ("${" + name + "}").str();
    for (size_t pos; (pos = text.find(key)) != std::string::npos;)
      text.replace(pos, key.size(), value);
  }
  return text;
}

std::string describeChoice(const SketchChoice &c) {
  return llvm::formatv("{{\"mc\": {0}, \"nc\": {1}, \"kc\": {2}, \"mr\": {3}, "
                       "\"nr\": {4}, \"loop_order\": \"{5}\", \"micro_order\": "
                       "\"{6}\", \"k_unroll\": {7}, \"broadcast\": \"{8}\", "
                       "\"prefetch_b\": {9}}",
                       c.mc, c.nc, c.kc, c.mr, c.nr, c.loopOrder,
                       c.microOrder, c.kUnroll, c.broadcast, c.prefetchB)
      .str();
}

/// Where recorded answers of an op live (llm records, replay reads).
std::string recordPath(StringRef dir, const GemmProblem &p,
                       const TargetHints &t) {
  std::string key = llvm::formatv("gemm m={0} n={1} k={2} ta={3} tb={4} {5}",
                                  p.m, p.n, p.k, p.transposeA, p.transposeB,
                                  t.name)
                        .str();
  // A team's answer is another answer (one thread keeps the key it had).
  if (p.threads > 1)
    key += " threads=" + std::to_string(p.threads);
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, sha16(key) + ".json");
  return std::string(path);
}

/// What to do with a model-written emitter when no validator runs it.
enum class UnverifiedEmitters {
  Refuse,         ///< tell the model to use a shipped emitter
  AcceptMarked,   ///< accepted explicitly; the source says "unverified"
  CallerVerifies, ///< the caller runs and verifies the kernel (the tuner)
};

/// Turns an answer into a checked choice, or says precisely what is wrong
/// (the text goes back to the model).
class AnswerChecker {
public:
  AnswerChecker(const GemmProblem &, const TargetHints &t,
                const ChoiceValidator &validator, UnverifiedEmitters unverified)
      : t(t), validator(validator), unverified(unverified) {
    ctx.getOrLoadDialect<TensorOpDialect>();
  }

  llvm::Expected<SketchChoice> check(StringRef content, StringRef source) {
    llvm::Expected<llvm::json::Value> doc = parseAnswerObject(content);
    if (!doc)
      return doc.takeError();
    const llvm::json::Object *root = doc->getAsObject();
    const llvm::json::Object *s = root->getObject("sketch");
    if (!s)
      return fail("field 'sketch' is missing or not an object");
    SketchChoice c;
    auto integer = [&](StringRef key, int64_t &out) -> llvm::Error {
      std::optional<int64_t> v = s->getInteger(key);
      if (!v)
        return fail("field 'sketch." + key + "' is missing or not an integer");
      out = *v;
      return llvm::Error::success();
    };
    auto string = [&](StringRef key, std::string &out) -> llvm::Error {
      std::optional<StringRef> v = s->getString(key);
      if (!v)
        return fail("field 'sketch." + key + "' is missing or not a string");
      out = v->str();
      return llvm::Error::success();
    };
    for (auto [key, out] : {std::pair<StringRef, int64_t *>{"mc", &c.mc},
                            {"nc", &c.nc},
                            {"kc", &c.kc},
                            {"mr", &c.mr},
                            {"nr", &c.nr},
                            {"k_unroll", &c.kUnroll},
                            {"prefetch_b", &c.prefetchB}})
      if (llvm::Error e = integer(key, *out))
        return std::move(e);
    for (auto [key, out] :
         {std::pair<StringRef, std::string *>{"loop_order", &c.loopOrder},
          {"micro_order", &c.microOrder},
          {"broadcast", &c.broadcast}})
      if (llvm::Error e = string(key, *out))
        return std::move(e);
    c.source = source.str();

    if (const llvm::json::Value *em = root->get("emitter")) {
      const llvm::json::Object *e = em->getAsObject();
      if (!e)
        return fail("field 'emitter' must be an object");
      std::optional<StringRef> name = e->getString("name");
      std::optional<StringRef> script = e->getString("script");
      if (!name || !script)
        return fail("field 'emitter' needs string fields 'name' and 'script'");
      if (!name->starts_with("llm_") || name->size() > 48 ||
          !llvm::all_of(*name, [](char ch) {
            return llvm::isDigit(ch) || (ch >= 'a' && ch <= 'z') || ch == '_';
          }))
        return fail("emitter name '" + *name +
                    "' must match llm_[a-z0-9_]+ (at most 48 characters)");
      if (script->size() > 200000)
        return fail("the emitter script is longer than 200000 characters");
      if (!validator && unverified == UnverifiedEmitters::Refuse)
        return fail("the answer brings its own emitter script, but here "
                    "nothing runs a model-written kernel to verify it "
                    "before it is used, so only the shipped emitters are "
                    "accepted: answer without the 'emitter' field");
      // Content-addressed, so a later different script never replaces one
      // a sketch already names.
      c.emitter = (*name + "_" + sha16(*script).substr(0, 8)).str();
      std::string dir = llmEmitterDir();
      llvm::sys::fs::create_directories(dir);
      std::string path = dir + "/" + c.emitter + ".py";
      std::error_code ec;
      llvm::raw_fd_ostream os(path, ec);
      if (ec)
        return llvm::createStringError("cannot install the emitter at " +
                                       path + ": " + ec.message());
      os << *script;
    }

    std::string illegal;
    SketchAttr attr = c.toAttr(&ctx, t, illegal);
    if (!attr)
      return fail("the sketch is illegal on " + t.name + ": " + illegal);

    if (c.emitter.rfind("llm_", 0) == 0) {
      // Run the new emitter (sandboxed) once here, so a broken script is
      // caught with its own error before anything is compiled.
      // Packed A and B: the spec the pass asks for a contiguous GEMM's
      // packed panels.
      EmitterRequest request =
          ukernelEmitterRequest(attr, t, /*ldaBytes=*/0, /*ldbBytes=*/0, "",
                                modelEmitterTimeoutSeconds());
      llvm::Expected<EmittedKernel> k = runEmitter(request);
      if (!k)
        return fail("the emitter script failed: " +
                    llvm::toString(k.takeError()));
    }
    if (validator) {
      if (llvm::Error e = validator(c))
        return fail("the kernel was built but rejected: " +
                    llvm::toString(std::move(e)));
    } else if (c.emitter.rfind("llm_", 0) == 0 &&
               unverified == UnverifiedEmitters::AcceptMarked) {
      // Accepted without verification, explicitly: say so where the
      // sketch goes.
      c.source += " (unverified emitter " + c.emitter + ")";
    }
    return c;
  }

private:
  llvm::Error fail(const llvm::Twine &why) {
    return llvm::createStringError(why);
  }
  const TargetHints &t;
  const ChoiceValidator &validator;
  UnverifiedEmitters unverified;
  MLIRContext ctx;
};

class LLMAdvisor : public Advisor {
public:
  explicit LLMAdvisor(LLMConfig config)
      : config(config), client(config) {
    if (const char *r = std::getenv("TENSOROP_LLM_ANSWER_RETRIES"))
      llvm::StringRef(r).getAsInteger(10, maxCorrections);
    if (const char *d = std::getenv("TENSOROP_LLM_RECORD_DIR"))
      recordDir = d;
  }
  StringRef name() const override { return "llm"; }

  llvm::Expected<SketchChoice> propose(const GemmProblem &p,
                                       const TargetHints &t) override {
    notesList.clear();
    promptTokenCount = completionTokenCount = 0;
    llvm::Expected<SketchChoice> builtin =
        createBuiltinAdvisor()->propose(p, t);
    if (!builtin)
      return builtin.takeError();
    llvm::Expected<ChatRequest> request =
        chatRequest("gemm_sketch_system.txt", userPrompt(p, t, *builtin));
    if (!request)
      return request.takeError();
    AnswerChecker checker(p, t, validator,
                          acceptUnverified ? UnverifiedEmitters::AcceptMarked
                                           : UnverifiedEmitters::Refuse);
    std::string source = "llm:" + config.model, why, content;
    std::optional<SketchChoice> choice = ask<SketchChoice>(
        *request,
        [&](StringRef answer) { return checker.check(answer, source); }, why,
        content);
    if (!choice)
      return fallback(*builtin, why);
    record(recordPath(recordDir, p, t), t, content);
    return *choice;
  }

  llvm::Expected<ConvSketchChoice>
  proposeConv(const ConvProblem &p, const TargetHints &t) override {
    notesList.clear();
    promptTokenCount = completionTokenCount = 0;
    llvm::Expected<ConvSketchChoice> builtin = builtinConvChoice(p, t);
    if (!builtin)
      return builtin.takeError();
    llvm::Expected<ChatRequest> request =
        chatRequest("conv_sketch_system.txt", convUserPrompt(p, t, *builtin));
    if (!request)
      return request.takeError();
    std::string source = "llm:" + config.model, why, content;
    std::optional<ConvSketchChoice> choice = ask<ConvSketchChoice>(
        *request,
        [&](StringRef answer) {
          return checkConvSketchAnswer(answer, *builtin, t, source);
        },
        why, content);
    if (!choice)
      return fallback(*builtin, why);
    // (Not recorded: the replay advisor has no convolution answers.)
    return *choice;
  }

private:
  std::string promptDir() const { return defaultHintsDir() + "/prompts"; }

  /// The system prompt `system` (a file of hints/prompts/) and `user`.
  llvm::Expected<ChatRequest> chatRequest(StringRef system,
                                          std::string user) const {
    ChatRequest request;
    std::string path = promptDir() + "/" + system.str();
    request.messages = {{"system", readText(path)}, {"user", std::move(user)}};
    if (request.messages[0].content.empty())
      return llvm::createStringError("prompt template " + path +
                                     " is missing");
    return request;
  }

  /// Asks until `check` accepts an answer, at most maxCorrections + 1 of
  /// them, each rejection going back to the model with its reason (the
  /// paper's compile-and-test feedback). The accepted choice, with the
  /// answer's text in `content`; or nothing, with the reason to fall back
  /// in `why`. Every answer and rejection is a note.
  template <typename Choice>
  std::optional<Choice>
  ask(ChatRequest request,
      llvm::function_ref<llvm::Expected<Choice>(StringRef)> check,
      std::string &why, std::string &content) {
    for (unsigned attempt = 0; attempt <= maxCorrections; ++attempt) {
      llvm::Expected<ChatResponse> answer = client.chat(request);
      if (!answer) {
        notesList.push_back(AdvisorNote::warning(
            "the LLM endpoint failed: " + llvm::toString(answer.takeError())));
        why = "the LLM endpoint failed";
        return std::nullopt;
      }
      promptTokenCount += answer->promptTokens;
      completionTokenCount += answer->completionTokens;
      llvm::Expected<Choice> choice = check(answer->content);
      if (choice) {
        notesList.push_back(AdvisorNote::info(
            llvm::formatv("answer {0} accepted ({1} prompt + {2} completion "
                          "tokens{3})",
                          attempt + 1, promptTokenCount, completionTokenCount,
                          answer->fromCache ? ", cached" : "")
                .str()));
        content = answer->content;
        return std::move(*choice);
      }
      std::string rejected = llvm::toString(choice.takeError());
      notesList.push_back(AdvisorNote::rejection(
          llvm::formatv("answer {0} rejected: {1}", attempt + 1, rejected)
              .str()));
      request.messages.push_back({"assistant", answer->content});
      request.messages.push_back(
          {"user", "Your answer was rejected: " + rejected +
                       "\nAnswer again with a corrected JSON object only."});
    }
    why = llvm::formatv("{0} rejected answers", maxCorrections + 1).str();
    return std::nullopt;
  }

  std::string convUserPrompt(const ConvProblem &p, const TargetHints &t,
                             const ConvSketchChoice &builtin) const {
    auto str = [](int64_t v) { return std::to_string(v); };
    std::string described;
    llvm::raw_string_ostream os(described);
    os << llvm::formatv("mr = {0}, nr = {1}, cb = {2}, taps = \"{3}\", "
                        "loop_order = \"{4}\", pack_input = \"{5}\", "
                        "pack_filter = \"{6}\", k_unroll = {7}, broadcast = "
                        "\"{8}\"",
                        builtin.mr, builtin.nr, builtin.cb, builtin.taps,
                        builtin.loopOrder, builtin.packInput,
                        builtin.packFilter, builtin.kUnroll, builtin.broadcast);
    return substitute(
        readText(promptDir() + "/conv_sketch_user.txt"),
        {{"N", str(p.n)},
         {"H", str(p.h)},
         {"W", str(p.w)},
         {"C", str(p.c)},
         {"F", str(p.f)},
         {"R", str(p.r)},
         {"S", str(p.s)},
         {"STRIDE", str(p.strideH) + " x " + str(p.strideW)},
         {"DILATION", str(p.dilationH) + " x " + str(p.dilationW)},
         {"PAD", str(p.padTop) + ", " + str(p.padBottom) + ", " +
                     str(p.padLeft) + ", " + str(p.padRight)},
         {"OH", str(p.outH())},
         {"OW", str(p.outW())},
         {"TARGET", t.name},
         {"HINTS", readText(t.path)},
         {"BUILTIN", described}});
  }

  std::string userPrompt(const GemmProblem &p, const TargetHints &t,
                         const SketchChoice &builtin) const {
    std::string emitter = readText(defaultEmitterDir() + "/x86_gemm_fma.py");
    // The module docstring is the contract; the code is not needed.
    size_t end = emitter.find("\"\"\"", emitter.find("\"\"\"") + 3);
    if (end != std::string::npos)
      emitter = emitter.substr(0, end + 3);
    std::string transposes;
    if (p.transposeA || p.transposeB)
      transposes = std::string(" (stored ") + (p.transposeA ? "A^T" : "") +
                   (p.transposeA && p.transposeB ? ", " : "") +
                   (p.transposeB ? "B^T" : "") + ")";
    return substitute(readText(promptDir() + "/gemm_sketch_user.txt"),
                      {{"M", std::to_string(p.m)},
                       {"N", std::to_string(p.n)},
                       {"K", std::to_string(p.k)},
                       {"TRANSPOSES", transposes},
                       {"THREADS", p.threads > 1
                                       ? std::to_string(p.threads) +
                                             " threads (an OpenMP team "
                                             "splits the GEMM)"
                                       : std::string("1 thread")},
                       {"TARGET", t.name},
                       {"HINTS", readText(t.path)},
                       {"BUILTIN", describeChoice(builtin)},
                       {"HISTORY", ""},
                       {"EMITTER_HELP", emitter}});
  }

  template <typename Choice> Choice fallback(Choice builtin, StringRef why) {
    builtin.source = ("builtin (fallback: " + why + ")").str();
    notesList.push_back(
        AdvisorNote::warning("fell back to the builtin advisor: " + why.str()));
    return builtin;
  }

  void record(const std::string &path, const TargetHints &t,
              StringRef content) {
    if (recordDir.empty())
      return;
    llvm::sys::fs::create_directories(recordDir);
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    if (!ec)
      os << llvm::formatv("{0:2}", llvm::json::Value(llvm::json::Object{
                                       {"target", t.name},
                                       {"model", config.model},
                                       {"answer", content}}));
  }

  LLMConfig config;
  LLMClient client;
  unsigned maxCorrections = 3;
  std::string recordDir;
};

class ReplayAdvisor : public Advisor {
public:
  explicit ReplayAdvisor(StringRef dir) : dir(dir.str()) {}
  StringRef name() const override { return "replay"; }

  llvm::Expected<SketchChoice> propose(const GemmProblem &p,
                                       const TargetHints &t) override {
    notesList.clear();
    llvm::Expected<SketchChoice> builtin =
        createBuiltinAdvisor()->propose(p, t);
    if (!builtin)
      return builtin.takeError();
    std::string path = recordPath(dir, p, t);
    auto fallback = [&](const std::string &why) {
      notesList.push_back(
          AdvisorNote::warning(why + "; fell back to the builtin advisor"));
      SketchChoice c = *builtin;
      c.source = "builtin (fallback: " + why + ")";
      return c;
    };
    std::string text = readText(path);
    if (text.empty())
      return fallback("no recorded answer " + path);
    llvm::Expected<llvm::json::Value> doc = llvm::json::parse(text);
    std::optional<StringRef> answer =
        doc && doc->getAsObject() ? doc->getAsObject()->getString("answer")
                                  : std::nullopt;
    if (!doc)
      llvm::consumeError(doc.takeError());
    if (!answer)
      return fallback("recording " + path + " has no 'answer' string");
    AnswerChecker checker(p, t, validator,
                          acceptUnverified ? UnverifiedEmitters::AcceptMarked
                                           : UnverifiedEmitters::Refuse);
    llvm::Expected<SketchChoice> c = checker.check(*answer, "replay:" + dir);
    if (!c)
      return fallback("recorded answer rejected: " +
                      llvm::toString(c.takeError()));
    notesList.push_back(
        AdvisorNote::info("recorded answer " + path + " accepted"));
    return c;
  }

private:
  std::string dir;
};
} // namespace

llvm::Expected<SketchChoice>
mlir::tensorop::checkSketchAnswer(StringRef content, const GemmProblem &p,
                                  const TargetHints &t, StringRef source,
                                  bool callerVerifiesEmitters) {
  // The caller (the tuner) runs and verifies every candidate.
  ChoiceValidator none;
  AnswerChecker checker(p, t, none,
                        callerVerifiesEmitters
                            ? UnverifiedEmitters::CallerVerifies
                            : UnverifiedEmitters::Refuse);
  return checker.check(content, source);
}

llvm::Expected<std::unique_ptr<Advisor>> mlir::tensorop::createLLMAdvisor() {
  llvm::Expected<LLMConfig> config = LLMConfig::fromEnvironment();
  if (!config)
    return llvm::createStringError("advisor 'llm': " +
                                   llvm::toString(config.takeError()));
  return std::make_unique<LLMAdvisor>(*config);
}

std::unique_ptr<Advisor> mlir::tensorop::createReplayAdvisor(StringRef dir) {
  return std::make_unique<ReplayAdvisor>(dir);
}

void mlir::tensorop::registerLLMAdvisors() {
  registerAdvisor("llm", [](StringRef argument)
                             -> llvm::Expected<std::unique_ptr<Advisor>> {
    if (!argument.empty())
      return llvm::createStringError("advisor 'llm' takes no argument (got 'llm:" +
                                     argument + "')");
    return createLLMAdvisor();
  });
  registerAdvisor("replay", [](StringRef dir)
                                -> llvm::Expected<std::unique_ptr<Advisor>> {
    if (dir.empty())
      return llvm::createStringError("advisor 'replay:DIR' needs a directory");
    return createReplayAdvisor(dir);
  });
}

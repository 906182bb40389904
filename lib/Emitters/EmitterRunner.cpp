//===- EmitterRunner.cpp - Run an emitter script, validate, cache ---------===//

#include "tensorop/Emitters/Emitter.h"
#include "tensorop/Emitters/Sandbox.h"
#include "tensorop/Support/DataDir.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <mutex>

using namespace llvm;
using namespace mlir::tensorop;

/// Bumped when the contract between the pass and the emitters changes, so
/// stale cache entries are not reused.
static constexpr StringLiteral kProtocol = "tensorop-emitter/1";

std::string mlir::tensorop::defaultEmitterDir() {
  if (const char *env = std::getenv("TENSOROP_EMITTER_DIR"))
    return env;
  return dataPath("python_emitters");
}

void mlir::tensorop::writeCacheFile(StringRef path, StringRef text) {
  sys::fs::create_directories(sys::path::parent_path(path));
  SmallString<256> tmp(path);
  tmp += ".tmp" + std::to_string(sys::Process::getProcessId());
  std::error_code ec;
  {
    raw_fd_ostream os(tmp, ec);
    if (!ec)
      os << text;
  }
  if (!ec)
    sys::fs::rename(tmp, path);
}

std::string mlir::tensorop::tensoropCacheDir() {
  if (const char *env = std::getenv("TENSOROP_CACHE_DIR"))
    return env;
  if (const char *xdg = std::getenv("XDG_CACHE_HOME"))
    return std::string(xdg) + "/tensorop";
  if (const char *home = std::getenv("HOME"))
    return std::string(home) + "/.cache/tensorop";
  return "";
}

static std::string readFileOrEmpty(StringRef path) {
  auto buffer = MemoryBuffer::getFile(path);
  return buffer ? (*buffer)->getBuffer().str() : std::string();
}

/// Validates the emitter's JSON answer and fills `kernel`.
static Error parseAnswer(StringRef script, StringRef text,
                         const json::Object &spec, EmittedKernel &kernel) {
  auto fail = [&](const Twine &why) {
    return createStringError("emitter '" + script + "' printed an invalid "
                             "answer: " + why);
  };
  Expected<json::Value> doc = json::parse(text);
  if (!doc)
    return fail("not JSON (" + toString(doc.takeError()) + ")");
  const json::Object *o = doc->getAsObject();
  if (!o)
    return fail("not a JSON object");
  if (std::optional<StringRef> err = o->getString("error"))
    return createStringError("emitter '" + script + "' refused the spec: " +
                             *err);
  auto str = [&](StringRef key, std::string &out) -> Error {
    std::optional<StringRef> v = o->getString(key);
    if (!v || v->empty())
      return fail("field '" + key + "' is missing, empty or not a string");
    out = v->str();
    return Error::success();
  };
  if (Error e = str("name", kernel.name))
    return e;
  if (Error e = str("asm", kernel.asmText))
    return e;
  if (Error e = str("constraints", kernel.constraints))
    return e;
  if (Error e = str("dialect", kernel.dialect))
    return e;
  if (kernel.dialect != "att" && kernel.dialect != "intel")
    return fail("field 'dialect' must be \"att\" or \"intel\"");
  for (auto [key, out] :
       {std::pair<StringRef, int64_t *>{"mr", &kernel.mr}, {"nr", &kernel.nr}}) {
    std::optional<int64_t> v = o->getInteger(key);
    if (!v)
      return fail("field '" + key + "' is missing or not an integer");
    if (std::optional<int64_t> want = spec.getInteger(key); want && *want != *v)
      return fail("field '" + key + "' is " + Twine(*v) + " but " +
                  Twine(*want) + " was asked for");
    *out = *v;
  }
  return Error::success();
}

/// Runs a shipped (trusted) emitter with a timeout; its stdout, or an error
/// with its exit status and stderr.
static Expected<std::string> runTrusted(StringRef script, StringRef specText,
                                        const EmitterRequest &request) {
  ErrorOr<std::string> python = sys::findProgramByName("python3");
  if (!python)
    return createStringError("emitter '" + request.script +
                             "': python3 not found on PATH");
  SmallString<128> inPath, outPath, errPath;
  if (std::error_code ec =
          sys::fs::createTemporaryFile("tensorop-spec", "json", inPath))
    return createStringError("cannot create a temporary file: " +
                             ec.message());
  FileRemover removeIn(inPath);
  sys::fs::createTemporaryFile("tensorop-emit", "json", outPath);
  FileRemover removeOut(outPath);
  sys::fs::createTemporaryFile("tensorop-emit", "err", errPath);
  FileRemover removeErr(errPath);
  {
    std::error_code ec;
    raw_fd_ostream os(inPath, ec);
    if (ec)
      return createStringError("cannot write " + inPath + ": " + ec.message());
    os << specText;
  }
  std::string execError;
  bool execFailed = false;
  StringRef args[] = {*python, script};
  std::optional<StringRef> redirects[] = {StringRef(inPath), StringRef(outPath),
                                          StringRef(errPath)};
  int rc = sys::ExecuteAndWait(*python, args, std::nullopt, redirects,
                               request.timeoutSeconds, /*MemoryLimit=*/0,
                               &execError, &execFailed);
  std::string errText = readFileOrEmpty(errPath);
  if (errText.size() > 2000)
    errText = errText.substr(0, 2000) + "...";
  if (execFailed)
    return createStringError("emitter '" + request.script +
                             "' could not be run: " + execError);
  if (rc == -2)
    return createStringError("emitter '" + request.script + "' timed out after " +
                             Twine(request.timeoutSeconds) + " s");
  if (rc != 0)
    return createStringError(
        "emitter '" + request.script + "' failed (exit " + Twine(rc) + ")" +
        (execError.empty() ? "" : ": " + execError) +
        (errText.empty() ? "" : "\n" + StringRef(errText).rtrim()));
  return readFileOrEmpty(outPath);
}

Expected<EmittedKernel>
mlir::tensorop::runEmitter(const EmitterRequest &request) {
  std::string dir = request.dir.empty() ? defaultEmitterDir() : request.dir;
  SmallString<256> script(dir);
  sys::path::append(script, request.script + ".py");
  if (!sys::fs::exists(script))
    return createStringError("emitter '" + request.script + "' not found: " +
                             script + " does not exist");
  std::string scriptText = readFileOrEmpty(script);
  std::string specText;
  {
    raw_string_ostream os(specText);
    os << json::Value(json::Object(request.spec));
  }

  // Cache key: everything that determines the answer.
  // The shared helper modules the script may import are part of what
  // determines its answer.
  std::string helpers;
  {
    SmallString<256> helperDir(dir);
    sys::path::append(helperDir, "tensorop_emit");
    std::vector<std::string> files;
    std::error_code ec;
    for (sys::fs::directory_iterator it(helperDir, ec), end; it != end && !ec;
         it.increment(ec))
      if (StringRef(it->path()).ends_with(".py"))
        files.push_back(it->path());
    llvm::sort(files);
    for (const std::string &f : files)
      helpers += f + "\n" + readFileOrEmpty(f) + "\n";
  }
  std::string keyText = (kProtocol + "\n" + scriptText + "\n" + helpers + specText +
                         "\n" + request.triple + "\n" + request.cpu + "\n" +
                         request.features)
                            .str();
  std::string hash = toHex(SHA256::hash(arrayRefFromStringRef(keyText)),
                           /*LowerCase=*/true);
  std::string cache = tensoropCacheDir();
  SmallString<256> cachePath;
  if (!cache.empty()) {
    cachePath = cache;
    sys::path::append(cachePath, "emitters", hash.substr(0, 32) + ".json");
  }

  EmittedKernel kernel;
  kernel.hash = hash;

  // In-process cache first, then the on-disk one.
  static std::mutex mutex;
  static StringMap<EmittedKernel> memo;
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = memo.find(hash);
    if (it != memo.end())
      return it->second;
  }
  if (!cachePath.empty() && sys::fs::exists(cachePath)) {
    std::string cached = readFileOrEmpty(cachePath);
    // A corrupt entry is ignored and rewritten, never trusted.
    EmittedKernel fromDisk;
    fromDisk.hash = hash;
    if (Error e = parseAnswer(request.script, cached, request.spec, fromDisk)) {
      consumeError(std::move(e));
    } else {
      fromDisk.fromCache = true;
      std::lock_guard<std::mutex> lock(mutex);
      memo[hash] = fromDisk;
      return fromDisk;
    }
  }

  std::string answer;
  if (!request.trusted) {
    // Written by an LLM: contained (no network, read-only system, private
    // tmp, limits, unprivileged uid), or refused where that cannot be done.
    SandboxOptions options;
    options.timeoutSeconds = request.timeoutSeconds;
    options.allowUnsandboxed = request.allowUnsandboxed;
    options.importDirs = {defaultEmitterDir()};
    Expected<SandboxResult> r = runSandboxed(script, specText, options);
    if (!r)
      return createStringError("emitter '" + request.script +
                               "' (LLM-written) was not run: " +
                               toString(r.takeError()));
    std::string errText = r->stderrText.substr(0, 2000);
    if (r->timedOut)
      return createStringError("emitter '" + request.script +
                               "' timed out after " +
                               Twine(request.timeoutSeconds) +
                               " s (sandbox: " + r->sandbox + ")");
    if (r->outputTruncated)
      return createStringError("emitter '" + request.script +
                               "' printed more than the sandbox allows");
    if (r->exitCode != 0)
      return createStringError(
          "emitter '" + request.script + "' failed (exit " +
          Twine(r->exitCode) + ", sandbox: " + r->sandbox + ")" +
          (errText.empty() ? "" : "\n" + StringRef(errText).rtrim()));
    answer = r->stdoutText;
  } else {
    Expected<std::string> out = runTrusted(script, specText, request);
    if (!out)
      return out.takeError();
    answer = *out;
  }
  if (Error e = parseAnswer(request.script, answer, request.spec, kernel))
    return std::move(e);
  if (Error e = checkAssembles(kernel.asmText, kernel.dialect, 7,
                               request.triple, request.cpu, request.features))
    return createStringError("emitter '" + request.script + "' printed code that " +
                             toString(std::move(e)));

  if (!cachePath.empty())
    writeCacheFile(cachePath, answer);
  std::lock_guard<std::mutex> lock(mutex);
  memo[hash] = kernel;
  return kernel;
}

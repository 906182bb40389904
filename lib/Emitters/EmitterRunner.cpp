//===- EmitterRunner.cpp - Run an emitter script, validate, cache ---------===//

#include "tensorop/Emitters/Emitter.h"
#include "tensorop/Emitters/Sandbox.h"
#include "tensorop/Emitters/UKernelOperands.h"
#include "tensorop/Process/ProcessRunner.h"
#include "tensorop/Support/DataDir.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <map>
#include <mutex>
#include <sys/resource.h>

using namespace llvm;
using namespace mlir::tensorop;

/// Bumped when the contract between the pass and the CPU emitters changes,
/// so stale cache entries are not reused.
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
                         const json::Object &spec, unsigned numOperands,
                         EmittedKernel &kernel) {
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
  if (Error e = checkUKernelConstraints(kernel.constraints, numOperands))
    return fail(toString(std::move(e)));
  if (spec.get("epilogue")) {
    const json::Array *constants = o->getArray("epilogue_constants");
    std::optional<int64_t> bytes = o->getInteger("epilogue_block_bytes");
    if (!constants || !bytes || *bytes <= 0 ||
        *bytes < 64 + 64 * int64_t(constants->size()))
      return fail("a kernel with an epilogue needs 'epilogue_constants' (a "
                  "list) and 'epilogue_block_bytes' (room for them)");
    for (const json::Value &v : *constants) {
      std::optional<double> d = v.getAsNumber();
      if (!d)
        return fail("'epilogue_constants' holds a non-number");
      kernel.epilogueConstants.push_back(*d);
    }
    kernel.epilogueBlockBytes = *bytes;
  }
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

//===----------------------------------------------------------------------===//
// One runner and one cache for every emitter (CPU and NVIDIA)
//===----------------------------------------------------------------------===//

/// The Python files of TensorOp's emitter package under `dir`
/// (dir/tensorop_emit/**.py), in path order.
static std::vector<std::string> packageFiles(StringRef dir) {
  SmallString<256> root(dir);
  sys::path::append(root, "tensorop_emit");
  std::vector<std::string> files;
  if (!sys::fs::is_directory(root))
    return files;
  std::error_code ec;
  for (sys::fs::recursive_directory_iterator it(root, ec), end;
       it != end && !ec; it.increment(ec)) {
    StringRef path = it->path();
    if (path.contains("__pycache__"))
      continue;
    if (path.ends_with(".py"))
      files.push_back(path.str());
  }
  llvm::sort(files);
  return files;
}

/// The package's files as "relative path\ncontents\n" in path order.
static std::string packageText(StringRef dir) {
  std::string text;
  SmallString<256> root(dir);
  sys::path::append(root, "tensorop_emit");
  size_t rootSize = root.size();
  for (const std::string &f : packageFiles(dir))
    text += StringRef(f).drop_front(rootSize).str() + "\n" +
            readFileOrEmpty(f) + "\n";
  return text;
}

/// Each package file's path, size and modification time: what changes
/// when the package does.
static std::string packageStamp(StringRef dir) {
  std::string stamp;
  for (const std::string &f : packageFiles(dir)) {
    sys::fs::file_status status;
    if (sys::fs::status(f, status))
      return ""; // unreadable: never memoized (see packagesDigest)
    stamp += f + " " + std::to_string(status.getSize()) + " " +
             std::to_string(status.getLastModificationTime()
                                .time_since_epoch()
                                .count()) +
             "\n";
  }
  return stamp;
}

/// Every module of the shared package a script in `dir` can import: the
/// one beside it, which python finds first, and the default one, which
/// sandboxed scripts import through PYTHONPATH.
static std::string importablePackages(StringRef dir) {
  std::string packages = packageText(dir);
  std::string fallback = defaultEmitterDir();
  if (!sys::fs::equivalent(dir, fallback))
    packages += "--\n" + packageText(fallback);
  return packages;
}

static std::string sha256Hex(StringRef text) {
  return toHex(SHA256::hash(arrayRefFromStringRef(text)), /*LowerCase=*/true);
}

/// sha256 of importablePackages(dir), computed once per process for each
/// directory and stamp of its files: a sweep or a tuning run asks for
/// thousands of cache keys, and hashing the package's text for each one
/// took most of their time (the RISC-V advisor sweep: 71% of it).
static std::string packagesDigest(StringRef dir) {
  std::string fallback = defaultEmitterDir();
  bool sameAsFallback = sys::fs::equivalent(dir, fallback);
  std::string stamp = packageStamp(dir);
  if (!sameAsFallback)
    stamp += "--\n" + packageStamp(fallback);
  static std::mutex mutex;
  static llvm::StringMap<std::pair<std::string, std::string>> memo;
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = memo.find(dir);
    if (it != memo.end() && it->second.first == stamp && !stamp.empty())
      return it->second.second;
  }
  std::string digest = sha256Hex(importablePackages(dir));
  std::lock_guard<std::mutex> lock(mutex);
  memo[dir] = {stamp, digest};
  return digest;
}

std::string mlir::tensorop::emitterCacheKey(const EmitterScriptRequest &request,
                                            StringRef scriptText) {
  // Everything that determines the answer: the caller's contract, the
  // script, the package modules it can import, the spec and the target.
  std::string dir = request.dir.empty() ? defaultEmitterDir() : request.dir;
  return sha256Hex(request.protocol + "\n" + scriptText.str() + "\n" +
                   packagesDigest(dir) + "\n" + request.specText + "\n" +
                   request.target);
}

std::string mlir::tensorop::emitterSourceHash(StringRef dir,
                                              StringRef script) {
  std::string d = dir.empty() ? defaultEmitterDir() : dir.str();
  SmallString<256> path(d);
  sys::path::append(path, script + ".py");
  if (!sys::fs::exists(path))
    return "";
  return sha256Hex(readFileOrEmpty(path) + "\n" + importablePackages(d))
      .substr(0, 16);
}

/// Runs a shipped (trusted) emitter with a timeout; its stdout, or an error
/// with its exit status and stderr (or the refusal it printed).
static Expected<std::string> runTrusted(StringRef script,
                                        const EmitterScriptRequest &request) {
  ErrorOr<std::string> python = sys::findProgramByName("python3");
  if (!python)
    return createStringError("emitter '" + request.script +
                             "': python3 not found on PATH");
  ::tensorop::ProcessSpec spec;
  spec.argv = {*python, script.str()};
  spec.stdinText = request.specText;
  spec.timeoutSeconds = request.timeoutSeconds;
  spec.maxOutputBytes = 64ull << 20;
  spec.limits = {{RLIMIT_CORE, 0}};
  Expected<::tensorop::ProcessResult> r = ::tensorop::runProcess(spec);
  if (!r)
    return createStringError("emitter '" + request.script +
                             "' could not be run: " + toString(r.takeError()));
  std::string errText = r->stderrText;
  if (errText.size() > 2000)
    errText = errText.substr(0, 2000) + "...";
  if (r->timedOut)
    return createStringError("emitter '" + request.script +
                             "' timed out after " +
                             Twine(request.timeoutSeconds) + " s");
  if (r->outputTruncated)
    return createStringError("emitter '" + request.script +
                             "' printed more than 64 MiB");
  if (r->exitCode != 0) {
    // A spec error comes with {"error": ...} on stdout: pass its message on.
    if (Expected<json::Value> doc = json::parse(r->stdoutText)) {
      if (const json::Object *o = doc->getAsObject())
        if (std::optional<StringRef> err = o->getString("error"))
          return createStringError("emitter '" + request.script +
                                   "' refused the spec: " + *err);
    } else {
      consumeError(doc.takeError());
    }
    return createStringError(
        "emitter '" + request.script + "' failed (exit " +
        Twine(r->exitCode) + ")" +
        (errText.empty() ? "" : "\n" + StringRef(errText).rtrim()));
  }
  return std::move(r->stdoutText);
}

/// Runs an LLM-written emitter contained (no network, read-only system,
/// private tmp, limits, unprivileged uid), or refuses where that cannot be
/// done.
static Expected<std::string> runUntrusted(StringRef script,
                                          const EmitterScriptRequest &request) {
  SandboxOptions options;
  options.timeoutSeconds = request.timeoutSeconds;
  options.allowUnsandboxed = request.allowUnsandboxed;
  options.importDirs = {defaultEmitterDir()};
  Expected<SandboxResult> r = runSandboxed(script, request.specText, options);
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
  return std::move(r->stdoutText);
}

/// Where the answer with cache key `hash` is kept on disk; "" if caching is
/// off.
static std::string cachePathFor(StringRef hash) {
  std::string cache = tensoropCacheDir();
  if (cache.empty())
    return "";
  SmallString<256> path(cache);
  sys::path::append(path, "emitters", hash.substr(0, 32) + ".json");
  return path.str().str();
}

/// The in-process cache of validated answers, by cache key: shared by
/// runEmitterScript and prefetchEmitterAnswers.
static std::mutex memoMutex;
static StringMap<std::string> &answerMemo() {
  static StringMap<std::string> memo;
  return memo;
}

static SmallString<256> scriptPath(StringRef dir, StringRef script) {
  SmallString<256> path(dir.empty() ? StringRef(defaultEmitterDir()) : dir);
  sys::path::append(path, script + ".py");
  return path;
}

/// The identity, size and modification time of `script` and of every
/// package module it can import; "" if the script cannot be stat'ed.
/// Taken before the script is read and again after it ran: python reads
/// the files itself, later than we hash them, so an edit in between (a
/// mutation test, an editor saving, a checkout) would store what the edited
/// text printed under the key of the text we read. An edit shows in the
/// stamp even where the file is put back byte for byte before we look again.
static std::string sourceStamp(StringRef dir, StringRef script) {
  sys::fs::file_status status;
  if (sys::fs::status(script, status))
    return "";
  sys::fs::UniqueID id = status.getUniqueID();
  std::string stamp =
      script.str() + " " + std::to_string(id.getDevice()) + ":" +
      std::to_string(id.getFile()) + " " + std::to_string(status.getSize()) +
      " " +
      std::to_string(
          status.getLastModificationTime().time_since_epoch().count()) +
      "\n" + packageStamp(dir);
  std::string fallback = defaultEmitterDir();
  if (!sys::fs::equivalent(dir, fallback))
    stamp += "--\n" + packageStamp(fallback);
  return stamp;
}

/// Whether an answer printed by the script may be cached under `key`: the
/// sources were stamped (`stampBefore`) before `key` was computed from them,
/// and neither the stamp nor the key has changed since.
static bool sourcesUnchanged(const EmitterScriptRequest &request,
                             StringRef dir, StringRef script,
                             StringRef stampBefore, StringRef key) {
  return !stampBefore.empty() && sourceStamp(dir, script) == stampBefore &&
         emitterCacheKey(request, readFileOrEmpty(script)) == key;
}

Expected<EmitterScriptAnswer> mlir::tensorop::runEmitterScript(
    const EmitterScriptRequest &request,
    function_ref<Error(StringRef answer, bool fromCache)> validate) {
  std::string dir = request.dir.empty() ? defaultEmitterDir() : request.dir;
  SmallString<256> script = scriptPath(dir, request.script);
  if (!sys::fs::exists(script))
    return createStringError("emitter '" + request.script + "' not found: " +
                             script + " does not exist");
  EmitterScriptAnswer answer;
  std::string stampBefore = sourceStamp(dir, script);
  answer.hash = emitterCacheKey(request, readFileOrEmpty(script));
  std::string cachePath = cachePathFor(answer.hash);

  // In-process cache first, then the on-disk one; an entry that does not
  // validate (corrupt, or from another version) is ignored and rewritten,
  // never trusted.
  {
    std::lock_guard<std::mutex> lock(memoMutex);
    auto it = answerMemo().find(answer.hash);
    if (it != answerMemo().end()) {
      answer.text = it->second;
      answer.fromCache = true;
      return answer;
    }
  }
  if (!cachePath.empty() && sys::fs::exists(cachePath)) {
    std::string cached = readFileOrEmpty(cachePath);
    if (Error e = validate(cached, /*fromCache=*/true)) {
      consumeError(std::move(e));
    } else {
      answer.text = std::move(cached);
      answer.fromCache = true;
      std::lock_guard<std::mutex> lock(memoMutex);
      answerMemo()[answer.hash] = answer.text;
      return answer;
    }
  }

  Expected<std::string> out = request.trusted ? runTrusted(script, request)
                                              : runUntrusted(script, request);
  if (!out)
    return out.takeError();
  if (Error e = validate(*out, /*fromCache=*/false))
    return std::move(e);
  answer.text = std::move(*out);
  // The answer is what the sources printed when python read them; if they
  // changed while it ran, it may not be what the text behind answer.hash
  // prints: use it this once, cache nothing.
  if (!sourcesUnchanged(request, dir, script, stampBefore, answer.hash))
    return answer;
  if (!cachePath.empty())
    writeCacheFile(cachePath, answer.text);
  std::lock_guard<std::mutex> lock(memoMutex);
  answerMemo()[answer.hash] = answer.text;
  return answer;
}

/// The script run behind a CPU microkernel request.
static EmitterScriptRequest scriptRequestFor(const EmitterRequest &request) {
  EmitterScriptRequest script;
  script.script = request.script;
  script.dir = request.dir;
  {
    raw_string_ostream os(script.specText);
    os << json::Value(json::Object(request.spec));
  }
  script.protocol = kProtocol.str();
  script.target = request.triple + "\n" + request.cpu + "\n" + request.features;
  script.timeoutSeconds = request.timeoutSeconds;
  script.trusted = request.trusted;
  script.allowUnsandboxed = request.allowUnsandboxed;
  return script;
}

/// Checks a CPU microkernel emitter's answer and fills `kernel`.
static Error validateKernelAnswer(const EmitterRequest &request,
                                  StringRef text, bool fromCache,
                                  EmittedKernel &kernel) {
  kernel = EmittedKernel();
  if (Error e = parseAnswer(request.script, text, request.spec,
                            request.numOperands, kernel))
    return e;
  // Checked with LLVM MC before it is cached; a cached answer was.
  if (!fromCache)
    if (Error e = checkAssembles(kernel.asmText, kernel.dialect,
                                 request.numOperands, request.triple,
                                 request.cpu, request.features))
      return createStringError("emitter '" + request.script +
                               "' printed code that " +
                               toString(std::move(e)));
  // Model-written code crosses the trust boundary before anything uses it,
  // however it arrives (from the script, or a cache entry from before the
  // check or edited on disk: refused here, the script runs again and its
  // refusal is the error).
  if (!request.trusted)
    if (Error e = checkMicrokernelCode(kernel.asmText, kernel.dialect,
                                       request.numOperands, request.triple,
                                       request.cpu, request.features))
      return createStringError("emitter '" + request.script +
                               "' printed a kernel that is refused: " +
                               toString(std::move(e)));
  return Error::success();
}

Expected<EmittedKernel>
mlir::tensorop::runEmitter(const EmitterRequest &request) {
  EmittedKernel kernel;
  Expected<EmitterScriptAnswer> answer = runEmitterScript(
      scriptRequestFor(request), [&](StringRef text, bool fromCache) {
        return validateKernelAnswer(request, text, fromCache, kernel);
      });
  if (!answer)
    return answer.takeError();
  if (kernel.name.empty())
    // From the in-process memo: validated when it was stored.
    if (Error e = parseAnswer(request.script, answer->text, request.spec,
                              request.numOperands, kernel))
      return std::move(e);
  kernel.hash = answer->hash;
  kernel.fromCache = answer->fromCache;
  return kernel;
}

Error mlir::tensorop::prefetchEmitterAnswers(
    ArrayRef<EmitterRequest> requests) {
  // One batch per script file.
  std::map<std::string, std::vector<const EmitterRequest *>> groups;
  for (const EmitterRequest &request : requests) {
    if (!request.trusted)
      return createStringError(
          "emitter '" + request.script +
          "': only shipped emitters run in batches (a model-written one runs "
          "alone in its sandbox)");
    groups[scriptPath(request.dir, request.script).str().str()].push_back(
        &request);
  }
  ErrorOr<std::string> python = sys::findProgramByName("python3");
  if (!python)
    return createStringError("python3 not found on PATH");
  for (auto &[script, group] : groups) {
    std::string dir = group.front()->dir.empty() ? defaultEmitterDir()
                                                 : group.front()->dir;
    std::string stampBefore = sourceStamp(dir, script);
    std::string scriptText = readFileOrEmpty(script);
    std::vector<const EmitterRequest *> todo;
    std::vector<std::string> keys;
    std::string input;
    StringSet<> queued;
    for (const EmitterRequest *request : group) {
      EmitterScriptRequest run = scriptRequestFor(*request);
      std::string key = emitterCacheKey(run, scriptText);
      {
        std::lock_guard<std::mutex> lock(memoMutex);
        if (answerMemo().count(key))
          continue;
      }
      if (!queued.insert(key).second)
        continue;
      todo.push_back(request);
      keys.push_back(key);
      input += run.specText + "\n";
    }
    if (todo.empty())
      continue;
    ::tensorop::ProcessSpec spec;
    spec.argv = {*python, script, "--batch"};
    spec.stdinText = input;
    spec.timeoutSeconds = 60 + todo.size();
    spec.maxOutputBytes = 1ull << 30;
    spec.limits = {{RLIMIT_CORE, 0}};
    Expected<::tensorop::ProcessResult> r = ::tensorop::runProcess(spec);
    if (!r)
      return r.takeError();
    if (r->timedOut || r->outputTruncated || r->exitCode != 0)
      return createStringError("emitter " + script + " --batch failed (exit " +
                               Twine(r->exitCode) + ")\n" +
                               StringRef(r->stderrText).take_front(2000));
    // Sources edited while the batch ran: its answers may not be what the
    // text behind `keys` prints. Cache none; runEmitter runs each again.
    if (!sourcesUnchanged(scriptRequestFor(*todo.front()), dir, script,
                          stampBefore, keys.front()))
      continue;
    SmallVector<StringRef> lines;
    StringRef(r->stdoutText).rtrim("\n").split(lines, '\n');
    if (lines.size() != todo.size())
      return createStringError("emitter " + script + " --batch printed " +
                               Twine(lines.size()) + " answers for " +
                               Twine(todo.size()) + " specs");
    for (auto [i, line] : llvm::enumerate(lines)) {
      Expected<json::Value> doc = json::parse(line);
      if (!doc) {
        consumeError(doc.takeError());
        continue;
      }
      const json::Object *o = doc->getAsObject();
      std::optional<StringRef> text = o ? o->getString("answer") : std::nullopt;
      // A refusal or a bad answer is left to the single run, which reports
      // it as runEmitter always does.
      EmittedKernel kernel;
      if (!text)
        continue;
      if (Error e = validateKernelAnswer(*todo[i], *text, /*fromCache=*/false,
                                         kernel)) {
        consumeError(std::move(e));
        continue;
      }
      std::string cachePath = cachePathFor(keys[i]);
      if (!cachePath.empty())
        writeCacheFile(cachePath, *text);
      std::lock_guard<std::mutex> lock(memoMutex);
      answerMemo()[keys[i]] = text->str();
    }
  }
  return Error::success();
}

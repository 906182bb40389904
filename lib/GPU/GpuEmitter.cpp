//===- GpuEmitter.cpp - Run the NVIDIA emitter scripts --------------------===//

#include "tensorop/GPU/GpuEmitter.h"
#include "tensorop/Emitters/Emitter.h"

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

/// Bumped when the contract between the pass and the NVIDIA emitters changes.
static constexpr StringLiteral kProtocol = "tensorop-gpu-emitter/1";

static std::string readFileOrEmpty(StringRef path) {
  auto buffer = MemoryBuffer::getFile(path);
  return buffer ? (*buffer)->getBuffer().str() : std::string();
}

static Error parseAnswer(StringRef script, StringRef text,
                         GpuEmittedKernel &k) {
  auto fail = [&](const Twine &why) {
    return createStringError("emitter '" + script +
                             "' printed an invalid answer: " + why);
  };
  Expected<json::Value> doc = json::parse(text);
  if (!doc)
    return fail("not JSON (" + toString(doc.takeError()) + ")");
  json::Object *o = doc->getAsObject();
  if (!o)
    return fail("not a JSON object");
  if (std::optional<StringRef> err = o->getString("error"))
    return createStringError("emitter '" + script +
                             "' refused the spec: " + *err);
  auto str = [&](StringRef key, std::string &out) -> Error {
    std::optional<StringRef> v = o->getString(key);
    if (!v || v->empty())
      return fail("field '" + key + "' is missing or empty");
    out = v->str();
    return Error::success();
  };
  auto integer = [&](StringRef key, int64_t &out, int64_t lo,
                     int64_t hi) -> Error {
    std::optional<int64_t> v = o->getInteger(key);
    if (!v || *v < lo || *v > hi)
      return fail("field '" + key + "' is missing or out of range");
    out = *v;
    return Error::success();
  };
  for (auto [key, out] : {std::pair<StringRef, std::string *>{"name", &k.name},
                          {"family", &k.family},
                          {"chip", &k.chip},
                          {"asm", &k.asmText},
                          {"constraints", &k.constraints}})
    if (Error e = str(key, *out))
      return e;
  if (Error e = integer("threads", k.threads, 32, 1024))
    return e;
  if (Error e = integer("shared_bytes", k.sharedBytes, 0, 1 << 20))
    return e;
  k.minCtas = o->getInteger("minctasm").value_or(0);
  k.ptxVersion = o->getInteger("ptx_version").value_or(80);
  const json::Array *grid = o->getArray("grid");
  if (!grid || grid->size() != 3)
    return fail("field 'grid' must be an array of 3 integers");
  for (int i = 0; i < 3; ++i) {
    std::optional<int64_t> g = (*grid)[i].getAsInteger();
    if (!g || *g < 1 || *g > (1ll << 31))
      return fail("field 'grid' must be an array of 3 positive integers");
    k.grid[i] = *g;
  }
  if (const json::Value *cluster = o->get("cluster")) {
    const json::Array *dims = cluster->getAsArray();
    if (!dims || dims->size() != 3)
      return fail("field 'cluster' must be an array of 3 integers");
    for (int i = 0; i < 3; ++i) {
      std::optional<int64_t> c = (*dims)[i].getAsInteger();
      // At most 8 CTAs a side (the portable cluster size), dividing the grid.
      if (!c || *c < 1 || *c > 8 || k.grid[i] % *c)
        return fail("field 'cluster' must hold 3 integers in [1, 8] that "
                    "divide 'grid'");
      k.cluster[i] = *c;
    }
  }
  const json::Array *params = o->getArray("params");
  if (!params || params->empty())
    return fail("field 'params' is missing or empty");
  for (const json::Value &v : *params) {
    const json::Object *p = v.getAsObject();
    if (!p)
      return fail("'params' entries must be objects");
    GpuKernelParam param;
    param.name = p->getString("name").value_or("").str();
    param.kind = p->getString("kind").value_or("").str();
    if (param.kind == "ptr") {
      if (param.name != "A" && param.name != "B" && param.name != "C")
        return fail("pointer parameter '" + param.name + "' is not A, B or C");
    } else if (param.kind == "tensormap") {
      param.tensor = p->getString("tensor").value_or("").str();
      if (param.tensor != "A" && param.tensor != "B")
        return fail("tensor map of '" + param.tensor + "'");
      param.dtype = p->getInteger("dtype").value_or(-1);
      param.swizzle = p->getInteger("swizzle").value_or(0);
      const json::Array *dims = p->getArray("dims");
      const json::Array *box = p->getArray("box");
      const json::Array *strides = p->getArray("strides_bytes");
      if (!dims || dims->size() != 2 || !box || box->size() != 2 || !strides ||
          strides->size() != 1)
        return fail("tensor map '" + param.name +
                    "' needs 2 dims, 2 box "
                    "sizes and 1 stride");
      for (int i = 0; i < 2; ++i) {
        param.dims[i] = (*dims)[i].getAsInteger().value_or(0);
        param.box[i] = (*box)[i].getAsInteger().value_or(0);
      }
      param.strideBytes = (*strides)[0].getAsInteger().value_or(0);
    } else {
      return fail("parameter kind '" + param.kind + "'");
    }
    k.params.push_back(param);
  }
  // The body takes one 64-bit operand per parameter and the shared window.
  std::string expected;
  for (size_t i = 0; i < k.params.size(); ++i)
    expected += "l,";
  expected += "r";
  if (k.constraints != expected)
    return fail("constraints '" + k.constraints + "', expected '" + expected +
                "'");
  o->erase("asm");
  k.answer = std::move(*o);
  return Error::success();
}

Expected<GpuEmittedKernel>
mlir::tensorop::runGpuEmitter(StringRef scriptName, const json::Object &spec,
                              StringRef dirOverride, unsigned timeoutSeconds) {
  std::string dir =
      dirOverride.empty() ? defaultEmitterDir() : dirOverride.str();
  SmallString<256> script(dir);
  sys::path::append(script, scriptName + ".py");
  if (!sys::fs::exists(script))
    return createStringError("emitter '" + scriptName +
                             "' not found: " + script + " does not exist");
  // The shared helper module is part of what determines the answer.
  SmallString<256> helper(dir);
  sys::path::append(helper, "nvidia_ptx.py");
  std::string specText;
  {
    raw_string_ostream os(specText);
    os << json::Value(json::Object(spec));
  }
  std::string keyText = (kProtocol + "\n" + readFileOrEmpty(script) + "\n" +
                         readFileOrEmpty(helper) + "\n" + specText)
                            .str();
  std::string hash =
      toHex(SHA256::hash(arrayRefFromStringRef(keyText)), /*LowerCase=*/true);

  static std::mutex mutex;
  static StringMap<std::string> memo;
  std::string answer;
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = memo.find(hash);
    if (it != memo.end())
      answer = it->second;
  }
  std::string cache = tensoropCacheDir();
  SmallString<256> cachePath;
  if (!cache.empty()) {
    cachePath = cache;
    sys::path::append(cachePath, "gpu-emitters", hash.substr(0, 32) + ".json");
  }
  bool fromCache = !answer.empty();
  if (answer.empty() && !cachePath.empty() && sys::fs::exists(cachePath)) {
    std::string cached = readFileOrEmpty(cachePath);
    GpuEmittedKernel probe;
    if (Error e = parseAnswer(scriptName, cached, probe))
      consumeError(std::move(e)); // a corrupt entry is rewritten, not trusted
    else {
      answer = cached;
      fromCache = true;
    }
  }
  if (answer.empty()) {
    ErrorOr<std::string> python = sys::findProgramByName("python3");
    if (!python)
      return createStringError("emitter '" + scriptName +
                               "': python3 not found on PATH");
    SmallString<128> inPath, outPath, errPath;
    if (std::error_code ec =
            sys::fs::createTemporaryFile("tensorop-gpu-spec", "json", inPath))
      return createStringError("cannot create a temporary file: " +
                               ec.message());
    FileRemover removeIn(inPath);
    sys::fs::createTemporaryFile("tensorop-gpu-emit", "json", outPath);
    FileRemover removeOut(outPath);
    sys::fs::createTemporaryFile("tensorop-gpu-emit", "err", errPath);
    FileRemover removeErr(errPath);
    {
      std::error_code ec;
      raw_fd_ostream os(inPath, ec);
      if (ec)
        return createStringError("cannot write " + inPath);
      os << specText;
    }
    std::string execError;
    bool execFailed = false;
    StringRef args[] = {*python, script};
    std::optional<StringRef> redirects[] = {
        StringRef(inPath), StringRef(outPath), StringRef(errPath)};
    int rc = sys::ExecuteAndWait(*python, args, std::nullopt, redirects,
                                 timeoutSeconds, 0, &execError, &execFailed);
    std::string errText = readFileOrEmpty(errPath);
    if (errText.size() > 2000)
      errText = errText.substr(0, 2000) + "...";
    if (execFailed)
      return createStringError("emitter '" + scriptName +
                               "' could not be run: " + execError);
    if (rc == -2)
      return createStringError("emitter '" + scriptName + "' timed out after " +
                               Twine(timeoutSeconds) + " s");
    answer = readFileOrEmpty(outPath);
    if (rc != 0) {
      // A spec error comes with {"error": ...} on stdout: pass its message on.
      if (Expected<json::Value> doc = json::parse(answer)) {
        if (const json::Object *o = doc->getAsObject())
          if (std::optional<StringRef> err = o->getString("error"))
            return createStringError("emitter '" + scriptName +
                                     "' refused the spec: " + *err);
      } else {
        consumeError(doc.takeError());
      }
      return createStringError(
          "emitter '" + scriptName + "' failed (exit " + Twine(rc) + ")" +
          (errText.empty() ? "" : ": " + StringRef(errText).rtrim()));
    }
  }
  GpuEmittedKernel kernel;
  if (Error e = parseAnswer(scriptName, answer, kernel))
    return std::move(e);
  kernel.hash = hash;
  kernel.fromCache = fromCache;
  if (!fromCache && !cachePath.empty())
    writeCacheFile(cachePath, answer);
  std::lock_guard<std::mutex> lock(mutex);
  memo[hash] = answer;
  return kernel;
}

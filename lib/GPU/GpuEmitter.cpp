//===- GpuEmitter.cpp - Run the NVIDIA emitter scripts --------------------===//
//
// The NVIDIA emitters run through the same runner and cache as the CPU ones
// (runEmitterScript); this file is their answer format.
//
//===----------------------------------------------------------------------===//

#include "tensorop/GPU/GpuEmitter.h"
#include "tensorop/Emitters/Emitter.h"

#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace mlir::tensorop;

/// Bumped when the contract between the pass and the NVIDIA emitters changes.
static constexpr StringLiteral kProtocol = "tensorop-gpu-emitter/1";

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
      // A_pad, B_pad: the padded copies of A and B (nvidia_pad.py); SK_ws:
      // a split-K workspace (nvidia_gemm_wgmma.py, split_reduce
      // "workspace").
      if (param.name != "A" && param.name != "B" && param.name != "C" &&
          param.name != "bias" && param.name != "R" && param.name != "A_pad" &&
          param.name != "B_pad" && param.name != "SK_ws")
        return fail("pointer parameter '" + param.name +
                    "' is not A, B, C, bias, R, A_pad, B_pad or SK_ws");
    } else if (param.kind == "tensormap") {
      param.tensor = p->getString("tensor").value_or("").str();
      if (param.tensor != "A" && param.tensor != "B" && param.tensor != "C")
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
    } else if (param.kind == "tensormap_im2col") {
      param.tensor = p->getString("tensor").value_or("").str();
      if (param.tensor != "A")
        return fail("im2col tensor map of '" + param.tensor + "'");
      param.dtype = p->getInteger("dtype").value_or(-1);
      param.swizzle = p->getInteger("swizzle").value_or(0);
      param.channels = p->getInteger("channels").value_or(0);
      param.pixels = p->getInteger("pixels").value_or(0);
      auto ints = [&](StringRef key, int64_t *out, size_t n) {
        const json::Array *a = p->getArray(key);
        if (!a || a->size() != n)
          return false;
        for (size_t i = 0; i < n; ++i) {
          std::optional<int64_t> v = (*a)[i].getAsInteger();
          if (!v)
            return false;
          out[i] = *v;
        }
        return true;
      };
      int64_t strides[4] = {1, 1, 1, 1};
      if (!ints("dims", param.nhwcDims, 4) || !ints("lower", param.lower, 2) ||
          !ints("upper", param.upper, 2) ||
          !ints("element_strides", strides, 4) || param.channels < 1 ||
          param.pixels < 1)
        return fail("im2col tensor map '" + param.name +
                    "' needs 4 dims, 2 lower and 2 upper corners, 4 element "
                    "strides, channels and pixels");
      param.traversal[0] = strides[1];
      param.traversal[1] = strides[2];
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
  EmitterScriptRequest request;
  request.script = scriptName.str();
  request.dir = dirOverride.str();
  {
    raw_string_ostream os(request.specText);
    os << json::Value(json::Object(spec));
  }
  request.protocol = kProtocol.str();
  request.timeoutSeconds = timeoutSeconds;
  // Model-written emitters (named llm_*, as on CPUs) run sandboxed and
  // their PTX must pass the GPU kernel allowlist, however it arrives.
  bool modelWritten = scriptName.starts_with("llm_");
  request.trusted = !modelWritten;
  const char *allow = std::getenv("TENSOROP_ALLOW_UNSANDBOXED");
  request.allowUnsandboxed = allow && StringRef(allow) == "1";
  GpuEmittedKernel kernel;
  Expected<EmitterScriptAnswer> answer = runEmitterScript(
      request, [&](StringRef text, bool) -> Error {
        kernel = GpuEmittedKernel();
        if (Error e = parseAnswer(scriptName, text, kernel))
          return e;
        if (modelWritten)
          if (Error e = checkPtxKernelCode(kernel.asmText))
            return createStringError("emitter '" + scriptName +
                                     "' printed a kernel that is refused: " +
                                     toString(std::move(e)));
        return Error::success();
      });
  if (!answer)
    return answer.takeError();
  if (kernel.name.empty())
    // From the in-process memo: validated when it was stored.
    if (Error e = parseAnswer(scriptName, answer->text, kernel))
      return std::move(e);
  kernel.hash = answer->hash;
  kernel.fromCache = answer->fromCache;
  return kernel;
}

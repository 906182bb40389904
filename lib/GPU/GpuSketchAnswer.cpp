//===- GpuSketchAnswer.cpp - A GPU sketch from a model's JSON answer ------===//

#include "tensorop/GPU/GpuAdvisor.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/JSON.h"

using namespace mlir::tensorop;

llvm::Expected<GpuSketchChoice> mlir::tensorop::checkGpuSketchAnswer(
    llvm::StringRef content, const GpuGemmProblem &p, const GpuTarget &t,
    const GpuSketchChoice &builtin, llvm::StringRef source) {
  auto fail = [](const llvm::Twine &why) {
    return llvm::createStringError(why);
  };
  llvm::Expected<llvm::json::Value> doc = llvm::json::parse(content);
  if (!doc)
    return fail("the answer is not valid JSON (" +
                llvm::toString(doc.takeError()) + ")");
  const llvm::json::Object *root = doc->getAsObject();
  const llvm::json::Object *s = root ? root->getObject("sketch") : nullptr;
  if (!s)
    return fail("field 'sketch' is missing or not an object");
  static const llvm::StringSet<> known = {
      "kernel",    "block_m", "block_n", "block_k", "warps_m",
      "warps_n",   "consumers", "stages", "group_m", "ctas", "precision",
      "cluster_m", "cluster_n", "store"};
  for (const auto &kv : *s)
    if (!known.contains(kv.first.str()))
      return fail("unknown field 'sketch." + kv.first.str() + "'");
  std::optional<llvm::StringRef> kernel = s->getString("kernel");
  if (!kernel)
    return fail("field 'sketch.kernel' is missing or not a string");
  GpuSketchChoice c;
  c.kernel = kernel->str();
  c.precision = p.precision;
  // Fields the family does not use keep the builtin's values (or 0).
  bool sameFamily = c.kernel == builtin.kernel;
  c.blockM = sameFamily ? builtin.blockM : 128;
  c.blockN = sameFamily ? builtin.blockN : 128;
  c.blockK = sameFamily ? builtin.blockK : 32;
  c.warpsM = sameFamily ? builtin.warpsM : 0;
  c.warpsN = sameFamily ? builtin.warpsN : 0;
  c.consumers = sameFamily ? builtin.consumers : 0;
  c.stages = sameFamily ? builtin.stages : 4;
  c.groupM = sameFamily ? builtin.groupM : 8;
  c.ctas = sameFamily ? builtin.ctas : 0;
  c.clusterM = sameFamily ? builtin.clusterM : 1;
  c.clusterN = sameFamily ? builtin.clusterN : 1;
  c.store = sameFamily ? builtin.store : "global";
  if (const llvm::json::Value *v = s->get("store")) {
    std::optional<llvm::StringRef> store = v->getAsString();
    if (!store)
      return fail("field 'sketch.store' is not a string");
    c.store = store->str();
  }
  c.splitK = sameFamily ? builtin.splitK : 1;
  for (auto [key, out] : {std::pair<llvm::StringRef, int64_t *>{"block_m", &c.blockM},
                          {"block_n", &c.blockN},
                          {"block_k", &c.blockK},
                          {"warps_m", &c.warpsM},
                          {"warps_n", &c.warpsN},
                          {"consumers", &c.consumers},
                          {"stages", &c.stages},
                          {"group_m", &c.groupM},
                          {"ctas", &c.ctas},
                          {"cluster_m", &c.clusterM},
                          {"cluster_n", &c.clusterN},
                          {"split_k", &c.splitK}}) {
    const llvm::json::Value *v = s->get(key);
    if (!v)
      continue;
    std::optional<int64_t> i = v->getAsInteger();
    if (!i)
      return fail("field 'sketch." + key + "' is not an integer");
    *out = *i;
  }
  if (std::optional<llvm::StringRef> prec = s->getString("precision"))
    if (*prec != p.precision)
      return fail("field 'sketch.precision' is \"" + *prec +
                  "\" but the GEMM computes in " + p.precision);
  if (c.kernel == "wgmma" && c.ctas < 0)
    return fail("field 'sketch.ctas' must be >= 0");
  c.source = source.str();
  if (llvm::Error e = checkGpuSketch(c, p, t))
    return fail(llvm::toString(std::move(e)));
  return c;
}

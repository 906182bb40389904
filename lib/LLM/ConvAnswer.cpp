//===- ConvAnswer.cpp - Check an LLM's convolution sketch answer ----------===//
//
// The convolution half of the LLM advisor's checks: the answer's JSON
// (hints/prompts/conv_sketch_system.txt) becomes a ConvSketchChoice only if
// every field is there with its type and the #tensorop.conv_sketch verifier
// accepts it on the target; otherwise the error says precisely what is
// wrong, for the model to correct. Convolution answers take the target's
// shipped emitter: one that brings an emitter script is refused (nothing
// here would run or verify it).
//
//===----------------------------------------------------------------------===//

#include "tensorop/Advisor/ConvAdvisor.h"
#include "tensorop/Dialect/TensorOpDialect.h"
#include "tensorop/LLM/LLMAdvisor.h"

#include "AnswerJson.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/JSON.h"

using namespace mlir;
using namespace mlir::tensorop;
using llvm::StringRef;

llvm::Expected<ConvSketchChoice> mlir::tensorop::checkConvSketchAnswer(
    StringRef content, const ConvSketchChoice &builtin,
    const TargetHints &target, StringRef source) {
  auto fail = [](const llvm::Twine &why) {
    return llvm::createStringError(why);
  };
  llvm::Expected<llvm::json::Value> doc = parseAnswerObject(content);
  if (!doc)
    return doc.takeError();
  const llvm::json::Object *root = doc->getAsObject();
  if (root->get("emitter"))
    return fail("convolution answers take the target's shipped emitter; "
                "answer without the 'emitter' field");
  const llvm::json::Object *s = root->getObject("sketch");
  if (!s)
    return fail("field 'sketch' is missing or not an object");
  // The emitter and the thread count are not the model's to choose.
  ConvSketchChoice c = builtin;
  c.source = source.str();
  for (auto [key, out] : {std::pair<StringRef, int64_t *>{"mr", &c.mr},
                          {"nr", &c.nr},
                          {"cb", &c.cb},
                          {"k_unroll", &c.kUnroll}}) {
    std::optional<int64_t> v = s->getInteger(key);
    if (!v)
      return fail("field 'sketch." + key + "' is missing or not an integer");
    *out = *v;
  }
  for (auto [key, out] :
       {std::pair<StringRef, std::string *>{"taps", &c.taps},
        {"loop_order", &c.loopOrder},
        {"pack_input", &c.packInput},
        {"pack_filter", &c.packFilter},
        {"broadcast", &c.broadcast}}) {
    std::optional<StringRef> v = s->getString(key);
    if (!v)
      return fail("field 'sketch." + key + "' is missing or not a string");
    *out = v->str();
  }
  MLIRContext ctx;
  ctx.getOrLoadDialect<TensorOpDialect>();
  std::string illegal;
  if (!c.toAttr(&ctx, target, illegal))
    return fail("the sketch is illegal on " + target.name + ": " + illegal);
  return c;
}

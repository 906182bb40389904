//===- AnswerJson.h - The JSON object a model's answer must be --*- C++ -*-===//
//
// Internal to lib/LLM: the first check of every sketch answer (GEMM and
// convolution), with the messages the model is told.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_LIB_LLM_ANSWERJSON_H
#define TENSOROP_LIB_LLM_ANSWERJSON_H

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

namespace mlir::tensorop {

/// `content` parsed, if it is a JSON object; else why not, for the model.
inline llvm::Expected<llvm::json::Value>
parseAnswerObject(llvm::StringRef content) {
  llvm::Expected<llvm::json::Value> doc = llvm::json::parse(content);
  if (!doc)
    return llvm::createStringError("the answer is not valid JSON (" +
                                   llvm::toString(doc.takeError()) + ")");
  if (!doc->getAsObject())
    return llvm::createStringError("the answer must be a JSON object");
  return doc;
}

} // namespace mlir::tensorop

#endif // TENSOROP_LIB_LLM_ANSWERJSON_H

//===- TuneModel.cpp - The model `tensorop tune --advisor=llm` asks -------===//

#include "TuneModel.h"
#include "TextFiles.h"

#include "tensorop/Targets/TargetHints.h"

using namespace mlir::tensorop;

llvm::Expected<tensorop::TuneModel>
tensorop::openTuneModel(llvm::StringRef advisor, llvm::StringRef promptFile) {
  TuneModel m;
  if (advisor == "builtin")
    return m;
  if (advisor != "llm")
    return llvm::createStringError("unknown --advisor '" + advisor +
                                   "' (expected builtin or llm)");
  llvm::Expected<LLMConfig> config = LLMConfig::fromEnvironment();
  if (!config)
    return llvm::createStringError("--advisor=llm: " +
                                   llvm::toString(config.takeError()));
  m.model = config->model;
  m.system = readTextFile(defaultHintsDir() + "/prompts/" + promptFile.str());
  if (m.system.empty())
    return llvm::createStringError("prompt template " + promptFile +
                                   " is missing");
  m.client = std::make_unique<LLMClient>(*config);
  return m;
}

//===- TuneModel.h - The model `tensorop tune --advisor=llm` asks -*- C++ -*-===//

#ifndef TENSOROP_TOOLS_TUNEMODEL_H
#define TENSOROP_TOOLS_TUNEMODEL_H

#include "tensorop/LLM/LLMClient.h"

#include "llvm/Support/Error.h"

#include <memory>
#include <string>

namespace tensorop {
/// The client, the model's name and the system prompt of the tuner's
/// proposals.
struct TuneModel {
  std::unique_ptr<mlir::tensorop::LLMClient> client;
  std::string model, system;
};

/// For --advisor=llm, the model from the environment with the system prompt
/// hints/prompts/<promptFile>; for --advisor=builtin, an empty TuneModel;
/// anything else is an error.
llvm::Expected<TuneModel> openTuneModel(llvm::StringRef advisor,
                                        llvm::StringRef promptFile);
} // namespace tensorop

#endif

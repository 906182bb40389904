//===- TuneModel.h - The model `tensorop tune --advisor=llm` asks -*- C++ -*-===//

#ifndef TENSOROP_DRIVER_TUNEMODEL_H
#define TENSOROP_DRIVER_TUNEMODEL_H

#include "tensorop/LLM/LLMClient.h"
#include "tensorop/Tuner/TuningDB.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include <vector>

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
/// The search history as the paper gives it to the model: the five fastest
/// rows and, past eight rows, the three slowest, one per line as
/// "- <speed or failure kind>: <describe(row)>" (speed = GFLOP/s times
/// `speedScale`, one decimal), then the request for one new sketch.
std::string historyForModel(
    std::vector<mlir::tensorop::CandidateRecord> rows, double speedScale,
    llvm::function_ref<std::string(const mlir::tensorop::CandidateRecord &)>
        describe);
/// The database row a tuner (CPU or GPU) writes before a candidate runs:
/// op, target, sketch and their hashes, this tool's version, and where the
/// candidate came from: "llm:<llmModel> proposal from the history" when the
/// model proposed it, else `searchProvenance`.
mlir::tensorop::CandidateRecord
candidateToStart(llvm::StringRef opSignature, llvm::StringRef fingerprint,
                 llvm::StringRef config, llvm::StringRef configHash,
                 llvm::StringRef emitterHash, bool proposedByModel,
                 llvm::StringRef llmModel, llvm::StringRef searchProvenance);
} // namespace tensorop

#endif

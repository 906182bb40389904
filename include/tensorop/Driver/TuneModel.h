//===- TuneModel.h - The model `tensorop tune --advisor=llm` asks -*- C++ -*-===//

#ifndef TENSOROP_DRIVER_TUNEMODEL_H
#define TENSOROP_DRIVER_TUNEMODEL_H

#include "tensorop/LLM/LLMClient.h"
#include "tensorop/Tuner/TuningDB.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include <vector>

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <optional>
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
/// Asks the model for one proposal (CPU and GPU tuners alike): `user` is
/// the history prompt, `check` turns the answer into a typed sketch. A
/// request that fails or an answer that `check` rejects is reported on
/// stderr ("tensorop tune: llm proposal failed|rejected: ...") and gives
/// nullopt: the tree goes on. `system` replaces the model's system prompt
/// for operators whose answers have another schema (convolutions).
template <typename Choice>
std::optional<Choice> askModelForProposal(
    const TuneModel &model, const std::string &user,
    llvm::function_ref<llvm::Expected<Choice>(llvm::StringRef answer)> check,
    llvm::StringRef system = "") {
  mlir::tensorop::ChatRequest chat;
  chat.messages = {{"system", system.empty() ? model.system : system.str()},
                   {"user", user}};
  llvm::Expected<mlir::tensorop::ChatResponse> answer =
      model.client->chat(chat);
  if (!answer) {
    llvm::errs() << "tensorop tune: llm proposal failed: "
                 << llvm::toString(answer.takeError()) << "\n";
    return std::nullopt;
  }
  llvm::Expected<Choice> c = check(answer->content);
  if (!c) {
    llvm::errs() << "tensorop tune: llm proposal rejected: "
                 << llvm::toString(c.takeError()) << "\n";
    return std::nullopt;
  }
  return *c;
}

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

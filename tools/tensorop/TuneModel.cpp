//===- TuneModel.cpp - The model `tensorop tune --advisor=llm` asks -------===//

#include "TuneModel.h"
#include "TextFiles.h"

#include "tensorop/Targets/TargetHints.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

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

std::string tensorop::historyForModel(
    std::vector<CandidateRecord> rows, double speedScale,
    llvm::function_ref<std::string(const CandidateRecord &)> describe) {
  // Fastest first, ties in database order (a total order: libstdc++'s
  // stable_sort uses the deprecated get_temporary_buffer).
  llvm::sort(rows, [](const CandidateRecord &a, const CandidateRecord &b) {
    if (a.gflops.value_or(0) != b.gflops.value_or(0))
      return a.gflops.value_or(0) > b.gflops.value_or(0);
    return a.id < b.id;
  });
  std::string text;
  auto line = [&](const CandidateRecord &r) {
    text += "- " +
            (r.status == status::kOk
                 ? llvm::formatv("{0:F1}", r.gflops.value_or(0) * speedScale)
                       .str()
                 : r.status) +
            ": " + describe(r) + "\n";
  };
  for (size_t i = 0; i < rows.size() && i < 5; ++i)
    line(rows[i]);
  if (rows.size() > 8) {
    text += "...\nWorst:\n";
    for (size_t i = rows.size() - 3; i < rows.size(); ++i)
      line(rows[i]);
  }
  text += "Propose ONE new sketch, different from all of these, that you "
          "expect to be faster. Answer with the JSON object only.";
  return text;
}

CandidateRecord tensorop::candidateToStart(
    llvm::StringRef opSignature, llvm::StringRef fingerprint,
    llvm::StringRef config, llvm::StringRef configHash,
    llvm::StringRef emitterHash, bool proposedByModel,
    llvm::StringRef llmModel, llvm::StringRef searchProvenance) {
  CandidateRecord r;
  r.opSignature = opSignature.str();
  r.targetFingerprint = fingerprint.str();
  r.config = config.str();
  r.configHash = configHash.str();
  r.emitterHash = emitterHash.str();
  r.toolVersion = TENSOROP_VERSION;
  r.provenance = proposedByModel
                     ? ("llm:" + llmModel + " proposal from the history").str()
                     : searchProvenance.str();
  return r;
}

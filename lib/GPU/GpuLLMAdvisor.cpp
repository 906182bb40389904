//===- GpuLLMAdvisor.cpp - GPU sketches from an LLM, checked, with fallback ===//
//
// The NVIDIA counterpart of lib/Advisor/LLMAdvisor.cpp: one chat per GEMM,
// the answer checked by checkGpuSketchAnswer, a rejected answer sent back
// with the reason, the builtin sketch when the model does not produce a
// legal one (said in the sketch's source and in the notes).
//
//===----------------------------------------------------------------------===//

#include "tensorop/GPU/GpuAdvisor.h"
#include "tensorop/LLM/LLMClient.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdlib>

using namespace mlir::tensorop;

static std::string readText(const std::string &path) {
  auto buf = llvm::MemoryBuffer::getFile(path);
  return buf ? (*buf)->getBuffer().str() : std::string();
}

llvm::Expected<GpuSketchChoice>
mlir::tensorop::proposeGpuSketchWithLLM(const GpuGemmProblem &p,
                                        const GpuTarget &t,
                                        std::vector<AdvisorNote> &notes) {
  llvm::Expected<LLMConfig> config = LLMConfig::fromEnvironment();
  if (!config)
    return llvm::createStringError("advisor 'llm': " +
                                   llvm::toString(config.takeError()));
  llvm::Expected<GpuSketchChoice> builtin = proposeGpuSketch(p, t);
  if (!builtin)
    return builtin.takeError();
  std::string system =
      readText(defaultHintsDir() + "/prompts/gpu_sketch_system.txt");
  if (system.empty())
    return llvm::createStringError("prompt template " + defaultHintsDir() +
                                   "/prompts/gpu_sketch_system.txt is missing");
  unsigned retries = 3;
  if (const char *r = std::getenv("TENSOROP_LLM_ANSWER_RETRIES"))
    llvm::StringRef(r).getAsInteger(10, retries);
  std::string user = llvm::formatv(
      "GEMM C[M][N] = A[M][K] * B[K][N], row-major, M = {0}, N = {1}, K = {2}; "
      "A and B {3}, C {4}, computed in {5} with fp32 accumulation.\n\n"
      "Target: {6}. Its hardware hints (hints/{6}.json):\n{7}\n\n"
      "The kernel family for this GEMM on this target is {8}. The builtin "
      "wave-quantization model proposes: {9}.\n\nChoose the sketch that runs "
      "fastest. Answer with the JSON object only.",
      p.m, p.n, p.k, p.aType, p.cType, p.precision, t.hints.name,
      readText(t.hints.path), builtin->kernel, builtin->describe());
  ChatRequest request;
  request.messages = {{"system", system}, {"user", user}};
  LLMClient client(*config);
  std::string source = "llm:" + config->model;
  auto fallback = [&](const std::string &why) {
    GpuSketchChoice c = *builtin;
    c.source = "builtin (fallback: " + why + ")";
    notes.push_back(
        AdvisorNote::warning("fell back to the builtin sketch: " + why));
    return c;
  };
  for (unsigned attempt = 0; attempt <= retries; ++attempt) {
    llvm::Expected<ChatResponse> answer = client.chat(request);
    if (!answer) {
      notes.push_back(AdvisorNote::warning(
          "the LLM endpoint failed: " + llvm::toString(answer.takeError())));
      return fallback("the LLM endpoint failed");
    }
    llvm::Expected<GpuSketchChoice> c =
        checkGpuSketchAnswer(answer->content, p, t, *builtin, source);
    if (c) {
      notes.push_back(AdvisorNote::info(
          llvm::formatv("answer {0} accepted: {1}{2}", attempt + 1,
                        c->describe(), answer->fromCache ? " (cached)" : "")
              .str()));
      return c;
    }
    std::string why = llvm::toString(c.takeError());
    notes.push_back(AdvisorNote::rejection(
        llvm::formatv("answer {0} rejected: {1}", attempt + 1, why).str()));
    // The model sees why and tries again.
    request.messages.push_back({"assistant", answer->content});
    request.messages.push_back(
        {"user", "Your answer was rejected: " + why +
                     "\nAnswer again with a corrected JSON object only."});
  }
  return fallback(llvm::formatv("{0} rejected answers", retries + 1).str());
}

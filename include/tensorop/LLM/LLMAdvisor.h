//===- LLMAdvisor.h - The llm and replay advisors ---------------*- C++ -*-===//
//
// Part of TensorOp::LLM (libcurl), kept out of the core so that a consumer
// may leave it out: registerLLMAdvisors() makes "llm" and "replay:DIR"
// available to createAdvisor (and so to the pipeline's advisor= option).
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_LLM_LLMADVISOR_H
#define TENSOROP_LLM_LLMADVISOR_H

#include "tensorop/Advisor/Advisor.h"
#include "tensorop/Advisor/ConvAdvisor.h"

namespace mlir::tensorop {

/// Registers the "llm" and "replay" advisors with registerAdvisor.
void registerLLMAdvisors();

/// The LLM advisor: prompts built from the hints and templates in
/// hints/prompts/, answers validated (schema, legality, emitter runs
/// sandboxed and assembles, the validator), up to
/// TENSOROP_LLM_ANSWER_RETRIES (default 3) corrections, then the builtin
/// advisor. Fails only if the endpoint is not configured.
llvm::Expected<std::unique_ptr<Advisor>> createLLMAdvisor();
/// Checks one LLM answer (the JSON of hints/prompts/gemm_sketch_system.txt):
/// schema, legality on the target, and an emitter script it brings runs
/// sandboxed and assembles. The error says what is wrong, for the model.
/// With `callerVerifiesEmitters` false, an answer that brings an emitter
/// script is refused as the pipeline refuses it without a validator: nothing
/// is written or run (the answer fuzzer checks answers this way).
llvm::Expected<SketchChoice>
checkSketchAnswer(llvm::StringRef content, const GemmProblem &problem,
                  const TargetHints &target, llvm::StringRef source,
                  bool callerVerifiesEmitters = true);
/// Checks one LLM answer for a convolution (the JSON of
/// hints/prompts/conv_sketch_system.txt): schema, and the
/// #tensorop.conv_sketch verifier on the target. The emitter and thread
/// count come from `builtin`; an answer with an emitter script is refused.
/// The error says what is wrong, for the model.
llvm::Expected<ConvSketchChoice>
checkConvSketchAnswer(llvm::StringRef content, const ConvSketchChoice &builtin,
                      const TargetHints &target, llvm::StringRef source);
/// Answers recorded in `dir`, validated like live ones.
std::unique_ptr<Advisor> createReplayAdvisor(llvm::StringRef dir);

} // namespace mlir::tensorop

#endif // TENSOROP_LLM_LLMADVISOR_H

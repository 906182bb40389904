//===- JitGemm.h - Build and JIT-compile one GEMM through the pipeline -*- C++ -*-===//
//
// The measurement harnesses (tensorop bench, later the tuner's worker) need a
// callable `void gemm(const float *A, const float *B, float *C)` for a static
// shape, made by exactly the pipeline users run. This library writes the
// module, runs --tensorop-pipeline with the bare-pointer ABI and JIT-compiles
// it with the LLVM ORC JIT at -O3 for the host.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_RUNTIME_JITGEMM_H
#define TENSOROP_RUNTIME_JITGEMM_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>

namespace mlir {
class ExecutionEngine;
class MLIRContext;
class DialectRegistry;
namespace tensorop {

using GemmFn = void (*)(const float *A, const float *B, float *C);

struct JitGemm {
  std::unique_ptr<ExecutionEngine> engine;
  GemmFn fn = nullptr;
  std::string sketch;  ///< The sketch attribute the advisor chose, printed.
  std::string source;  ///< The module given to the pipeline.
  double compileSeconds = 0;
  ~JitGemm();
  JitGemm();
  JitGemm(JitGemm &&);
};

/// Writes the MLIR source of `C = A * B` (C zero-filled first, row-major,
/// contiguous) for an M x N x K fp32 GEMM named `name`. A non-empty
/// `sketch` (a #tensorop.sketch attribute) is attached to the matmul so the
/// pipeline uses it instead of asking the advisor.
std::string gemmModuleSource(llvm::StringRef name, int64_t m, int64_t n,
                             int64_t k, llvm::StringRef sketch = "");

/// The same with `inputType` ("f32", "bf16" or "f16") A and B and an fp32
/// C (CPU targets accumulate bf16/f16 inputs into fp32).
std::string gemmModuleSource(llvm::StringRef name, int64_t m, int64_t n,
                             int64_t k, llvm::StringRef inputType,
                             llvm::StringRef sketch);

/// Registers what the pipeline and the JIT translation need.
void registerJitDialects(DialectRegistry &registry);

/// A module lowered by --tensorop-pipeline, and the sketch that was chosen.
struct LoweredModule {
  OwningOpRef<ModuleOp> module;
  std::string sketch; ///< The #tensorop.sketch, printed ("" if none).
};

/// Parses `source` and runs `tensorop-pipeline{pipelineOptions}` on it
/// (`pipelineOptions`: target, advisor, db); every diagnostic of a failure
/// is in the error message.
llvm::Expected<LoweredModule> lowerWithPipeline(MLIRContext &ctx,
                                                llvm::StringRef source,
                                                llvm::StringRef pipelineOptions,
                                                bool barePtrAbi);

/// Lowers `source` with --tensorop-pipeline (bare-pointer ABI) and JITs it.
/// `pipelineOptions` are the options inside `tensorop-pipeline{...}`.
llvm::Expected<JitGemm> compileGemm(MLIRContext &ctx, llvm::StringRef source,
                                    llvm::StringRef name,
                                    llvm::StringRef pipelineOptions);

} // namespace tensorop
} // namespace mlir

#endif

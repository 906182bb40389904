//===- CpuTuneOp.h - An operator the CPU tuner measures ---------*- C++ -*-===//
//
// Internal to lib/Driver: what CpuTune.cpp's backend needs of each operator
// it tunes, GEMM (CpuTune.cpp) or convolution (CpuConvTune.cpp): the module
// one candidate is compiled from, and how a `tensorop worker` process is
// told what it runs.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_LIB_DRIVER_CPUTUNEOP_H
#define TENSOROP_LIB_DRIVER_CPUTUNEOP_H

#include "tensorop/Driver/TuneBackend.h"

#include "tensorop/Advisor/ConvAdvisor.h"
#include "tensorop/Targets/TargetHints.h"

#include "llvm/Support/raw_ostream.h"

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tensorop {

class CpuTuneOp : public OpTuneSearch {
public:
  /// The MLIR module of one candidate: the op as a function `symbol` with
  /// `config` (the sketch's text) attached.
  virtual std::string moduleSource(llvm::StringRef symbol,
                                   llvm::StringRef config) const = 0;
  /// The worker's arguments that say what the object computes.
  virtual std::vector<std::string> workerArgs() const = 0;
  /// M, N, K of the GEMM whose buffers size a sandboxed worker's memory
  /// (a convolution's implicit GEMM).
  virtual std::array<int64_t, 3> sandboxDims() const = 0;
  /// Whether the confirmation times oneDNN in the same runs (its median
  /// goes into ConfirmedSpeed::referenceGflops).
  virtual bool hasBaseline() const { return false; }
  /// The threads the sketch `config` runs on: the worker gives its
  /// baselines (the fp64 reference's dgemm, oneDNN) as many.
  virtual int64_t threadsOf(llvm::StringRef config) const { return 1; }
};

/// The search over `convSearchSpace` of one CPU convolution; `builtin` is
/// the builtin advisor's choice (its threads the starting count); `peak`
/// the FMA peak the backend measures before the search (the reward's
/// scale).
std::unique_ptr<CpuTuneOp> makeCpuConvSearch(
    mlir::MLIRContext &ctx, const mlir::tensorop::ConvProblem &problem,
    const mlir::tensorop::TargetHints &hints,
    const mlir::tensorop::ConvSketchChoice &builtin, std::string target,
    std::string emitterDir, const double &peakGflops);

/// A search candidate from an advisor's choice (GemmSearchSpace's or
/// ConvSearchSpace's): its sketch as text and `hash(choice)`; none where the
/// sketch verifier rejects it (the verifier prunes illegal points).
template <typename Choice, typename HashFn>
std::optional<TuneCandidate> tuneCandidateOf(const Choice &choice,
                                             mlir::MLIRContext &ctx,
                                             const mlir::tensorop::TargetHints &hints,
                                             HashFn hash) {
  std::string illegal;
  auto attr = choice.toAttr(&ctx, hints, illegal);
  if (!attr)
    return std::nullopt;
  TuneCandidate c;
  llvm::raw_string_ostream(c.config) << attr;
  c.hash = hash(choice);
  return c;
}

} // namespace tensorop

#endif // TENSOROP_LIB_DRIVER_CPUTUNEOP_H

//===- GpuSearchSpace.h - The sketch space of one GEMM on a GPU -*- C++ -*-===//
//
// The knobs of a #tensorop.gpu_sketch as a sequence of decisions for the tree
// search: the kernel family stays the builtin advisor's (it follows from the
// target, the precision and the alignment), and its tile knobs vary — CTA
// tile, warps or consumer warpgroups, K step, pipeline stages, the swizzle
// of the tile order (group_m), the thread-block cluster shape (wgmma: 1x1,
// 2x1 or 1x2 CTAs sharing a tile by TMA multicast) and the persistent grid
// size. Options are drawn from what the family's emitter and the target
// accept (register and shared memory budgets), so most points are legal;
// every point is still checked by checkGpuSketch before it is compiled.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_GPU_GPUSEARCHSPACE_H
#define TENSOROP_GPU_GPUSEARCHSPACE_H

#include "tensorop/GPU/GpuAdvisor.h"
#include "tensorop/Tuner/SearchSpace.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::tensorop {

class GpuSearchSpace : public SearchSpace {
public:
  GpuSearchSpace(const GpuGemmProblem &problem, const GpuTarget &target,
                 const GpuSketchChoice &defaults);

  unsigned numKnobs() const override { return knobs.size(); }
  llvm::StringRef knobName(unsigned knob) const;
  std::string knobLabel(unsigned knob) const override {
    return knobName(knob).str();
  }
  std::string valueLabel(unsigned, llvm::ArrayRef<int64_t>,
                         int64_t value) const override {
    return std::to_string(value);
  }
  std::vector<int64_t> options(unsigned knob,
                               llvm::ArrayRef<int64_t> prefix) const override;
  /// The builtin advisor's value first, then nearer values.
  double prior(unsigned knob, llvm::ArrayRef<int64_t> prefix,
               int64_t value) const override;
  std::optional<int64_t>
  defaultValue(unsigned knob, llvm::ArrayRef<int64_t> prefix) const override;

  GpuSketchChoice toChoice(llvm::ArrayRef<int64_t> point) const;
  /// The point of a sketch (nullopt if it is outside the space).
  std::optional<std::vector<int64_t>>
  toPoint(const GpuSketchChoice &sketch) const;

  const GpuGemmProblem &problem() const { return p; }
  const GpuTarget &target() const { return t; }

  /// The index of the `store` knob (its values: 0 "global", 1 "smem_tma").
  static constexpr unsigned storeKnob() { return kStore; }

private:
  enum Knob {
    kBlockM,
    kConsumers,
    kWarpsM,
    kBlockN,
    kWarpsN,
    kBlockK,
    kStages,
    kGroupM,
    kCtas,
    kClusterM,
    kClusterN,
    kSplitK,
    kStore ///< 0: store = "global", 1: "smem_tma" (wgmma); not an int field
  };
  std::vector<int64_t> gemvOptions(Knob knob,
                                   llvm::ArrayRef<int64_t> prefix) const;
  int64_t get(Knob knob, llvm::ArrayRef<int64_t> prefix) const;
  int64_t valueOf(Knob knob, const GpuSketchChoice &c) const;

  GpuGemmProblem p;
  GpuTarget t;
  GpuSketchChoice defaults;
  std::vector<Knob> knobs; ///< The knobs of the family, in decision order.
};

/// The tuning-database identity of a GPU sketch (that of the GEMM is
/// gpuOpSignature in Transforms/GpuMatmulSupport.h).
std::string gpuConfigHash(const GpuSketchChoice &sketch);
/// Recomputes the config hash of a tuning-database row holding a
/// #tensorop.gpu_sketch (for TuningDB::setConfigHasher).
std::optional<std::string> gpuConfigHashOfText(MLIRContext *ctx,
                                               llvm::StringRef config);

} // namespace mlir::tensorop

#endif // TENSOROP_GPU_GPUSEARCHSPACE_H

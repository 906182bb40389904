//===- GpuAdvisor.h - Kernel shapes of GEMMs on NVIDIA GPUs -----*- C++ -*-===//
//
// The NVIDIA counterpart of the CPU advisor: reads the GPU part of
// hints/nvidia-sm*.json, proposes a #tensorop.gpu_sketch for a GEMM (kernel
// family, CTA tile, warps, stages, tile order) from a wave/occupancy model,
// checks sketches from any source against the target and the problem, and
// turns a sketch into the JSON spec of its emitter script.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_GPU_GPUADVISOR_H
#define TENSOROP_GPU_GPUADVISOR_H

#include "tensorop/Advisor/AdvisorNote.h"
#include "tensorop/Targets/TargetHints.h"
#include "tensorop/Transforms/GpuMatmulSupport.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <string>
#include <vector>

namespace mlir {
class MLIRContext;
namespace tensorop {
class GpuSketchAttr;
struct GpuSketchFields;

/// An NVIDIA target: the validated common hints plus the GPU fields.
struct GpuTarget {
  TargetHints hints;
  std::string chip; ///< "sm_90a", "sm_80"
  int sm = 90;      ///< compute capability * 10
  int ptxVersion = 80;
  int64_t sms = 132;
  int64_t maxSharedPerBlock = 232448;
  /// HBM bandwidth (bytes/s): measured where the hints say, else the
  /// datasheet's (the pad copies' cost in the advisor's model).
  double hbmBytesPerSecond = 2.0e12;
};

/// Reads hints/<target>.json (an nvidia-* target).
llvm::Expected<GpuTarget> loadGpuTarget(llvm::StringRef target,
                                        llvm::StringRef hintsDir = "");

/// The typed form of #tensorop.gpu_sketch.
struct GpuSketchChoice {
  std::string kernel; ///< "wgmma", "mma_sync", "ffma"
  std::string precision;
  int64_t blockM = 128, blockN = 128, blockK = 32;
  int64_t warpsM = 0, warpsN = 0, consumers = 0;
  int64_t stages = 4, groupM = 8, ctas = 0;
  /// Thread-block cluster (wgmma): CTAs down M x across N, at most 2 in all.
  int64_t clusterM = 1, clusterN = 1;
  /// Split-K (wgmma): CTAs of a cluster that share one tile's K, 1, 2 or 4.
  int64_t splitK = 1;
  std::string source = "builtin";
  /// How C is stored (wgmma): "global" (from registers) or "smem_tma"
  /// (stmatrix into shared memory, then TMA stores).
  std::string store = "global";
  /// Why the builtin advisor chose this kernel where the choice was a cost
  /// trade-off (pad copies for wgmma against mma.sync's element loads), for
  /// a remark; not part of the attribute.
  std::string note;

  GpuSketchAttr toAttr(MLIRContext *ctx, const GpuTarget &target) const;
  /// The fields the sketch's own rules (findGpuSketchViolation) read.
  GpuSketchFields fields() const;
  static GpuSketchChoice fromAttr(GpuSketchAttr attr);
  /// The emitter script of the kernel family.
  std::string emitter() const;
  /// The knobs in one line, "kernel=wgmma block_m=128 ..." (prompts, logs).
  std::string describe() const;
};

/// The builtin advisor: the kernel family from target, precision and
/// alignment, then the tile that minimizes a wave-quantized cost.
llvm::Expected<GpuSketchChoice> proposeGpuSketch(const GpuGemmProblem &problem,
                                                 const GpuTarget &target);

/// Checks a sketch (from any source): the rules of the #tensorop.gpu_sketch
/// verifier, then those of the problem (precision, TMA-aligned rows) and of
/// the target's hints (shared memory); the error names the offending field.
llvm::Error checkGpuSketch(const GpuSketchChoice &sketch,
                           const GpuGemmProblem &problem,
                           const GpuTarget &target);

/// A sketch from a model's answer (hints/prompts/gpu_sketch_system.txt):
/// parsed, unknown fields refused, fields the family does not use taken from
/// `builtin`, then checkGpuSketch. Errors say which field and why.
llvm::Expected<GpuSketchChoice>
checkGpuSketchAnswer(llvm::StringRef content, const GpuGemmProblem &problem,
                     const GpuTarget &target, const GpuSketchChoice &builtin,
                     llvm::StringRef source);

/// The LLM advisor for GPUs (LLMConfig from the environment): the model is
/// given the problem, the target's hints and the builtin sketch; a rejected
/// answer goes back to it with the reason (TENSOROP_LLM_ANSWER_RETRIES more
/// times, default 3), then the builtin sketch is used with the reason in its
/// source. `notes` says what happened. An error only when no model is
/// configured.
/// The GPU advisor 'llm' lives in TensorOpGPULLM (it needs TensorOp::LLM's
/// client); this calls the registered one, or says it is not linked.
llvm::Expected<GpuSketchChoice>
proposeGpuSketchWithLLM(const GpuGemmProblem &problem, const GpuTarget &target,
                        std::vector<AdvisorNote> &notes);

using GpuLLMProposer = llvm::Expected<GpuSketchChoice> (*)(
    const GpuGemmProblem &problem, const GpuTarget &target,
    std::vector<AdvisorNote> &notes);
/// Installs the implementation of proposeGpuSketchWithLLM
/// (registerGpuLLMAdvisor() in GpuLLMAdvisor.h).
void registerGpuLLMProposer(GpuLLMProposer proposer);

/// The row strides (elements) of A and B as the wgmma kernel of a GEMM
/// reads them: K and N where TMA can describe the rows (16-byte aligned),
/// else those of the padded copies the lowering makes first
/// (python_emitters/nvidia_pad.py), rounded up to 16 bytes.
struct GpuWgmmaPadding {
  int64_t lda = 0, ldb = 0;
  bool padA = false, padB = false;
  bool any() const { return padA || padB; }
  /// Bytes of the workspace holding both copies (each 256-byte aligned).
  int64_t workspaceBytes = 0;
  /// Where B's copy starts in the workspace.
  int64_t offsetB = 0;
};
GpuWgmmaPadding wgmmaPadding(const GpuGemmProblem &problem);

/// Whether the builtin advisor runs a bf16/f16 GEMM whose rows TMA cannot
/// describe on the wgmma kernel with pad copies rather than on the mma.sync
/// kernel with element loads: a cost model (the copies' bytes at HBM
/// bandwidth plus the wgmma kernel's waves against mma.sync's). `note`
/// says which and the model's times, for a remark.
bool paddedWgmmaPays(const GpuGemmProblem &problem, const GpuTarget &target,
                     std::string &note);

/// Shared memory the wgmma kernel of `sketch` takes: its stages and
/// barriers, plus the C buffers of store = "smem_tma".
int64_t wgmmaSharedBytes(const GpuSketchChoice &sketch);

/// The JSON spec the sketch's emitter takes for `problem`.
llvm::json::Object emitterSpec(const GpuSketchChoice &sketch,
                               const GpuGemmProblem &problem,
                               const GpuTarget &target,
                               llvm::StringRef kernelName);

} // namespace tensorop
} // namespace mlir

#endif // TENSOROP_GPU_GPUADVISOR_H

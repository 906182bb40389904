//===- TargetHints.h - Hardware hints of one target -------------*- C++ -*-===//
//
// The typed, validated form of hints/<target>.json: what the builtin advisor's
// analytical model and the LLM prompts read about a target.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_TARGETS_TARGETHINTS_H
#define TENSOROP_TARGETS_TARGETHINTS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace mlir {
class MLIRContext;
namespace tensorop {
class TargetAttr;

struct CacheLevel {
  int level = 0;
  int64_t sizeBytes = 0;
  int64_t ways = 0;
  int64_t lineBytes = 0;
  int64_t sharedByCores = 1;
};

struct TargetHints {
  std::string name;
  std::string path; ///< The file it was read from.
  std::string arch, triple, cpu, features;
  std::string isa; ///< "avx512", "avx2", ...
  int64_t vectorBits = 0;
  int64_t vectorRegisters = 0;
  double fmaLatency = 0;
  /// Width of the FP datapaths (fma.datapath_bits): below vectorBits, a
  /// full-width FMA takes vectorBits / datapathBits pipe slots and a
  /// narrower one fewer (AVX-512 on Zen 4's 256-bit pipes).
  int64_t datapathBits = 0;
  int64_t accumulatorsForPeak = 0;
  int64_t minFmasPerBroadcast = 1;
  bool embeddedBroadcast = false;
  std::vector<CacheLevel> caches;
  /// Cache blocking of the packed GEMM path (optional "blocking" object):
  /// the A micro-panel (mr x kc) takes at most 1/aPanelL1Share of L1, the
  /// packed B block (kc x nc) at most 1/bBlockL2Share of L2.
  int64_t aPanelL1Share = 4;
  int64_t bBlockL2Share = 2;
  int64_t cores = 1;
  double peakGflopsF32PerCore = 0;
  /// The bf16 pair dot product with fp32 accumulation ("vdpbf16ps"), the
  /// CPU feature that has it ("avx512bf16") and which CPUs do; empty where
  /// the target has none (bf16 GEMMs are refused there).
  std::string bf16DotInstruction, bf16DotFeature, bf16DotCpus;
  bool hasBf16Dot() const { return !bf16DotInstruction.empty(); }

  int64_t f32Lanes() const { return vectorBits / 32; }
  /// Size in bytes of the data cache at `level`, or 0 if unknown.
  int64_t cacheBytes(int level) const;
  TargetAttr toAttr(MLIRContext *ctx) const;
};

/// The directory hints are read from: $TENSOROP_HINTS_DIR, else hints/ of
/// the data directory (tensorop/Support/DataDir.h: <prefix>/share/tensorop
/// next to the installed binary).
std::string defaultHintsDir();

/// Maps "host" to the best x86 target this CPU supports; other names are
/// returned unchanged. Fails if the host has no supported vector ISA.
llvm::Expected<std::string> resolveTargetName(llvm::StringRef target);

/// The targets the CPU pipeline can generate code for.
llvm::ArrayRef<llvm::StringLiteral> supportedCpuTargets();

/// Targets the CPU pipeline also builds for that are variants of a
/// supported one rather than targets of their own: riscv-rvv-vlen256 (RVV
/// with VLEN >= 256), the wide half of gen's per-VLEN riscv-rvv build.
/// `tensorop gen` does not take them (its riscv-rvv object holds both).
llvm::ArrayRef<llvm::StringLiteral> cpuTargetVariants();

/// Whether the CPU pipeline takes `target` (a supported CPU target or a
/// variant; "host" is resolved before).
bool isCpuPipelineTarget(llvm::StringRef target);

/// The targets the NVIDIA pipeline can generate code for.
llvm::ArrayRef<llvm::StringLiteral> supportedGpuTargets();

/// Identifies the machine a tuning record was measured on: the target, the
/// CPU model and its family/model numbers (from /proc/cpuinfo), e.g.
/// "x86-avx512;AMD EPYC;family 26 model 2".
std::string targetFingerprint(llvm::StringRef targetName);

/// Reads and validates `<dir>/<target>.json`; an error names the file and
/// the field that is wrong.
llvm::Expected<TargetHints> loadTargetHints(llvm::StringRef target,
                                            llvm::StringRef dir = "");

/// Validates the text of a hints file for `target`; `path` names it in
/// errors. (loadTargetHints reads the file; the hints fuzzer calls this.)
llvm::Expected<TargetHints> parseTargetHints(llvm::StringRef text,
                                             llvm::StringRef target,
                                             llvm::StringRef path);

} // namespace tensorop
} // namespace mlir

#endif // TENSOROP_TARGETS_TARGETHINTS_H

//===- ConvAdvisor.h - A 2-D convolution and its sketch choice --*- C++ -*-===//
//
// The typed form of a #tensorop.conv_sketch, the builtin choice for one
// convolution on a target (from hints/) and the knobs a tuner enumerates.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_ADVISOR_CONVADVISOR_H
#define TENSOROP_ADVISOR_CONVADVISOR_H

#include "tensorop/Emitters/Emitter.h"
#include "tensorop/Targets/TargetHints.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace mlir {
class MLIRContext;
namespace tensorop {
class ConvSketchAttr;

/// One NHWC x HWCF convolution: input N x H x W x C (unpadded), filter
/// R x S x C x F, zero padding inside the kernel.
struct ConvProblem {
  int64_t n = 1, h = 0, w = 0, c = 0, f = 0, r = 0, s = 0;
  int64_t strideH = 1, strideW = 1, dilationH = 1, dilationW = 1;
  int64_t padTop = 0, padBottom = 0, padLeft = 0, padRight = 0;

  int64_t outH() const {
    return (h + padTop + padBottom - dilationH * (r - 1) - 1) / strideH + 1;
  }
  int64_t outW() const {
    return (w + padLeft + padRight - dilationW * (s - 1) - 1) / strideW + 1;
  }
  double flops() const {
    return 2.0 * n * outH() * outW() * f * r * s * c;
  }
};

/// The knobs of a #tensorop.conv_sketch (see its description).
struct ConvSketchChoice {
  int64_t mr = 0, nr = 0, cb = 0;
  std::string taps = "one";
  std::string loopOrder = "pf";
  std::string packInput = "kmajor_mr";
  std::string packFilter = "kmajor_nr";
  std::string emitter = "x86_gemm_fma";
  int64_t kUnroll = 4;
  std::string broadcast = "explicit";
  int64_t prefetchB = 0;
  std::string source = "builtin";
  int64_t threads = 1;

  /// The attribute; the verifier's message goes to `error` when the choice
  /// is illegal for the target.
  ConvSketchAttr toAttr(MLIRContext *ctx, const TargetHints &target,
                        std::string &error) const;
  static ConvSketchChoice fromAttr(ConvSketchAttr attr);
};

/// The most input channels the builtin choice reduces over in one call:
/// the A rows of a block, mr x 512 floats, still fit L1.
constexpr int64_t kConvMaxChannelBlock = 512;

/// Filter panels of `nr` channels that loop order "fcp" packs together per
/// channel block in the one-thread per-call entry (the buffer holds that
/// many panels' blocks; elsewhere the channel block is that much larger,
/// see ApplyConvSketch). Where few
/// output pixels use each filter element (N*OH*OW <= 128), enough that the
/// pack reads 512 consecutive bytes of each HWCF filter row (4 panels at
/// nr = 32) rather than nr floats out of every F, at most F's panels;
/// elsewhere 1.
int64_t convPackGroupPanels(const ConvProblem &p, int64_t nr);

/// Output rows whose input rows one fill of the zero-padded strip copies
/// (taps = "window" on a padded layer, see ApplyConvSketch): consecutive
/// output rows' windows share input rows (all but SH of them), so a strip
/// of SH*(B-1) + DH*(R-1) + 1 rows serves B output rows and copies each
/// input row about once rather than R/SH times. At most a strip of 128 KB;
/// 1 where a larger block copies no fewer rows per output row than R.
int64_t convStripBlockRows(const ConvProblem &p);

/// "conv2d f32 n=.. h=.. w=.. c=.. f=.. r=.. s=.. stride=.. dil=.. pad=..",
/// the key of a convolution in a tuning database.
std::string convSignature(const ConvProblem &p);

/// The builtin (analytical, deterministic) choice for `p` on `t`: the
/// register block that fits the register file with the least work wasted on
/// the OW and F edges, a whole filter row per call where the input is read
/// in place (x86), channel blocks of at most 512, and the filter loop
/// outside the pixel loop when the packed filter would not stay in L2.
llvm::Expected<ConvSketchChoice> builtinConvChoice(const ConvProblem &p,
                                                  const TargetHints &t);

/// The builtin advisor's score of an mr x nr register block for `p` on `t`
/// (0..1, higher is better): enough accumulators to hide the FMA latency,
/// broadcasts shared by enough FMAs, little work wasted on the OW and F
/// edges. The tuner's prior over register blocks.
double convRegisterBlockScore(const ConvProblem &p, const TargetHints &t,
                              int64_t mr, int64_t nr);

/// Every choice the tuner may try for `p` on `t`, each legal for the target
/// (register block, channel block, taps per call, loop order, packing,
/// k unroll, broadcast, B prefetch distance), with `threads` threads.
std::vector<ConvSketchChoice> convSearchSpace(const ConvProblem &p,
                                              const TargetHints &t,
                                              int64_t threads = 1);

/// The emitter request of one of a conv sketch's microkernels: `taps` taps
/// per call, `tapABytes` apart in the input; `ldaBytes` / `ldbBytes` the
/// row strides of an input / filter read in place (0: packed).
EmitterRequest convUKernelEmitterRequest(ConvSketchAttr sketch,
                                         const TargetHints &hints,
                                         int64_t ldaBytes, int64_t ldbBytes,
                                         int64_t taps, int64_t tapABytes,
                                         llvm::StringRef emitterDir = "",
                                         unsigned timeoutSeconds = 30);

} // namespace tensorop
} // namespace mlir

#endif // TENSOROP_ADVISOR_CONVADVISOR_H

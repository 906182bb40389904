//===- CpuConvCheck.h - gen's check of a convolution object -----*- C++ -*-===//
//
// Internal to lib/Driver: what CpuBackend::generate records about a
// convolution kernel it loaded back from the shipped object: verification
// against the fp64 reference and timing against oneDNN's convolution
// (lib/Verify/CpuConv.h), as report.json objects and report.md text.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_LIB_DRIVER_CPUCONVCHECK_H
#define TENSOROP_LIB_DRIVER_CPUCONVCHECK_H

#include "tensorop/Advisor/ConvShape.h"
#include "tensorop/Verify/CpuConv.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <string>

namespace tensorop {

struct ConvObjectCheck {
  std::string error; ///< nothing could be checked (e.g. memory)
  bool verified = false;
  llvm::json::Object verification, timing;
  std::string markdown; ///< report.md's verification and speed sections
  std::string summary;  ///< the lines gen prints
};

/// Verifies `fn` (loaded from `objectPath`) and, unless `noBench`, times it
/// against oneDNN with `threads` threads on every side; `peak` is the FMA
/// peak of those threads (0 = unknown), given by the user (`peakGiven`) or
/// measured (then measured again before a best sample above it is
/// reported). A sample above it is a warning, not a failure.
/// `prepacked` (the object's NAME_pack_filter / NAME_prepacked entries) is
/// verified the same way and timed in the same rounds.
ConvObjectCheck checkConvObject(ConvFn fn, const Conv2DShape &shape,
                                llvm::StringRef name,
                                llvm::StringRef objectPath, unsigned seed,
                                bool noBench, unsigned threads, double peak,
                                bool peakGiven,
                                const ConvPrepackedEntries *prepacked =
                                    nullptr);

/// A convolution with a fused epilogue (its entry point takes the bias and
/// residual): checked against the steps applied in fp64 to the fp64
/// convolution; not timed (no baseline computes the same epilogue here).
ConvObjectCheck checkEpilogueConvObject(void *fn, const Conv2DShape &shape,
                                        llvm::ArrayRef<std::string> steps,
                                        llvm::StringRef name,
                                        llvm::StringRef objectPath,
                                        unsigned seed,
                                        const ConvPrepackedEntries *prepacked =
                                            nullptr);

} // namespace tensorop

#endif // TENSOROP_LIB_DRIVER_CPUCONVCHECK_H

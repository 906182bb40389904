//===- EpilogueConv.h - gen's convolution with a fused epilogue -*- C++ -*-===//
//
// `tensorop gen "3x3 convolution ... with bias and ReLU"` on x86: the
// consumer of the convolution the module carries (the pipeline fuses it
// into the convolution kernel's store), the C entry point, and the check of
// the built object against an fp64 reference of the same steps.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_DRIVER_EPILOGUECONV_H
#define TENSOROP_DRIVER_EPILOGUECONV_H

#include "tensorop/Advisor/ConvShape.h"
#include "tensorop/Runtime/ConvModule.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace tensorop {

/// void NAME(const float *input, const float *filter[, const float *bias]
/// [, const float *residual], float *output).
std::string epilogueConvEntryPoint(llvm::StringRef name,
                                   llvm::ArrayRef<std::string> steps);

/// The steps as a linalg.generic on the convolution's result %r (a bias per
/// output channel, an N x OH x OW x F residual), as models write them.
mlir::tensorop::ConvConsumer
epilogueConvConsumer(const Conv2DShape &shape,
                     llvm::ArrayRef<std::string> steps);

struct EpilogueConvCheck {
  std::string error;     ///< Why nothing could be checked.
  int64_t failures = -1; ///< Elements over the bound or NaN.
  double maxRatio = 0;   ///< Largest error / bound.
  std::string bound;     ///< The bound, as text.
};

/// Calls the entry point at `fn` once on seeded inputs in [-1, 1) with a
/// NaN-prefilled output and checks every element against the steps applied
/// in fp64 to the fp64 reference convolution of the same inputs.
/// With `pack` (gen's NAME_pack_filter, `packedBytes` its buffer's size)
/// `fn` is the prepacked entry: the filter is packed into a NaN-prefilled
/// buffer first and `fn` gets that buffer in the filter's place.
EpilogueConvCheck checkEpilogueConv(void *fn, const Conv2DShape &shape,
                                    llvm::ArrayRef<std::string> steps,
                                    uint64_t seed,
                                    void (*pack)(const float *, float *) =
                                        nullptr,
                                    size_t packedBytes = 0);

} // namespace tensorop

#endif // TENSOROP_DRIVER_EPILOGUECONV_H

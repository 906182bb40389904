//===- ConvModule.h - The MLIR input of one generated convolution -*- C++ -*-===//
//
// The module `tensorop gen` and `tensorop bench --conv` build for a CPU
// convolution (the contract with the pipeline's convolution path,
// /work/helpers/conv-contract.md point 1): a function on memrefs whose body
// is in tensor form, so the pipeline's annotate pass sees the padding:
//
//   func.func @NAME(%in: memref<NxHxWxC>, %flt: memref<RxSxCxF>,
//                   %out: memref<NxOHxOWxF>)
//     to_tensor(in) -> tensor.pad (omitted without padding) ->
//     linalg.conv_2d_nhwc_hwcf {strides, dilations} on a zero-filled
//     tensor.empty -> materialize_in_destination %out
//
// With the bare-pointer ABI it is `void NAME(const float *input, const
// float *filter, float *output)`.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_RUNTIME_CONVMODULE_H
#define TENSOROP_RUNTIME_CONVMODULE_H

#include "tensorop/Advisor/ConvShape.h"

#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir::tensorop {

/// The module for the fp32 convolution `name` of `shape`. A non-empty
/// `sketch` is attached to the conv op as {tensorop.sketch = ...}.
/// An elementwise consumer of the convolution's result `%r` in the same
/// function (gen's fused epilogues, lib/Driver/EpilogueConv.cpp).
struct ConvConsumer {
  std::string arguments; ///< e.g. ", %bias: memref<64xf32>" (before %out)
  std::string body;      ///< lines after the convolution, reading %r
  std::string result;    ///< the tensor written to %out
};

std::string convModuleSource(llvm::StringRef name,
                             const ::tensorop::Conv2DShape &shape,
                             llvm::StringRef sketch = "",
                             const ConvConsumer *consumer = nullptr);

/// The prepacked entry of the same convolution, to append to
/// convModuleSource's module: `func.func @NAME_prepacked(%in, %packed,
/// [consumer arguments,] %out)`, the same body, its convolution marked
/// tensorop.prepacked_filter = {pack = "NAME_pack_filter", size =
/// "NAME_packed_filter_size"}: the pipeline's sketch path reads %packed as
/// the filter packed in its layout and adds those two functions
/// (ApplyConvSketch.cpp). %packed is declared R x S x C x F and retyped by
/// the pass to the packed buffer's size; with the bare-pointer ABI it is
/// `void NAME_prepacked(const float *input, const float *packed, float
/// *output)`.
std::string convPrepackedSource(llvm::StringRef name,
                                const ::tensorop::Conv2DShape &shape,
                                llvm::StringRef sketch = "",
                                const ConvConsumer *consumer = nullptr);

} // namespace mlir::tensorop

#endif // TENSOROP_RUNTIME_CONVMODULE_H

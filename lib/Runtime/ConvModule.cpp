//===- ConvModule.cpp - The MLIR input of one generated convolution -------===//

#include "tensorop/Runtime/ConvModule.h"

#include "llvm/Support/FormatVariadic.h"

using namespace llvm;

namespace {
/// One function computing the convolution: `funcName`, the conv op's
/// extra attributes `convAttrs` (", name = value" each).
std::string convFunction(StringRef funcName, const ::tensorop::Conv2DShape &s,
                         StringRef sketch,
                         const mlir::tensorop::ConvConsumer *consumer,
                         StringRef convAttrs) {
  auto type = [](int64_t a, int64_t b, int64_t c, int64_t d) {
    return formatv("{0}x{1}x{2}x{3}xf32", a, b, c, d).str();
  };
  std::string in = type(s.n, s.h, s.w, s.c), flt = type(s.r, s.s, s.c, s.f),
              out = type(s.n, s.outH(), s.outW(), s.f),
              padded = type(s.n, s.h + s.padTop + s.padBottom,
                            s.w + s.padLeft + s.padRight, s.c);
  std::string attr =
      (sketch.empty() ? "" : (", tensorop.sketch = " + sketch).str()) +
      convAttrs.str();
  std::string text =
      formatv(R"mlir(
func.func @{0}(%in: memref<{1}>, %flt: memref<{2}>{4}, %out: memref<{3}>) {{
  %zero = arith.constant 0.0 : f32
  %i = bufferization.to_tensor %in restrict : memref<{1}> to tensor<{1}>
  %f = bufferization.to_tensor %flt restrict : memref<{2}> to tensor<{2}>
)mlir",
              funcName, in, flt, out, consumer ? consumer->arguments : "")
          .str();
  std::string source = "%i";
  if (s.padded()) {
    text += formatv(R"mlir(  %p = tensor.pad %i low[0, {0}, {1}, 0] high[0, {2}, {3}, 0] {{
  ^bb0(%b0: index, %b1: index, %b2: index, %b3: index):
    tensor.yield %zero : f32
  } : tensor<{4}> to tensor<{5}>
)mlir",
                    s.padTop, s.padLeft, s.padBottom, s.padRight, in, padded)
                .str();
    source = "%p";
  }
  text += formatv(R"mlir(  %e = tensor.empty() : tensor<{0}>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<{0}>) -> tensor<{0}>
  %r = linalg.conv_2d_nhwc_hwcf {{dilations = dense<[{1}, {2}]> : tensor<2xi64>, strides = dense<[{3}, {4}]> : tensor<2xi64>{8}}
         ins({5}, %f : tensor<{6}>, tensor<{7}>) outs(%z : tensor<{0}>) -> tensor<{0}>
{9}  bufferization.materialize_in_destination {10} in restrict writable %out : (tensor<{0}>, memref<{0}>) -> ()
  return
}
)mlir",
                  out, s.dilationH, s.dilationW, s.strideH, s.strideW, source,
                  s.padded() ? padded : in, flt, attr,
                  consumer ? consumer->body : "",
                  consumer ? consumer->result : "%r")
              .str();
  return text;
}
} // namespace

std::string mlir::tensorop::convModuleSource(StringRef name,
                                             const ::tensorop::Conv2DShape &s,
                                             StringRef sketch,
                                             const ConvConsumer *consumer) {
  return convFunction(name, s, sketch, consumer, "");
}

std::string
mlir::tensorop::convPrepackedSource(StringRef name,
                                    const ::tensorop::Conv2DShape &s,
                                    StringRef sketch,
                                    const ConvConsumer *consumer) {
  std::string attr =
      formatv(", tensorop.prepacked_filter = {{pack = \"{0}_pack_filter\", "
              "size = \"{0}_packed_filter_size\"}",
              name)
          .str();
  return convFunction((name + "_prepacked").str(), s, sketch, consumer, attr);
}

//===- ConvShape.h - The geometry of one 2-D convolution --------*- C++ -*-===//
//
// What a `conv2d` request fixes: batch N, input H x W x C (NHWC), F filters
// of R x S x C (HWCF), strides, dilations and zero padding on each side.
// Plain C++ (no LLVM) so the request parser, the Operator, the module
// builder and lib/Verify's fp64 reference all read one struct.
//
//   OH = (H + padTop + padBottom - dilationH*(R-1) - 1) / strideH + 1
//   OW = (W + padLeft + padRight - dilationW*(S-1) - 1) / strideW + 1
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_ADVISOR_CONVSHAPE_H
#define TENSOROP_ADVISOR_CONVSHAPE_H

#include <cstdint>

namespace tensorop {

struct Conv2DShape {
  int64_t n = 0, h = 0, w = 0, c = 0; ///< input N x H x W x C
  int64_t f = 0, r = 0, s = 0;        ///< F filters of R x S x C
  int64_t strideH = 1, strideW = 1;
  int64_t dilationH = 1, dilationW = 1;
  int64_t padTop = 0, padBottom = 0, padLeft = 0, padRight = 0;

  /// The extent of the dilated kernel: the input rows (columns) one output
  /// element reads, padding included.
  int64_t extentH() const { return dilationH * (r - 1) + 1; }
  int64_t extentW() const { return dilationW * (s - 1) + 1; }
  /// Output rows and columns; <= 0 when the kernel does not fit.
  int64_t outH() const {
    int64_t span = h + padTop + padBottom - extentH();
    return span < 0 ? 0 : span / strideH + 1;
  }
  int64_t outW() const {
    int64_t span = w + padLeft + padRight - extentW();
    return span < 0 ? 0 : span / strideW + 1;
  }
  /// Products summed per output element (the K of the error bound).
  int64_t contractionLength() const { return r * s * c; }
  bool padded() const {
    return padTop || padBottom || padLeft || padRight;
  }
  /// Elements of the three operands.
  int64_t inputElements() const { return n * h * w * c; }
  int64_t filterElements() const { return r * s * c * f; }
  int64_t outputElements() const { return n * outH() * outW() * f; }
  /// 2*N*OH*OW*F*R*S*C.
  double flops() const {
    return 2.0 * double(n) * double(outH()) * double(outW()) * double(f) *
           double(r) * double(s) * double(c);
  }
  bool operator==(const Conv2DShape &o) const {
    return n == o.n && h == o.h && w == o.w && c == o.c && f == o.f &&
           r == o.r && s == o.s && strideH == o.strideH &&
           strideW == o.strideW && dilationH == o.dilationH &&
           dilationW == o.dilationW && padTop == o.padTop &&
           padBottom == o.padBottom && padLeft == o.padLeft &&
           padRight == o.padRight;
  }
};

} // namespace tensorop

#endif // TENSOROP_ADVISOR_CONVSHAPE_H

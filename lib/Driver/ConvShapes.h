//===- ConvShapes.h - One convolution's geometry, two structs ---*- C++ -*-===//
//
// The request parser, the Operator and the runtime describe a convolution
// with Conv2DShape (plain C++); the advisor and the passes with ConvProblem.
// The drivers hand one to the other.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_LIB_DRIVER_CONVSHAPES_H
#define TENSOROP_LIB_DRIVER_CONVSHAPES_H

#include "tensorop/Advisor/ConvAdvisor.h"
#include "tensorop/Advisor/ConvShape.h"

namespace tensorop {

inline mlir::tensorop::ConvProblem convProblemOf(const Conv2DShape &s) {
  mlir::tensorop::ConvProblem p;
  p.n = s.n, p.h = s.h, p.w = s.w, p.c = s.c, p.f = s.f, p.r = s.r, p.s = s.s;
  p.strideH = s.strideH, p.strideW = s.strideW;
  p.dilationH = s.dilationH, p.dilationW = s.dilationW;
  p.padTop = s.padTop, p.padBottom = s.padBottom;
  p.padLeft = s.padLeft, p.padRight = s.padRight;
  return p;
}

inline Conv2DShape conv2DShapeOf(const mlir::tensorop::ConvProblem &p) {
  Conv2DShape s;
  s.n = p.n, s.h = p.h, s.w = p.w, s.c = p.c, s.f = p.f, s.r = p.r, s.s = p.s;
  s.strideH = p.strideH, s.strideW = p.strideW;
  s.dilationH = p.dilationH, s.dilationW = p.dilationW;
  s.padTop = p.padTop, s.padBottom = p.padBottom;
  s.padLeft = p.padLeft, s.padRight = p.padRight;
  return s;
}

} // namespace tensorop

#endif // TENSOROP_LIB_DRIVER_CONVSHAPES_H

//===- ConvVerifyTest.cpp - The convolution verifier must reject bad kernels ===//
//
// lib/Verify/CpuConv.cpp decides whether a generated convolution ships, so
// it is tested on kernels whose faults are known: a scalar convolution
// (must pass, also against oneDNN after timing) and variants that skip an
// element, are slightly wrong in one element, read the border instead of the
// zero padding, ignore the dilation, or write before the output (each must
// be rejected, with the reason printed). The fp64 reference itself is
// checked against values worked out by hand.
//
//===----------------------------------------------------------------------===//

#include "tensorop/Verify/CpuConv.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace tensorop;

namespace {
/// The shape every kernel below computes (they take only three pointers).
Conv2DShape shape;

enum class Fault { None, SkipLast, OneWrong, ClampBorder, NoDilation,
                   WriteBefore };
Fault fault = Fault::None;

void scalarConv(const float *in, const float *flt, float *out) {
  const Conv2DShape &s = shape;
  int64_t oh = s.outH(), ow = s.outW();
  int64_t dh = fault == Fault::NoDilation ? 1 : s.dilationH;
  int64_t dw = fault == Fault::NoDilation ? 1 : s.dilationW;
  for (int64_t n = 0; n < s.n; ++n)
    for (int64_t y = 0; y < oh; ++y)
      for (int64_t x = 0; x < ow; ++x)
        for (int64_t f = 0; f < s.f; ++f) {
          float acc = 0;
          for (int64_t r = 0; r < s.r; ++r)
            for (int64_t q = 0; q < s.s; ++q) {
              int64_t iy = y * s.strideH + r * dh - s.padTop;
              int64_t ix = x * s.strideW + q * dw - s.padLeft;
              bool inside = iy >= 0 && iy < s.h && ix >= 0 && ix < s.w;
              if (!inside && fault != Fault::ClampBorder)
                continue;
              iy = iy < 0 ? 0 : iy >= s.h ? s.h - 1 : iy;
              ix = ix < 0 ? 0 : ix >= s.w ? s.w - 1 : ix;
              for (int64_t c = 0; c < s.c; ++c)
                acc += in[((n * s.h + iy) * s.w + ix) * s.c + c] *
                       flt[((r * s.s + q) * s.c + c) * s.f + f];
            }
          out[((n * oh + y) * ow + x) * s.f + f] = acc;
        }
  size_t last = size_t(s.outputElements()) - 1;
  if (fault == Fault::SkipLast)
    out[last] = std::nanf("");
  if (fault == Fault::OneWrong)
    out[last / 2] *= 1.0f + 1e-4f; // 1700 ulp: far over the bound
  if (fault == Fault::WriteBefore)
    out[-1] = 0.0f;
}

int failures = 0;

void expect(bool ok, const char *what) {
  std::printf("%s: %s\n", ok ? "ok" : "FAIL", what);
  failures += !ok;
}

void run(const char *name, Fault f, bool mustPass, bool time = false) {
  fault = f;
  ConvComparison r = compareConvWithOneDNN(scalarConv, shape, 7, time, 5,
                                           0.001, 0);
  std::printf("%s: error '%s' verified %d nans %lld over %lld exact %lld "
              "guards %d timed %d onednn %d onednn-ok %d\n",
              name, r.error.c_str(), int(r.verified()),
              (long long)r.before.nans, (long long)r.before.overBound,
              (long long)r.exactMismatches, int(r.guardsIntact), int(r.timed),
              int(r.haveOneDNN), int(r.onednn.ok()));
  expect(r.verified() == mustPass, name);
}
} // namespace

int main() {
  // The reference against hand-worked values: a 3x3 input 1..9, a 2x2
  // filter [1 2; 3 4], stride 1, padding 1 on top and left only.
  {
    Conv2DShape s;
    s.n = 1, s.h = 3, s.w = 3, s.c = 1, s.f = 1, s.r = 2, s.s = 2;
    s.padTop = 1, s.padLeft = 1;
    float in[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9}, flt[4] = {1, 2, 3, -4};
    ConvReference ref = computeConvReference(in, flt, s);
    // Output 3x3; (0,0) sees only input(0,0) under weight -4; (1,1) sees
    // 1*1 + 2*2 + 4*3 + 5*-4 = -3; (2,2) is 5 + 12 + 24 - 36 = 5.
    expect(ref.ok() && s.outH() == 3 && s.outW() == 3, "reference shape");
    expect(ref.values.value[0] == -4 && ref.values.magnitude[0] == 4,
           "reference (0,0) = -4, magnitude 4");
    expect(ref.values.value[4] == -3 && ref.values.magnitude[4] == 37,
           "reference (1,1) = -3, magnitude 37");
    expect(ref.values.value[8] == 5 && ref.values.magnitude[8] == 77,
           "reference (2,2) = 5, magnitude 77");
    expect(ref.bound.contractionLength == 4, "bound over K = R*S*C = 4");
  }
  // Odd channels, stride 2, dilation 2, uneven padding, N = 2.
  shape = Conv2DShape();
  shape.n = 2, shape.h = 13, shape.w = 11, shape.c = 3, shape.f = 17;
  shape.r = 3, shape.s = 3, shape.strideH = 2, shape.strideW = 1;
  shape.dilationH = 2, shape.dilationW = 2;
  shape.padTop = 1, shape.padBottom = 3, shape.padLeft = 2, shape.padRight = 0;
  run("scalar", Fault::None, true);
  run("scalar-timed", Fault::None, true, /*time=*/true);
  run("skip-last", Fault::SkipLast, false);
  run("one-wrong", Fault::OneWrong, false);
  run("clamp-border", Fault::ClampBorder, false);
  run("no-dilation", Fault::NoDilation, false);
  run("write-before", Fault::WriteBefore, false);
  // The budget is checked before anything is allocated.
  setenv("TENSOROP_MAX_BUFFER_MB", "1", 1);
  Conv2DShape big = shape;
  big.n = 64, big.h = 224, big.w = 224, big.c = 64, big.f = 64;
  ConvComparison r = compareConvWithOneDNN(scalarConv, big, 7, false, 5, 0, 0);
  std::printf("budget: %s\n", r.error.c_str());
  expect(!r.error.empty() && !r.verified(), "over the buffer limit");
  std::printf("%d failure(s)\n", failures);
  return failures ? 1 : 0;
}

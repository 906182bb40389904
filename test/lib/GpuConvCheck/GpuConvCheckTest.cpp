//===- GpuConvCheckTest.cpp - The GPU runner's convolution check, on the host ===//
//
// tensorop-gpu-runner verifies a convolution by downloading the output and
// checking it against Verify/ConvDirect.h's fp64 reference; that half runs
// here without a GPU: the reference agrees with CpuConv.h's independent
// im2col + dgemm reference (and with itself on one or several threads), a
// correct bf16 output passes the K-scaled bound, and outputs with known
// faults (one element off, one skipped, padding ignored, filter read in the
// wrong layout, an integer off by one) are rejected, each with the first
// bad element's coordinates.
//
//===----------------------------------------------------------------------===//

#include "tensorop/Verify/Buffers.h"
#include "tensorop/Verify/ConvDirect.h"
#include "tensorop/Verify/CpuConv.h"

#include <cmath>
#include <cstdio>
#include <vector>

using namespace tensorop;

static int failures = 0;
static void expect(bool ok, const char *what) {
  std::printf("%s: %s\n", ok ? "ok" : "FAIL", what);
  failures += !ok;
}

/// A plain fp32 convolution (NHWC, HWCF, NHWF) with knobs for known faults.
enum class Fault { None, IgnorePadding, FilterFRSC };
static std::vector<float> convolve(const std::vector<float> &x,
                                   const std::vector<float> &w,
                                   const Conv2DShape &s, Fault fault) {
  std::vector<float> y(size_t(s.outputElements()));
  int64_t padT = fault == Fault::IgnorePadding ? 0 : s.padTop;
  int64_t padL = fault == Fault::IgnorePadding ? 0 : s.padLeft;
  for (int64_t n = 0; n < s.n; ++n)
    for (int64_t oy = 0; oy < s.outH(); ++oy)
      for (int64_t ox = 0; ox < s.outW(); ++ox)
        for (int64_t f = 0; f < s.f; ++f) {
          float acc = 0;
          for (int64_t r = 0; r < s.r; ++r)
            for (int64_t q = 0; q < s.s; ++q) {
              int64_t iy = oy * s.strideH + r * s.dilationH - padT;
              int64_t ix = ox * s.strideW + q * s.dilationW - padL;
              if (iy < 0 || iy >= s.h || ix < 0 || ix >= s.w)
                continue;
              for (int64_t c = 0; c < s.c; ++c) {
                size_t wi = fault == Fault::FilterFRSC
                                ? ((f * s.r + r) * s.s + q) * s.c + c
                                : ((r * s.s + q) * s.c + c) * s.f + f;
                acc += x[((n * s.h + iy) * s.w + ix) * s.c + c] * w[wi];
              }
            }
          y[((n * s.outH() + oy) * s.outW() + ox) * s.f + f] = acc;
        }
  return y;
}

static std::vector<float> roundedBf16(std::vector<float> v) {
  for (float &x : v)
    x = bf16ToFloat(floatToBf16(x));
  return v;
}

static void report(const char *name, const ConvOutputCheck &c, bool exact) {
  std::printf("%s: ok %d nans %lld over %lld exact-mismatches %lld", name,
              int(c.ok(exact)), (long long)c.check.nans,
              (long long)c.check.overBound, (long long)c.exactMismatches);
  if (!c.firstFailures.empty()) {
    const ConvFailure &f = c.firstFailures.front();
    std::printf(" first (n=%lld y=%lld x=%lld f=%lld)", (long long)f.n,
                (long long)f.y, (long long)f.x, (long long)f.f);
  }
  std::printf("\n");
}

int main() {
  // Strides 2x1, dilation 1x2, uneven padding, two images, F not a power of 2.
  Conv2DShape s;
  s.n = 2, s.h = 9, s.w = 11, s.c = 16, s.f = 24, s.r = 3, s.s = 5;
  s.strideH = 2, s.strideW = 1, s.dilationH = 1, s.dilationW = 2;
  s.padTop = 1, s.padBottom = 0, s.padLeft = 2, s.padRight = 1;
  std::printf("shape: output %lldx%lld, K = %lld\n", (long long)s.outH(),
              (long long)s.outW(), (long long)s.contractionLength());

  std::vector<float> x(size_t(s.inputElements())), w(size_t(s.filterElements()));
  fillRandom(x.data(), x.size(), 42);
  fillRandom(w.data(), w.size(), 43);
  x = roundedBf16(x);
  w = roundedBf16(w);

  // 1. The direct reference against the im2col + dgemm one, and threads.
  ContractionReference direct = computeConvReferenceDirect(x.data(), w.data(), s, 1);
  ContractionReference threaded = computeConvReferenceDirect(x.data(), w.data(), s, 3);
  ConvReference blas = computeConvReference(x.data(), w.data(), s);
  double worst = 0;
  bool same = direct.size() == threaded.size();
  for (size_t i = 0; i < direct.size(); ++i) {
    double scale = std::max(1.0, blas.values.magnitude[i]);
    worst = std::max(worst, std::fabs(direct.value[i] - blas.values.value[i]) / scale);
    worst = std::max(worst, std::fabs(direct.magnitude[i] - blas.values.magnitude[i]) / scale);
    same = same && direct.value[i] == threaded.value[i] &&
           direct.magnitude[i] == threaded.magnitude[i];
  }
  expect(direct.size() == blas.values.size() && worst < 1e-12,
         "direct reference = im2col + dgemm reference (values and magnitudes)");
  expect(same, "direct reference on 3 threads = on 1 thread");

  // 2. A correct kernel with bf16 output passes MEASURE.md's bound: u of
  // the accumulation type (fp32), u_out of the output (bf16), K = R*S*C.
  const BoundSpec bound{2.0, s.contractionLength(),
                        unitRoundoff(ElementType::F32),
                        unitRoundoff(ElementType::BF16)};
  std::vector<float> good = roundedBf16(convolve(x, w, s, Fault::None));
  auto check = [&](const std::vector<float> &y) {
    return checkConvOutput(y.data(), direct, bound, s, false, ElementType::BF16);
  };
  report("correct", check(good), false);

  // 3. Known faults are rejected.
  std::vector<float> off = good;
  size_t at = ((1 * s.outH() + 2) * s.outW() + 3) * s.f + 5; // n=1 y=2 x=3 f=5
  off[at] = bf16ToFloat(floatToBf16(off[at] * 1.05f + 0.05f));
  report("one-element-off", check(off), false);
  std::vector<float> skipped = good;
  skipped.back() = NAN; // the NaN prefill left in place
  report("last-element-skipped", check(skipped), false);
  report("padding-ignored", check(roundedBf16(convolve(x, w, s, Fault::IgnorePadding))), false);
  report("filter-as-FRSC", check(roundedBf16(convolve(x, w, s, Fault::FilterFRSC))), false);
  // Why the runner's bound takes u of the accumulation: with u of the bf16
  // inputs, 2*K*u = 1.9 here, and the padding fault would pass.
  const BoundSpec inputBound{2.0, s.contractionLength(),
                             unitRoundoff(ElementType::BF16),
                             unitRoundoff(ElementType::BF16)};
  std::vector<float> unpadded = roundedBf16(convolve(x, w, s, Fault::IgnorePadding));
  report("padding-ignored-input-type-bound",
         checkConvOutput(unpadded.data(), direct, inputBound, s, false,
                         ElementType::BF16),
         false);

  // 4. Small integers: exact results, one off by one is caught.
  for (float &v : x)
    v = std::nearbyint(v * 4);
  for (float &v : w)
    v = std::nearbyint(v * 4);
  ContractionReference exactRef = computeConvReferenceDirect(x.data(), w.data(), s, 2);
  std::vector<float> exactOut = roundedBf16(convolve(x, w, s, Fault::None));
  auto exactCheck = [&](const std::vector<float> &y) {
    return checkConvOutput(y.data(), exactRef, bound, s, true, ElementType::BF16);
  };
  report("integers", exactCheck(exactOut), true);
  exactOut[7] += 1;
  report("integers-one-off", exactCheck(exactOut), true);
  std::printf("%d failure(s)\n", failures);
  return failures != 0;
}

//===- ConvDirect.cpp - A convolution's fp64 reference by its definition --===//

#include "tensorop/Verify/ConvDirect.h"

// The shared C definition (tools/tensorop/harness, on this target's
// include path): one output element's exact value and magnitude. Its
// fixed-fp32 checker, conv_check_output, is for the C harnesses; the bound
// here is Check.h's, with the kernel's own types.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include "conv_reference.h"
#pragma GCC diagnostic pop

#include <algorithm>
#include <cmath>
#include <thread>

using namespace tensorop;

static conv_geometry geometryOf(const Conv2DShape &s) {
  conv_geometry g;
  g.n = s.n;
  g.h = s.h;
  g.w = s.w;
  g.c = s.c;
  g.f = s.f;
  g.r = s.r;
  g.s = s.s;
  g.stride_h = s.strideH;
  g.stride_w = s.strideW;
  g.dilation_h = s.dilationH;
  g.dilation_w = s.dilationW;
  g.pad_top = s.padTop;
  g.pad_left = s.padLeft;
  g.oh = s.outH();
  g.ow = s.outW();
  return g;
}

ContractionReference
tensorop::computeConvReferenceDirect(const float *input, const float *filter,
                                     const Conv2DShape &s, unsigned threads) {
  ContractionReference ref;
  size_t count = size_t(s.outputElements());
  if (!ref.value.assignZeros(count) || !ref.magnitude.assignZeros(count))
    return ContractionReference();
  const conv_geometry g = geometryOf(s);
  // Output rows (n, y) are independent: split them over the threads.
  const int64_t rows = s.n * g.oh;
  threads = unsigned(std::max<int64_t>(1, std::min<int64_t>(threads, rows)));
  auto work = [&](int64_t r0, int64_t r1) {
    for (int64_t row = r0; row < r1; ++row) {
      int64_t n = row / g.oh, y = row % g.oh;
      size_t base = size_t(row) * g.ow * g.f;
      for (int64_t x = 0; x < g.ow; ++x)
        for (int64_t f = 0; f < g.f; ++f) {
          size_t i = base + size_t(x) * g.f + f;
          conv_reference(&g, input, filter, n, y, x, f, &ref.value[i],
                         &ref.magnitude[i]);
        }
    }
  };
  std::vector<std::thread> workers;
  for (unsigned t = 1; t < threads; ++t)
    workers.emplace_back(work, rows * t / threads, rows * (t + 1) / threads);
  work(0, rows / threads);
  for (std::thread &w : workers)
    w.join();
  return ref;
}

ConvOutputCheck tensorop::checkConvOutput(const float *out,
                                          const ContractionReference &ref,
                                          const BoundSpec &bound,
                                          const Conv2DShape &s, bool exact,
                                          ElementType output,
                                          size_t keepFailures) {
  ConvOutputCheck result;
  const int64_t oh = s.outH(), ow = s.outW();
  double num = 0, den = 0;
  for (size_t i = 0, e = ref.size(); i < e; ++i) {
    double got = out[i], want = ref.value[i];
    ElementVerdict v = judgeElement(got, want, bound(ref.magnitude[i], want));
    bool bad;
    if (exact) {
      bad = !(got == roundToStorage(output, want));
      result.exactMismatches += bad;
      if (v.nan)
        ++result.check.nans;
    } else {
      result.check.add(v);
      bad = !v.ok();
      if (!v.nan) {
        num += (got - want) * (got - want);
        den += want * want;
      }
    }
    if (bad && result.firstFailures.size() < keepFailures) {
      ConvFailure f;
      f.f = int64_t(i % size_t(s.f));
      size_t pixel = i / size_t(s.f);
      f.x = int64_t(pixel % size_t(ow));
      f.y = int64_t(pixel / size_t(ow) % size_t(oh));
      f.n = int64_t(pixel / size_t(ow) / size_t(oh));
      f.got = got;
      f.want = want;
      result.firstFailures.push_back(f);
    }
  }
  result.relativeFrobenius = den > 0 ? std::sqrt(num / den) : std::sqrt(num);
  return result;
}

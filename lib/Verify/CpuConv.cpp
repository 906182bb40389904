//===- CpuConv.cpp - Verify and time an fp32 convolution on this CPU ------===//

#include "tensorop/Verify/CpuConv.h"

#include "tensorop/Verify/Timing.h"

#include <cblas.h>
#ifdef TENSOROP_HAVE_DNNL
#include <dnnl.h>
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <memory>
#include <vector>

using namespace tensorop;

namespace {
/// Rows of one image's im2col matrix (output pixels) and its columns (the
/// R*S*C taps of one output element, in the filter's HWC order).
struct Im2Col {
  int64_t rows, cols;
  explicit Im2Col(const Conv2DShape &s)
      : rows(s.outH() * s.outW()), cols(s.contractionLength()) {}
};

/// Image `image` of `input` as im2col rows in fp64 (padding reads 0), with
/// |x| instead of x when `magnitude`.
void fillIm2Col(double *out, const float *input, const Conv2DShape &s,
                int64_t image, bool magnitude) {
  const int64_t oh = s.outH(), ow = s.outW();
  const float *in = input + image * s.h * s.w * s.c;
  for (int64_t y = 0; y < oh; ++y)
    for (int64_t x = 0; x < ow; ++x)
      for (int64_t r = 0; r < s.r; ++r) {
        int64_t iy = y * s.strideH + r * s.dilationH - s.padTop;
        for (int64_t q = 0; q < s.s; ++q) {
          int64_t ix = x * s.strideW + q * s.dilationW - s.padLeft;
          bool inside = iy >= 0 && iy < s.h && ix >= 0 && ix < s.w;
          const float *pixel = in + (iy * s.w + ix) * s.c;
          for (int64_t c = 0; c < s.c; ++c) {
            double v = inside ? double(pixel[c]) : 0.0;
            *out++ = magnitude ? std::fabs(v) : v;
          }
        }
      }
}
} // namespace

ConvReference tensorop::computeConvReference(const float *input,
                                             const float *filter,
                                             const Conv2DShape &s) {
  ConvReference ref;
  ref.bound = BoundSpec::forTypes(s.contractionLength(), ElementType::F32,
                                  ElementType::F32);
  Im2Col shape(s);
  const size_t perImage = size_t(shape.rows) * s.f;
  DoubleArray columns, weights, weightMagnitudes;
  if (!columns.assignZeros(size_t(shape.rows) * shape.cols) ||
      !weights.assignZeros(size_t(shape.cols) * s.f) ||
      !weightMagnitudes.assignZeros(size_t(shape.cols) * s.f) ||
      !ref.values.value.assignZeros(perImage * s.n) ||
      !ref.values.magnitude.assignZeros(perImage * s.n)) {
    ref.values = ContractionReference();
    return ref;
  }
  // HWCF is already the (R*S*C) x F matrix the im2col rows multiply.
  for (size_t i = 0; i < weights.size(); ++i) {
    weights[i] = filter[i];
    weightMagnitudes[i] = std::fabs(weights[i]);
  }
  for (int64_t image = 0; image < s.n; ++image)
    for (bool magnitude : {false, true}) {
      fillIm2Col(columns.data(), input, s, image, magnitude);
      double *out = (magnitude ? ref.values.magnitude : ref.values.value)
                        .data() +
                    image * perImage;
      cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, shape.rows, s.f,
                  shape.cols, 1.0, columns.data(), shape.cols,
                  (magnitude ? weightMagnitudes : weights).data(), s.f, 0.0,
                  out, s.f);
    }
  return ref;
}

uint64_t tensorop::convVerificationBytes(const Conv2DShape &s) {
  uint64_t in = saturatingMul(saturatingMul(s.n, s.h), saturatingMul(s.w, s.c));
  uint64_t flt = saturatingMul(saturatingMul(s.r, s.s), saturatingMul(s.c, s.f));
  uint64_t pixels = saturatingMul(s.outH(), s.outW());
  uint64_t out = saturatingMul(saturatingMul(s.n, pixels), s.f);
  uint64_t columns = saturatingMul(pixels, s.contractionLength());
  // fp32 input and filter, oneDNN's reordered filter; fp64 filter values
  // and magnitudes and one image's im2col rows; three fp32 outputs (ours,
  // oneDNN, a second kernel of ours) and the fp64 reference R and M.
  uint64_t inputs = saturatingAdd(saturatingMul(in, 4),
                                  saturatingMul(flt, 4 + 4 + 2 * 8));
  uint64_t work = saturatingMul(columns, 8);
  uint64_t outputs = saturatingMul(out, 3 * 4 + 2 * 8);
  return saturatingAdd(saturatingAdd(inputs, work), outputs);
}

std::string tensorop::checkConvBufferBudget(const Conv2DShape &s) {
  return checkBufferBudget(
      convVerificationBytes(s),
      "verifying an fp32 convolution of a " + std::to_string(s.n) + "x" +
          std::to_string(s.h) + "x" + std::to_string(s.w) + "x" +
          std::to_string(s.c) + " input with " + std::to_string(s.f) + " " +
          std::to_string(s.r) + "x" + std::to_string(s.s) + " filters");
}

bool tensorop::convExactTestApplies(const Conv2DShape &s) {
  // |x*w| <= 16 each: the sum of K of them stays below 2^24 while
  // 16*K < 2^24.
  return s.contractionLength() < (int64_t(1) << 20);
}

std::string tensorop::describeConvBound(const Conv2DShape &s) {
  return BoundSpec::forTypes(s.contractionLength(), ElementType::F32,
                             ElementType::F32)
             .describe() +
         " (K = R*S*C; |A||B| = sum of |input||filter| over the element's "
         "taps)";
}

#ifdef TENSOROP_HAVE_DNNL
namespace {
/// oneDNN's forward convolution for one shape the way a framework runs it:
/// NHWC source and destination, the weights reordered once into the
/// layout the primitive prefers (format_tag::any).
class OneDNNConv {
public:
  ~OneDNNConv() {
    if (conv)
      dnnl_primitive_destroy(conv);
    for (dnnl_memory_t m : {src, wei, dst})
      if (m)
        dnnl_memory_destroy(m);
    if (stream)
      dnnl_stream_destroy(stream);
    if (engine)
      dnnl_engine_destroy(engine);
  }

  /// Sets up the primitive and reorders `filter` (HWCF); "" or why not.
  std::string init(const Conv2DShape &s, const float *filter, float *input,
                   float *output) {
    auto failed = [](const char *what, dnnl_status_t st) {
      return std::string("oneDNN: ") + what + " failed (status " +
             std::to_string(int(st)) + ")";
    };
    dnnl_status_t st;
    if ((st = dnnl_engine_create(&engine, dnnl_cpu, 0)) != dnnl_success)
      return failed("engine", st);
    if ((st = dnnl_stream_create(&stream, engine,
                                 dnnl_stream_default_flags)) != dnnl_success)
      return failed("stream", st);
    dnnl_memory_desc_t srcMd, userWeiMd, anyWeiMd, dstMd;
    dnnl_dims_t srcDims = {s.n, s.c, s.h, s.w},
                weiDims = {s.f, s.c, s.r, s.s},
                dstDims = {s.n, s.f, s.outH(), s.outW()};
    dnnl_memory_desc_init_by_tag(&srcMd, 4, srcDims, dnnl_f32, dnnl_nhwc);
    dnnl_memory_desc_init_by_tag(&dstMd, 4, dstDims, dnnl_f32, dnnl_nhwc);
    // Our HWCF filter is oneDNN's hwio.
    dnnl_memory_desc_init_by_tag(&userWeiMd, 4, weiDims, dnnl_f32, dnnl_hwio);
    dnnl_memory_desc_init_by_tag(&anyWeiMd, 4, weiDims, dnnl_f32,
                                 dnnl_format_tag_any);
    // oneDNN counts dilation from 0 (1 = one gap between taps).
    dnnl_dims_t strides = {s.strideH, s.strideW},
                dilates = {s.dilationH - 1, s.dilationW - 1},
                padL = {s.padTop, s.padLeft}, padR = {s.padBottom, s.padRight};
    dnnl_convolution_desc_t desc;
    if ((st = dnnl_dilated_convolution_forward_desc_init(
             &desc, dnnl_forward_inference, dnnl_convolution_direct, &srcMd,
             &anyWeiMd, nullptr, &dstMd, strides, dilates, padL, padR)) !=
        dnnl_success)
      return failed("convolution descriptor", st);
    dnnl_primitive_desc_t pd;
    if ((st = dnnl_primitive_desc_create(&pd, &desc, nullptr, engine,
                                         nullptr)) != dnnl_success)
      return failed("convolution primitive descriptor", st);
    const char *impl = nullptr;
    dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &impl);
    implementation = impl ? impl : "?";
    const dnnl_memory_desc_t *weiMd =
        dnnl_primitive_desc_query_md(pd, dnnl_query_weights_md, 0);
    st = dnnl_primitive_create(&conv, pd);
    if (st == dnnl_success) {
      weights.reset(new AlignedBuffer(
          (dnnl_memory_desc_get_size(weiMd) + sizeof(float) - 1) /
          sizeof(float)));
      if (!weights->ok())
        st = dnnl_out_of_memory;
    }
    if (st == dnnl_success)
      st = dnnl_memory_create(&wei, weiMd, engine, weights->data);
    if (st == dnnl_success)
      st = dnnl_memory_create(&src, &srcMd, engine, input);
    if (st == dnnl_success)
      st = dnnl_memory_create(&dst, &dstMd, engine, output);
    dnnl_primitive_desc_destroy(pd);
    if (st != dnnl_success)
      return failed("convolution primitive", st);
    // The reorder, once (what a framework does when it loads the model).
    dnnl_memory_t user = nullptr;
    dnnl_primitive_desc_t rpd = nullptr;
    dnnl_primitive_t reorder = nullptr;
    st = dnnl_memory_create(&user, &userWeiMd, engine,
                            const_cast<float *>(filter));
    if (st == dnnl_success)
      st = dnnl_reorder_primitive_desc_create(&rpd, &userWeiMd, engine, weiMd,
                                              engine, nullptr);
    if (st == dnnl_success)
      st = dnnl_primitive_create(&reorder, rpd);
    if (st == dnnl_success) {
      dnnl_exec_arg_t args[] = {{DNNL_ARG_FROM, user}, {DNNL_ARG_TO, wei}};
      st = dnnl_primitive_execute(reorder, stream, 2, args);
    }
    if (st == dnnl_success)
      st = dnnl_stream_wait(stream);
    if (reorder)
      dnnl_primitive_destroy(reorder);
    if (rpd)
      dnnl_primitive_desc_destroy(rpd);
    if (user)
      dnnl_memory_destroy(user);
    return st == dnnl_success ? "" : failed("weight reorder", st);
  }

  void run() {
    dnnl_exec_arg_t args[] = {{DNNL_ARG_SRC, src},
                              {DNNL_ARG_WEIGHTS, wei},
                              {DNNL_ARG_DST, dst}};
    dnnl_primitive_execute(conv, stream, 3, args);
    dnnl_stream_wait(stream);
  }

  std::string implementation;

private:
  dnnl_engine_t engine = nullptr;
  dnnl_stream_t stream = nullptr;
  dnnl_primitive_t conv = nullptr;
  dnnl_memory_t src = nullptr, wei = nullptr, dst = nullptr;
  std::unique_ptr<AlignedBuffer> weights;
};
} // namespace
#endif

ConvComparison tensorop::compareConvWithOneDNN(ConvFn fn, const Conv2DShape &s,
                                               uint64_t seed, bool time,
                                               int rounds, double roundSeconds,
                                               double peak, ConvFn second,
                                               double settleSeconds,
                                               bool withOneDNN,
                                               const ConvPrepackedEntries
                                                   *prepacked) {
  ConvComparison r;
  r.error = checkConvBufferBudget(s);
  if (!r.error.empty())
    return r;
  const size_t outputs = size_t(s.outputElements());
  AlignedBuffer input(s.inputElements()), filter(s.filterElements()),
      secondOut(second ? outputs : 1);
  // Ours writes into a guarded buffer: canaries before it, a PROT_NONE
  // page right after it.
  GuardedBuffer ours(outputs);
  if (!input.ok() || !filter.ok() || !secondOut.ok() || !ours.ok()) {
    r.error = "cannot allocate the buffers to verify the convolution";
    return r;
  }
  auto checkGuards = [&] { r.guardsIntact &= ours.canariesIntact(); };
  // The prepacked entry: a packed filter (its size as the object says) and
  // an output guarded like ours.
  const bool withPrepacked = prepacked && prepacked->complete();
  const size_t packedBytes = withPrepacked ? prepacked->packedSize() : 0;
  AlignedBuffer packed(withPrepacked ? (packedBytes + 3) / 4 : 1);
  GuardedBuffer prepackedOut(withPrepacked ? outputs : 1);
  if (!packed.ok() || !prepackedOut.ok()) {
    r.error = "cannot allocate the prepacked filter and its output";
    return r;
  }
  // Packs the current filter (NaN first: a pack that skips part of its
  // buffer leaves NaN for the kernel to read) and runs NAME_prepacked on a
  // NaN-filled output.
  auto runPrepacked = [&] {
    fillNaN(packed.data, packed.size);
    prepacked->pack(filter.data, packed.data);
    prepackedOut.fillNaN();
    prepacked->run(input.data, packed.data, prepackedOut.data());
    r.prepackedGuardsIntact &= prepackedOut.canariesIntact();
  };
  r.havePrepacked = withPrepacked;
  r.packedBytes = packedBytes;

  if (convExactTestApplies(s)) {
    // Small integers in [-4, 4]: every product and partial sum is exact.
    fillSmallIntegers(input.data, input.size, 7, seed);
    fillSmallIntegers(filter.data, filter.size, 5, seed * 3);
    ConvReference exact = computeConvReference(input.data, filter.data, s);
    if (!exact.ok()) {
      r.error = "cannot allocate the fp64 reference";
      return r;
    }
    ours.fillNaN();
    fn(input.data, filter.data, ours.data());
    checkGuards();
    r.exactMismatches = countExactMismatches(ours.data(), exact.values);
    if (withPrepacked) {
      runPrepacked();
      r.prepackedExactMismatches =
          countExactMismatches(prepackedOut.data(), exact.values);
    }
  }

  fillRandom(input.data, input.size, seed);
  fillRandom(filter.data, filter.size, seed + 1);
  ConvReference ref = computeConvReference(input.data, filter.data, s);
  if (!ref.ok()) {
    r.error = "cannot allocate the fp64 reference";
    return r;
  }
  auto check = [&](const float *out) {
    return checkOutput(out, ref.values, ref.bound);
  };
  ours.fillNaN();
  fn(input.data, filter.data, ours.data());
  checkGuards();
  r.before = check(ours.data());
  if (second) {
    fillNaN(secondOut.data, secondOut.size);
    second(input.data, filter.data, secondOut.data);
    r.haveSecond = true;
    r.second = check(secondOut.data);
  }
  if (withPrepacked) {
    runPrepacked();
    r.prepackedBefore = check(prepackedOut.data());
  }
  if (!time || !r.verified())
    return r;

  std::vector<std::function<void()>> fns = {
      [&] { fn(input.data, filter.data, ours.data()); }};
#ifdef TENSOROP_HAVE_DNNL
  AlignedBuffer dnnlOut(withOneDNN ? outputs : 1);
  OneDNNConv dnnl;
  if (withOneDNN) {
    if (!dnnlOut.ok()) {
      r.error = "cannot allocate oneDNN's output buffer";
      return r;
    }
    std::string why = dnnl.init(s, filter.data, input.data, dnnlOut.data);
    if (!why.empty()) {
      r.error = why;
      return r;
    }
    fillNaN(dnnlOut.data, dnnlOut.size);
    dnnl.run();
    r.haveOneDNN = true;
    r.onednnImplementation = dnnl.implementation;
    r.onednn = check(dnnlOut.data);
    fns.push_back([&] { dnnl.run(); });
  }
#else
  (void)withOneDNN;
#endif
  size_t secondIndex = fns.size();
  if (second)
    fns.push_back([&] { second(input.data, filter.data, secondOut.data); });
  // The filter was packed above, outside the timing (as oneDNN's weights
  // were reordered once).
  size_t prepackedIndex = fns.size();
  if (withPrepacked) {
    prepackedOut.fillNaN();
    fns.push_back(
        [&] { prepacked->run(input.data, packed.data, prepackedOut.data()); });
  }
  ours.fillNaN();
  std::vector<std::vector<double>> t =
      timeRoundRobin(fns, rounds, roundSeconds, settleSeconds);
  checkGuards();
  r.after = check(ours.data());
  const double flops = s.flops();
  r.timed = true;
  r.oursMedian = flops / median(t[0]) / 1e9;
  r.oursBest = flops / minimum(t[0]) / 1e9;
  if (r.haveOneDNN) {
    r.onednn.merge(check(dnnlOut.data)); // its timed runs' output too
    r.onednnMedian = flops / median(t[1]) / 1e9;
    r.onednnBest = flops / minimum(t[1]) / 1e9;
  }
  if (second) {
    r.second = check(secondOut.data);
    r.secondMedian = flops / median(t[secondIndex]) / 1e9;
    r.secondBest = flops / minimum(t[secondIndex]) / 1e9;
  }
  if (withPrepacked) {
    r.prepackedGuardsIntact &= prepackedOut.canariesIntact();
    r.prepackedAfter = check(prepackedOut.data());
    r.prepackedMedian = flops / median(t[prepackedIndex]) / 1e9;
    r.prepackedBest = flops / minimum(t[prepackedIndex]) / 1e9;
    // What the packing costs, once per set of weights: 5 calls, median.
    std::vector<double> packTimes;
    for (int i = 0; i < 5; ++i) {
      auto start = std::chrono::steady_clock::now();
      prepacked->pack(filter.data, packed.data);
      packTimes.push_back(std::chrono::duration<double>(
                              std::chrono::steady_clock::now() - start)
                              .count());
    }
    r.packSeconds = median(packTimes);
  }
  r.fasterThanPeak =
      peak > 0 && std::max(r.oursBest, r.prepackedBest) > 1.02 * peak;
  return r;
}

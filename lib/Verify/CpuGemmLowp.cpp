//===- CpuGemmLowp.cpp - Verify a bf16/f16-input GEMM on this CPU ---------===//

#include "tensorop/Verify/CpuGemmLowp.h"

#include <algorithm>
#include <vector>

using namespace tensorop;

void tensorop::roundTo16BitStorage(ElementType type, float *x,
                                   std::vector<uint16_t> &bits) {
  for (size_t i = 0; i < bits.size(); ++i) {
    bits[i] = type == ElementType::BF16 ? floatToBf16(x[i]) : floatToHalf(x[i]);
    x[i] = type == ElementType::BF16 ? bf16ToFloat(bits[i])
                                     : halfToFloat(bits[i]);
  }
}

GemmComparison tensorop::verifyLowPrecisionGemm(GemmFn16 fn, int64_t m,
                                                int64_t n, int64_t k,
                                                uint64_t seed,
                                                ElementType input,
                                                ElementType output) {
  GemmComparison r;
  r.error = checkGemmBufferBudget(m, n, k);
  if (!r.error.empty())
    return r;
  if (input != ElementType::BF16 && input != ElementType::F16) {
    r.error = std::string("verifyLowPrecisionGemm takes bf16 or f16 inputs, "
                          "not ") +
              elementTypeName(input);
    return r;
  }
  const bool out16 =
      output == ElementType::BF16 || output == ElementType::F16;
  if (!out16 && output != ElementType::F32) {
    r.error = std::string("verifyLowPrecisionGemm writes f32, bf16 or f16, "
                          "not ") +
              elementTypeName(output);
    return r;
  }
  AlignedBuffer a(m * k), b(k * n), c(m * n);
  std::vector<uint16_t> a16, b16, c16(out16 ? m * n : 0);
  if (!a.ok() || !b.ok() || !c.ok()) {
    r.error = "cannot allocate the buffers to verify the GEMM";
    return r;
  }
  a16.resize(a.size);
  b16.resize(b.size);
  auto run = [&](GemmReference &ref) {
    roundTo16BitStorage(input, a.data, a16);
    roundTo16BitStorage(input, b.data, b16);
    ref = computeReference(a.data, b.data, m, n, k);
    if (!ref.ok())
      return false;
    fillNaN(c.data, c.size);
    if (!out16) {
      fn(a16.data(), b16.data(), c.data);
      return true;
    }
    // A 16-bit C: NaN-prefilled too; read back as floats for the checks.
    const uint16_t nanBits = output == ElementType::BF16 ? 0x7fc0 : 0x7e00;
    std::fill(c16.begin(), c16.end(), nanBits);
    reinterpret_cast<void (*)(const uint16_t *, const uint16_t *, uint16_t *)>(
        fn)(a16.data(), b16.data(), c16.data());
    for (size_t i = 0; i < c16.size(); ++i)
      c.data[i] = output == ElementType::BF16 ? bf16ToFloat(c16[i])
                                              : halfToFloat(c16[i]);
    // fp32 accumulation's bound, then one rounding to the output type.
    ref.bound.uOutput = unitRoundoff(output) + 2 * ref.bound.uAccumulate;
    return true;
  };
  GemmReference exact, ref;
  // Small integers in [-4, 4]: exact in bf16 and f16, and every product and
  // partial sum is exact in fp32.
  fillSmallIntegers(a.data, a.size, 7, seed);
  fillSmallIntegers(b.data, b.size, 5, seed * 3);
  if (!run(exact)) {
    r.error = "cannot allocate the fp64 reference";
    return r;
  }
  r.exactMismatches = countExactMismatches(c.data, exact.values, output);
  fillRandom(a.data, a.size, seed);
  fillRandom(b.data, b.size, seed + 1);
  if (!run(ref)) {
    r.error = "cannot allocate the fp64 reference";
    return r;
  }
  r.before = checkResult(c.data, ref);
  return r;
}

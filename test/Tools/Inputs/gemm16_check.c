/* Links a `tensorop gen` bf16 or f16 GEMM object (A and B as uint16_t bits,
 * C fp32) through its header and checks every element against an fp64
 * reference of the same 16-bit inputs, bound 2*K*6e-8*sum|a||b| + 6e-8*|R|
 * (products of two bf16 or f16 values are exact in fp32); C is NaN-filled
 * first, and a canary after C must stay untouched.
 *   clang -DNAME=... -DM=.. -DN=.. -DK=.. -DBF16 (or -DF16) -I DIR this.c NAME.o
 * With -DOUT16 C has the inputs' 16-bit type ("bf16 output": accumulated in
 * fp32, rounded once): the bound adds u16*(|R| + b), u16 = 2^-8 (bf16) or
 * 2^-11 (f16), and most elements must equal R rounded to nearest even
 * (only those whose fp32 sum lands across a rounding tie may differ).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STR2(x) #x
#define STR(x) STR2(x)
#define HEADER(n) STR(n.h)
#include HEADER(NAME)

static uint16_t toBits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
#ifdef BF16
  u += 0x7fff + ((u >> 16) & 1); /* round to nearest even */
  return (uint16_t)(u >> 16);
#else
  /* |f| < 1 and a multiple of 2^-12 here: exact in binary16 (normal or 0) */
  if (f == 0)
    return 0;
  uint32_t sign = (u >> 16) & 0x8000, exp = (u >> 23) & 0xff,
           mant = u & 0x7fffff;
  return (uint16_t)(sign | ((exp - 127 + 15) << 10) | (mant >> 13));
#endif
}
static double fromBits(uint16_t h) {
#ifdef BF16
  uint32_t u = (uint32_t)h << 16;
  float f;
  memcpy(&f, &u, 4);
  return f;
#else
  int e = (h >> 10) & 0x1f, m = h & 0x3ff;
  double v = e ? ldexp(1024 + m, e - 25) : ldexp(m, -24);
  return (h & 0x8000) ? -v : v;
#endif
}

#ifdef OUT16
typedef uint16_t c_t;
#ifdef BF16
static const c_t kNaN = 0x7fc0, kCanary = 0x4640; /* 12288 */
static const double kU16 = 1.0 / 256;
#else
static const c_t kNaN = 0x7e00, kCanary = 0x7204; /* 12320 */
static const double kU16 = 1.0 / 2048;
#endif
static double outValue(c_t c) { return fromBits(c); }
/* R rounded to the 16-bit type, to nearest even (through fp32). */
static double round16(double r) {
  float f = (float)r;
#ifdef BF16
  return fromBits(toBits(f));
#else
  return (double)(_Float16)f;
#endif
}
#else
typedef float c_t;
static const c_t kNaN = NAN, kCanary = 12345.0f;
static const double kU16 = 0;
static double outValue(c_t c) { return c; }
static double round16(double r) { return r; }
#endif

int main(void) {
  static uint16_t A[M * K], B[K * N];
  static c_t C[M * N + 16];
  uint32_t s = 12345;
  for (int i = 0; i < M * K + K * N; ++i) {
    s = s * 1664525u + 1013904223u;
    float v = (float)((int)(s >> 20) - 2048) / 4096.0f; /* [-0.5, 0.5) */
    if (i < M * K)
      A[i] = toBits(v);
    else
      B[i - M * K] = toBits(v);
  }
  for (int i = 0; i < M * N; ++i)
    C[i] = kNaN;
  for (int i = M * N; i < M * N + 16; ++i)
    C[i] = kCanary;
  NAME(A, B, C);
  long failures = 0, inexact = 0;
  double worst = 0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double r = 0, mag = 0;
      for (int k = 0; k < K; ++k) {
        double p = fromBits(A[i * K + k]) * fromBits(B[k * N + j]);
        r += p;
        mag += fabs(p);
      }
      double got = outValue(C[i * N + j]);
      double err = fabs(got - r);
      double bound = 2.0 * K * 6e-8 * mag + 6e-8 * fabs(r);
      bound += kU16 * (fabs(r) + bound);
      if (!(err <= bound))
        ++failures;
      if (got != round16(r))
        ++inexact;
      if (bound > 0 && err / bound > worst)
        worst = err / bound;
    }
  for (int i = M * N; i < M * N + 16; ++i)
    if (C[i] != kCanary)
      ++failures;
#ifdef OUT16
  /* Rounding, not truncation: a truncating store would miss about half. */
  if (inexact > (long)M * N / 16)
    ++failures;
  printf("not equal to R rounded: %ld of %d\n", inexact, M * N);
#endif
  printf("failures: %ld\nmax_error_ratio: %g\n", failures, worst);
  return failures != 0;
}

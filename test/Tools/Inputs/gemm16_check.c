/* Links a `tensorop gen` bf16 or f16 GEMM object (A and B as uint16_t bits,
 * C fp32) through its header and checks every element against an fp64
 * reference of the same 16-bit inputs, bound 2*K*6e-8*sum|a||b| + 6e-8*|R|
 * (products of two bf16 or f16 values are exact in fp32); C is NaN-filled
 * first, and a canary after C must stay untouched.
 *   clang -DNAME=... -DM=.. -DN=.. -DK=.. -DBF16 (or -DF16) -I DIR this.c NAME.o
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

int main(void) {
  static uint16_t A[M * K], B[K * N];
  static float C[M * N + 16];
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
    C[i] = NAN;
  for (int i = M * N; i < M * N + 16; ++i)
    C[i] = 12345.0f;
  NAME(A, B, C);
  long failures = 0;
  double worst = 0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double r = 0, mag = 0;
      for (int k = 0; k < K; ++k) {
        double p = fromBits(A[i * K + k]) * fromBits(B[k * N + j]);
        r += p;
        mag += fabs(p);
      }
      double err = fabs(C[i * N + j] - r);
      double bound = 2.0 * K * 6e-8 * mag + 6e-8 * fabs(r);
      if (!(err <= bound))
        ++failures;
      if (bound > 0 && err / bound > worst)
        worst = err / bound;
    }
  for (int i = M * N; i < M * N + 16; ++i)
    if (C[i] != 12345.0f)
      ++failures;
  printf("failures: %ld\nmax_error_ratio: %g\n", failures, worst);
  return failures != 0;
}

/* The fp64 reference of a 2-D convolution and the MEASURE.md error bound,
 * shared by every C program that checks a generated convolution: gen's
 * harness for cross targets (conv_check.c, run under qemu), the cross lit
 * tests (test/Cross/Inputs/conv_ref_check.c) and the oneDNN benchmark
 * (bench/conv/conv_vs_onednn.c). Input NHWC, filter HWCF, output NHWC.
 * Freestanding C99 (static functions only), so it compiles into static
 * binaries for RISC-V and AArch64 as well. */
#ifndef TENSOROP_HARNESS_CONV_REFERENCE_H
#define TENSOROP_HARNESS_CONV_REFERENCE_H

#include <math.h>

struct conv_geometry {
  long n, h, w, c, f, r, s;
  long stride_h, stride_w, dilation_h, dilation_w, pad_top, pad_left;
  long oh, ow;
};

/* Output element (n, y, x, f): the exact value and the sum of magnitudes of
 * its products (what the error bound scales with). */
static void conv_reference(const struct conv_geometry *g, const float *in,
                           const float *flt, long n, long y, long x, long f,
                           double *value, double *magnitude) {
  double r = 0, m = 0;
  for (long p = 0; p < g->r; ++p) {
    long iy = y * g->stride_h + p * g->dilation_h - g->pad_top;
    if (iy < 0 || iy >= g->h)
      continue;
    for (long q = 0; q < g->s; ++q) {
      long ix = x * g->stride_w + q * g->dilation_w - g->pad_left;
      if (ix < 0 || ix >= g->w)
        continue;
      const float *row = in + ((n * g->h + iy) * g->w + ix) * g->c;
      const float *col = flt + (p * g->s + q) * g->c * g->f + f;
      for (long c = 0; c < g->c; ++c) {
        double t = (double)row[c] * col[c * g->f];
        r += t;
        m += fabs(t);
      }
    }
  }
  *value = r;
  *magnitude = m;
}

/* Checks every element of `out` against the reference with the MEASURE.md
 * bound |out - ref| <= 2*K*u*sum|products| + u*|ref|, K = R*S*C,
 * u = 6e-8 (fp32). Returns the number of elements over the bound (a NaN
 * counts: outputs are NaN-prefilled) and sets *max_ratio to the largest
 * error/bound ratio (infinity for a NaN). */
static long conv_check_output(const struct conv_geometry *g, const float *in,
                              const float *flt, const float *out,
                              double *max_ratio) {
  const double u = 6e-8, k = (double)g->r * g->s * g->c;
  long bad = 0;
  *max_ratio = 0;
  for (long n = 0; n < g->n; ++n)
    for (long y = 0; y < g->oh; ++y)
      for (long x = 0; x < g->ow; ++x)
        for (long f = 0; f < g->f; ++f) {
          double ref, magnitude;
          conv_reference(g, in, flt, n, y, x, f, &ref, &magnitude);
          double got = out[((n * g->oh + y) * g->ow + x) * g->f + f];
          double bound = 2 * k * u * magnitude + u * fabs(ref);
          if (bound < 1e-30)
            bound = 1e-30;
          double err = fabs(got - ref);
          if (!(err <= bound))
            ++bad;
          double ratio = isnan(err) ? INFINITY : err / bound;
          if (ratio > *max_ratio)
            *max_ratio = ratio;
        }
  return bad;
}

#endif /* TENSOROP_HARNESS_CONV_REFERENCE_H */

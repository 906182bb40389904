/* Links a tensorop gen batch of GEMMs with a fused epilogue (bias along N,
 * ReLU, residual) through its header and calls KERNEL_batched on NB slices
 * whose strides leave PAD elements after every matrix (2 * PAD after R's) (a NaN payload there,
 * compared bit for bit after the call), C NaN before; checks every element
 * of every slice against a scalar double loop of what the header states,
 * on small-integer inputs whose products and sums are exact in fp32 (each
 * slice different). KERNEL, M, N, K come from -D; -DTB: B is stored N x K. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
#define NB 3
#define PAD 7

#ifdef TB
#define B_AT(b, k, j) (b)[(j) * K + (k)]
#else
#define B_AT(b, k, j) (b)[(k) * N + (j)]
#endif

static const uint32_t poison_bits = 0x7fc0beef;

static float *poisoned(long n) {
  float *x = malloc(sizeof(float) * n);
  for (long i = 0; i < n; ++i) memcpy(&x[i], &poison_bits, 4);
  return x;
}

/* Elements after each matrix of `stride` that are no longer the poison. */
static long padding_changed(const float *x, long size, long stride) {
  long changed = 0;
  for (long i = 0; i < NB * stride; ++i) {
    uint32_t bits;
    memcpy(&bits, &x[i], 4);
    changed += i % stride >= size && bits != poison_bits;
  }
  return changed;
}

int main(void) {
  const long sa = (long)M * K + PAD, sb = (long)K * N + PAD,
             sc = (long)M * N + PAD, sr = (long)M * N + 2 * PAD;
  float *a = poisoned(NB * sa), *b = poisoned(NB * sb), *c = poisoned(NB * sc),
        *r = poisoned(NB * sr), *bias = malloc(sizeof(float) * N);
  for (long t = 0; t < NB; ++t) {
    for (long i = 0; i < M * K; ++i) a[t * sa + i] = (float)((i * 7 + 3 + t) % 9) - 4;
    for (long i = 0; i < K * N; ++i) b[t * sb + i] = (float)((i * 5 + 1 + 2 * t) % 7) - 3;
    for (long i = 0; i < M * N; ++i) r[t * sr + i] = (float)((i + t) % 13) - 6;
    for (long i = 0; i < M * N; ++i) c[t * sc + i] = NAN;
  }
  for (long j = 0; j < N; ++j) bias[j] = (float)(j % 11) - 5;
  CAT(KERNEL, _batched)(a, b, bias, r, c, NB, sa, sb, sc, sr);
  long wrong = 0, negatives = 0;
  for (long t = 0; t < NB; ++t)
    for (long i = 0; i < M; ++i)
      for (long j = 0; j < N; ++j) {
        double x = 0;
        for (long k = 0; k < K; ++k)
          x += (double)a[t * sa + i * K + k] * B_AT(b + t * sb, k, j);
        x += bias[j];
        negatives += x < 0;
        x = x > 0 ? x : 0;
        x += r[t * sr + i * N + j];
        if (c[t * sc + i * N + j] != x) {
          if (wrong < 5)
            printf("wrong at slice %ld, %ld,%ld: %g, want %g\n", t, i, j,
                   c[t * sc + i * N + j], x);
          ++wrong;
        }
      }
  long changed = padding_changed(a, M * K, sa) + padding_changed(b, K * N, sb) +
                 padding_changed(c, M * N, sc) + padding_changed(r, M * N, sr);
  /* The ReLU must have had something to do. */
  printf("%d slices of %d x %d, %ld wrong, %ld padding changed, %ld clamped "
         "by relu\n", NB, M, N, wrong, changed, negatives);
  return wrong != 0 || changed != 0 || negatives == 0;
}

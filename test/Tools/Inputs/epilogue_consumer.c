/* Links a tensorop gen GEMM with a fused epilogue (bias along N, then
 * ReLU, then a residual; with -DROW_BIAS_RELU6 a bias along M and ReLU6)
 * and checks every element against a scalar double loop of what the header
 * states, on small-integer inputs whose products and sums are exact in
 * fp32. KERNEL and M, N, K come from -D; -DTA / -DTB: A is stored K x M, B
 * N x K (a transposed request). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef TA
#define A_AT(i, k) a[(k) * M + (i)]
#else
#define A_AT(i, k) a[(i) * K + (k)]
#endif
#ifdef TB
#define B_AT(k, j) b[(j) * K + (k)]
#else
#define B_AT(k, j) b[(k) * N + (j)]
#endif

int main(void) {
  float *a = malloc(sizeof(float) * M * K), *b = malloc(sizeof(float) * K * N);
#ifdef ROW_BIAS_RELU6
  const long biasLength = M;
#else
  const long biasLength = N;
#endif
  float *bias = malloc(sizeof(float) * biasLength);
  float *r = malloc(sizeof(float) * M * N);
  float *c = malloc(sizeof(float) * M * N);
  for (long i = 0; i < M * K; ++i) a[i] = (float)((i * 7 + 3) % 9) - 4;
  for (long i = 0; i < K * N; ++i) b[i] = (float)((i * 5 + 1) % 7) - 3;
  for (long j = 0; j < biasLength; ++j) bias[j] = (float)(j % 11) - 5;
  for (long i = 0; i < M * N; ++i) r[i] = (float)(i % 13) - 6;
  for (long i = 0; i < M * N; ++i) c[i] = NAN;
  KERNEL(a, b, bias, r, c);
  long wrong = 0, negatives = 0;
  double sum = 0;
  for (long i = 0; i < M; ++i)
    for (long j = 0; j < N; ++j) {
      double x = 0;
      for (long k = 0; k < K; ++k) x += (double)A_AT(i, k) * B_AT(k, j);
#ifdef ROW_BIAS_RELU6
      x += bias[i];
      negatives += x < 0 || x > 6;
      x = x < 0 ? 0 : x > 6 ? 6 : x;
#else
      x += bias[j];
      negatives += x < 0;
      x = x > 0 ? x : 0;
#endif
      x += r[i * N + j];
      if (c[i * N + j] != x) {
        if (wrong < 5)
          printf("wrong at %ld,%ld: %g, want %g\n", i, j, c[i * N + j], x);
        ++wrong;
      }
      sum += x;
    }
  /* The ReLU must have had something to do. */
  printf("%d x %d output, %ld wrong, %ld clamped by relu, checksum %.1f\n", M,
         N, wrong, negatives, sum);
  return wrong != 0 || negatives == 0;
}

/* Links a tensorop gen object through its header and checks C = A*B against
 * a naive double-precision reference with small-integer inputs (exact). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#define STR2(x) #x
#define STR(x) STR2(x)
#define HEADER(n) STR(n.h)
#include HEADER(NAME)

int main(void) {
  float *a = malloc(sizeof(float) * M * K), *b = malloc(sizeof(float) * K * N);
  float *c = malloc(sizeof(float) * M * N);
  for (int i = 0; i < M * K; ++i) a[i] = (float)((i * 7) % 9 - 4);
  for (int i = 0; i < K * N; ++i) b[i] = (float)((i * 5) % 9 - 4);
  for (int i = 0; i < M * N; ++i) c[i] = NAN;
  NAME(a, b, c);
  long bad = 0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double r = 0;
      for (int k = 0; k < K; ++k) r += (double)a[i * K + k] * b[k * N + j];
      if (!(c[i * N + j] == r)) ++bad;
    }
  printf("mismatches: %ld\n", bad);
  return bad != 0;
}

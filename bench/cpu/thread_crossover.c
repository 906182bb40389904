/* Where a second thread starts to pay: each shape's `tensorop gen` kernel
 * built for 1 thread (NAME_t1) and for 2 (NAME_t2, an OpenMP team), timed
 * alternately round by round in one process, median of ROUNDS rounds.
 * Prints both times and `team cost` = t2 - t1/2: what the team adds to a
 * perfect halving of the work (fork, join, split edges), of the medians and
 * of the fastest rounds. Built and run by
 * bench/cpu/thread-crossover.sh; the shapes come from crossover.inc:
 *   SHAPE(NAME, M, N, K)
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

// Wall time: a team's cost is also the time the caller waits for it.
#define TIMING_CLOCK CLOCK_MONOTONIC
#include "bench_util.h"

#ifndef ROUNDS
#define ROUNDS 15
#endif
#ifndef ROUND_SECONDS
#define ROUND_SECONDS 0.05
#endif

#define SHAPE(NAME, M, N, K)                                                   \
  void NAME##_t1(const float *, const float *, float *);                      \
  void NAME##_t2(const float *, const float *, float *);
#include "crossover.inc"
#undef SHAPE

typedef void (*Fn)(const float *, const float *, float *);
struct Shape {
  const char *name;
  int m, n, k;
  Fn f[2];
};
static const struct Shape shapes[] = {
#define SHAPE(NAME, M, N, K) {#NAME, M, N, K, {NAME##_t1, NAME##_t2}},
#include "crossover.inc"
#undef SHAPE
};

int main(void) {
  printf("| shape MxNxK | flops | 1 thread (us) | 2 threads (us) | 2t/1t time "
         "| team cost t2 - t1/2 (us) | fastest rounds: t1, t2, team cost (us) "
         "|\n| --- | --- | --- | --- | --- | --- | --- |\n");
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s) {
    const struct Shape *p = &shapes[s];
    float *a = malloc(sizeof(float) * p->m * p->k);
    float *b = malloc(sizeof(float) * p->k * p->n);
    float *c = malloc(sizeof(float) * p->m * p->n);
    for (int i = 0; i < p->m * p->k; ++i) a[i] = (float)(i % 7) - 3;
    for (int i = 0; i < p->k * p->n; ++i) b[i] = (float)(i % 5) - 2;
    int reps[2];
    for (int t = 0; t < 2; ++t) {
      p->f[t](a, b, c); /* warm up (and wake the team) */
      double t0 = now();
      int r = 0;
      while (now() - t0 < 0.01) { p->f[t](a, b, c); ++r; }
      reps[t] = (int)(ROUND_SECONDS / ((now() - t0) / r)) + 1;
    }
    double us[2][ROUNDS];
    for (int r = 0; r < ROUNDS; ++r)
      for (int t = 0; t < 2; ++t) {
        double t0 = now();
        for (int i = 0; i < reps[t]; ++i) p->f[t](a, b, c);
        us[t][r] = (now() - t0) / reps[t] * 1e6;
      }
    qsort(us[0], ROUNDS, sizeof(double), cmp_double);
    qsort(us[1], ROUNDS, sizeof(double), cmp_double);
    double t1 = us[0][ROUNDS / 2], t2 = us[1][ROUNDS / 2];
    /* On a loaded machine a team waits for a descheduled thread in most
       rounds: the fastest rounds are the nearest to a quiet one. */
    double f1 = us[0][0], f2 = us[1][0];
    printf("| %dx%dx%d | %.0f | %.2f | %.2f | %.2f | %.2f | %.2f, %.2f, "
           "%.2f |\n",
           p->m, p->n, p->k, 2.0 * p->m * p->n * p->k, t1, t2, t2 / t1,
           t2 - t1 / 2, f1, f2, f2 - f1 / 2);
    free(a), free(b), free(c);
  }
  return 0;
}

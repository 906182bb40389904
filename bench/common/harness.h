// What the CPU benchmarks against oneDNN share, MEASURE.md's protocol. The
// model benchmarks (bench/models: ffn_vs_onednn.c, bottleneck_vs_onednn.c)
// use all of it: every variant's output is NaN-prefilled and verified
// against an fp64 reference before any timing (nothing unverified is
// timed), the variants alternate in rounds (A B C A B C ...), each sample
// repeating one variant for about 20 ms, and each is verified again after
// timing; with OMP_NUM_THREADS > 1 each sample starts after 0.3 s idle.
// The convolution benchmarks (bench/conv) run their own loops and
// take the helpers: CHECK, now, cmpd, randoms. One header, included once
// per benchmark program; its functions are static (inline: a program that
// uses only some of them is not warned about the rest).
#ifndef TENSOROP_BENCH_COMMON_HARNESS_H
#define TENSOROP_BENCH_COMMON_HARNESS_H

#include <dnnl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define CHECK(x)                                                               \
  do {                                                                         \
    dnnl_status_t s_ = (x);                                                    \
    if (s_ != dnnl_success) {                                                  \
      fprintf(stderr, "%s failed: %d\n", #x, (int)s_);                         \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

/* -DTIMING_CLOCK=CLOCK_THREAD_CPUTIME_ID (1 thread only: OMP_NUM_THREADS=1
 * runs oneDNN on the calling thread) counts only the time the thread ran:
 * an A/B on a loaded machine, where wall time counts the other processes'
 * share of the core. Not for published tables: cache and memory contention
 * from the other processes still count. */
#ifndef TIMING_CLOCK
#define TIMING_CLOCK CLOCK_MONOTONIC
#endif

static inline double now(void) {
  struct timespec t;
  clock_gettime(TIMING_CLOCK, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

static inline int cmpd(const void *a, const void *b) {
  double p = *(const double *)a, q = *(const double *)b;
  return p < q ? -1 : p > q;
}

// n uniform values in [-scale, scale) from a 64-bit LCG (reproducible).
static inline float *randoms(long n, uint64_t *state, float scale) {
  float *v = malloc(sizeof(float) * n);
  for (long i = 0; i < n; ++i) {
    *state = *state * 6364136223846793005ull + 1442695040888963407ull;
    v[i] = scale * (float)((*state >> 40) / 8388608.0 - 1.0);
  }
  return v;
}

// Elements of `out` over their bound (NaN counts) and the largest
// error/bound ratio.
static inline long overBound(const float *out, const double *ref,
                             const double *bound, long n, double *maxRatio) {
  long bad = 0;
  *maxRatio = 0;
  for (long i = 0; i < n; ++i) {
    double err = fabs(out[i] - ref[i]);
    double r = isnan(err) ? INFINITY : err / bound[i];
    if (!(err <= bound[i]))
      ++bad;
    if (r > *maxRatio)
      *maxRatio = r;
  }
  return bad;
}

// One way of computing the block: a compiled module's function (`fn`, of
// the benchmark's own type) or, with `fn` NULL, the oneDNN primitives.
struct variant {
  const char *name;
  void (*fn)(void);
  float *out; // ours: where the function writes
  double *times;
  int reps;
  double ratio, ratioAfter;
  void *ws; // a workspace the benchmark passes to `fn` (NULL: none)
};

// What the loop needs from a benchmark.
struct harness {
  long outElems;
  void (*run)(struct variant *);
  float *(*result)(struct variant *); // the output `run` wrote
  void (*poison)(struct variant *);   // NaN into that output
  long (*verify)(const float *out, double *maxRatio); // elements over bound
};

// Verifies every variant, times them in alternating rounds and verifies them
// again; `times` sorted. 0, or 1 after saying on stderr what failed.
static inline int measure(const struct harness *h, struct variant *vs, int nv,
                          int rounds) {
  int failed = 0;
  for (int i = 0; i < nv; ++i) {
    vs[i].out = malloc(sizeof(float) * h->outElems);
    vs[i].times = malloc(sizeof(double) * rounds);
    h->poison(&vs[i]);
    h->run(&vs[i]);
    long bad = h->verify(h->result(&vs[i]), &vs[i].ratio);
    if (bad) {
      fprintf(stderr, "%s: %ld of %ld elements over the bound (max ratio %g)\n",
              vs[i].name, bad, h->outElems, vs[i].ratio);
      failed = 1;
    }
  }
  if (failed)
    return 1; // Nothing unverified is timed.
  // Repetitions per sample: about 20 ms of the variant.
  for (int i = 0; i < nv; ++i) {
    double once = INFINITY; // the fastest of three warm runs
    for (int k = 0; k < 3; ++k) {
      double t0 = now();
      h->run(&vs[i]);
      double t = now() - t0;
      once = t < once ? t : once;
    }
    vs[i].reps = once > 0.02 ? 1 : (int)(0.02 / (once + 1e-9)) + 1;
  }
  // With several threads, each sample starts after 0.3 s idle, as in
  // `tensorop bench`: a runtime's idle workers spin after a parallel region
  // (libomp's KMP_BLOCKTIME is 200 ms, libgomp spins too), and on two cores
  // the spinning workers of the previous variant's OpenMP runtime would
  // take a core from the next variant's team.
  const char *threadsEnv = getenv("OMP_NUM_THREADS");
  int settle = threadsEnv && atoi(threadsEnv) > 1;
  for (int r = 0; r < rounds; ++r)
    for (int i = 0; i < nv; ++i) {
      if (settle) {
        struct timespec idle = {0, 300000000};
        nanosleep(&idle, NULL);
      }
      double s = now();
      for (int k = 0; k < vs[i].reps; ++k)
        h->run(&vs[i]);
      vs[i].times[r] = (now() - s) / vs[i].reps;
    }
  for (int i = 0; i < nv; ++i) {
    h->poison(&vs[i]);
    h->run(&vs[i]);
    if (h->verify(h->result(&vs[i]), &vs[i].ratioAfter)) {
      fprintf(stderr, "%s: wrong after timing\n", vs[i].name);
      return 1;
    }
    qsort(vs[i].times, rounds, sizeof(double), cmpd);
  }
  return 0;
}

// The variants' fields of the JSON line (", \"ours\": {...}, ..."); the last
// variant is oneDNN, the reference of "vs_onednn".
static inline void printVariants(const struct variant *vs, int nv, int rounds,
                                 double flops) {
  double dnnl = vs[nv - 1].times[rounds / 2];
  for (int i = 0; i < nv; ++i) {
    double med = vs[i].times[rounds / 2];
    printf(", \"%s\": {\"median_us\": %.2f, \"min_us\": %.2f, "
           "\"gflops\": %.2f, \"vs_onednn\": %.3f, \"reps\": %d, "
           "\"max_error_ratio\": %.3g}",
           vs[i].name, med * 1e6, vs[i].times[0] * 1e6, flops / med * 1e-9,
           dnnl / med, vs[i].reps,
           vs[i].ratio > vs[i].ratioAfter ? vs[i].ratio : vs[i].ratioAfter);
  }
  printf("}\n");
}

#endif // TENSOROP_BENCH_COMMON_HARNESS_H

/* The start every checker here shares: the object's header (named by
 * -DNAME, found through -I<dir>), the RVV per-VLEN probe, the operand
 * layouts of the GEMM checkers and the seeded input generator. One copy, so
 * the checkers draw the same inputs (their printed figures depend on the
 * sequence). Included as "check_common.h": it is found next to the checker
 * wherever the harness directory is (source tree, build/share, install). */
#ifndef TENSOROP_HARNESS_CHECK_COMMON_H
#define TENSOROP_HARNESS_CHECK_COMMON_H

#include <stdint.h>

#define STR2(x) #x
#define STR(x) STR2(x)
#define HEADER(n) STR(n.h)
#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
#include HEADER(NAME)

#ifdef VLEN_VARIANT
/* An RVV object built per VLEN: the VLEN (128 or 256) of the build its
   entry points call on this machine (printed last, read back by gen). */
int VLEN_VARIANT(void);
#endif

/* GEMM checkers: TA, A stored K x M; TB, B stored N x K (the request's
   transposes). */
#ifndef TA
#define TA 0
#endif
#ifndef TB
#define TB 0
#endif
/* Element (i, k) of A and (k, j) of B in their stored layouts. */
#define A_AT(i, k) (TA ? a[(k) * M + (i)] : a[(i) * K + (k)])
#define B_AT(k, j) (TB ? b[(j) * K + (k)] : b[(k) * N + (j)])

/* xorshift64 from 42: floats in [-1, 1). Inline so a checker that draws no
   random inputs compiles without an unused-function warning; the state has
   a long name because gemm_entries_check.c has a generator of its own. */
static uint64_t next_random_state = 42;
static inline float next_random(void) {
  next_random_state ^= next_random_state << 13;
  next_random_state ^= next_random_state >> 7;
  next_random_state ^= next_random_state << 17;
  return (float)((next_random_state >> 40) * (1.0 / (1ull << 24)) * 2.0 - 1.0);
}

#endif

/* Links a tensorop gen object and calls every entry of its header the way a
 * BLAS user would: NAME and NAME_ws, NAME_ex with padded leading dimensions (the padding holds
 * a NaN pattern that must survive bit for bit), alpha/beta including beta = 0
 * over a NaN C and alpha = 0 over NaN A and B, NAME_ex_ws with an unaligned
 * workspace and guard bytes, two threads calling at once, and (with
 * -DBATCHED) NAME_batched(_ws) with padded batch strides and batch = 0 and
 * NAME_batched_ex(_ws) with padded leading dimensions and strides, and
 * NAME_pack_b into an unaligned buffer with NaN guards (B poisoned after
 * packing) followed by NAME_prepacked(_ws).
 * Build: cc -DNAME=<name> -DM=.. -DN=.. -DK=.. [-DTA=1] [-DTB=1] [-DBATCHED]
 * [-DBF16 | -DF16] -I<dir> -pthread gemm_entries_check.c <name>.o -lm. Used
 * by tensorop gen for cross targets (under qemu, next to gemm_check.c) and
 * by the tests. With -DBF16 (-DF16) A and B are bf16 (IEEE binary16) bits
 * in uint16_t, C fp32: the inputs are rounded to the type and the reference
 * reads the rounded values (the bound stays fp32 accumulation's); their
 * padding holds the 16-bit NaN 0x7fad; f16 objects have no prepacked entries.
 * Prints counts that must all be 0; exits 0 only then. */
#include "check_common.h"

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PLAIN_WS CAT(NAME, _ws)
#define EX CAT(NAME, _ex)
#define EX_WS CAT(NAME, _ex_ws)
#define WS_SIZE CAT(NAME, _workspace_size)
#define BATCHED_FN CAT(NAME, _batched)
#define BATCHED_WS CAT(NAME, _batched_ws)
#define BATCHED_EX CAT(NAME, _batched_ex)
#define BATCHED_EX_WS CAT(NAME, _batched_ex_ws)
#define PACKED_B_SIZE CAT(NAME, _packed_b_size)
#define PACK_B CAT(NAME, _pack_b)
#define PREPACKED CAT(NAME, _prepacked)
#define PREPACKED_WS CAT(NAME, _prepacked_ws)

#define A_ROWS (TA ? K : M)
#define A_COLS (TA ? M : K)
#define B_ROWS (TB ? N : K)
#define B_COLS (TB ? K : N)

static const uint32_t kPoison = 0x7fc0deadu;
static long failures, paddingChanged, threadFailures;

/* A's and B's element type (in_t), its poison and NaN, and conversions. */
#if defined(BF16) || defined(F16)
typedef uint16_t in_t;
static in_t toIn(float f) { /* round to nearest even; NaN stays NaN */
#ifdef BF16
  if (f != f)
    return 0x7fc0;
  uint32_t u;
  memcpy(&u, &f, 4);
  u += 0x7fff + ((u >> 16) & 1);
  return (in_t)(u >> 16);
#else
  if (f != f)
    return 0x7e00;
  _Float16 h = (_Float16)f;
  in_t bits;
  memcpy(&bits, &h, 2);
  return bits;
#endif
}
static double fromIn(in_t h) {
#ifdef BF16
  uint32_t u = (uint32_t)h << 16;
  float f;
  memcpy(&f, &u, 4);
  return f;
#else
  _Float16 x;
  memcpy(&x, &h, 2);
  return (double)x;
#endif
}
/* The padding's 16-bit NaN, compared bit for bit. */
static in_t poisonIn(void) { return 0x7fad; }
static int isPoisonIn(in_t x) { return x == 0x7fad; }
#else
typedef float in_t;
static in_t toIn(float f) { return f; }
static double fromIn(in_t x) { return x; }
#endif

static float poison(void) {
  float f;
  memcpy(&f, &kPoison, 4);
  return f;
}
static int isPoison(float f) {
  uint32_t b;
  memcpy(&b, &f, 4);
  return b == kPoison;
}
#if !defined(BF16) && !defined(F16)
static in_t poisonIn(void) { return poison(); }
static int isPoisonIn(in_t x) { return isPoison(x); }
#endif
static uint64_t state = 12345;
static float rnd(void) {
  state = state * 6364136223846793005ull + 1442695040888963407ull;
  return (float)((state >> 40) % 2001) / 1000.0f - 1.0f;
}

/* rows x cols logical, ld per row; padding poisoned; values random or NaN. */
static float *matrix(long rows, long cols, long ld, int nan) {
  float *x = malloc(sizeof(float) * rows * ld);
  for (long i = 0; i < rows * ld; ++i)
    x[i] = poison();
  for (long i = 0; i < rows; ++i)
    for (long j = 0; j < cols; ++j)
      x[i * ld + j] = nan ? NAN : rnd();
  return x;
}
/* The same for A or B (in_t elements, rounded to the type). */
static in_t *inMatrix(long rows, long cols, long ld, int nan) {
  in_t *x = malloc(sizeof(in_t) * rows * ld);
  for (long i = 0; i < rows * ld; ++i)
    x[i] = poisonIn();
  for (long i = 0; i < rows; ++i)
    for (long j = 0; j < cols; ++j)
      x[i * ld + j] = toIn(nan ? NAN : rnd());
  return x;
}
static void countPadding(const float *x, long rows, long cols, long ld) {
  for (long i = 0; i < rows; ++i)
    for (long j = cols; j < ld; ++j)
      paddingChanged += !isPoison(x[i * ld + j]);
}
static void countPaddingIn(const in_t *x, long rows, long cols, long ld) {
  for (long i = 0; i < rows; ++i)
    for (long j = cols; j < ld; ++j)
      paddingChanged += !isPoisonIn(x[i * ld + j]);
}
static double elemA(const in_t *a, long lda, long i, long p) {
  return fromIn(TA ? a[p * lda + i] : a[i * lda + p]);
}
static double elemB(const in_t *b, long ldb, long p, long j) {
  return fromIn(TB ? b[j * ldb + p] : b[p * ldb + j]);
}
/* Checks C against alpha*op(A)*op(B) + beta*C0; returns failing elements. */
static long check(const in_t *a, long lda, const in_t *b, long ldb,
                  const float *c0, const float *c, long ldc, float alpha,
                  float beta) {
  long bad = 0;
  for (long i = 0; i < M; ++i)
    for (long j = 0; j < N; ++j) {
      double s = 0, mag = 0;
      if (alpha != 0)
        for (long p = 0; p < K; ++p) {
          double x = elemA(a, lda, i, p) * elemB(b, ldb, p, j);
          s += x;
          mag += fabs(x);
        }
      double ref = alpha * s, bound = fabs(alpha) * mag;
      if (beta != 0) {
        ref += beta * (double)c0[i * ldc + j];
        bound += fabs(beta * (double)c0[i * ldc + j]);
      }
      bound = 2.0 * K * 6e-8 * bound + 6e-8 * fabs(ref);
      double got = c[i * ldc + j];
      if (!(fabs(got - ref) <= bound))
        ++bad;
    }
  return bad;
}

/* A workspace of WS_SIZE() bytes at an address = 4 mod 64, guard bytes
 * after it (guardedWorkspace); guardsChanged counts the changed ones and
 * frees it. */
static unsigned char *guardedWorkspace(void) {
  size_t bytes = WS_SIZE();
  unsigned char *buffer = malloc(bytes + 4 + 256);
  memset(buffer, 0xab, bytes + 4 + 256);
  return buffer + 4;
}
static long guardsChanged(unsigned char *workspace) {
  size_t bytes = WS_SIZE();
  long changed = 0;
  for (size_t i = bytes; i < bytes + 256; ++i)
    changed += workspace[i] != 0xab;
  free(workspace - 4);
  return changed;
}

static void exCase(int ws, float alpha, float beta, long pad) {
  long lda = A_COLS + pad, ldb = B_COLS + pad, ldc = N + pad;
  in_t *a = inMatrix(A_ROWS, A_COLS, lda, alpha == 0);
  in_t *b = inMatrix(B_ROWS, B_COLS, ldb, alpha == 0);
  float *c = matrix(M, N, ldc, beta == 0);
  float *c0 = malloc(sizeof(float) * M * ldc);
  memcpy(c0, c, sizeof(float) * M * ldc);
  if (ws) {
    unsigned char *workspace = guardedWorkspace();
    EX_WS(a, lda, b, ldb, c, ldc, alpha, beta, workspace);
    paddingChanged += guardsChanged(workspace);
  } else {
    EX(a, lda, b, ldb, c, ldc, alpha, beta);
  }
  long bad = check(a, lda, b, ldb, c0, c, ldc, alpha, beta);
  if (bad)
    printf("NAME_ex%s alpha=%g beta=%g pad=%ld: %ld wrong\n", ws ? "_ws" : "",
           alpha, beta, pad, bad);
  failures += bad;
  countPaddingIn(a, A_ROWS, A_COLS, lda);
  countPaddingIn(b, B_ROWS, B_COLS, ldb);
  countPadding(c, M, N, ldc);
  free(a), free(b), free(c), free(c0);
}

/* Two threads at once, each with its own C (and workspace), many calls. */
struct Job {
  const in_t *a, *b;
  float *c;
  int ws;
};
static void *worker(void *p) {
  struct Job *job = p;
  void *buffer = job->ws ? malloc(WS_SIZE()) : NULL;
  for (int i = 0; i < 20; ++i) {
    for (long e = 0; e < M * N; ++e)
      job->c[e] = NAN;
    if (job->ws)
      EX_WS(job->a, A_COLS, job->b, B_COLS, job->c, N, 1.5f, 0.0f, buffer);
    else
      EX(job->a, A_COLS, job->b, B_COLS, job->c, N, 1.5f, 0.0f);
  }
  free(buffer);
  return NULL;
}
static void threadsCase(void) {
  in_t *a = inMatrix(A_ROWS, A_COLS, A_COLS, 0);
  in_t *b = inMatrix(B_ROWS, B_COLS, B_COLS, 0);
  struct Job jobs[2];
  pthread_t threads[2];
  for (int t = 0; t < 2; ++t) {
    jobs[t] = (struct Job){a, b, malloc(sizeof(float) * M * N), t};
    pthread_create(&threads[t], NULL, worker, &jobs[t]);
  }
  for (int t = 0; t < 2; ++t) {
    pthread_join(threads[t], NULL);
    threadFailures +=
        check(a, A_COLS, b, B_COLS, jobs[t].c, jobs[t].c, N, 1.5f, 0.0f);
    free(jobs[t].c);
  }
  free(a), free(b);
}

#ifdef BATCHED
static void batchedCase(int ws, long batch, long pad) {
  long sa = A_ROWS * A_COLS + pad, sb = B_ROWS * B_COLS + pad, sc = M * N + pad;
  long n = batch ? batch : 1;
  in_t *a = malloc(sizeof(in_t) * n * sa), *b = malloc(sizeof(in_t) * n * sb);
  float *c = malloc(sizeof(float) * n * sc);
  for (long i = 0; i < n * sa; ++i)
    a[i] = (i % sa) < A_ROWS * A_COLS ? toIn(rnd()) : poisonIn();
  for (long i = 0; i < n * sb; ++i)
    b[i] = (i % sb) < B_ROWS * B_COLS ? toIn(rnd()) : poisonIn();
  for (long i = 0; i < n * sc; ++i)
    c[i] = (i % sc) < M * N ? NAN : poison();
  void *buffer = ws ? malloc(WS_SIZE()) : NULL;
  if (ws)
    BATCHED_WS(a, b, c, batch, sa, sb, sc, buffer);
  else
    BATCHED_FN(a, b, c, batch, sa, sb, sc);
  free(buffer);
  for (long i = 0; i < batch; ++i) {
    long bad = check(a + i * sa, A_COLS, b + i * sb, B_COLS, c + i * sc,
                     c + i * sc, N, 1, 0);
    if (bad)
      printf("NAME_batched%s batch %ld of %ld: %ld wrong\n", ws ? "_ws" : "",
             i, batch, bad);
    failures += bad;
  }
  for (long i = 0; i < n * sc; ++i)
    if ((i % sc) >= M * N || batch == 0)
      paddingChanged += batch == 0 ? !isnan(c[i]) : !isPoison(c[i]);
  free(a), free(b), free(c);
}

/* NAME_batched_ex(_ws): strided matrices, pad elements between them. */
static void batchedExCase(int ws, long batch, float alpha, float beta,
                          long pad) {
  long lda = A_COLS + pad, ldb = B_COLS + pad, ldc = N + pad;
  long sa = A_ROWS * lda + pad, sb = B_ROWS * ldb + pad, sc = M * ldc + pad;
  in_t *a = malloc(sizeof(in_t) * batch * sa);
  in_t *b = malloc(sizeof(in_t) * batch * sb);
  float *c = malloc(sizeof(float) * batch * sc);
  float *c0 = malloc(sizeof(float) * batch * sc);
  for (long i = 0; i < batch * sa; ++i)
    a[i] = (i % sa) < A_ROWS * lda && (i % sa) % lda < A_COLS ? toIn(rnd())
                                                              : poisonIn();
  for (long i = 0; i < batch * sb; ++i)
    b[i] = (i % sb) < B_ROWS * ldb && (i % sb) % ldb < B_COLS ? toIn(rnd())
                                                              : poisonIn();
  for (long i = 0; i < batch * sc; ++i)
    c[i] = (i % sc) < M * ldc && (i % sc) % ldc < N ? (beta == 0 ? NAN : rnd())
                                                    : poison();
  memcpy(c0, c, sizeof(float) * batch * sc);
  void *buffer = ws ? malloc(WS_SIZE()) : NULL;
  if (ws)
    BATCHED_EX_WS(a, lda, sa, b, ldb, sb, c, ldc, sc, batch, alpha, beta,
                  buffer);
  else
    BATCHED_EX(a, lda, sa, b, ldb, sb, c, ldc, sc, batch, alpha, beta);
  free(buffer);
  for (long i = 0; i < batch; ++i) {
    long bad = check(a + i * sa, lda, b + i * sb, ldb, c0 + i * sc,
                     c + i * sc, ldc, alpha, beta);
    if (bad)
      printf("NAME_batched_ex%s batch %ld of %ld: %ld wrong\n",
             ws ? "_ws" : "", i, batch, bad);
    failures += bad;
  }
  for (long i = 0; i < batch * sc; ++i)
    if (!((i % sc) < M * ldc && (i % sc) % ldc < N))
      paddingChanged += !isPoison(c[i]);
  free(a), free(b), free(c), free(c0);
}
#endif

/* NAME itself, contiguous in the request's layout. */
static void plainCase(void) {
  in_t *a = inMatrix(A_ROWS, A_COLS, A_COLS, 0);
  in_t *b = inMatrix(B_ROWS, B_COLS, B_COLS, 0);
  float *c = matrix(M, N, N, 1);
  NAME(a, b, c);
  long bad = check(a, A_COLS, b, B_COLS, c, c, N, 1, 0);
  if (bad)
    printf("NAME: %ld wrong\n", bad);
  failures += bad;
  /* NAME_ws: an unaligned workspace with guard bytes after it. */
  unsigned char *workspace = guardedWorkspace();
  for (long i = 0; i < M * N; ++i)
    c[i] = NAN;
  PLAIN_WS(a, b, c, workspace);
  paddingChanged += guardsChanged(workspace);
  bad = check(a, A_COLS, b, B_COLS, c, c, N, 1, 0);
  if (bad)
    printf("NAME_ws: %ld wrong\n", bad);
  failures += bad;
  free(a), free(b), free(c);
}

/* NAME_pack_b once, B poisoned, NAME_prepacked and NAME_prepacked_ws
 * (fp32 and bf16 objects: f16 ones have no prepacked entries). The packed
 * buffer starts 4 bytes past an allocation's start, guards after it. */
#ifndef F16
static void prepackedCase(void) {
  in_t *a = inMatrix(A_ROWS, A_COLS, A_COLS, 0);
  in_t *b = inMatrix(B_ROWS, B_COLS, B_COLS, 0);
  float *c = matrix(M, N, N, 1);
  in_t *bCopy = malloc(sizeof(in_t) * B_ROWS * B_COLS);
  memcpy(bCopy, b, sizeof(in_t) * B_ROWS * B_COLS);
  size_t words = (PACKED_B_SIZE() + 3) / 4;
  float *packed = malloc(sizeof(float) * (words + 1 + 64));
  for (size_t i = 0; i < words + 1 + 64; ++i)
    packed[i] = poison();
  PACK_B(bCopy, (in_t *)(packed + 1));
  for (long i = 0; i < B_ROWS * B_COLS; ++i)
    bCopy[i] = toIn(NAN);
  paddingChanged += !isPoison(packed[0]);
  for (size_t i = words + 1; i < words + 1 + 64; ++i)
    paddingChanged += !isPoison(packed[i]);
  PREPACKED(a, (const in_t *)(packed + 1), c);
  long bad = check(a, A_COLS, b, B_COLS, c, c, N, 1, 0);
  if (bad)
    printf("NAME_prepacked: %ld wrong\n", bad);
  failures += bad;
  unsigned char *workspace = guardedWorkspace();
  for (long i = 0; i < M * N; ++i)
    c[i] = NAN;
  PREPACKED_WS(a, (const in_t *)(packed + 1), c, workspace);
  paddingChanged += guardsChanged(workspace);
  bad = check(a, A_COLS, b, B_COLS, c, c, N, 1, 0);
  if (bad)
    printf("NAME_prepacked_ws: %ld wrong\n", bad);
  failures += bad;
  free(packed), free(bCopy);
  free(a), free(b), free(c);
}
#endif

int main(void) {
  plainCase();
#ifndef F16
  prepackedCase();
#endif
  exCase(0, 1, 0, 3);
  exCase(0, 1, 1, 5);
  exCase(0, -1.5f, 0.5f, 1);
  exCase(0, 2, 0, 16);
  exCase(0, 0, 2, 2);
  exCase(0, 0, 0, 2);
  exCase(1, 0.75f, -1, 7);
  exCase(1, 1, 0, 0);
  exCase(0, 1, 0, 0);
  threadsCase();
#ifdef BATCHED
  batchedCase(0, 4, 5);
  batchedCase(1, 3, 0);
  batchedCase(0, 0, 1);
  batchedExCase(0, 3, -1.5f, 0.5f, 3);
  batchedExCase(1, 2, 2, 0, 1);
#endif
  printf("failures: %ld\npadding_changed: %ld\nthread_failures: %ld\n",
         failures, paddingChanged, threadFailures);
#ifdef VLEN_VARIANT
  printf("vlen_variant: %d\n", VLEN_VARIANT());
#endif
  return failures || paddingChanged || threadFailures;
}

/* Guard pages for the microkernel harnesses (ukernel_harness.c,
 * kdot_harness.c, bpanel_harness.c): buffers that end at a PROT_NONE page,
 * so a kernel reading or writing one element past its operand faults, and
 * the fault handler that says which case did it. POSIX C, built for the
 * host and, through cross_common.py, for RISC-V and AArch64 under qemu. */
#ifndef TENSOROP_TEST_PYTHON_EMITTERS_GUARD_PAGES_H
#define TENSOROP_TEST_PYTHON_EMITTERS_GUARD_PAGES_H

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

/* A buffer of `bytes` bytes at `ptr` whose end is a page boundary followed
 * by a PROT_NONE page; `map` and `map_len` are the whole mapping. */
typedef struct {
  char *map;
  size_t map_len;
  char *ptr;
} guarded_t;

static void guarded_alloc(guarded_t *g, size_t bytes) {
  static long page_size;
  if (!page_size)
    page_size = sysconf(_SC_PAGESIZE);
  size_t pages = (bytes + page_size - 1) / page_size;
  g->map_len = (pages + 2) * page_size;
  g->map = mmap(NULL, g->map_len, PROT_READ | PROT_WRITE,
                MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (g->map == MAP_FAILED) {
    perror("mmap");
    exit(2);
  }
  char *end = g->map + (pages + 1) * page_size;
  if (mprotect(end, page_size, PROT_NONE) != 0) {
    perror("mprotect");
    exit(2);
  }
  g->ptr = end - bytes;
}

static void guarded_free(guarded_t *g) { munmap(g->map, g->map_len); }

/* The case being run, for the fault report (the harness writes it). */
static char current_case[256];

/* Prints "FAULT (signal N) in case CASE" on stdout and exits with 3 (only
 * async-signal-safe calls after the format). */
static void on_fault(int sig) {
  char buf[400];
  int n = snprintf(buf, sizeof buf, "FAULT (signal %d) in case %s\n", sig,
                   current_case);
  if (write(1, buf, n) < 0) {
  }
  _exit(3);
}

/* A guard-page hit (SIGSEGV, SIGBUS) reports the case instead of dying. */
static void catch_faults(void) {
  signal(SIGSEGV, on_fault);
  signal(SIGBUS, on_fault);
}

#endif /* TENSOROP_TEST_PYTHON_EMITTERS_GUARD_PAGES_H */

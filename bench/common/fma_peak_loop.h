// The register-only FMA loop whose speed is a core's fp32 peak, shared by
// test/python_emitters/ukernel_harness.c (its `peak` mode, behind
// python_emitters/bench_ukernel.py --peak-only) and
// bench/cpu/gemm_vs_libraries.c (a peak timed in every round next to the
// libraries): 12 independent accumulators (enough for 2 FMA pipes of
// latency 4 to 6), 24 FMAs an iteration, on zmm registers (AVX-512F: call
// it only where the CPU has it) or ymm ones. x86-64 only.
#ifndef TENSOROP_BENCH_COMMON_FMA_PEAK_LOOP_H
#define TENSOROP_BENCH_COMMON_FMA_PEAK_LOOP_H

#if defined(__x86_64__)
#define TENSOROP_FMA12(R)                                                     \
  "vfmadd231ps %%" R "14, %%" R "15, %%" R "0\n vfmadd231ps %%" R "14, %%" R \
  "15, %%" R "1\n vfmadd231ps %%" R "14, %%" R "15, %%" R "2\n"                \
  "vfmadd231ps %%" R "14, %%" R "15, %%" R "3\n vfmadd231ps %%" R "14, %%" R  \
  "15, %%" R "4\n vfmadd231ps %%" R "14, %%" R "15, %%" R "5\n"                \
  "vfmadd231ps %%" R "14, %%" R "15, %%" R "6\n vfmadd231ps %%" R "14, %%" R  \
  "15, %%" R "7\n vfmadd231ps %%" R "14, %%" R "15, %%" R "8\n"                \
  "vfmadd231ps %%" R "14, %%" R "15, %%" R "9\n vfmadd231ps %%" R "14, %%" R  \
  "15, %%" R "10\n vfmadd231ps %%" R "14, %%" R "15, %%" R "11\n"
#define TENSOROP_FMA12_CLOBBERS                                               \
  "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8",     \
      "xmm9", "xmm10", "xmm11", "xmm14", "xmm15"

/// fp32 flops of one iteration of fma_peak_loop.
static inline double fma_peak_flops_per_iteration(int zmm) {
  return 24.0 * (zmm ? 32 : 16);
}

/// Runs `iterations` iterations of 24 FMAs on zmm (nonzero `zmm`) or ymm
/// registers.
static inline void fma_peak_loop(long iterations, int zmm) {
  if (zmm)
    __asm__ volatile("mov %0, %%rcx\n1:\n" TENSOROP_FMA12("zmm")
                     TENSOROP_FMA12("zmm") " dec %%rcx\n jnz 1b\n vzeroupper\n"
                     ::"r"(iterations) : "rcx", "cc", TENSOROP_FMA12_CLOBBERS);
  else
    __asm__ volatile("mov %0, %%rcx\n1:\n" TENSOROP_FMA12("ymm")
                     TENSOROP_FMA12("ymm") " dec %%rcx\n jnz 1b\n vzeroupper\n"
                     ::"r"(iterations) : "rcx", "cc", TENSOROP_FMA12_CLOBBERS);
}
#undef TENSOROP_FMA12
#undef TENSOROP_FMA12_CLOBBERS
#endif // __x86_64__

#endif // TENSOROP_BENCH_COMMON_FMA_PEAK_LOOP_H

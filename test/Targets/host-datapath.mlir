// target=host applies a sketch with the same machine's hints it was planned
// with: the CPU's datapath width (cpus.znver4.fma.datapath_bits = 256 in
// hints/x86-avx512.json) reaches tensorop-apply-sketch, whose N tail then
// computes a last vector of at most 8 columns as ymm ("_ly"). A Zen 5 host
// (512) and a named target (the file's 512) keep full-width tails.
// REQUIRES: host-avx512
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/fake_sysfs.py %t/zen4 0:1:Data:32K:8:64:0 2:2:Unified:1024K:8:64:0 3:3:Unified:32768K:16:64:0-1
// RUN: %python %S/Inputs/fake_sysfs.py %t/zen5 0:1:Data:48K:12:64:0 2:2:Unified:1024K:16:64:0 3:3:Unified:32768K:16:64:0-1
// DEFINE: %{zen4} = env TENSOROP_HOST_SYSFS=%t/zen4 TENSOROP_HOST_CPU=znver4
// DEFINE: %{zen5} = env TENSOROP_HOST_SYSFS=%t/zen5 TENSOROP_HOST_CPU=znver5

// 100 = 64 + 36: a 5x48 tail whose third vector holds 4 columns.
// RUN: %gen_matmul 100 100 100 | %{zen4} tensorop-opt --tensorop-annotate-sketch="target=host" --tensorop-apply-sketch="target=host" | FileCheck %s --check-prefix=ZEN4
// ZEN4: tensorop.ukernel "x86_avx512_f32_5x48_u4_explicit_ldb400_lda400_ly"
// RUN: %gen_matmul 100 100 100 | %{zen5} tensorop-opt --tensorop-annotate-sketch="target=host" --tensorop-apply-sketch="target=host" | FileCheck %s --check-prefix=WIDE
// Planned for host, applied without saying so: the file's hints.
// RUN: %gen_matmul 100 100 100 | %{zen4} tensorop-opt --tensorop-annotate-sketch="target=host" --tensorop-apply-sketch | FileCheck %s --check-prefix=WIDE
// RUN: %gen_matmul 100 100 100 | %{zen4} tensorop-opt --tensorop-annotate-sketch="target=x86-avx512" --tensorop-apply-sketch="target=x86-avx512" | FileCheck %s --check-prefix=WIDE
// WIDE: tensorop.ukernel "x86_avx512_f32_5x48_u4_explicit_ldb400_lda400"
// WIDE-NOT: _ly"

// The whole pipeline passes its target on (a Zen 4 host: the ymm tail's
// FMAs are in the lowered module's inline asm).
// RUN: %gen_matmul 100 100 100 | %{zen4} tensorop-opt --tensorop-pipeline="target=host" | FileCheck %s --check-prefix=PIPE4
// RUN: %gen_matmul 100 100 100 | %{zen5} tensorop-opt --tensorop-pipeline="target=host" | FileCheck %s --check-prefix=PIPE5
// PIPE4: vfmadd231ps {{.*}}%ymm
// PIPE5-NOT: vfmadd231ps {{.*}}%ymm

// gen for this CPU builds with the host's hints, as its report says.
// RUN: %{zen4} tensorop gen "100x100x100 sgemm for this CPU" --no-bench -o %t/g4 | FileCheck %s --check-prefix=GEN4
// GEN4: microkernels: {{.*}}_5x48_u4_explicit_ldb400_lda400_ly_st
// RUN: %{zen5} tensorop gen "100x100x100 sgemm for this CPU" --no-bench -o %t/g5 | FileCheck %s --check-prefix=GEN5
// GEN5: microkernels:
// GEN5-NOT: _ly

// The flops a thread's share must reach before a team pays follow the CPU:
// min-flops-per-thread's default (-1) is the hints' threads.team_cost_us
// times peak_gflops_f32_per_core (hints/x86-avx512.json: cpus.znver4 3.3 us
// x 114.1 = 376530 flops, cpus.znver5 2.91 us x 220 = 640200); a target
// without a team cost keeps 640000; a value given keeps its own. The
// remark says which.
// REQUIRES: host-avx512
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/../Targets/Inputs/fake_sysfs.py %t/zen4 0:1:Data:32K:8:64:0 2:2:Unified:1024K:8:64:0 3:3:Unified:32768K:16:64:0-1
// RUN: %python %S/../Targets/Inputs/fake_sysfs.py %t/zen5 0:1:Data:48K:12:64:0 2:2:Unified:1024K:16:64:0 3:3:Unified:32768K:16:64:0-1
// DEFINE: %{zen4} = env TENSOROP_HOST_SYSFS=%t/zen4 TENSOROP_HOST_CPU=znver4
// DEFINE: %{zen5} = env TENSOROP_HOST_SYSFS=%t/zen5 TENSOROP_HOST_CPU=znver5
// RUN: %{zen4} tensorop-opt %s -split-input-file --tensorop-annotate-sketch="target=host threads=2" 2>/dev/null | FileCheck %s --check-prefix=ZEN4
// RUN: %{zen4} tensorop-opt %s -split-input-file --tensorop-annotate-sketch="target=host threads=2" 2>&1 >/dev/null | FileCheck %s --check-prefix=ZEN4R --implicit-check-not="runs on"
// RUN: %{zen5} tensorop-opt %s -split-input-file --tensorop-annotate-sketch="target=host threads=2" 2>/dev/null | FileCheck %s --check-prefix=ZEN5
// RUN: %{zen5} tensorop-opt %s -split-input-file --tensorop-annotate-sketch="target=host threads=2" 2>&1 >/dev/null | FileCheck %s --check-prefix=ZEN5R --implicit-check-not="runs on"
// RUN: %{zen4} tensorop-opt %s -split-input-file --tensorop-annotate-sketch="target=x86-avx512 threads=2" 2>&1 >/dev/null | FileCheck %s --check-prefix=NAMEDR --implicit-check-not="runs on"
// RUN: %{zen4} tensorop-opt %s -split-input-file --tensorop-annotate-sketch="target=host threads=2 min-flops-per-thread=700000" 2>&1 >/dev/null | FileCheck %s --check-prefix=GIVENR --implicit-check-not="runs on"

// 82x108x71 (an unseen shape): 1257552 flops, 628776 a thread of 2. On
// Zen 4 that pays for a team (0.74x oneDNN on one thread against its
// two); under Zen 5's 640200 and the default 640000 it does not.
// ZEN4-LABEL: func.func @unseen
// ZEN4:         source = "builtin", threads = 2>
// ZEN5R: remark: tensorop: runs on 1 thread, not the 2 asked: its 1257552 flops give each of 2 threads 628776, under the 640200 a thread's share must reach to pay for forking and joining an OpenMP team (threads.team_cost_us 2.91 us x 220 GFLOP/s a core (peak_gflops_f32_per_core) of target x86-avx512 on znver5)
// ZEN5-LABEL: func.func @unseen
// ZEN5-NOT:     threads =
// ZEN5:         return
// NAMEDR: remark: tensorop: runs on 1 thread, not the 2 asked: its 1257552 flops give each of 2 threads 628776, under the 640000 a thread's share must reach to pay for forking and joining an OpenMP team (min-flops-per-thread's default: target x86-avx512 gives no threads.team_cost_us)
// GIVENR: remark: tensorop: runs on 1 thread, not the 2 asked: its 1257552 flops give each of 2 threads 628776, under the 700000 a thread's share must reach to pay for forking and joining an OpenMP team (min-flops-per-thread)
func.func @unseen(%A: memref<82x71xf32>, %B: memref<71x108xf32>, %C: memref<82x108xf32>) {
  linalg.matmul ins(%A, %B : memref<82x71xf32>, memref<71x108xf32>) outs(%C : memref<82x108xf32>)
  return
}

// -----

// 64^3: 524288 flops, 262144 a thread: under Zen 4's 376530 too.
// ZEN4R: remark: tensorop: runs on 1 thread, not the 2 asked: its 524288 flops give each of 2 threads 262144, under the 376530 a thread's share must reach to pay for forking and joining an OpenMP team (threads.team_cost_us 3.3 us x 114.1 GFLOP/s a core (peak_gflops_f32_per_core) of target x86-avx512 on znver4)
// ZEN4-LABEL: func.func @small
// ZEN4-NOT:     threads =
// ZEN4:         return
// ZEN5R: remark: tensorop: runs on 1 thread, not the 2 asked: its 524288 flops
// NAMEDR: remark: tensorop: runs on 1 thread, not the 2 asked: its 524288 flops
// GIVENR: remark: tensorop: runs on 1 thread, not the 2 asked: its 524288 flops
func.func @small(%A: memref<64x64xf32>, %B: memref<64x64xf32>, %C: memref<64x64xf32>) {
  linalg.matmul ins(%A, %B : memref<64x64xf32>, memref<64x64xf32>) outs(%C : memref<64x64xf32>)
  return
}

// -----

// 80x48x112: 860160 flops, 430080 a thread: two threads on Zen 4 only.
// ZEN4-LABEL: func.func @mid
// ZEN4:         source = "builtin", threads = 2>
// ZEN5R: remark: tensorop: runs on 1 thread, not the 2 asked: its 860160 flops
// NAMEDR: remark: tensorop: runs on 1 thread, not the 2 asked: its 860160 flops
// GIVENR: remark: tensorop: runs on 1 thread, not the 2 asked: its 860160 flops
func.func @mid(%A: memref<80x112xf32>, %B: memref<112x48xf32>, %C: memref<80x48xf32>) {
  linalg.matmul ins(%A, %B : memref<80x112xf32>, memref<112x48xf32>) outs(%C : memref<80x48xf32>)
  return
}

// The target=host remarks describe the machine, not the module: a process
// says each once (firstTimeInProcess in lib/Targets/HostHints.cpp), here
// for the first of three split inputs, as a driver that lowers many modules
// in one process would. Different remarks are each said once; gen's
// report.json keeps them all (test/Tools/tensorop-gen-host-overlay.test).
// REQUIRES: host-avx512

// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/fake_sysfs.py %t/zen4 0:1:Data:32K:8:64:0 1:1:Instruction:32K:8:64:0 2:2:Unified:1024K:8:64:0 3:3:Unified:32768K:16:64:0-1
// RUN: %python %S/Inputs/fake_sysfs.py %t/garbled 0:1:Data:32K:eight:64:0 2:2:Unified:1024K:8:64:0
// RUN: env TENSOROP_HOST_SYSFS=%t/zen4 TENSOROP_HOST_CPU=sapphirerapids tensorop-opt %s -split-input-file --tensorop-annotate-sketch="target=host" -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: env TENSOROP_HOST_SYSFS=%t/garbled TENSOROP_HOST_CPU=sapphirerapids tensorop-opt %s -split-input-file --tensorop-annotate-sketch="target=host" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BOTH

// UNKNOWN: remark: tensorop: target=host: {{.*}}x86-avx512.json has no facts for CPU 'sapphirerapids'
// UNKNOWN-NOT: remark: tensorop: target=host

// BOTH-DAG: remark: tensorop: target=host: the cache geometry was not read ({{.*}}garbled
// BOTH-DAG: remark: tensorop: target=host: {{.*}}has no facts for CPU 'sapphirerapids'
// BOTH-NOT: remark: tensorop: target=host

func.func @first(%A: memref<37x71xf32>, %B: memref<71x53xf32>, %C: memref<37x53xf32>) {
  linalg.matmul ins(%A, %B : memref<37x71xf32>, memref<71x53xf32>) outs(%C : memref<37x53xf32>)
  return
}

// -----

func.func @second(%A: memref<37x71xf32>, %B: memref<71x53xf32>, %C: memref<37x53xf32>) {
  linalg.matmul ins(%A, %B : memref<37x71xf32>, memref<71x53xf32>) outs(%C : memref<37x53xf32>)
  return
}

// -----

func.func @third(%A: memref<64x64xf32>, %B: memref<64x64xf32>, %C: memref<64x64xf32>) {
  linalg.matmul ins(%A, %B : memref<64x64xf32>, memref<64x64xf32>) outs(%C : memref<64x64xf32>)
  return
}

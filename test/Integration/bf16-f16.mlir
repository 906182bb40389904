// bf16 and f16 inputs with fp32 accumulation through the sketch path: bf16
// A and B are packed into k pairs for the vdpbf16ps microkernel (odd K gets
// a zero half), f16 ones are converted to fp32 while packed (the fp32
// microkernel). Each program checks every element against an f64 reference
// of the same rounded inputs (gen_matmul_test.py --dtype), so a kernel that
// drops a pair half, misplaces a pair or reads past an edge fails.
// REQUIRES: host-avx512-bf16, libomp
// DEFINE: %{run} = %mlir-runner -e main -entry-point-result=void -O3 -shared-libs=%mlir_c_runner_utils,%libomp
// DEFINE: %{avx512} = tensorop-opt --tensorop-pipeline="target=x86-avx512"

// bf16: even and odd K, K = 1, edges in M and N, several K tiles (odd last
// tile), transposes, tensors, dynamic sizes, two threads, exact integers.
// RUN: %gen_matmul 64 128 64 --dtype bf16 | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_matmul 97 131 67 --dtype bf16 | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_matmul 13 17 1 --dtype bf16 | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_matmul 7 5 3 --dtype bf16 | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_matmul 50 70 1001 --dtype bf16 | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_matmul 97 131 67 --dtype bf16 --transpose-a | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_matmul 97 131 67 --dtype bf16 --transpose-b | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_matmul 64 256 1001 --dtype bf16 --transpose-b | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_matmul 200 300 101 --dtype bf16 --transpose-a --transpose-b | tensorop-opt --tensorop-pipeline="target=x86-avx512 threads=2" | %{run} | FileCheck %s
// RUN: %gen_matmul 33 65 45 --dtype bf16 --tensors | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_matmul 97 131 67 --dtype bf16 --dynamic=mnk | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_matmul 200 300 101 --dtype bf16 | tensorop-opt --tensorop-pipeline="target=x86-avx512 threads=2" | %{run} | FileCheck %s
// RUN: %gen_matmul 61 67 71 --dtype bf16 --values=ints | %{avx512} | %{run} | FileCheck %s --check-prefix=EXACT

// f16: the same shapes on both x86 targets.
// RUN: %gen_matmul 97 131 67 --dtype f16 | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_matmul 13 17 1 --dtype f16 | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_matmul 97 131 67 --dtype f16 --transpose-a --transpose-b | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_matmul 97 131 67 --dtype f16 --dynamic=mk | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_matmul 97 131 67 --dtype f16 | tensorop-opt --tensorop-pipeline="target=x86-avx2" | %{run} | FileCheck %s
// RUN: %gen_matmul 61 67 71 --dtype f16 --values=ints | %{avx512} | %{run} | FileCheck %s --check-prefix=EXACT

// The bf16 microkernel is there (vdpbf16ps on k pairs in i32 panels); f16
// runs the fp32 one on panels converted while packed (vcvtph2ps).
// RUN: %gen_matmul 97 131 67 --dtype bf16 | tensorop-opt --tensorop-annotate-sketch="target=x86-avx512" --tensorop-apply-sketch | FileCheck %s --check-prefix=BF16IR
// RUN: %gen_matmul 97 131 67 --dtype f16 | tensorop-opt --tensorop-annotate-sketch="target=x86-avx512" --tensorop-apply-sketch | FileCheck %s --check-prefix=F16IR

// CHECK: failures: 0
// EXACT: failures: 0
// EXACT: max_error_ratio: 0
// BF16IR: memref.alloc() {alignment = 64 : i64} : memref<{{[0-9]+}}x34x{{[0-9]+}}xi32>
// BF16IR: tensorop.ukernel "x86_avx512_bf16_
// BF16IR-SAME: vdpbf16ps
// F16IR: arith.extf {{.*}} to vector<{{[0-9x]+}}f32>
// F16IR: tensorop.ukernel "x86_avx512_f32_

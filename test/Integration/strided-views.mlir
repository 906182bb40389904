// Operands that are strided views into larger buffers (row offsets, a
// column stride of 2 for B), with C a window of a larger matrix: the result
// must be exact, and nothing of the big C outside the window may change
// (edge microkernels must not touch C past m_rem x n_rem).
// REQUIRES: host-avx512
// RUN: tensorop-opt %s --tensorop-pipeline="target=x86-avx512" | %mlir-runner -e main -entry-point-result=void -O3 -shared-libs=%mlir_c_runner_utils | FileCheck %s
// Both GEMMs use the microkernel.
// RUN: tensorop-opt %s --tensorop-pipeline="target=x86-avx512" | FileCheck %s --check-prefix=ASM
// ASM-COUNT-2: llvm.inline_asm has_side_effects
// The sketch with pack_b = "none": B's columns are 2 apart, so B is packed
// anyway (with a remark); with unit column stride (sed), B is read in place
// with its row stride of 64 floats, not N = 23.
// RUN: sed 's/pack_b = "kmajor_nr"/pack_b = "none"/' %s | tensorop-opt --tensorop-pipeline="target=x86-avx512" 2>%t.remark | %mlir-runner -e main -entry-point-result=void -O3 -shared-libs=%mlir_c_runner_utils | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remark
// REMARK: remark: tensorop: sketch pack_b "none" needs B with unit column stride {{.*}}; B is packed instead
// RUN: sed -e 's/pack_b = "kmajor_nr"/pack_b = "none"/' -e 's/strided<\[64, 2\]/strided<[64, 1]/' -e 's/\[29, 23\] \[1, 2\]/[29, 23] [1, 1]/' %s > %t.unit.mlir
// RUN: tensorop-opt %t.unit.mlir --tensorop-pipeline="target=x86-avx512" | %mlir-runner -e main -entry-point-result=void -O3 -shared-libs=%mlir_c_runner_utils | FileCheck %s
// RUN: tensorop-opt %t.unit.mlir --tensorop-pipeline="target=x86-avx512" | FileCheck %s --check-prefix=LDB
// LDB: x86_avx512_f32_6x16_u4_explicit_ldb256

// CHECK:      advisor: wrong 0 outside 0{{$}}
// CHECK-NEXT: sketch: wrong 0 outside 0{{$}}

!A = memref<37x29xf32, strided<[64, 1], offset: 197>>
!B = memref<29x23xf32, strided<[64, 2], offset: 129>>
!C = memref<37x23xf32, strided<[64, 1], offset: 71>>

// The builtin advisor's sketch.
func.func @gemm(%A: !A, %B: !B, %C: !C) {
  linalg.matmul ins(%A, %B : !A, !B) outs(%C : !C)
  return
}

// Small tiles, k outermost, register loops n then m.
func.func @gemm_sketch(%A: !A, %B: !B, %C: !C) {
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "knm", micro_order = "nm", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : !A, !B) outs(%C : !C)
  return
}

// big[i][j] = ((i * p + j * q) mod 9) - 4: small integers, so all sums are exact.
func.func @fill(%m: memref<64x64xf32>, %p: index, %q: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c9 = arith.constant 9 : index
  %c64 = arith.constant 64 : index
  %f4 = arith.constant 4.0 : f32
  scf.for %i = %c0 to %c64 step %c1 {
    scf.for %j = %c0 to %c64 step %c1 {
      %a = arith.muli %i, %p : index
      %b = arith.muli %j, %q : index
      %s = arith.addi %a, %b : index
      %r = arith.remui %s, %c9 : index
      %ri = arith.index_cast %r : index to i64
      %rf = arith.sitofp %ri : i64 to f32
      %v = arith.subf %rf, %f4 : f32
      memref.store %v, %m[%i, %j] : memref<64x64xf32>
    }
  }
  return
}

// Runs one GEMM variant on fresh buffers; prints the number of wrong
// elements in the window and of changed elements outside it.
func.func @check(%variant: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c29 = arith.constant 29 : index
  %c64 = arith.constant 64 : index
  %bigA = memref.alloc() : memref<64x64xf32>
  %bigB = memref.alloc() : memref<64x64xf32>
  %bigC = memref.alloc() : memref<64x64xf32>
  %ref = memref.alloc() : memref<64x64xf32>
  call @fill(%bigA, %c3, %c5) : (memref<64x64xf32>, index, index) -> ()
  call @fill(%bigB, %c7, %c1) : (memref<64x64xf32>, index, index) -> ()
  call @fill(%bigC, %c5, %c3) : (memref<64x64xf32>, index, index) -> ()
  call @fill(%ref, %c5, %c3) : (memref<64x64xf32>, index, index) -> ()
  // A = bigA[3:40, 5:34], B = bigB[2:31, 1:46:2], C = bigC[1:38, 7:30].
  %A = memref.subview %bigA[3, 5] [37, 29] [1, 1] : memref<64x64xf32> to !A
  %B = memref.subview %bigB[2, 1] [29, 23] [1, 2] : memref<64x64xf32> to !B
  %C = memref.subview %bigC[1, 7] [37, 23] [1, 1] : memref<64x64xf32> to !C
  %R = memref.subview %ref[1, 7] [37, 23] [1, 1] : memref<64x64xf32> to !C
  // Reference: R += A * B with plain loops.
  %c23 = arith.constant 23 : index
  %c37 = arith.constant 37 : index
  scf.for %i = %c0 to %c37 step %c1 {
    scf.for %j = %c0 to %c23 step %c1 {
      %r0 = memref.load %R[%i, %j] : !C
      %acc = scf.for %k = %c0 to %c29 step %c1 iter_args(%r = %r0) -> (f32) {
        %a = memref.load %A[%i, %k] : !A
        %b = memref.load %B[%k, %j] : !B
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %r, %p : f32
        scf.yield %s : f32
      }
      memref.store %acc, %R[%i, %j] : !C
    }
  }
  scf.if %variant {
    func.call @gemm(%A, %B, %C) : (!A, !B, !C) -> ()
  } else {
    func.call @gemm_sketch(%A, %B, %C) : (!A, !B, !C) -> ()
  }
  // Compare the whole 64x64 buffers: inside the window against the
  // reference, outside it against the untouched fill.
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %bad = scf.for %i = %c0 to %c64 step %c1 iter_args(%n = %zero) -> (i64) {
    %row = scf.for %j = %c0 to %c64 step %c1 iter_args(%m = %n) -> (i64) {
      %x = memref.load %bigC[%i, %j] : memref<64x64xf32>
      %y = memref.load %ref[%i, %j] : memref<64x64xf32>
      %ne = arith.cmpf une, %x, %y : f32
      %inc = arith.select %ne, %one, %zero : i64
      %m2 = arith.addi %m, %inc : i64
      scf.yield %m2 : i64
    }
    scf.yield %row : i64
  }
  // Changed elements outside the window alone.
  %c1i = arith.constant 1 : index
  %c38 = arith.constant 38 : index
  %c30 = arith.constant 30 : index
  %outside = scf.for %i = %c0 to %c64 step %c1 iter_args(%n = %zero) -> (i64) {
    %row = scf.for %j = %c0 to %c64 step %c1 iter_args(%m = %n) -> (i64) {
      %x = memref.load %bigC[%i, %j] : memref<64x64xf32>
      %y = memref.load %ref[%i, %j] : memref<64x64xf32>
      %ne = arith.cmpf une, %x, %y : f32
      %i0 = arith.cmpi uge, %i, %c1i : index
      %i1 = arith.cmpi ult, %i, %c38 : index
      %j0 = arith.cmpi uge, %j, %c7 : index
      %j1 = arith.cmpi ult, %j, %c30 : index
      %in0 = arith.andi %i0, %i1 : i1
      %in1 = arith.andi %j0, %j1 : i1
      %in = arith.andi %in0, %in1 : i1
      %true = arith.constant true
      %out = arith.xori %in, %true : i1
      %hit = arith.andi %ne, %out : i1
      %inc = arith.select %hit, %one, %zero : i64
      %m2 = arith.addi %m, %inc : i64
      scf.yield %m2 : i64
    }
    scf.yield %row : i64
  }
  %wrong = arith.subi %bad, %outside : i64
  scf.if %variant {
    vector.print str "advisor: wrong "
  } else {
    vector.print str "sketch: wrong "
  }
  vector.print %wrong : i64 punctuation <no_punctuation>
  vector.print str " outside "
  vector.print %outside : i64
  memref.dealloc %bigA : memref<64x64xf32>
  memref.dealloc %bigB : memref<64x64xf32>
  memref.dealloc %bigC : memref<64x64xf32>
  memref.dealloc %ref : memref<64x64xf32>
  return
}

func.func @main() {
  %true = arith.constant true
  %false = arith.constant false
  call @check(%true) : (i1) -> ()
  call @check(%false) : (i1) -> ()
  return
}

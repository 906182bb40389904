// gemm 97x131x67 values=random seed=1 transpose_a=False transpose_b=False tensors=False

func.func @gemm(%A: memref<97x67xf32>, %B: memref<67x131xf32>, %C: memref<97x131xf32>) {
  linalg.matmul ins(%A, %B : memref<97x67xf32>, memref<67x131xf32>) outs(%C : memref<97x131xf32>)
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c9 = arith.constant 9 : index
  %c67 = arith.constant 67 : index
  %c97 = arith.constant 97 : index
  %c131 = arith.constant 131 : index
  %c65536 = arith.constant 65536 : index
  %c1_1 = arith.constant 7919 : index
  %c1_2 = arith.constant 104729 : index
  %c2_1 = arith.constant 15485863 : index
  %c2_2 = arith.constant 3571 : index
  %c3_1 = arith.constant 2654435 : index
  %c3_2 = arith.constant 40503 : index
  %seed = arith.constant 427799 : index
  %golden = arith.constant 2654435761 : index
  %inv32768 = arith.constant 3.0517578125e-05 : f32
  %f1 = arith.constant 1.0 : f32
  %f4 = arith.constant 4.0 : f32
  %zero = arith.constant 0.0 : f64
  %u = arith.constant 6.0e-08 : f64
  %twoKu = arith.constant 8.04e-06 : f64
  %A = memref.alloc() : memref<97x67xf32>
  %B = memref.alloc() : memref<67x131xf32>
  %C = memref.alloc() : memref<97x131xf32>

  scf.for %i = %c0 to %c97 step %c1 {
   scf.for %j = %c0 to %c67 step %c1 {
    %t0 = arith.muli %i, %c1_1 : index
    %t1 = arith.muli %j, %c1_2 : index
    %t2 = arith.addi %t0, %t1 : index
    %t3 = arith.addi %t2, %seed : index
    %t4 = arith.muli %t3, %golden : index
    %t5 = arith.remui %t4, %c65536 : index
    %t6 = arith.index_cast %t5 : index to i64
    %t7 = arith.sitofp %t6 : i64 to f32
    %t8 = arith.mulf %t7, %inv32768 : f32
    %v = arith.subf %t8, %f1 : f32
    memref.store %v, %A[%i, %j] : memref<97x67xf32>
   }
  }

  scf.for %i = %c0 to %c67 step %c1 {
   scf.for %j = %c0 to %c131 step %c1 {
    %t0 = arith.muli %i, %c2_1 : index
    %t1 = arith.muli %j, %c2_2 : index
    %t2 = arith.addi %t0, %t1 : index
    %t3 = arith.addi %t2, %seed : index
    %t4 = arith.muli %t3, %golden : index
    %t5 = arith.remui %t4, %c65536 : index
    %t6 = arith.index_cast %t5 : index to i64
    %t7 = arith.sitofp %t6 : i64 to f32
    %t8 = arith.mulf %t7, %inv32768 : f32
    %v = arith.subf %t8, %f1 : f32
    memref.store %v, %B[%i, %j] : memref<67x131xf32>
   }
  }

  scf.for %i = %c0 to %c97 step %c1 {
   scf.for %j = %c0 to %c131 step %c1 {
    %t0 = arith.muli %i, %c3_1 : index
    %t1 = arith.muli %j, %c3_2 : index
    %t2 = arith.addi %t0, %t1 : index
    %t3 = arith.addi %t2, %seed : index
    %t4 = arith.muli %t3, %golden : index
    %t5 = arith.remui %t4, %c65536 : index
    %t6 = arith.index_cast %t5 : index to i64
    %t7 = arith.sitofp %t6 : i64 to f32
    %t8 = arith.mulf %t7, %inv32768 : f32
    %v = arith.subf %t8, %f1 : f32
    memref.store %v, %C[%i, %j] : memref<97x131xf32>
   }
  }
  // R = C0 + A*B and S = |C0| + |A||B| in f64, before @gemm overwrites C.
  %R = memref.alloc() : memref<97x131xf64>
  %S = memref.alloc() : memref<97x131xf64>
  scf.for %i = %c0 to %c97 step %c1 {
   scf.for %j = %c0 to %c131 step %c1 {
    %c0v = memref.load %C[%i, %j] : memref<97x131xf32>
    %c0d = arith.extf %c0v : f32 to f64
    %c0a = math.absf %c0d : f64
    %acc:2 = scf.for %kk = %c0 to %c67 step %c1 iter_args(%r = %c0d, %s = %c0a) -> (f64, f64) {
     %av = memref.load %A[%i, %kk] : memref<97x67xf32>
     %bv = memref.load %B[%kk, %j] : memref<67x131xf32>
     %ad = arith.extf %av : f32 to f64
     %bd = arith.extf %bv : f32 to f64
     %p = arith.mulf %ad, %bd : f64
     %pa = math.absf %p : f64
     %r2 = arith.addf %r, %p : f64
     %s2 = arith.addf %s, %pa : f64
     scf.yield %r2, %s2 : f64, f64
    }
    memref.store %acc#0, %R[%i, %j] : memref<97x131xf64>
    memref.store %acc#1, %S[%i, %j] : memref<97x131xf64>
   }
  }
  call @gemm(%A, %B, %C) : (memref<97x67xf32>, memref<67x131xf32>, memref<97x131xf32>) -> ()
  %c0i = arith.constant 0 : i64
  %c1i = arith.constant 1 : i64
  %res:2 = scf.for %i = %c0 to %c97 step %c1 iter_args(%f = %c0i, %mx = %zero) -> (i64, f64) {
   %inner:2 = scf.for %j = %c0 to %c131 step %c1 iter_args(%f2 = %f, %mx2 = %mx) -> (i64, f64) {
    %cv = memref.load %C[%i, %j] : memref<97x131xf32>
    %cd = arith.extf %cv : f32 to f64
    %rv = memref.load %R[%i, %j] : memref<97x131xf64>
    %sv = memref.load %S[%i, %j] : memref<97x131xf64>
    %d = arith.subf %cd, %rv : f64
    %err = math.absf %d : f64
    %ra = math.absf %rv : f64
    %b1 = arith.mulf %twoKu, %sv : f64
    %b2 = arith.mulf %u, %ra : f64
    %b3 = arith.addf %b1, %b2 : f64
    %tiny = arith.constant 1.0e-30 : f64
    %bound = arith.maximumf %b3, %tiny : f64
    %ratio = arith.divf %err, %bound : f64
    // NaN compares false with "ole", so a NaN counts as a failure.
    %ok = arith.cmpf ole, %err, %bound : f64
    %one = arith.select %ok, %c0i, %c1i : i64
    %f3 = arith.addi %f2, %one : i64
    %mx3 = arith.maximumf %mx2, %ratio : f64
    scf.yield %f3, %mx3 : i64, f64
   }
   scf.yield %inner#0, %inner#1 : i64, f64
  }
  vector.print str "failures: "
  vector.print %res#0 : i64
  vector.print str "max_error_ratio: "
  vector.print %res#1 : f64
  memref.dealloc %A : memref<97x67xf32>
  memref.dealloc %B : memref<67x131xf32>
  memref.dealloc %C : memref<97x131xf32>
  memref.dealloc %R : memref<97x131xf64>
  memref.dealloc %S : memref<97x131xf64>
  return
}

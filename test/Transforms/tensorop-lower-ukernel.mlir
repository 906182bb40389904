// RUN: tensorop-opt %s -split-input-file --tensorop-lower-ukernel | FileCheck %s

// Each memref operand becomes the address of its first element (aligned base
// pointer + offset * 4 bytes); C's row stride is passed in bytes. The seven
// operands go, in the order A, B, C, kc, ldc, m_rem, n_rem, to one
// llvm.inline_asm that carries the emitted code and constraints verbatim.

// CHECK-LABEL: func.func @lower(
// CHECK-SAME:    %[[A:[a-z0-9_]+]]: memref<8x6xf32, strided<[6, 1], offset: ?>>, %[[B:[a-z0-9_]+]]: memref<8x16xf32, strided<[16, 1], offset: ?>>,
// CHECK-SAME:    %[[C:[a-z0-9_]+]]: memref<?x?xf32, strided<[70, 1], offset: ?>>, %[[K:[a-z0-9_]+]]: index, %[[M:[a-z0-9_]+]]: index, %[[N:[a-z0-9_]+]]: index)
// CHECK-NOT:     tensorop.ukernel
// CHECK:         %{{.+}}, %[[AOFF:.+]], %{{.+}}:2, %{{.+}}:2 = memref.extract_strided_metadata %[[A]]
// CHECK:         %[[ABASE:.+]] = memref.extract_aligned_pointer_as_index %[[A]]
// CHECK:         %[[FOUR:.+]] = arith.constant 4 : index
// CHECK:         %[[AOFFB:.+]] = arith.muli %[[AOFF]], %[[FOUR]] : index
// CHECK:         %[[AADDR:.+]] = arith.addi %[[ABASE]], %[[AOFFB]] : index
// CHECK:         %[[AI64:.+]] = arith.index_cast %[[AADDR]] : index to i64
// CHECK:         %{{.+}}, %[[BOFF:.+]], %{{.+}}:2, %{{.+}}:2 = memref.extract_strided_metadata %[[B]]
// CHECK:         %[[BBASE:.+]] = memref.extract_aligned_pointer_as_index %[[B]]
// CHECK:         %[[BOFFB:.+]] = arith.muli %[[BOFF]], %{{.+}} : index
// CHECK:         %[[BADDR:.+]] = arith.addi %[[BBASE]], %[[BOFFB]] : index
// CHECK:         %[[BI64:.+]] = arith.index_cast %[[BADDR]] : index to i64
// CHECK:         %{{.+}}, %[[COFF:.+]], %{{.+}}:2, %[[CSTRIDES:.+]]:2 = memref.extract_strided_metadata %[[C]]
// CHECK:         %[[CBASE:.+]] = memref.extract_aligned_pointer_as_index %[[C]]
// CHECK:         %[[COFFB:.+]] = arith.muli %[[COFF]], %{{.+}} : index
// CHECK:         %[[CADDR:.+]] = arith.addi %[[CBASE]], %[[COFFB]] : index
// CHECK:         %[[CI64:.+]] = arith.index_cast %[[CADDR]] : index to i64
// CHECK:         %[[LDC:.+]] = arith.muli %[[CSTRIDES]]#0, %{{.+}} : index
// CHECK:         %[[LDCI64:.+]] = arith.index_cast %[[LDC]] : index to i64
// CHECK:         %[[KI64:.+]] = arith.index_cast %[[K]] : index to i64
// CHECK:         %[[MI64:.+]] = arith.index_cast %[[M]] : index to i64
// CHECK:         %[[NI64:.+]] = arith.index_cast %[[N]] : index to i64
// CHECK:         llvm.inline_asm has_side_effects asm_dialect = att {tensorop.microkernel} "add $$1, $0\0A  vfmadd231ps (%rax){1to16}, %zmm1, %zmm2", "=r,=r,=r,=r,=r,=r,=r,0,1,2,3,4,5,6,~{zmm1},~{memory}"
// CHECK-SAME:      %[[AI64]], %[[BI64]], %[[CI64]], %[[KI64]], %[[LDCI64]], %[[MI64]], %[[NI64]] : (i64, i64, i64, i64, i64, i64, i64) -> !llvm.struct<(i64, i64, i64, i64, i64, i64, i64)>
// CHECK-NOT:     tensorop.ukernel
// CHECK:         return
func.func @lower(%a: memref<8x6xf32, strided<[6, 1], offset: ?>>, %b: memref<8x16xf32, strided<[16, 1], offset: ?>>,
                 %c: memref<?x?xf32, strided<[70, 1], offset: ?>>, %k: index, %m: index, %n: index) {
  tensorop.ukernel "k" a(%a : memref<8x6xf32, strided<[6, 1], offset: ?>>) b(%b : memref<8x16xf32, strided<[16, 1], offset: ?>>) c(%c : memref<?x?xf32, strided<[70, 1], offset: ?>>) kc(%k) m_rem(%m) n_rem(%n) {asm_dialect = "att", asm_string = "add $$1, $0\0A  vfmadd231ps (%rax){1to16}, %zmm1, %zmm2", constraints = "=r,=r,=r,=r,=r,=r,=r,0,1,2,3,4,5,6,~{zmm1},~{memory}", emitter_hash = "0123456789abcdef", mr = 6 : i64, nr = 16 : i64}
  return
}

// -----

// Intel syntax is kept; the same value may feed several operands. Static
// memrefs go through the same address arithmetic.
// CHECK-LABEL: func.func @intel(
// CHECK-SAME:    %[[C:[a-z0-9_]+]]: memref<6x16xf32>, %[[K:[a-z0-9_]+]]: index)
// CHECK:         memref.extract_strided_metadata
// CHECK:         memref.extract_aligned_pointer_as_index
// CHECK:         memref.extract_strided_metadata
// CHECK:         memref.extract_aligned_pointer_as_index
// CHECK:         %{{.+}}, %{{.+}}, %{{.+}}:2, %[[CSTRIDES:.+]]:2 = memref.extract_strided_metadata %[[C]] : memref<6x16xf32>
// CHECK:         memref.extract_aligned_pointer_as_index %[[C]]
// CHECK:         %[[LDC:.+]] = arith.muli %[[CSTRIDES]]#0, %{{.+}} : index
// CHECK:         %[[KI64:.+]] = arith.index_cast %[[K]] : index to i64
// CHECK:         llvm.inline_asm has_side_effects asm_dialect = intel {tensorop.microkernel} "nop", "=r,=r,=r,=r,=r,=r,=r,0,1,2,3,4,5,6" %{{.+}}, %{{.+}}, %{{.+}}, %[[KI64]], %{{.+}}, %{{.+}}, %{{.+}} :
func.func @intel(%a: memref<4x6xf32>, %b: memref<4x16xf32>, %c: memref<6x16xf32>, %k: index) {
  tensorop.ukernel "k" a(%a : memref<4x6xf32>) b(%b : memref<4x16xf32>) c(%c : memref<6x16xf32>) kc(%k) m_rem(%k) n_rem(%k) {asm_dialect = "intel", asm_string = "nop", constraints = "=r,=r,=r,=r,=r,=r,=r,0,1,2,3,4,5,6", emitter_hash = "0", mr = 6 : i64, nr = 16 : i64}
  return
}

// -----

// Every ukernel in a loop nest is lowered, and nothing else changes.
// CHECK-LABEL: func.func @in_loops
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             llvm.inline_asm has_side_effects asm_dialect = att {tensorop.microkernel} "first"
// CHECK:             llvm.inline_asm has_side_effects asm_dialect = att {tensorop.microkernel} "second"
// CHECK-NOT:     tensorop.ukernel
func.func @in_loops(%a: memref<4x6xf32>, %b: memref<4x16xf32>, %c: memref<60x160xf32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %c16 = arith.constant 16 : index
  %c60 = arith.constant 60 : index
  %c160 = arith.constant 160 : index
  scf.for %i = %c0 to %c60 step %c6 {
    scf.for %j = %c0 to %c160 step %c16 {
      %t = memref.subview %c[%i, %j] [6, 16] [1, 1] : memref<60x160xf32> to memref<6x16xf32, strided<[160, 1], offset: ?>>
      tensorop.ukernel "k1" a(%a : memref<4x6xf32>) b(%b : memref<4x16xf32>) c(%t : memref<6x16xf32, strided<[160, 1], offset: ?>>) kc(%c4) m_rem(%c6) n_rem(%c16) {asm_dialect = "att", asm_string = "first", constraints = "", emitter_hash = "0", mr = 6 : i64, nr = 16 : i64}
      tensorop.ukernel "k2" a(%a : memref<4x6xf32>) b(%b : memref<4x16xf32>) c(%t : memref<6x16xf32, strided<[160, 1], offset: ?>>) kc(%c4) m_rem(%c6) n_rem(%c16) {asm_dialect = "att", asm_string = "second", constraints = "", emitter_hash = "0", mr = 6 : i64, nr = 16 : i64}
    }
  }
  return
}

// -----

// b_panel_out (the fused copy of B): the panel's address is the eighth
// operand, after the seven.
// CHECK-LABEL: func.func @b_panel_out(
// CHECK-SAME:    %[[P:[a-z0-9_]+]]: memref<4x16xf32, strided<[16, 1], offset: ?>>
// CHECK:         %{{.+}}, %[[POFF:.+]], %{{.+}}:2, %{{.+}}:2 = memref.extract_strided_metadata %[[P]]
// CHECK:         %[[PBASE:.+]] = memref.extract_aligned_pointer_as_index %[[P]]
// CHECK:         %[[POFFB:.+]] = arith.muli %[[POFF]], %{{.+}} : index
// CHECK:         %[[PADDR:.+]] = arith.addi %[[PBASE]], %[[POFFB]] : index
// CHECK:         %[[PI64:.+]] = arith.index_cast %[[PADDR]] : index to i64
// CHECK:         llvm.inline_asm has_side_effects asm_dialect = att {tensorop.microkernel} "nop", "=r,=r,=r,=r,=r,=r,=r,=r,0,1,2,3,4,5,6,7"
// CHECK-SAME:      %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %[[PI64]] : (i64, i64, i64, i64, i64, i64, i64, i64) -> !llvm.struct<(i64, i64, i64, i64, i64, i64, i64, i64)>
func.func @b_panel_out(%p: memref<4x16xf32, strided<[16, 1], offset: ?>>, %a: memref<4x6xf32>, %b: memref<4x16xf32, strided<[100, 1]>>, %c: memref<6x16xf32>, %k: index) {
  tensorop.ukernel "k" a(%a : memref<4x6xf32>) b(%b : memref<4x16xf32, strided<[100, 1]>>) c(%c : memref<6x16xf32>) kc(%k) m_rem(%k) n_rem(%k) b_panel_out(%p : memref<4x16xf32, strided<[16, 1], offset: ?>>) {asm_dialect = "att", asm_string = "nop", constraints = "=r,=r,=r,=r,=r,=r,=r,=r,0,1,2,3,4,5,6,7", emitter_hash = "0", mr = 6 : i64, nr = 16 : i64}
  return
}

// -----

// a_stride_operand: A's row stride in bytes (from its layout at run time)
// goes last, after the seven.
// CHECK-LABEL: func.func @lower_a_stride_operand(
// CHECK-SAME:    %[[A:[a-z0-9_]+]]: memref<?x?xf32, strided<[?, 1], offset: ?>>
// CHECK:         %{{.+}}, %{{.+}}, %{{.+}}:2, %[[ASTRIDES:.+]]:2 = memref.extract_strided_metadata %[[A]]
// CHECK:         %[[LDA:.+]] = arith.muli %[[ASTRIDES]]#0, %{{.+}} : index
// CHECK:         %[[LDAI64:.+]] = arith.index_cast %[[LDA]] : index to i64
// CHECK:         llvm.inline_asm
// CHECK-SAME:      "=r,=r,=r,=r,=r,=r,=r,=r,0,1,2,3,4,5,6,7,~{memory}"
// CHECK-SAME:      %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %[[LDAI64]] : (i64, i64, i64, i64, i64, i64, i64, i64) ->
func.func @lower_a_stride_operand(%a: memref<?x?xf32, strided<[?, 1], offset: ?>>, %b: memref<8x16xf32, strided<[16, 1], offset: ?>>,
                 %c: memref<?x?xf32, strided<[70, 1], offset: ?>>, %k: index, %m: index, %n: index) {
  tensorop.ukernel "k" a(%a : memref<?x?xf32, strided<[?, 1], offset: ?>>) b(%b : memref<8x16xf32, strided<[16, 1], offset: ?>>) c(%c : memref<?x?xf32, strided<[70, 1], offset: ?>>) kc(%k) m_rem(%m) n_rem(%n) {a_stride_operand, asm_dialect = "att", asm_string = "nop", constraints = "=r,=r,=r,=r,=r,=r,=r,=r,0,1,2,3,4,5,6,7,~{memory}", emitter_hash = "0123456789abcdef", mr = 6 : i64, nr = 16 : i64}
  return
}

// -----

// With b_stride_operand too: B's row stride in bytes after A's.
// CHECK-LABEL: func.func @lower_both_stride_operands(
// CHECK-SAME:    %[[A:[a-z0-9_]+]]: memref<?x?xf32, strided<[?, 1], offset: ?>>, %[[B:[a-z0-9_]+]]: memref<8x16xf32, strided<[?, 1], offset: ?>>
// CHECK:         %{{.+}}, %{{.+}}, %{{.+}}:2, %[[ASTRIDES:.+]]:2 = memref.extract_strided_metadata %[[A]]
// CHECK:         %{{.+}}, %{{.+}}, %{{.+}}:2, %[[BSTRIDES:.+]]:2 = memref.extract_strided_metadata %[[B]]
// CHECK:         %[[LDA:.+]] = arith.muli %[[ASTRIDES]]#0, %{{.+}} : index
// CHECK:         %[[LDAI64:.+]] = arith.index_cast %[[LDA]] : index to i64
// CHECK:         %[[LDB:.+]] = arith.muli %[[BSTRIDES]]#0, %{{.+}} : index
// CHECK:         %[[LDBI64:.+]] = arith.index_cast %[[LDB]] : index to i64
// CHECK:         llvm.inline_asm
// CHECK-SAME:      %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %[[LDAI64]], %[[LDBI64]] : (i64, i64, i64, i64, i64, i64, i64, i64, i64) ->
func.func @lower_both_stride_operands(%a: memref<?x?xf32, strided<[?, 1], offset: ?>>, %b: memref<8x16xf32, strided<[?, 1], offset: ?>>,
                 %c: memref<?x?xf32, strided<[70, 1], offset: ?>>, %k: index, %m: index, %n: index) {
  tensorop.ukernel "k" a(%a : memref<?x?xf32, strided<[?, 1], offset: ?>>) b(%b : memref<8x16xf32, strided<[?, 1], offset: ?>>) c(%c : memref<?x?xf32, strided<[70, 1], offset: ?>>) kc(%k) m_rem(%m) n_rem(%n) {a_stride_operand, b_stride_operand, asm_dialect = "att", asm_string = "nop", constraints = "=r,=r,=r,=r,=r,=r,=r,=r,=r,0,1,2,3,4,5,6,7,8,~{memory}", emitter_hash = "0123456789abcdef", mr = 6 : i64, nr = 16 : i64}
  return
}

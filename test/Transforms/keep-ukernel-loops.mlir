// RUN: tensorop-opt %s -split-input-file --tensorop-keep-ukernel-loops | FileCheck %s

// A loop of row tiles around a microkernel (an llvm.inline_asm marked
// tensorop.microkernel, as tensorop-lower-ukernel leaves it) and the loop
// around that: both latches get "unroll disable", so LLVM keeps one copy of
// the kernel's code. The loop after them (a copy, no kernel) keeps LLVM's
// choice, as does an unmarked inline asm's loop.

// CHECK: #[[UNROLL:.+]] = #llvm.loop_unroll<disable = true>
// CHECK: #[[ANN:.+]] = #llvm.loop_annotation<unroll = #[[UNROLL]]>
// CHECK-LABEL: llvm.func @tiles(
// CHECK:         ^bb3(%{{.+}}: i64):
// CHECK:         llvm.inline_asm has_side_effects asm_dialect = att {tensorop.microkernel}
// CHECK-NEXT:    llvm.add
// CHECK-NEXT:    llvm.br ^bb3(%{{.+}} : i64) {loop_annotation = #[[ANN]]}
// CHECK:       ^bb5:
// CHECK-NEXT:    llvm.add
// CHECK-NEXT:    llvm.br ^bb1(%{{.+}} : i64) {loop_annotation = #[[ANN]]}
// CHECK:       ^bb7:
// CHECK:         llvm.store
// CHECK-NEXT:    llvm.add
// CHECK-NEXT:    llvm.br ^bb6(%{{.+}} : i64){{$}}
llvm.func @tiles(%n: i64, %p: !llvm.ptr) {
  %c0 = llvm.mlir.constant(0 : i64) : i64
  %c1 = llvm.mlir.constant(1 : i64) : i64
  %c11 = llvm.mlir.constant(11 : i64) : i64
  %f = llvm.mlir.constant(0.0 : f32) : f32
  llvm.br ^outer(%c0 : i64)
^outer(%j: i64):
  %jc = llvm.icmp "slt" %j, %c11 : i64
  llvm.cond_br %jc, ^outer_body, ^copy(%c0 : i64)
^outer_body:
  llvm.br ^inner(%c0 : i64)
^inner(%i: i64):
  %ic = llvm.icmp "slt" %i, %c11 : i64
  llvm.cond_br %ic, ^inner_body, ^outer_latch
^inner_body:
  %r = llvm.inline_asm has_side_effects asm_dialect = att {tensorop.microkernel} "# k: kernel\0A  nop", "=r,0" %i : (i64) -> i64
  %i1 = llvm.add %i, %c1 : i64
  llvm.br ^inner(%i1 : i64)
^outer_latch:
  %j1 = llvm.add %j, %c1 : i64
  llvm.br ^outer(%j1 : i64)
^copy(%k: i64):
  %kc = llvm.icmp "slt" %k, %n : i64
  llvm.cond_br %kc, ^copy_body, ^done
^copy_body:
  %q = llvm.getelementptr %p[%k] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  llvm.store %f, %q : f32, !llvm.ptr
  %k1 = llvm.add %k, %c1 : i64
  llvm.br ^copy(%k1 : i64)
^done:
  llvm.return
}

// -----

// An annotation the branch already has keeps its other fields.

// CHECK: #[[UNROLL:.+]] = #llvm.loop_unroll<disable = true>
// CHECK: #[[ANN:.+]] = #llvm.loop_annotation<{{.*}}unroll = #[[UNROLL]], licm = #{{.+}}>
// CHECK-LABEL: llvm.func @kept(
// CHECK:         llvm.br ^{{.+}}(%{{.+}} : i64) {loop_annotation = #[[ANN]]}
#licm = #llvm.loop_licm<disable = true>
#keep = #llvm.loop_annotation<licm = #licm>
llvm.func @kept(%n: i64) {
  %c0 = llvm.mlir.constant(0 : i64) : i64
  %c1 = llvm.mlir.constant(1 : i64) : i64
  llvm.br ^loop(%c0 : i64)
^loop(%i: i64):
  %c = llvm.icmp "slt" %i, %n : i64
  llvm.cond_br %c, ^body, ^done
^body:
  %r = llvm.inline_asm has_side_effects {tensorop.microkernel} "nop", "=r,0" %i : (i64) -> i64
  %i1 = llvm.add %i, %c1 : i64
  llvm.br ^loop(%i1 : i64) {loop_annotation = #keep}
^done:
  llvm.return
}

// -----

// A kernel in an OpenMP region: the loop in the region and the loop around
// the omp.parallel both hold it. No kernel, no annotation.

// CHECK-LABEL: llvm.func @threaded(
// CHECK:         omp.parallel
// CHECK:           llvm.br ^{{.+}}(%{{.+}} : i64) {loop_annotation = #{{.+}}}
// CHECK:           omp.terminator
// CHECK:         llvm.br ^{{.+}}(%{{.+}} : i64) {loop_annotation = #{{.+}}}
// CHECK-LABEL: llvm.func @plain(
// CHECK-NOT:     loop_annotation
// CHECK:         llvm.return
llvm.func @threaded(%n: i64) {
  %c0 = llvm.mlir.constant(0 : i64) : i64
  %c1 = llvm.mlir.constant(1 : i64) : i64
  llvm.br ^outer(%c0 : i64)
^outer(%j: i64):
  %jc = llvm.icmp "slt" %j, %n : i64
  llvm.cond_br %jc, ^outer_body, ^done
^outer_body:
  omp.parallel {
    llvm.br ^loop(%c0 : i64)
  ^loop(%i: i64):
    %c = llvm.icmp "slt" %i, %n : i64
    llvm.cond_br %c, ^body, ^exit
  ^body:
    %r = llvm.inline_asm has_side_effects {tensorop.microkernel} "nop", "=r,0" %i : (i64) -> i64
    %i1 = llvm.add %i, %c1 : i64
    llvm.br ^loop(%i1 : i64)
  ^exit:
    omp.terminator
  }
  %j1 = llvm.add %j, %c1 : i64
  llvm.br ^outer(%j1 : i64)
^done:
  llvm.return
}

llvm.func @plain(%n: i64) {
  %c0 = llvm.mlir.constant(0 : i64) : i64
  %c1 = llvm.mlir.constant(1 : i64) : i64
  llvm.br ^loop(%c0 : i64)
^loop(%i: i64):
  %c = llvm.icmp "slt" %i, %n : i64
  llvm.cond_br %c, ^body, ^done
^body:
  %r = llvm.inline_asm has_side_effects "nop", "=r,0" %i : (i64) -> i64
  %i1 = llvm.add %i, %c1 : i64
  llvm.br ^loop(%i1 : i64)
^done:
  llvm.return
}

// The microkernel allowlist on RISC-V (RVV) (issue 12, item 1(a)): each split names a
// model-written emitter (llm_*, run sandboxed or, here, with limits only)
// whose kernel holds one hostile instruction or directive before a store;
// apply-sketch refuses it, naming the instruction, before anything is built.
// The benign kernel (vector loads, FMA, a counted loop) is accepted.
// RUN: rm -rf %t && %python %S/Inputs/hostile_kernels.py %t
// RUN: env TENSOROP_LLM_EMITTER_DIR=%t TENSOROP_ALLOW_UNSANDBOXED=1 TENSOROP_BWRAP=/nonexistent tensorop-opt %s -split-input-file -verify-diagnostics --tensorop-apply-sketch | FileCheck %s

func.func @ecall(%A: memref<20x37xf32>, %B: memref<37x40xf32>, %C: memref<20x40xf32>) {
  // expected-error @+1 {{emitter 'llm_riscv_ecall' printed a kernel that is refused: instruction 1 'ecall' is not on the microkernel allowlist}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 8, nc = 16, kc = 8, mr = 4, nr = 8, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "llm_riscv_ecall", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "riscv-rvv", triple = "riscv64-unknown-linux-gnu", cpu = "spacemit-x60", features = "+m,+a,+f,+d,+c,+v,-zvl256b", vector_bits = 128, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<20x37xf32>, memref<37x40xf32>) outs(%C : memref<20x40xf32>)
  return
}

// -----

func.func @ebreak(%A: memref<20x37xf32>, %B: memref<37x40xf32>, %C: memref<20x40xf32>) {
  // expected-error @+1 {{emitter 'llm_riscv_ebreak' printed a kernel that is refused: instruction 1 'ebreak' is not on the microkernel allowlist}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 8, nc = 16, kc = 8, mr = 4, nr = 8, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "llm_riscv_ebreak", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "riscv-rvv", triple = "riscv64-unknown-linux-gnu", cpu = "spacemit-x60", features = "+m,+a,+f,+d,+c,+v,-zvl256b", vector_bits = 128, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<20x37xf32>, memref<37x40xf32>) outs(%C : memref<20x40xf32>)
  return
}

// -----

func.func @csr(%A: memref<20x37xf32>, %B: memref<37x40xf32>, %C: memref<20x40xf32>) {
  // expected-error @+1 {{emitter 'llm_riscv_csr' printed a kernel that is refused: instruction 1 'rdcycle a0' is not on the microkernel allowlist}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 8, nc = 16, kc = 8, mr = 4, nr = 8, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "llm_riscv_csr", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "riscv-rvv", triple = "riscv64-unknown-linux-gnu", cpu = "spacemit-x60", features = "+m,+a,+f,+d,+c,+v,-zvl256b", vector_bits = 128, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<20x37xf32>, memref<37x40xf32>) outs(%C : memref<20x40xf32>)
  return
}

// -----

func.func @jalr(%A: memref<20x37xf32>, %B: memref<37x40xf32>, %C: memref<20x40xf32>) {
  // expected-error @+1 {{emitter 'llm_riscv_jalr' printed a kernel that is refused: instruction 1 'jalr a0' is a call}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 8, nc = 16, kc = 8, mr = 4, nr = 8, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "llm_riscv_jalr", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "riscv-rvv", triple = "riscv64-unknown-linux-gnu", cpu = "spacemit-x60", features = "+m,+a,+f,+d,+c,+v,-zvl256b", vector_bits = 128, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<20x37xf32>, memref<37x40xf32>) outs(%C : memref<20x40xf32>)
  return
}

// -----

func.func @jr(%A: memref<20x37xf32>, %B: memref<37x40xf32>, %C: memref<20x40xf32>) {
  // expected-error @+1 {{emitter 'llm_riscv_jr' printed a kernel that is refused: instruction 1 'jr a0' is a call or an indirect jump}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 8, nc = 16, kc = 8, mr = 4, nr = 8, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "llm_riscv_jr", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "riscv-rvv", triple = "riscv64-unknown-linux-gnu", cpu = "spacemit-x60", features = "+m,+a,+f,+d,+c,+v,-zvl256b", vector_bits = 128, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<20x37xf32>, memref<37x40xf32>) outs(%C : memref<20x40xf32>)
  return
}

// -----

func.func @ret(%A: memref<20x37xf32>, %B: memref<37x40xf32>, %C: memref<20x40xf32>) {
  // expected-error @+1 {{emitter 'llm_riscv_ret' printed a kernel that is refused: instruction 1 'ret' is a call or an indirect jump}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 8, nc = 16, kc = 8, mr = 4, nr = 8, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "llm_riscv_ret", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "riscv-rvv", triple = "riscv64-unknown-linux-gnu", cpu = "spacemit-x60", features = "+m,+a,+f,+d,+c,+v,-zvl256b", vector_bits = 128, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<20x37xf32>, memref<37x40xf32>) outs(%C : memref<20x40xf32>)
  return
}

// -----

func.func @call(%A: memref<20x37xf32>, %B: memref<37x40xf32>, %C: memref<20x40xf32>) {
  // expected-error @+1 {{emitter 'llm_riscv_call' printed a kernel that is refused: instruction 1 'call somewhere_else' is a call}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 8, nc = 16, kc = 8, mr = 4, nr = 8, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "llm_riscv_call", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "riscv-rvv", triple = "riscv64-unknown-linux-gnu", cpu = "spacemit-x60", features = "+m,+a,+f,+d,+c,+v,-zvl256b", vector_bits = 128, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<20x37xf32>, memref<37x40xf32>) outs(%C : memref<20x40xf32>)
  return
}

// -----

func.func @fence_i(%A: memref<20x37xf32>, %B: memref<37x40xf32>, %C: memref<20x40xf32>) {
  // expected-error @+1 {{emitter 'llm_riscv_fence_i' printed a kernel that is refused: instruction 1 'fence.i' is not on the microkernel allowlist}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 8, nc = 16, kc = 8, mr = 4, nr = 8, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "llm_riscv_fence_i", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "riscv-rvv", triple = "riscv64-unknown-linux-gnu", cpu = "spacemit-x60", features = "+m,+a,+f,+d,+c,+v,-zvl256b", vector_bits = 128, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<20x37xf32>, memref<37x40xf32>) outs(%C : memref<20x40xf32>)
  return
}

// -----

func.func @auipc(%A: memref<20x37xf32>, %B: memref<37x40xf32>, %C: memref<20x40xf32>) {
  // expected-error @+1 {{emitter 'llm_riscv_auipc' printed a kernel that is refused: instruction 1 'auipc a0, 0' is not on the microkernel allowlist}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 8, nc = 16, kc = 8, mr = 4, nr = 8, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "llm_riscv_auipc", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "riscv-rvv", triple = "riscv64-unknown-linux-gnu", cpu = "spacemit-x60", features = "+m,+a,+f,+d,+c,+v,-zvl256b", vector_bits = 128, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<20x37xf32>, memref<37x40xf32>) outs(%C : memref<20x40xf32>)
  return
}

// -----

func.func @sp(%A: memref<20x37xf32>, %B: memref<37x40xf32>, %C: memref<20x40xf32>) {
  // expected-error @+1 {{emitter 'llm_riscv_sp' printed a kernel that is refused: instruction 1 'sd a0, 0(sp)' uses the stack pointer (X2)}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 8, nc = 16, kc = 8, mr = 4, nr = 8, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "llm_riscv_sp", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "riscv-rvv", triple = "riscv64-unknown-linux-gnu", cpu = "spacemit-x60", features = "+m,+a,+f,+d,+c,+v,-zvl256b", vector_bits = 128, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<20x37xf32>, memref<37x40xf32>) outs(%C : memref<20x40xf32>)
  return
}

// -----

func.func @tp(%A: memref<20x37xf32>, %B: memref<37x40xf32>, %C: memref<20x40xf32>) {
  // expected-error @+1 {{emitter 'llm_riscv_tp' printed a kernel that is refused: instruction 1 'mv a0, tp' uses the thread pointer (X4)}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 8, nc = 16, kc = 8, mr = 4, nr = 8, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "llm_riscv_tp", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "riscv-rvv", triple = "riscv64-unknown-linux-gnu", cpu = "spacemit-x60", features = "+m,+a,+f,+d,+c,+v,-zvl256b", vector_bits = 128, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<20x37xf32>, memref<37x40xf32>) outs(%C : memref<20x40xf32>)
  return
}

// -----

func.func @insn(%A: memref<20x37xf32>, %B: memref<37x40xf32>, %C: memref<20x40xf32>) {
  // expected-error @+1 {{emitter 'llm_riscv_insn' printed a kernel that is refused: instruction 1 '.insn i 115, 0, zero, zero, 0' is not on the microkernel allowlist}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 8, nc = 16, kc = 8, mr = 4, nr = 8, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "llm_riscv_insn", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "riscv-rvv", triple = "riscv64-unknown-linux-gnu", cpu = "spacemit-x60", features = "+m,+a,+f,+d,+c,+v,-zvl256b", vector_bits = 128, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<20x37xf32>, memref<37x40xf32>) outs(%C : memref<20x40xf32>)
  return
}

// -----

func.func @word(%A: memref<20x37xf32>, %B: memref<37x40xf32>, %C: memref<20x40xf32>) {
  // expected-error @+1 {{emitter 'llm_riscv_word' printed a kernel that is refused: contains a data directive (.byte, .long, .inst, .fill, ...): bytes in the code could encode any instruction}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 8, nc = 16, kc = 8, mr = 4, nr = 8, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "llm_riscv_word", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "riscv-rvv", triple = "riscv64-unknown-linux-gnu", cpu = "spacemit-x60", features = "+m,+a,+f,+d,+c,+v,-zvl256b", vector_bits = 128, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<20x37xf32>, memref<37x40xf32>) outs(%C : memref<20x40xf32>)
  return
}

// -----

// CHECK-LABEL: func.func @benign
// CHECK: tensorop.ukernel
func.func @benign(%A: memref<20x37xf32>, %B: memref<37x40xf32>, %C: memref<20x40xf32>) {
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 8, nc = 16, kc = 8, mr = 4, nr = 8, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "llm_riscv_benign", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "riscv-rvv", triple = "riscv64-unknown-linux-gnu", cpu = "spacemit-x60", features = "+m,+a,+f,+d,+c,+v,-zvl256b", vector_bits = 128, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<20x37xf32>, memref<37x40xf32>) outs(%C : memref<20x40xf32>)
  return
}

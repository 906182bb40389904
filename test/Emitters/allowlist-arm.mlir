// The microkernel allowlist on AArch64 (NEON) (issue 12, item 1(a)): each split names a
// model-written emitter (llm_*, run sandboxed or, here, with limits only)
// whose kernel holds one hostile instruction or directive before a store;
// apply-sketch refuses it, naming the instruction, before anything is built.
// The benign kernel (vector loads, FMA, a counted loop) is accepted.
// RUN: rm -rf %t && %python %S/Inputs/hostile_kernels.py %t
// RUN: env TENSOROP_LLM_EMITTER_DIR=%t TENSOROP_ALLOW_UNSANDBOXED=1 TENSOROP_BWRAP=/nonexistent tensorop-opt %s -split-input-file -verify-diagnostics --tensorop-apply-sketch | FileCheck %s

func.func @svc(%A: memref<20x37xf32>, %B: memref<37x40xf32>, %C: memref<20x40xf32>) {
  // expected-error @+1 {{emitter 'llm_arm_svc' printed a kernel that is refused: instruction 1 'svc #0' is not on the microkernel allowlist}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 8, nc = 16, kc = 8, mr = 4, nr = 8, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "llm_arm_svc", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "arm-neon", triple = "aarch64-unknown-linux-gnu", cpu = "neoverse-n1", features = "+neon", vector_bits = 128, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<20x37xf32>, memref<37x40xf32>) outs(%C : memref<20x40xf32>)
  return
}

// -----

func.func @hvc(%A: memref<20x37xf32>, %B: memref<37x40xf32>, %C: memref<20x40xf32>) {
  // expected-error @+1 {{emitter 'llm_arm_hvc' printed a kernel that is refused: instruction 1 'hvc #0' is not on the microkernel allowlist}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 8, nc = 16, kc = 8, mr = 4, nr = 8, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "llm_arm_hvc", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "arm-neon", triple = "aarch64-unknown-linux-gnu", cpu = "neoverse-n1", features = "+neon", vector_bits = 128, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<20x37xf32>, memref<37x40xf32>) outs(%C : memref<20x40xf32>)
  return
}

// -----

func.func @brk(%A: memref<20x37xf32>, %B: memref<37x40xf32>, %C: memref<20x40xf32>) {
  // expected-error @+1 {{emitter 'llm_arm_brk' printed a kernel that is refused: instruction 1 'brk #0' is not on the microkernel allowlist}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 8, nc = 16, kc = 8, mr = 4, nr = 8, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "llm_arm_brk", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "arm-neon", triple = "aarch64-unknown-linux-gnu", cpu = "neoverse-n1", features = "+neon", vector_bits = 128, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<20x37xf32>, memref<37x40xf32>) outs(%C : memref<20x40xf32>)
  return
}

// -----

func.func @mrs(%A: memref<20x37xf32>, %B: memref<37x40xf32>, %C: memref<20x40xf32>) {
  // expected-error @+1 {{emitter 'llm_arm_mrs' printed a kernel that is refused: instruction 1 'mrs x0, TPIDR_EL0' is not on the microkernel allowlist}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 8, nc = 16, kc = 8, mr = 4, nr = 8, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "llm_arm_mrs", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "arm-neon", triple = "aarch64-unknown-linux-gnu", cpu = "neoverse-n1", features = "+neon", vector_bits = 128, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<20x37xf32>, memref<37x40xf32>) outs(%C : memref<20x40xf32>)
  return
}

// -----

func.func @msr(%A: memref<20x37xf32>, %B: memref<37x40xf32>, %C: memref<20x40xf32>) {
  // expected-error @+1 {{emitter 'llm_arm_msr' printed a kernel that is refused: instruction 1 'msr TPIDR_EL0, x0' is not on the microkernel allowlist}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 8, nc = 16, kc = 8, mr = 4, nr = 8, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "llm_arm_msr", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "arm-neon", triple = "aarch64-unknown-linux-gnu", cpu = "neoverse-n1", features = "+neon", vector_bits = 128, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<20x37xf32>, memref<37x40xf32>) outs(%C : memref<20x40xf32>)
  return
}

// -----

func.func @br(%A: memref<20x37xf32>, %B: memref<37x40xf32>, %C: memref<20x40xf32>) {
  // expected-error @+1 {{emitter 'llm_arm_br' printed a kernel that is refused: instruction 1 'br x0' is an indirect jump}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 8, nc = 16, kc = 8, mr = 4, nr = 8, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "llm_arm_br", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "arm-neon", triple = "aarch64-unknown-linux-gnu", cpu = "neoverse-n1", features = "+neon", vector_bits = 128, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<20x37xf32>, memref<37x40xf32>) outs(%C : memref<20x40xf32>)
  return
}

// -----

func.func @blr(%A: memref<20x37xf32>, %B: memref<37x40xf32>, %C: memref<20x40xf32>) {
  // expected-error @+1 {{emitter 'llm_arm_blr' printed a kernel that is refused: instruction 1 'blr x0' is a call}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 8, nc = 16, kc = 8, mr = 4, nr = 8, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "llm_arm_blr", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "arm-neon", triple = "aarch64-unknown-linux-gnu", cpu = "neoverse-n1", features = "+neon", vector_bits = 128, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<20x37xf32>, memref<37x40xf32>) outs(%C : memref<20x40xf32>)
  return
}

// -----

func.func @bl(%A: memref<20x37xf32>, %B: memref<37x40xf32>, %C: memref<20x40xf32>) {
  // expected-error @+1 {{emitter 'llm_arm_bl' printed a kernel that is refused: instruction 1 'bl somewhere_else' is a call}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 8, nc = 16, kc = 8, mr = 4, nr = 8, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "llm_arm_bl", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "arm-neon", triple = "aarch64-unknown-linux-gnu", cpu = "neoverse-n1", features = "+neon", vector_bits = 128, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<20x37xf32>, memref<37x40xf32>) outs(%C : memref<20x40xf32>)
  return
}

// -----

func.func @ret(%A: memref<20x37xf32>, %B: memref<37x40xf32>, %C: memref<20x40xf32>) {
  // expected-error @+1 {{emitter 'llm_arm_ret' printed a kernel that is refused: instruction 1 'ret' is a return}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 8, nc = 16, kc = 8, mr = 4, nr = 8, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "llm_arm_ret", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "arm-neon", triple = "aarch64-unknown-linux-gnu", cpu = "neoverse-n1", features = "+neon", vector_bits = 128, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<20x37xf32>, memref<37x40xf32>) outs(%C : memref<20x40xf32>)
  return
}

// -----

func.func @inst(%A: memref<20x37xf32>, %B: memref<37x40xf32>, %C: memref<20x40xf32>) {
  // expected-error @+1 {{emitter 'llm_arm_inst' printed a kernel that is refused: contains a data directive (.byte, .long, .inst, .fill, ...): bytes in the code could encode any instruction}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 8, nc = 16, kc = 8, mr = 4, nr = 8, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "llm_arm_inst", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "arm-neon", triple = "aarch64-unknown-linux-gnu", cpu = "neoverse-n1", features = "+neon", vector_bits = 128, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<20x37xf32>, memref<37x40xf32>) outs(%C : memref<20x40xf32>)
  return
}

// -----

func.func @ic(%A: memref<20x37xf32>, %B: memref<37x40xf32>, %C: memref<20x40xf32>) {
  // expected-error @+1 {{emitter 'llm_arm_ic' printed a kernel that is refused: instruction 1 'ic ivau, x0' is not on the microkernel allowlist}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 8, nc = 16, kc = 8, mr = 4, nr = 8, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "llm_arm_ic", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "arm-neon", triple = "aarch64-unknown-linux-gnu", cpu = "neoverse-n1", features = "+neon", vector_bits = 128, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<20x37xf32>, memref<37x40xf32>) outs(%C : memref<20x40xf32>)
  return
}

// -----

func.func @dc(%A: memref<20x37xf32>, %B: memref<37x40xf32>, %C: memref<20x40xf32>) {
  // expected-error @+1 {{emitter 'llm_arm_dc' printed a kernel that is refused: instruction 1 'dc civac, x0' is not on the microkernel allowlist}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 8, nc = 16, kc = 8, mr = 4, nr = 8, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "llm_arm_dc", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "arm-neon", triple = "aarch64-unknown-linux-gnu", cpu = "neoverse-n1", features = "+neon", vector_bits = 128, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<20x37xf32>, memref<37x40xf32>) outs(%C : memref<20x40xf32>)
  return
}

// -----

func.func @sp(%A: memref<20x37xf32>, %B: memref<37x40xf32>, %C: memref<20x40xf32>) {
  // expected-error @+1 {{emitter 'llm_arm_sp' printed a kernel that is refused: instruction 1 'str x0, [sp]' uses the stack pointer (SP)}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 8, nc = 16, kc = 8, mr = 4, nr = 8, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "llm_arm_sp", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "arm-neon", triple = "aarch64-unknown-linux-gnu", cpu = "neoverse-n1", features = "+neon", vector_bits = 128, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<20x37xf32>, memref<37x40xf32>) outs(%C : memref<20x40xf32>)
  return
}

// -----

func.func @adr(%A: memref<20x37xf32>, %B: memref<37x40xf32>, %C: memref<20x40xf32>) {
  // expected-error @+1 {{emitter 'llm_arm_adr' printed a kernel that is refused: instruction 1 'adr x0, ""' refers to a symbol or code address}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 8, nc = 16, kc = 8, mr = 4, nr = 8, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "llm_arm_adr", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "arm-neon", triple = "aarch64-unknown-linux-gnu", cpu = "neoverse-n1", features = "+neon", vector_bits = 128, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<20x37xf32>, memref<37x40xf32>) outs(%C : memref<20x40xf32>)
  return
}

// -----

// CHECK-LABEL: func.func @benign
// CHECK: tensorop.ukernel
func.func @benign(%A: memref<20x37xf32>, %B: memref<37x40xf32>, %C: memref<20x40xf32>) {
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 8, nc = 16, kc = 8, mr = 4, nr = 8, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "llm_arm_benign", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "arm-neon", triple = "aarch64-unknown-linux-gnu", cpu = "neoverse-n1", features = "+neon", vector_bits = 128, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<20x37xf32>, memref<37x40xf32>) outs(%C : memref<20x40xf32>)
  return
}

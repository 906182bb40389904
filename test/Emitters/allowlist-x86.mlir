// The microkernel allowlist on x86-64 (issue 12, item 1(a)): each split names a
// model-written emitter (llm_*, run sandboxed or, here, with limits only)
// whose kernel holds one hostile instruction or directive before a store;
// apply-sketch refuses it, naming the instruction, before anything is built.
// The benign kernel (vector loads, FMA, a counted loop) is accepted.
// RUN: rm -rf %t && %python %S/Inputs/hostile_kernels.py %t
// RUN: env TENSOROP_LLM_EMITTER_DIR=%t TENSOROP_ALLOW_UNSANDBOXED=1 TENSOROP_BWRAP=/nonexistent tensorop-opt %s -split-input-file -verify-diagnostics --tensorop-apply-sketch | FileCheck %s

func.func @syscall(%A: memref<20x37xf32>, %B: memref<37x40xf32>, %C: memref<20x40xf32>) {
  // expected-error @+1 {{emitter 'llm_x86_syscall' printed a kernel that is refused: instruction 2 'syscall' is not on the microkernel allowlist}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "llm_x86_syscall", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<20x37xf32>, memref<37x40xf32>) outs(%C : memref<20x40xf32>)
  return
}

// -----

func.func @sysenter(%A: memref<20x37xf32>, %B: memref<37x40xf32>, %C: memref<20x40xf32>) {
  // expected-error @+1 {{emitter 'llm_x86_sysenter' printed a kernel that is refused: instruction 1 'sysenter' is not on the microkernel allowlist}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "llm_x86_sysenter", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<20x37xf32>, memref<37x40xf32>) outs(%C : memref<20x40xf32>)
  return
}

// -----

func.func @int80(%A: memref<20x37xf32>, %B: memref<37x40xf32>, %C: memref<20x40xf32>) {
  // expected-error @+1 {{emitter 'llm_x86_int80' printed a kernel that is refused: instruction 1 'int $128' is not on the microkernel allowlist}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "llm_x86_int80", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<20x37xf32>, memref<37x40xf32>) outs(%C : memref<20x40xf32>)
  return
}

// -----

func.func @int3(%A: memref<20x37xf32>, %B: memref<37x40xf32>, %C: memref<20x40xf32>) {
  // expected-error @+1 {{emitter 'llm_x86_int3' printed a kernel that is refused: instruction 1 'int3' is not on the microkernel allowlist}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "llm_x86_int3", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<20x37xf32>, memref<37x40xf32>) outs(%C : memref<20x40xf32>)
  return
}

// -----

func.func @ud2(%A: memref<20x37xf32>, %B: memref<37x40xf32>, %C: memref<20x40xf32>) {
  // expected-error @+1 {{emitter 'llm_x86_ud2' printed a kernel that is refused: instruction 1 'ud2' is not on the microkernel allowlist}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "llm_x86_ud2", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<20x37xf32>, memref<37x40xf32>) outs(%C : memref<20x40xf32>)
  return
}

// -----

func.func @hlt(%A: memref<20x37xf32>, %B: memref<37x40xf32>, %C: memref<20x40xf32>) {
  // expected-error @+1 {{emitter 'llm_x86_hlt' printed a kernel that is refused: instruction 1 'hlt' is not on the microkernel allowlist}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "llm_x86_hlt", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<20x37xf32>, memref<37x40xf32>) outs(%C : memref<20x40xf32>)
  return
}

// -----

func.func @rdtsc(%A: memref<20x37xf32>, %B: memref<37x40xf32>, %C: memref<20x40xf32>) {
  // expected-error @+1 {{emitter 'llm_x86_rdtsc' printed a kernel that is refused: instruction 1 'rdtsc' is not on the microkernel allowlist}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "llm_x86_rdtsc", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<20x37xf32>, memref<37x40xf32>) outs(%C : memref<20x40xf32>)
  return
}

// -----

func.func @cpuid(%A: memref<20x37xf32>, %B: memref<37x40xf32>, %C: memref<20x40xf32>) {
  // expected-error @+1 {{emitter 'llm_x86_cpuid' printed a kernel that is refused: instruction 1 'cpuid' is not on the microkernel allowlist}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "llm_x86_cpuid", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<20x37xf32>, memref<37x40xf32>) outs(%C : memref<20x40xf32>)
  return
}

// -----

func.func @wrmsr(%A: memref<20x37xf32>, %B: memref<37x40xf32>, %C: memref<20x40xf32>) {
  // expected-error @+1 {{emitter 'llm_x86_wrmsr' printed a kernel that is refused: instruction 1 'wrmsr' is not on the microkernel allowlist}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "llm_x86_wrmsr", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<20x37xf32>, memref<37x40xf32>) outs(%C : memref<20x40xf32>)
  return
}

// -----

func.func @vmcall(%A: memref<20x37xf32>, %B: memref<37x40xf32>, %C: memref<20x40xf32>) {
  // expected-error @+1 {{emitter 'llm_x86_vmcall' printed a kernel that is refused: instruction 1 'vmcall' is not on the microkernel allowlist}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "llm_x86_vmcall", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<20x37xf32>, memref<37x40xf32>) outs(%C : memref<20x40xf32>)
  return
}

// -----

func.func @rep_movsb(%A: memref<20x37xf32>, %B: memref<37x40xf32>, %C: memref<20x40xf32>) {
  // expected-error @+1 {{emitter 'llm_x86_rep_movsb' printed a kernel that is refused: instruction 1 'rep movsb (%rsi), %es:(%rdi)' is not on the microkernel allowlist}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "llm_x86_rep_movsb", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<20x37xf32>, memref<37x40xf32>) outs(%C : memref<20x40xf32>)
  return
}

// -----

func.func @call_reg(%A: memref<20x37xf32>, %B: memref<37x40xf32>, %C: memref<20x40xf32>) {
  // expected-error @+1 {{emitter 'llm_x86_call_reg' printed a kernel that is refused: instruction 1 'callq *%rax' is a call}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "llm_x86_call_reg", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<20x37xf32>, memref<37x40xf32>) outs(%C : memref<20x40xf32>)
  return
}

// -----

func.func @call_label(%A: memref<20x37xf32>, %B: memref<37x40xf32>, %C: memref<20x40xf32>) {
  // expected-error @+1 {{emitter 'llm_x86_call_label' printed a kernel that is refused: instruction 1 'callq .Ltmp0' is a call}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "llm_x86_call_label", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<20x37xf32>, memref<37x40xf32>) outs(%C : memref<20x40xf32>)
  return
}

// -----

func.func @ret(%A: memref<20x37xf32>, %B: memref<37x40xf32>, %C: memref<20x40xf32>) {
  // expected-error @+1 {{emitter 'llm_x86_ret' printed a kernel that is refused: instruction 1 'retq' is a return}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "llm_x86_ret", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<20x37xf32>, memref<37x40xf32>) outs(%C : memref<20x40xf32>)
  return
}

// -----

func.func @jmp_reg(%A: memref<20x37xf32>, %B: memref<37x40xf32>, %C: memref<20x40xf32>) {
  // expected-error @+1 {{emitter 'llm_x86_jmp_reg' printed a kernel that is refused: instruction 1 'jmpq *%rax' is an indirect jump}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "llm_x86_jmp_reg", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<20x37xf32>, memref<37x40xf32>) outs(%C : memref<20x40xf32>)
  return
}

// -----

func.func @jmp_mem(%A: memref<20x37xf32>, %B: memref<37x40xf32>, %C: memref<20x40xf32>) {
  // expected-error @+1 {{emitter 'llm_x86_jmp_mem' printed a kernel that is refused: instruction 1 'jmpq *(%rdi)' is an indirect jump}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "llm_x86_jmp_mem", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<20x37xf32>, memref<37x40xf32>) outs(%C : memref<20x40xf32>)
  return
}

// -----

func.func @jmp_outside(%A: memref<20x37xf32>, %B: memref<37x40xf32>, %C: memref<20x40xf32>) {
  // expected-error @+1 {{emitter 'llm_x86_jmp_outside' printed a kernel that is refused: instruction 1 'jmp somewhere_else' branches to 'somewhere_else', which the kernel does not define}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "llm_x86_jmp_outside", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<20x37xf32>, memref<37x40xf32>) outs(%C : memref<20x40xf32>)
  return
}

// -----

func.func @jmp_absolute(%A: memref<20x37xf32>, %B: memref<37x40xf32>, %C: memref<20x40xf32>) {
  // expected-error @+1 {{emitter 'llm_x86_jmp_absolute' printed a kernel that is refused: instruction 1 'jmp 4198400' branches to no label of the kernel}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "llm_x86_jmp_absolute", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<20x37xf32>, memref<37x40xf32>) outs(%C : memref<20x40xf32>)
  return
}

// -----

func.func @push(%A: memref<20x37xf32>, %B: memref<37x40xf32>, %C: memref<20x40xf32>) {
  // expected-error @+1 {{emitter 'llm_x86_push' printed a kernel that is refused: instruction 1 'pushq %rax' uses the stack pointer (RSP)}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "llm_x86_push", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<20x37xf32>, memref<37x40xf32>) outs(%C : memref<20x40xf32>)
  return
}

// -----

func.func @rsp_write(%A: memref<20x37xf32>, %B: memref<37x40xf32>, %C: memref<20x40xf32>) {
  // expected-error @+1 {{emitter 'llm_x86_rsp_write' printed a kernel that is refused: instruction 1 'movq %rax, %rsp' uses the stack pointer (RSP)}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "llm_x86_rsp_write", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<20x37xf32>, memref<37x40xf32>) outs(%C : memref<20x40xf32>)
  return
}

// -----

func.func @rsp_memory(%A: memref<20x37xf32>, %B: memref<37x40xf32>, %C: memref<20x40xf32>) {
  // expected-error @+1 {{emitter 'llm_x86_rsp_memory' printed a kernel that is refused: instruction 1 'movq %rax, 8(%rsp)' uses the stack pointer (RSP)}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "llm_x86_rsp_memory", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<20x37xf32>, memref<37x40xf32>) outs(%C : memref<20x40xf32>)
  return
}

// -----

func.func @rip_write(%A: memref<20x37xf32>, %B: memref<37x40xf32>, %C: memref<20x40xf32>) {
  // expected-error @+1 {{emitter 'llm_x86_rip_write' printed a kernel that is refused: instruction 1 'movq %rax, (%rip)' uses the instruction pointer, for PC-relative addressing (RIP)}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "llm_x86_rip_write", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<20x37xf32>, memref<37x40xf32>) outs(%C : memref<20x40xf32>)
  return
}

// -----

func.func @rip_lea(%A: memref<20x37xf32>, %B: memref<37x40xf32>, %C: memref<20x40xf32>) {
  // expected-error @+1 {{emitter 'llm_x86_rip_lea' printed a kernel that is refused: instruction 1 'leaq .Ltmp0(%rip), %rax' refers to a symbol or code address}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "llm_x86_rip_lea", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<20x37xf32>, memref<37x40xf32>) outs(%C : memref<20x40xf32>)
  return
}

// -----

func.func @label_value(%A: memref<20x37xf32>, %B: memref<37x40xf32>, %C: memref<20x40xf32>) {
  // expected-error @+1 {{emitter 'llm_x86_label_value' printed a kernel that is refused: instruction 1 'movabsq $.Ltmp0, %rax' refers to a symbol or code address}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "llm_x86_label_value", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<20x37xf32>, memref<37x40xf32>) outs(%C : memref<20x40xf32>)
  return
}

// -----

func.func @fs(%A: memref<20x37xf32>, %B: memref<37x40xf32>, %C: memref<20x40xf32>) {
  // expected-error @+1 {{emitter 'llm_x86_fs' printed a kernel that is refused: instruction 1 'movq %fs:40, %rax' uses a segment register (FS)}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "llm_x86_fs", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<20x37xf32>, memref<37x40xf32>) outs(%C : memref<20x40xf32>)
  return
}

// -----

func.func @absolute(%A: memref<20x37xf32>, %B: memref<37x40xf32>, %C: memref<20x40xf32>) {
  // expected-error @+1 {{emitter 'llm_x86_absolute' printed a kernel that is refused: instruction 1 'movq %rax, 6295552' reads or writes an absolute address}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "llm_x86_absolute", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<20x37xf32>, memref<37x40xf32>) outs(%C : memref<20x40xf32>)
  return
}

// -----

func.func @byte(%A: memref<20x37xf32>, %B: memref<37x40xf32>, %C: memref<20x40xf32>) {
  // expected-error @+1 {{emitter 'llm_x86_byte' printed a kernel that is refused: contains a data directive (.byte, .long, .inst, .fill, ...): bytes in the code could encode any instruction}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "llm_x86_byte", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<20x37xf32>, memref<37x40xf32>) outs(%C : memref<20x40xf32>)
  return
}

// -----

func.func @section(%A: memref<20x37xf32>, %B: memref<37x40xf32>, %C: memref<20x40xf32>) {
  // expected-error @+1 {{emitter 'llm_x86_section' printed a kernel that is refused: contains a section directive (the kernel must stay in its text section)}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "llm_x86_section", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<20x37xf32>, memref<37x40xf32>) outs(%C : memref<20x40xf32>)
  return
}

// -----

func.func @p2alignw(%A: memref<20x37xf32>, %B: memref<37x40xf32>, %C: memref<20x40xf32>) {
  // expected-error @+1 {{emitter 'llm_x86_p2alignw' printed a kernel that is refused: contains alignment with an explicit fill value (use .p2align N without one)}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "llm_x86_p2alignw", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<20x37xf32>, memref<37x40xf32>) outs(%C : memref<20x40xf32>)
  return
}

// -----

func.func @nop(%A: memref<20x37xf32>, %B: memref<37x40xf32>, %C: memref<20x40xf32>) {
  // expected-error @+1 {{emitter 'llm_x86_nop' printed a kernel that is refused: never stores to memory: a microkernel must write its C tile}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "llm_x86_nop", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<20x37xf32>, memref<37x40xf32>) outs(%C : memref<20x40xf32>)
  return
}

// -----

// CHECK-LABEL: func.func @benign
// CHECK: tensorop.ukernel
func.func @benign(%A: memref<20x37xf32>, %B: memref<37x40xf32>, %C: memref<20x40xf32>) {
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "llm_x86_benign", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<20x37xf32>, memref<37x40xf32>) outs(%C : memref<20x40xf32>)
  return
}

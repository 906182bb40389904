// A broken emitter script is an error on the matmul, with the script's own
// words where it gave any; nothing it printed is cached. Each directory under
// Inputs/bad_emitters/ holds one broken x86_gemm_fma.py.

// RUN: rm -rf %t && mkdir -p %t
// RUN: not env TENSOROP_CACHE_DIR=%t tensorop-opt %s --tensorop-apply-sketch="emitter-dir=%S/Inputs/bad_emitters/exit_nonzero" 2>&1 | FileCheck %s --check-prefix=EXIT
// EXIT:      emitter-failures.mlir:{{[0-9]+}}:3: error: emitter 'x86_gemm_fma' failed (exit 3)
// EXIT-NEXT: bad_emitter: simulated crash while emitting

// RUN: not env TENSOROP_CACHE_DIR=%t tensorop-opt %s --tensorop-apply-sketch="emitter-dir=%S/Inputs/bad_emitters/not_json" 2>&1 | FileCheck %s --check-prefix=NOTJSON
// NOTJSON: error: emitter 'x86_gemm_fma' printed an invalid answer: not JSON ({{.*}}Invalid JSON value)

// RUN: not env TENSOROP_CACHE_DIR=%t tensorop-opt %s --tensorop-apply-sketch="emitter-dir=%S/Inputs/bad_emitters/empty_output" 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: error: emitter 'x86_gemm_fma' printed an invalid answer: not JSON ({{.*}}Unexpected EOF)

// RUN: not env TENSOROP_CACHE_DIR=%t tensorop-opt %s --tensorop-apply-sketch="emitter-dir=%S/Inputs/bad_emitters/missing_field" 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: error: emitter 'x86_gemm_fma' printed an invalid answer: field 'asm' is missing, empty or not a string

// RUN: not env TENSOROP_CACHE_DIR=%t tensorop-opt %s --tensorop-apply-sketch="emitter-dir=%S/Inputs/bad_emitters/bad_dialect" 2>&1 | FileCheck %s --check-prefix=DIALECT
// DIALECT: error: emitter 'x86_gemm_fma' printed an invalid answer: field 'dialect' must be "att" or "intel"

// RUN: not env TENSOROP_CACHE_DIR=%t tensorop-opt %s --tensorop-apply-sketch="emitter-dir=%S/Inputs/bad_emitters/refuses" 2>&1 | FileCheck %s --check-prefix=REFUSES
// REFUSES: error: emitter 'x86_gemm_fma' refused the spec: mr 6 is not supported by this emitter

// RUN: not env TENSOROP_CACHE_DIR=%t tensorop-opt %s --tensorop-apply-sketch="emitter-dir=%S/Inputs/bad_emitters/wrong_mr" 2>&1 | FileCheck %s --check-prefix=WRONGMR
// WRONGMR: error: emitter 'x86_gemm_fma' printed an invalid answer: field 'mr' is 4 but 6 was asked for

// The constraints must follow the operand contract (UKernelOperands.h): seven
// register outputs, each tied to its input, then clobbers.
// RUN: not env TENSOROP_CACHE_DIR=%t tensorop-opt %s --tensorop-apply-sketch="emitter-dir=%S/Inputs/bad_emitters/untied_operand" 2>&1 | FileCheck %s --check-prefix=UNTIED
// UNTIED: error: emitter 'x86_gemm_fma' printed an invalid answer: constraints '=r,=r,=r,=r,=r,=r,=r,0,1,r,3,4,5,6,~{memory}' break the 7-operand contract (=r x7, then 0...6, then ~{clobbers}): entry 9 is 'r', not the tied input '2'

// The assembler of the sketch's target checks the code before it is used.
// RUN: not env TENSOROP_CACHE_DIR=%t tensorop-opt %s --tensorop-apply-sketch="emitter-dir=%S/Inputs/bad_emitters/bad_register" 2>&1 | FileCheck %s --check-prefix=REGISTER
// REGISTER:      error: emitter 'x86_gemm_fma' printed code that does not assemble for x86_64-unknown-linux-gnu (znver4, +avx512f,{{.*}}):
// REGISTER-NEXT: line 2: invalid register name
// REGISTER-NEXT: vfmadd231ps %zmm99, %zmm1, %zmm2

// RUN: not env TENSOROP_CACHE_DIR=%t tensorop-opt %s --tensorop-apply-sketch="emitter-dir=%S/Inputs/bad_emitters/bad_mnemonic" 2>&1 | FileCheck %s --check-prefix=MNEMONIC
// MNEMONIC:      error: emitter 'x86_gemm_fma' printed code that does not assemble for x86_64-unknown-linux-gnu
// MNEMONIC-NEXT: line 1: invalid instruction mnemonic 'vfrobnicateps'
// Operands are substituted by registers before assembling.
// MNEMONIC-NEXT: vfrobnicateps (%rsi), %zmm0

// RUN: not env TENSOROP_CACHE_DIR=%t tensorop-opt %s --tensorop-apply-sketch="emitter-dir=%S/Inputs/bad_emitters/operand_out_of_range" 2>&1 | FileCheck %s --check-prefix=OPERAND
// OPERAND: error: emitter 'x86_gemm_fma' {{.*}}uses operand $20 but the kernel has only 7 operands

// A script that never answers is killed after emitter-timeout seconds.
// RUN: not env TENSOROP_CACHE_DIR=%t tensorop-opt %s --tensorop-apply-sketch="emitter-dir=%S/Inputs/bad_emitters/hangs emitter-timeout=2" 2>&1 | FileCheck %s --check-prefix=TIMEOUT
// TIMEOUT: error: emitter 'x86_gemm_fma' timed out after 2 s

// RUN: not env TENSOROP_CACHE_DIR=%t tensorop-opt %s --tensorop-apply-sketch="emitter-dir=%S/Inputs/bad_emitters/does_not_exist" 2>&1 | FileCheck %s --check-prefix=NODIR
// NODIR: error: emitter 'x86_gemm_fma' not found: {{.*}}bad_emitters{{/|\\}}does_not_exist{{/|\\}}x86_gemm_fma.py does not exist

// A directory that exists but has no script of that name.
// RUN: not env TENSOROP_CACHE_DIR=%t tensorop-opt %s --tensorop-apply-sketch="emitter-dir=%S/Inputs/bad_emitters" 2>&1 | FileCheck %s --check-prefix=NOSCRIPT
// NOSCRIPT: error: emitter 'x86_gemm_fma' not found: {{.*}}bad_emitters{{/|\\}}x86_gemm_fma.py does not exist

// TENSOROP_EMITTER_DIR is the default emitter-dir.
// RUN: not env TENSOROP_CACHE_DIR=%t TENSOROP_EMITTER_DIR=%S/Inputs/bad_emitters/refuses tensorop-opt %s --tensorop-apply-sketch 2>&1 | FileCheck %s --check-prefix=REFUSES
// The option wins over the environment.
// RUN: not env TENSOROP_CACHE_DIR=%t TENSOROP_EMITTER_DIR=%S/Inputs/bad_emitters/refuses tensorop-opt %s --tensorop-apply-sketch="emitter-dir=%S/Inputs/bad_emitters/wrong_mr" 2>&1 | FileCheck %s --check-prefix=WRONGMR

// The same failures again: nothing was cached, so the scripts run and fail
// again with the same words, and the cache holds no file at all.
// RUN: not env TENSOROP_CACHE_DIR=%t tensorop-opt %s --tensorop-apply-sketch="emitter-dir=%S/Inputs/bad_emitters/exit_nonzero" 2>&1 | FileCheck %s --check-prefix=EXIT
// RUN: not env TENSOROP_CACHE_DIR=%t tensorop-opt %s --tensorop-apply-sketch="emitter-dir=%S/Inputs/bad_emitters/wrong_mr" 2>&1 | FileCheck %s --check-prefix=WRONGMR
// RUN: not env TENSOROP_CACHE_DIR=%t tensorop-opt %s --tensorop-apply-sketch="emitter-dir=%S/Inputs/bad_emitters/bad_register" 2>&1 | FileCheck %s --check-prefix=REGISTER
// RUN: find %t -type f | count 0

// With -verify-diagnostics: the error is on the matmul, and there is no
// other diagnostic.
// RUN: env TENSOROP_CACHE_DIR=%t tensorop-opt %s -verify-diagnostics --tensorop-apply-sketch="emitter-dir=%S/Inputs/bad_emitters/refuses"

func.func @gemm(%A: memref<50x37xf32>, %B: memref<37x70xf32>, %C: memref<50x70xf32>) {
  // expected-error @+1 {{emitter 'x86_gemm_fma' refused the spec: mr 6 is not supported by this emitter}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<50x37xf32>, memref<37x70xf32>) outs(%C : memref<50x70xf32>)
  return
}

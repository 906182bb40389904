// RUN: tensorop-opt %s -split-input-file -verify-diagnostics
// Illegal fused epilogues are rejected where they are written.

// -----

// expected-error @+1 {{unknown epilogue step 'gelu'}}
func.func @f() attributes {e = #tensorop.epilogue<steps = ["bias_n", "gelu"]>} {
  return
}

// -----

// expected-error @+1 {{epilogue step 'scale' takes 1 argument(s), got 0}}
func.func @f() attributes {e = #tensorop.epilogue<steps = ["scale"]>} {
  return
}

// -----

// expected-error @+1 {{epilogue step 'clamp(6, 0)': lo > hi}}
func.func @f() attributes {e = #tensorop.epilogue<steps = ["clamp(6, 0)"]>} {
  return
}

// -----

// expected-error @+1 {{an epilogue takes at most one bias (bias_n or bias_m)}}
func.func @f() attributes {e = #tensorop.epilogue<steps = ["bias_n", "bias_m"]>} {
  return
}

// -----

// expected-error @+1 {{an epilogue takes at most one residual}}
func.func @f() attributes {e = #tensorop.epilogue<steps = ["residual", "residual"]>} {
  return
}

// -----

// expected-error @+1 {{an epilogue needs at least one step}}
func.func @f() attributes {e = #tensorop.epilogue<steps = []>} {
  return
}

// -----

// expected-error @+1 {{'inf' is not a finite number}}
func.func @f() attributes {e = #tensorop.epilogue<steps = ["scale(inf)"]>} {
  return
}

// -----

// Finite as a double but not as the f32 the kernels compute the steps in:
// it became inf in the kernel.
// expected-error @+1 {{epilogue step 'scale(1e40)': '1e40' is out of range for f32, the type the epilogue computes in (at most 3.4e38 in magnitude)}}
func.func @f() attributes {e = #tensorop.epilogue<steps = ["scale(1e40)"]>} {
  return
}

// -----

// expected-error @+1 {{epilogue step 'clamp(-3.5e38, 0)': '-3.5e38' is out of range for f32}}
func.func @f() attributes {e = #tensorop.epilogue<steps = ["bias_n", "clamp(-3.5e38, 0)"]>} {
  return
}

// -----

// The largest f32 and a number that rounds to it are in range.
func.func @f() attributes {e = #tensorop.epilogue<steps = ["scale(3.4028234e38)", "clamp(-3.40282356e38, 1e-45)"]>} {
  return
}

// -----

// expected-error @+1 {{epilogue steps must be strings}}
func.func @f() attributes {e = #tensorop.epilogue<steps = [1]>} {
  return
}

// -----

func.func @f(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) {
  // expected-error @+1 {{a sketch epilogue needs the x86_gemm_fma, riscv_gemm_rvv or arm_gemm_neon emitter (the ones with a fused epilogue), got 'llm_gemm'}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 96, nc = 256, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "llm_gemm", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "arm-neon", triple = "aarch64-unknown-linux-gnu", cpu = "generic", features = "+neon", vector_bits = 128, vector_registers = 32>, source = "t", epilogue = #tensorop.epilogue<steps = ["relu"]>>} ins(%A, %B : memref<8x8xf32>, memref<8x8xf32>) outs(%C : memref<8x8xf32>)
  return
}

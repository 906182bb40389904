# A timing module for one GEMM + epilogue shape: @gemm from
# gen_epilogue_test.py (tensor form), main calls it REPS times between
# rtclock() reads and prints the seconds per call (best of 5 batches).
import os, subprocess, sys
m, n, k, steps, reps = sys.argv[1:6]
src = subprocess.run([sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "test", "Integration", "gen_epilogue_test.py"),
                      m, n, k, "--steps=" + steps], capture_output=True, text=True, check=True).stdout
gemm = src[:src.index("func.func @main")]
m, n, k = int(m), int(n), int(k)
blen = m if "bias_m" in steps else n
print(gemm)
print(f"""
func.func private @rtclock() -> f64
func.func @main() {{
  %A = memref.alloc() : memref<{m}x{k}xf32>
  %B = memref.alloc() : memref<{k}x{n}xf32>
  %V = memref.alloc() : memref<{blen}xf32>
  %R = memref.alloc() : memref<{m}x{n}xf32>
  %C = memref.alloc() : memref<{m}x{n}xf32>
  %h = arith.constant 0.25 : f32
  linalg.fill ins(%h : f32) outs(%A : memref<{m}x{k}xf32>)
  linalg.fill ins(%h : f32) outs(%B : memref<{k}x{n}xf32>)
  linalg.fill ins(%h : f32) outs(%V : memref<{blen}xf32>)
  linalg.fill ins(%h : f32) outs(%R : memref<{m}x{n}xf32>)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %reps = arith.constant {reps} : index
  %repsf = arith.constant {reps}.0 : f64
  %inf = arith.constant 1.0e9 : f64
  call @gemm(%A, %B, %V, %R, %C) : (memref<{m}x{k}xf32>, memref<{k}x{n}xf32>, memref<{blen}xf32>, memref<{m}x{n}xf32>, memref<{m}x{n}xf32>) -> ()
  %best = scf.for %b = %c0 to %c5 step %c1 iter_args(%bst = %inf) -> (f64) {{
    %t0 = func.call @rtclock() : () -> f64
    scf.for %i = %c0 to %reps step %c1 {{
      func.call @gemm(%A, %B, %V, %R, %C) : (memref<{m}x{k}xf32>, memref<{k}x{n}xf32>, memref<{blen}xf32>, memref<{m}x{n}xf32>, memref<{m}x{n}xf32>) -> ()
    }}
    %t1 = func.call @rtclock() : () -> f64
    %d = arith.subf %t1, %t0 : f64
    %per = arith.divf %d, %repsf : f64
    %nb = arith.minimumf %bst, %per : f64
    scf.yield %nb : f64
  }}
  vector.print %best : f64
  return
}}""")

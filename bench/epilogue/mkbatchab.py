#!/usr/bin/env python3
"""Writes bench/epilogue/batch_ab.sh's module: @fused (a batch_matmul and
its consumers right after it: run per slice and fused into each slice's
microkernel) and @unfused (the same ops with a store to a dummy buffer in
between, so the decomposition does not see them: a separate 3-D pass over
C), both on memrefs, called alternately by @main; prints each round's
seconds and max |fused - unfused|. AA=1 makes both unfused.
usage: mkbatchab.py BATCH M N K relu|gelu|gelu_res REPS"""
import os
import sys

# The test's generators: the steps' MLIR and the seeded fill.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "test", "Integration"))
from seeded_fill import fill_seeded  # noqa: E402
from gen_epilogue_test import step_code  # noqa: E402

bs, m, n, k = map(int, sys.argv[1:5])
steps = sys.argv[5]  # relu | gelu | gelu_res
reps = int(sys.argv[6]) if len(sys.argv) > 6 else 20
at, bt, ct = f"{bs}x{m}x{k}xf32", f"{bs}x{k}x{n}xf32", f"{bs}x{m}x{n}xf32"
idm = "affine_map<(d0, d1, d2) -> (d0, d1, d2)>"
vm = "affine_map<(d0, d1, d2) -> (d2)>"
def consumers():
    act, out = step_code("relu" if steps == "relu" else "gelu_tanh", "%y", "f32",
                         None, None, 0)
    text = f"""  linalg.generic {{indexing_maps = [{vm}, {idm}], iterator_types = ["parallel", "parallel", "parallel"]}} ins(%bias : memref<{n}xf32>) outs(%C : memref<{ct}>) {{
  ^bb0(%b: f32, %x: f32):
    %y = arith.addf %x, %b : f32
{act}    linalg.yield {out} : f32
  }}
"""
    if steps == "gelu_res":
        text += f"""  linalg.generic {{indexing_maps = [{idm}, {idm}], iterator_types = ["parallel", "parallel", "parallel"]}} ins(%R : memref<{ct}>) outs(%C : memref<{ct}>) {{
  ^bb0(%r: f32, %x: f32):
    %y = arith.addf %x, %r : f32
    linalg.yield %y : f32
  }}
"""
    return text
sig = f"%A: memref<{at}>, %B: memref<{bt}>, %bias: memref<{n}xf32>, %R: memref<{ct}>, %C: memref<{ct}>, %D: memref<1xf32>"
AA = os.environ.get("AA") == "1"
STORE = "  %c0 = arith.constant 0 : index\n  memref.store %zero, %D[%c0] : memref<1xf32>\n"
for name, block in (("fused", STORE if AA else ""), ("unfused", "  %c0 = arith.constant 0 : index\n  memref.store %zero, %D[%c0] : memref<1xf32>\n")):
    print(f"""func.func @{name}({sig}) {{
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<{ct}>)
  linalg.batch_matmul ins(%A, %B : memref<{at}>, memref<{bt}>) outs(%C : memref<{ct}>)
{block}{consumers()}  return
}}""")
consts = sorted({0, 1, 65536, bs, m, n, k, 1000, 2000, 3000, 4000, reps})
args = "%A, %B, %V, %R"
types = f"memref<{at}>, memref<{bt}>, memref<{n}xf32>, memref<{ct}>, memref<{ct}>, memref<1xf32>"
print(f"""func.func private @rtclock() -> f64
func.func @main() {{
{chr(10).join(f"  %c{v} = arith.constant {v} : index" for v in consts)}
  %golden = arith.constant 2654435761 : index
  %inv32768 = arith.constant 3.0517578125e-05 : f32
  %f1 = arith.constant 1.0 : f32
  %nan = arith.constant 0x7FC00000 : f32
  %A = memref.alloc() {{alignment = 64}} : memref<{at}>
  %B = memref.alloc() {{alignment = 64}} : memref<{bt}>
  %V = memref.alloc() {{alignment = 64}} : memref<{n}xf32>
  %R = memref.alloc() {{alignment = 64}} : memref<{ct}>
  %C1 = memref.alloc() {{alignment = 64}} : memref<{ct}>
  %C2 = memref.alloc() {{alignment = 64}} : memref<{ct}>
  %D = memref.alloc() : memref<1xf32>
{fill_seeded("A", (bs, m, k), 1)}{fill_seeded("B", (bs, k, n), 2)}{fill_seeded("V", (n,), 3)}{fill_seeded("R", (bs, m, n), 4)}
  linalg.fill ins(%nan : f32) outs(%C1 : memref<{ct}>)
  linalg.fill ins(%nan : f32) outs(%C2 : memref<{ct}>)
  %c11 = arith.constant 21 : index
  scf.for %round = %c0 to %c11 step %c1 {{
    %t0 = func.call @rtclock() : () -> f64
    scf.for %r = %c0 to %c{reps} step %c1 {{
      func.call @fused({args}, %C1, %D) : ({types}) -> ()
    }}
    %t1 = func.call @rtclock() : () -> f64
    scf.for %r = %c0 to %c{reps} step %c1 {{
      func.call @unfused({args}, %C2, %D) : ({types}) -> ()
    }}
    %t2 = func.call @rtclock() : () -> f64
    %df = arith.subf %t1, %t0 : f64
    %du = arith.subf %t2, %t1 : f64
    vector.print str "round "
    vector.print %df : f64
    vector.print %du : f64
  }}
  %zero = arith.constant 0.0 : f32
  %mx = scf.for %i = %c0 to %c{bs} step %c1 iter_args(%a0 = %zero) -> (f32) {{
    %mi = scf.for %j = %c0 to %c{m} step %c1 iter_args(%a1 = %a0) -> (f32) {{
      %mj = scf.for %l = %c0 to %c{n} step %c1 iter_args(%a2 = %a1) -> (f32) {{
        %x = memref.load %C1[%i, %j, %l] : memref<{ct}>
        %y = memref.load %C2[%i, %j, %l] : memref<{ct}>
        %d = arith.subf %x, %y : f32
        %ad = math.absf %d : f32
        %m2 = arith.maxnumf %a2, %ad : f32
        %isn = arith.cmpf uno, %x, %y : f32
        %big = arith.constant 1.0e30 : f32
        %m3 = arith.select %isn, %big, %m2 : f32
        scf.yield %m3 : f32
      }}
      scf.yield %mj : f32
    }}
    scf.yield %mi : f32
  }}
  vector.print str "max_abs_diff "
  vector.print %mx : f32
  return
}}""")

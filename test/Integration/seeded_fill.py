"""The seeded fill the epilogue test generators share (gen_epilogue_test.py,
gen_batch_epilogue_test.py, bench/epilogue/mkbatchab.py): MLIR loops that
store reproducible values in [-1, 1), negative ones included, into a static
row-major memref, so that a program checks itself without input files."""


def fill_seeded(name, shape, salt, elem="f32"):
    """Loops storing the seeded values into memref %name (element type elem,
    the given static shape, row-major): element l (its row-major linear
    index) gets ((l + salt*1000) * golden mod 65536) / 32768 - 1, computed
    in f32 and, for elem other than f32, rounded once to elem (arith.truncf).
    Needs %c0, %c1, the constants %cD of every extent D and of salt*1000,
    %c65536, %golden, %inv32768 and %f1 in scope."""
    idx = ["%i0", "%i1", "%i2"][:len(shape)]
    text = "".join(f"  scf.for {iv} = %c0 to %c{d} step %c1 {{\n" for iv, d in zip(idx, shape))
    lin = "%c0"
    for d, iv in enumerate(idx):
        text += (f"    %l{salt}m{d} = arith.muli {lin}, %c{shape[d]} : index\n"
                 f"    %l{salt}a{d} = arith.addi %l{salt}m{d}, {iv} : index\n")
        lin = f"%l{salt}a{d}"
    value = f"%v{salt}"
    text += f"""    %h{salt}a = arith.addi {lin}, %c{salt}000 : index
    %h{salt}b = arith.muli %h{salt}a, %golden : index
    %h{salt}c = arith.remui %h{salt}b, %c65536 : index
    %h{salt}d = arith.index_cast %h{salt}c : index to i64
    %h{salt}e = arith.sitofp %h{salt}d : i64 to f32
    %h{salt}f = arith.mulf %h{salt}e, %inv32768 : f32
    %v{salt} = arith.subf %h{salt}f, %f1 : f32
"""
    if elem != "f32":
        text += f"    %t{salt} = arith.truncf %v{salt} : f32 to {elem}\n"
        value = f"%t{salt}"
    text += (f"    memref.store {value}, %{name}[{', '.join(idx)}] : "
             f"memref<{'x'.join(map(str, shape))}x{elem}>\n")
    return text + "  }\n" * len(shape)

//===- TensorOpOps.td - tensorop operations -----------------*- tablegen -*-===//

#ifndef TENSOROP_OPS_TD
#define TENSOROP_OPS_TD

include "TensorOpBase.td"
include "TensorOpAttrs.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

class TensorOp_Op<string mnemonic, list<Trait> traits = []>
    : Op<TensorOp_Dialect, mnemonic, traits>;

def TensorOp_UKernelOp : TensorOp_Op<"ukernel", [AttrSizedOperandSegments]> {
  let summary = "A register-blocked GEMM microkernel printed by an emitter";
  let description = [{
    Computes, for `r < m_rem` and `j < n_rem`,
    `C[r][j] += sum_{k < kc} A_panel[k][r] * B_panel[k][j]`, where the A panel
    holds `mr` floats per k and the B panel `nr` floats per k (both packed
    k-major), and C is a row-major tile with unit inner stride. Elements of C
    outside `m_rem` x `n_rem` are not touched. With a sketch's
    `pack_b = "none"`, `b` is instead a view of B itself (rows k, columns
    from the tile's first); the code was emitted for B's row stride and
    reads only its first `n_rem` columns. Only B's address reaches the code.
    Likewise with `pack_a = "none"`, `a` is a view of A itself (rows from the
    tile's first, columns k); the code was emitted for A's row stride and
    reads only its first `m_rem` rows; with `a_stride_operand` the code
    takes A's row stride (in bytes, from `a`'s layout at run time) as its
    last asm operand instead: a strided view whose row stride is dynamic.
    Likewise `b_stride_operand` for B read in place (its stride after A's).

    With a fused epilogue (`#tensorop.epilogue` on the sketch) the op also
    takes the epilogue block (`epilogue`, the eighth asm operand: bias and
    residual addresses, the constants, a spill tile; layout in
    python_emitters/tensorop_emit/epilogue.py), the tile's `bias` (a vector
    from the tile's first row or column) and `residual` (the tile's view of
    R); tensorop-lower-ukernel writes their addresses into the block before
    the code runs. With an output step (`to_bf16` / `to_f16`, the
    epilogue's last) it also takes `out`, the tile's view of the 16-bit
    output the rounded values go to (C, fp32, keeps the partial sums of
    earlier K blocks and is read, not written).
    With `b_panel_out` (the fused copy of B, kernels emitted with
    `store_b_panel`), `b` is a view of B itself read in place as with
    `pack_b = "none"`, and the code also stores every B vector it loads to
    `b_panel_out`, a packed panel of `nr` floats per k (`kc` rows), laid out
    and filled exactly as the packing pass fills a `"kmajor_nr"` panel
    (zeros past `n_rem`): the packed-B kernels of the block's other row
    tiles then read it. It is the eighth asm operand; it goes with no
    epilogue, and only with a kernel whose constraints declare eight
    operands (the verifier checks).
    For a bf16 GEMM (kernel `gemm_bf16`), A and B are i32 panels whose
    elements each hold a bf16 k pair (low half first) and `kc` counts k
    pairs: `C[r][j] += sum_{p < kc} A[2p][r] * B[2p][j] + A[2p+1][r] *
    B[2p+1][j]`.

    The op carries the code an emitter script printed (`asm`, in the syntax
    named by `dialect`) with its LLVM inline-asm `constraints`; the seven
    operands of the assembly are, in order: A panel, B panel, C (as 64-bit
    addresses), kc, the row stride of C in bytes, m_rem and n_rem.
    `tensorop-lower-ukernel` splices it in as `llvm.inline_asm`.

    ```mlir
    tensorop.ukernel "x86_avx512_f32_6x64_u4_explicit"
        a(%ap : memref<384x6xf32>) b(%bp : memref<384x64xf32>)
        c(%c : memref<?x?xf32, strided<[1024, 1], offset: ?>>)
        kc(%kc) m_rem(%m) n_rem(%n)
        {asm = "...", constraints = "...", mr = 6, nr = 64, ...}
    ```
  }];
  let arguments = (ins
    StrAttr:$kernel_name,
    Arg<AnyMemRef, "packed A panel", [MemRead]>:$a,
    Arg<AnyMemRef, "packed B panel", [MemRead]>:$b,
    Arg<AnyMemRef, "C tile", [MemRead, MemWrite]>:$c,
    Index:$kc, Index:$m_rem, Index:$n_rem,
    Arg<Optional<AnyMemRef>, "epilogue block", [MemRead, MemWrite]>:$epilogue,
    Arg<Optional<AnyMemRef>, "bias vector of the tile", [MemRead]>:$bias,
    Arg<Optional<AnyMemRef>, "residual tile", [MemRead]>:$residual,
    Arg<Optional<AnyMemRef>, "16-bit output tile", [MemWrite]>:$out,
    Arg<Optional<AnyMemRef>, "packed B panel the code writes", [MemWrite]>:$b_panel_out,
    StrAttr:$asm_string,
    StrAttr:$constraints,
    StrAttr:$asm_dialect,
    I64Attr:$mr, I64Attr:$nr,
    StrAttr:$emitter_hash,
    UnitAttr:$a_stride_operand,
    UnitAttr:$b_stride_operand);
  let assemblyFormat = [{
    $kernel_name `a` `(` $a `:` type($a) `)` `b` `(` $b `:` type($b) `)`
    `c` `(` $c `:` type($c) `)` `kc` `(` $kc `)` `m_rem` `(` $m_rem `)`
    `n_rem` `(` $n_rem `)`
    (`epilogue` `(` $epilogue^ `:` type($epilogue) `)`)?
    (`bias` `(` $bias^ `:` type($bias) `)`)?
    (`residual` `(` $residual^ `:` type($residual) `)`)?
    (`out` `(` $out^ `:` type($out) `)`)?
    (`b_panel_out` `(` $b_panel_out^ `:` type($b_panel_out) `)`)? attr-dict
  }];
  let hasVerifier = 1;
}

#endif // TENSOROP_OPS_TD

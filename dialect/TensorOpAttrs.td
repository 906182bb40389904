//===- TensorOpAttrs.td - Target and sketch attributes -----*- tablegen -*-===//

#ifndef TENSOROP_ATTRS_TD
#define TENSOROP_ATTRS_TD

include "TensorOpBase.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

class TensorOp_Attr<string name, string attrMnemonic>
    : AttrDef<TensorOp_Dialect, name> {
  let mnemonic = attrMnemonic;
}

def TensorOp_TargetAttr : TensorOp_Attr<"Target", "target"> {
  let summary = "The hardware a kernel is generated for";
  let description = [{
    A target as read from `hints/<name>.json`: the LLVM triple, CPU and
    features the code is built for, and the vector register file the
    register-block legality checks use.

    ```mlir
    #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu",
                     cpu = "znver4", features = "+avx512f,+avx512bw",
                     vector_bits = 512, vector_registers = 32>
    ```
  }];
  let parameters = (ins
    StringRefParameter<"target name, e.g. x86-avx512">:$name,
    StringRefParameter<"LLVM target triple">:$triple,
    StringRefParameter<"LLVM CPU name">:$cpu,
    StringRefParameter<"LLVM target features">:$features,
    "int64_t":$vector_bits,
    "int64_t":$vector_registers);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Number of f32 lanes in one vector register.
    int64_t getF32Lanes() const { return getVectorBits() / 32; }
  }];
}

def TensorOp_UKernelSpecAttr : TensorOp_Attr<"UKernelSpec", "ukernel_spec"> {
  let summary = "Which microkernel an emitter prints, and its variant knobs";
  let description = [{
    Names the emitter family (a script in `python_emitters/`) and the variant
    knobs it offers: the K unroll factor, how A elements are broadcast, and
    the software prefetch distance on the B panel (0: none).

    Two prefetches along rows read in place (x86_gemm_fma; default 0, then
    not printed): `prefetch_b_cols`, B's current row this many columns
    right of the register block (what a sweep along N reads next; needs
    `pack_b = "none"` and `prefetch_b = 0`), and `prefetch_a`, each row of
    A this many k values ahead (rows streamed over a long K; needs
    `pack_a = "none"`). Where the target's hints set
    `blocking.few_rows_prefetch_spread` and a sketch in micro order "nm"
    prefetches two or more tiles ahead, the lowering shares the
    `prefetch_b_cols` prefetches among the row blocks of each column tile
    (row block b issues those of the k steps u with u mod P = b mod P),
    with no field of its own.
  }];
  let parameters = (ins
    StringRefParameter<"emitter family, e.g. x86_gemm_fma">:$emitter,
    "int64_t":$k_unroll,
    StringRefParameter<"explicit or embedded">:$broadcast,
    "int64_t":$prefetch_b,
    DefaultValuedParameter<"int64_t", "0",
                           "B prefetch, columns ahead in the row">:$prefetch_b_cols,
    DefaultValuedParameter<"int64_t", "0",
                           "A prefetch, k values ahead in each row">:$prefetch_a);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def TensorOp_EpilogueAttr : TensorOp_Attr<"Epilogue", "epilogue"> {
  let summary = "Elementwise steps fused into a GEMM microkernel's store";
  let description = [{
    What the microkernel applies to each element `x` of C after the last K
    panel (`x` = C's initial value plus A*B), in order, before it writes C
    once. `tensorop-fuse-epilogues` finds them in an elementwise consumer
    of a `linalg.matmul` and records them on the matmul's sketch:

    * `"bias_n"`: `x += bias[col]` (a vector of N); `"bias_m"`:
      `x += bias[row]` (a vector of M); at most one of the two;
    * `"residual"`: `x += R[row][col]` (an M x N operand); at most one;
    * `"scale(s)"`: `x *= s`; `"clamp(lo, hi)"`: `min(max(x, lo), hi)`;
    * `"relu"`, `"tanh"`, `"sigmoid"`, `"silu"` (`x * sigmoid(x)`),
      `"gelu_tanh"` (`0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))`),
      `"gelu_erf"` (`0.5 x (1 + erf(x / sqrt(2)))`). The microkernel
      computes tanh and erf with odd rational approximations (absolute
      error <= 3.3e-7 and <= 4.2e-7 in fp32; see docs/Epilogues.md).
    * `"to_bf16"` / `"to_f16"` (last only, x86 AVX-512 sketches): the
      output step of a consumer that narrows the f32 C with one
      `arith.truncf`: `x` is rounded to nearest even and written to that
      consumer's 16-bit output, not to C (which keeps the fp32 partial
      sums of the K blocks before the last).

    ```mlir
    #tensorop.epilogue<steps = ["bias_n", "gelu_erf", "residual"]>
    ```

    The verifier rejects an empty list, unknown steps, an output step
    other than last, wrong argument
    counts, non-finite arguments, `clamp` with lo > hi and a second bias
    or residual.
  }];
  let parameters = (ins "::mlir::ArrayAttr":$steps);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def TensorOp_NTailAttr : TensorOp_Attr<"NTail", "n_tail"> {
  let summary = "A kernel vectorized along K for the last columns of a GEMM";
  let description = [{
    The last `columns` columns of C, computed apart from the others by the
    K-vectorized kernel (`x86_gemm_kdot`, AVX-512 fp32) in `mr` x `nr`
    blocks (`nr` at most `columns`): B's last columns are copied transposed (each column's K values
    contiguous), A's rows read in place, each C element reduced
    horizontally once after all of K. The broadcast kernels vectorize
    along N, so a remainder of N mod 16 columns costs them a whole vector
    per row and k step, mostly idle lanes (84x34x131: 14 of every 48); the
    K-vectorized kernel spends about columns * (K/16 + 2) vector
    instructions per row instead of K. `threads`: the team that runs the
    tail's rows (1: the calling thread), chosen for the tail's own flops.

    ```mlir
    n_tail = <columns = 2, mr = 12, nr = 2,
              ukernel = <emitter = "x86_gemm_kdot", k_unroll = 2,
                         broadcast = "none", prefetch_b = 0>>
    ```
  }];
  let parameters = (ins
    "int64_t":$columns,
    "int64_t":$mr,
    "int64_t":$nr,
    "UKernelSpecAttr":$ukernel,
    DefaultValuedParameter<"int64_t", "1", "threads running the tail">:$threads);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def TensorOp_SketchAttr : TensorOp_Attr<"Sketch", "sketch"> {
  let summary = "Tiling, loop order, packing and microkernel of one GEMM";
  let description = [{
    The sketch an advisor chose for one `linalg.matmul`:

    * cache tiles `mc`, `nc`, `kc` (level 1) and the register block `mr` x
      `nr` (level 0, the microkernel's C tile);
    * `loop_order`: the order of the three cache-tile loops, a permutation of
      "mnk" (outermost first); `micro_order`: the order of the two register
      block loops inside a cache tile, "mn" or "nm";
    * `pack_a` / `pack_b`: packing layouts. `"kmajor_mr"` packs A into
      panels of `mr` rows stored k-major (`[M/mr][kc][mr]`);
      `"kmajor_nr"` packs B into panels of `nr` columns stored k-major
      (`[N/nr][kc][nr]`). Edge panels are zero-padded. `pack_b = "none"`
      skips the B packing: the microkernel reads B in place, a row of `nr`
      columns per k with B's own (static) row stride, and masks the loads
      of the last, narrower column block so that nothing past B is read.
      This saves the copy of B but reads B with a large stride (more TLB
      and cache misses on large matrices); it needs an x86 target, the
      `x86_gemm_fma` emitter, `nr` <= 7 vectors and, on AVX2, one vector
      register beyond the register block's for the mask; applying it to a GEMM
      that reads B transposed is an error, and a B whose columns are not
      adjacent is packed anyway (with a remark). `pack_a = "none"` likewise
      skips the A packing: the microkernel broadcasts A's elements from `mr`
      rows in place (A's static row stride is compiled into the code as
      displacements, so it needs no register more), and an M edge block
      (fewer than `mr` rows left) runs a K loop that reads only the rows
      that exist, so nothing past A is read. It needs an x86 target and the
      `x86_gemm_fma` emitter; applying it to a GEMM that reads A transposed
      is an error, and an A whose elements along K are not adjacent (or
      whose row stride is not static) is packed anyway (with a remark).
      Both may be "none" at once. `pack_b = "transposed"` goes with the
      `x86_gemm_kdot` emitter only (AVX-512 fp32, few columns): B is copied
      once per call into an N x K buffer (read in place where it is stored
      N x K), `pack_a = "none"` and broadcast `"none"`, each kernel call
      covering all of K. `pack_b = "kmajor_nr_shared"` (threads >
      1 only) packs B into the same panels but shares them among the
      threads: the n and k cache-tile loops run outside the thread team, and
      for each (k, n) block one `scf.forall` packs the B block into a single
      buffer (each thread a contiguous share of its panels), then a second
      runs the threads' chunks of C on it. The forall joins are the
      barriers: two OpenMP fork/joins per block, against one packed copy of
      B per thread in the default form. The chunks are rows of C while each
      thread gets at least 32 rows, otherwise (thin M) columns of each B
      block; with k outside n in `loop_order`, a chunk packs its A rows once
      per K block. bf16 and f16 inputs and a fused epilogue work as with
      `"kmajor_nr"`;
      `pack_b = "kmajor_nr_fused"` packs B into the same `"kmajor_nr"`
      panels without a packing pass: each B block's first row tile reads B
      in place (as with `"none"`) and stores what it loads into the panels
      (`tensorop.ukernel`'s `b_panel_out`), the block's other row tiles read
      them; C is bit-identical to `"kmajor_nr"`'s. It needs an AVX-512 x86
      target, the `x86_gemm_fma` emitter and `nr` <= 7 vectors; the
      ukernel's `prefetch_b_cols` then applies to the first row tile. fp32
      only, B stored K x N with a static row stride and no fused epilogue:
      otherwise B is packed by its pass, with a remark;
    * `ukernel`: the microkernel emitter and its variant;
    * `target`: the target it is legal for;
    * `source`: who chose it ("builtin", "llm:<model>", "db:<hash>", ...);
    * `threads`: how many threads run the GEMM (default 1, then not
      printed). With more than one, C is split into that many chunks of
      rows (of columns when the row chunks would be thinner than 32 and N
      has more register blocks), each run by one thread with its own
      packing buffers: an `scf.forall` that the pipeline lowers to OpenMP
      (with `pack_b = "kmajor_nr_shared"`, two per cache block, sharing the
      packed B);
    * `epilogue` (optional): a `#tensorop.epilogue` fused into the
      microkernel's store after the last K panel (set by
      `tensorop-fuse-epilogues`; the x86_gemm_fma, riscv_gemm_rvv and
      arm_gemm_neon emitters).
    * `n_tail` (optional): a `#tensorop.n_tail`, the last columns of C
      computed by a kernel vectorized along K (x86 AVX-512, fp32, A stored
      M x K, B stored K x N, no epilogue); the rest of the sketch then
      describes the GEMM of the first N - columns columns. (Set by the
      builtin advisor where N mod 16 would leave most lanes of a last
      vector idle; `tensorop-fuse-epilogues` removes it, with a remark,
      when it fuses an epilogue.)

    The verifier rejects non-positive tiles or thread counts, orders that are not
    permutations, cache tiles that are not multiples of the register block,
    register blocks that do not fit the target's register file and
    `pack_a = "none"` / `pack_b = "none"` / `pack_b = "kmajor_nr_fused"`
    where the target or emitter cannot read A / B unpacked,
    `pack_b = "kmajor_nr_shared"` on one thread, and an `n_tail` whose
    kernel is not `x86_gemm_kdot`, whose block does not fit the target's
    registers, on a target without 512-bit vectors, next to an epilogue or
    on a sketch that is itself K-vectorized.
  }];
  let parameters = (ins
    "int64_t":$mc, "int64_t":$nc, "int64_t":$kc,
    "int64_t":$mr, "int64_t":$nr,
    StringRefParameter<"cache-tile loop order">:$loop_order,
    StringRefParameter<"register-block loop order">:$micro_order,
    StringRefParameter<"A packing layout">:$pack_a,
    StringRefParameter<"B packing layout">:$pack_b,
    "UKernelSpecAttr":$ukernel,
    "TargetAttr":$target,
    StringRefParameter<"provenance of the choice">:$source,
    DefaultValuedParameter<"int64_t", "1", "threads running the GEMM">:$threads,
    OptionalParameter<"EpilogueAttr", "fused epilogue">:$epilogue,
    OptionalParameter<"NTailAttr", "kernel of the last columns">:$n_tail);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// This sketch with `epilogue` (null: none).
    SketchAttr withEpilogue(EpilogueAttr epilogue) const;
    /// This sketch with `nTail` (null: none).
    SketchAttr withNTail(NTailAttr nTail) const;
    /// Vector registers the register block needs: accumulators, B vectors
    /// and the broadcast register(s).
    int64_t getVectorRegistersNeeded() const;
  }];
}

def TensorOp_ConvSketchAttr : TensorOp_Attr<"ConvSketch", "conv_sketch"> {
  let summary = "Blocking, reduction and packing of one 2-D convolution";
  let description = [{
    The sketch an advisor chose for one `linalg.conv_2d_nhwc_hwcf` (input
    N x H x W x C, filter R x S x C x F, output N x OH x OW x F), computed
    the brgemm way: each output row (n, oh) is cut into register blocks of
    `mr` consecutive output pixels x `nr` output channels, and a block
    accumulates, for every filter tap (r, s) and channel block, a GEMM of
    A = `mr` input pixels (read with the convolution's stride) x `cb`
    channels by B = filter[r][s] (`cb` x `nr`). Zero padding costs no copy:
    a tap reads only the pixels whose input column lies inside the image
    (the others would multiply zeros) and a tap row outside the image is
    skipped.

    * `mr` x `nr`: the register block (output pixels x output channels);
    * `cb`: input channels one microkernel call reduces over (the K of its
      GEMM); channel blocks beyond the first are reduced by further calls;
    * `taps`: `"one"`: one filter tap per microkernel call (C accumulated in
      memory between taps); `"row"`: the `S` taps of a filter row in one
      call, the block held in registers across them (strided input rows,
      the tap's offset compiled into the code), used wherever all `mr`
      pixels see every tap of the row; blocks at the image's left or right
      edge fall back to one tap per call; `"window"`: all R*S taps and all
      channels in one call (the S taps of a filter row are S*C consecutive
      floats of the input row and of the filter, so a row is one reduction
      over K = S*C; the R rows follow as taps an input row apart), the
      block loaded and stored once instead of once per filter row; on a
      padded layer the input rows of a block of output rows are first
      copied between zero columns (rows outside the image: zeros) into a
      per-thread strip of (W + PL + PR) x C-float rows, filled once per
      block (blocks sized so the strip stays within 128 KB; one output
      row's R rows where blocks would not copy less), and every block is
      one call reading the strip (its rows the taps); without padding the
      calls read the input in place; needs dilation 1 along W, `cb`
      covering all channels and dense NHWC input and HWCF filter (located
      error otherwise);
    * `loop_order`: `"pf"`: for each pixel block, every channel block (the
      input pixels stay in L1); `"fp"`: for each channel block, every pixel
      block (the filter block stays in L1/L2); `"fcp"`: for each panel of
      `nr` output channels, for each channel block, every output row and
      pixel block: with `pack_filter = "kmajor_nr"` each (panel, channel
      block) is packed in the loop nest into a buffer of R*S*`cb`*`nr`
      that stays in L2 while all rows pass over it (filters larger than
      L2); on one thread where N*OH*OW <= 128 a group of panels at a time
      (as many as make 512 bytes of each filter row, 4 at `nr` = 32: the
      buffer holds the group's blocks; with more threads, and in the
      prepacked entry, one panel's blocks of `cb` times that many
      channels, at most 512), and threads split the panels instead of the
      rows when there are as many panels as threads;
    * `pack_input`: `"none"`: the microkernel reads the input in place
      (x86_gemm_fma only); `"kmajor_mr"`: each tap's `mr` pixels are
      copied into a k-major panel first;
    * `pack_filter`: `"kmajor_nr"`: the filter is packed once into panels of
      `nr` channels (zero-padded at the F edge), the taps of a channel block
      adjacent; `"none"`: read in place (x86_gemm_fma only, `nr` <= 7
      vectors, with `taps = "row"` only where `cb` covers all channels);
    * `ukernel`, `target`, `source` as in `#tensorop.sketch`;
    * `threads`: output rows (n, oh) (or, see `"fcp"`, filter panels) are
      split into that many chunks, each run by one thread (default 1, then
      not printed);
    * `epilogue` (optional): a `#tensorop.epilogue` fused into the
      microkernel's store (set by `tensorop-fuse-epilogues` from the
      convolution's elementwise consumer): each output element gets the
      steps once, by the call that adds its last filter tap of the last
      channel block (pixels that no tap reaches, inside a wide zero
      padding, by a call over no channels); `"bias_n"` is a bias per output
      channel (F floats), `"residual"` an N x OH x OW x F operand.

    ```mlir
    #tensorop.conv_sketch<mr = 14, nr = 32, cb = 256, taps = "row",
        loop_order = "pf", pack_input = "none", pack_filter = "kmajor_nr",
        ukernel = #tensorop.ukernel_spec<...>, target = #tensorop.target<...>,
        source = "builtin">
    ```
    The verifier checks what holds whatever convolution the sketch is
    applied to, naming the field: positive blocks, `nr` a multiple of the
    lanes, the register budget, known `taps`, `loop_order` and layouts, and
    the emitter and target the in-place reads and `taps = "row"` or
    `"window"` need;
    for an `epilogue`: the x86_gemm_fma emitter (the only convolution
    microkernel that applies one), no `"bias_m"` (a convolution's bias is
    per output channel) and `nr` within one mask register per vector
    (at most 7 vectors on AVX-512, 10 on AVX2).
  }];
  let parameters = (ins
    "int64_t":$mr, "int64_t":$nr, "int64_t":$cb,
    StringRefParameter<"filter taps per microkernel call">:$taps,
    StringRefParameter<"pixel/channel block loop order">:$loop_order,
    StringRefParameter<"input packing layout">:$pack_input,
    StringRefParameter<"filter packing layout">:$pack_filter,
    "UKernelSpecAttr":$ukernel,
    "TargetAttr":$target,
    StringRefParameter<"provenance of the choice">:$source,
    DefaultValuedParameter<"int64_t", "1", "threads running the convolution">:$threads,
    OptionalParameter<"EpilogueAttr", "fused epilogue">:$epilogue);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// This sketch with `epilogue` (null: none).
    ConvSketchAttr withEpilogue(EpilogueAttr epilogue) const;
  }];
}

def TensorOp_GpuSketchAttr : TensorOp_Attr<"GpuSketch", "gpu_sketch"> {
  let summary = "Kernel shape of one GEMM on an NVIDIA GPU";
  let description = [{
    What an advisor chose for one `linalg.matmul` on an NVIDIA target
    (`nvidia-sm80`, `nvidia-sm90`):

    * `kernel`: the kernel family and the emitter script that prints it:
      `"wgmma"` (`nvidia_gemm_wgmma`: TMA + warp-specialized wgmma, sm_90a),
      `"mma_sync"` (`nvidia_gemm_mma`: cp.async + ldmatrix + mma.sync,
      sm_80 and later), `"ffma"` (`nvidia_gemm_ffma`: plain fp32);
    * `precision`: the multiply precision (`"bf16"`, `"f16"`, `"tf32"` or
      `"f32"`); fp32 accumulation always;
    * the CTA tile `block_m` x `block_n` x `block_k`; `warps_m` x `warps_n`
      warps (mma_sync) or `consumers` consumer warpgroups (wgmma; one more
      warpgroup produces); `stages` shared-memory stages; `group_m` tile
      rows per L2 group of the tile order; `ctas`: a persistent grid of
      that many CTAs (0: one CTA per tile);
    * `target` and `source` as in `#tensorop.sketch`;
    * `cluster_m` x `cluster_n` (wgmma; default 1 x 1, then not printed):
      thread-block clusters of that many CTAs (at most 2 in all) that
      compute neighbouring tiles down (`cluster_m`) or across
      (`cluster_n`) and multicast the tile they share (B, or A) into each
      other's shared memory with TMA;
    * `epilogue` (optional, `wgmma` and `mma_sync` only): the elementwise
      steps `tensorop-fuse-epilogues` found after the matmul
      (`#tensorop.epilogue`), applied to the fp32 accumulators before C is
      converted and stored; the bias and residual become kernel parameters;
    * `store` (wgmma; default `"global"`, then not printed): how C leaves
      the kernel. `"global"`: each thread stores its accumulator pairs to
      global memory; `"smem_tma"`: the tile (after the epilogue, in C's
      type) is written to a 128-byte-swizzled shared-memory buffer with
      `stmatrix` (`st.shared` for f32 C) and stored by TMA
      (`cp.async.bulk.tensor`), overlapped with the next tile's main loop;
      two 8 KiB buffers per consumer warpgroup. Not with `split_k` > 1;
    * `split_k` (wgmma, and ffma on sm_90; default 1, then not printed):
      2 or 4 CTAs of a
      cluster share a tile's K: whole waves of tiles run data-parallel and
      the tiles of the last partial wave are split, each rank computing
      one range of K; the fp32 partial tiles are reduced through
      distributed shared memory, each rank summing its share of the tile
      in rank order (deterministic) and storing it. The plain, narrow
      (`block_n` 16 or 32) and few-rows kernels take it. No
      `cluster_m`/`cluster_n` with it; 4 only with at most 96 accumulator
      registers per consumer thread. The builtin advisor picks 2 where its
      wave or streaming model says the split is cheaper (docs/GPU.md);
    * kernel `"gemv"` (`nvidia_gemv`, sm_80 and sm_90, bf16/f16/f32/tf32,
      M <= 16; tf32 is computed in full fp32 FMAs there):
      `block_m` (<= 8) rows x `block_n` (16, 32, 64) columns of C per CTA,
      `warps_n` (4, 8, 16) warps split K in chunks of `block_k` (8, 16)
      rows, summed through shared memory in a fixed tree order; `warps_m` =
      1, `consumers` = 0, `stages` = 2, `group_m` = 1, `ctas` = 0;
    * kernel `"ffma"` (plain fp32): `block_m`, `block_n` 32, 64 or 128
      (`block_n` also 256 with `block_m` 128 and 3-4 stages), `block_k`
      16, `stages` 2 (buffers filled through registers) or 3-4 (filled by
      cp.async).

    ```mlir
    #tensorop.gpu_sketch<kernel = "wgmma", precision = "bf16", block_m = 128,
        block_n = 256, block_k = 64, warps_m = 0, warps_n = 0, consumers = 2,
        stages = 4, group_m = 8, ctas = 132, target = #tensorop.target<...>,
        source = "builtin">
    ```
    The verifier checks what holds whatever GEMM the sketch is applied to,
    with a diagnostic that names the field: the kernel family and precision
    (`wgmma`: bf16/f16 on an sm_90 target; `mma_sync`: not plain f32;
    `ffma`: f32 only), positive tiles, `block_k` = 64, 1 or 2 `consumers`,
    `block_m` a multiple of 64 x `consumers` and `block_n` one of 64, 128,
    192, 256 (wgmma), 1..16 warps dividing the tile in steps of 16
    (mma_sync), `stages` in [2, 8], `group_m` in [1, 64], clusters (wgmma
    only) of at most 2 CTAs that fit in `ctas`, `store` `"global"` or
    `"smem_tma"` (wgmma only). What depends on the GEMM
    (the matmul's precision, TMA-aligned rows) and on the target's hints
    (shared memory for the stages) is checked when the sketch is applied
    (`tensorop-gpu-lower-matmul`), again naming the field.
  }];
  let parameters = (ins
    StringRefParameter<"kernel family">:$kernel,
    StringRefParameter<"multiply precision">:$precision,
    "int64_t":$block_m, "int64_t":$block_n, "int64_t":$block_k,
    "int64_t":$warps_m, "int64_t":$warps_n, "int64_t":$consumers,
    "int64_t":$stages, "int64_t":$group_m, "int64_t":$ctas,
    "TargetAttr":$target,
    StringRefParameter<"provenance of the choice">:$source,
    DefaultValuedParameter<"int64_t", "1", "CTAs of a cluster down M">:$cluster_m,
    DefaultValuedParameter<"int64_t", "1", "CTAs of a cluster across N">:$cluster_n,
    OptionalParameter<"EpilogueAttr", "fused epilogue">:$epilogue,
    StringRefParameter<"how C is stored", "\"global\"">:$store,
    DefaultValuedParameter<"int64_t", "1", "CTAs that split K">:$split_k);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// This sketch with `epilogue` (null: none).
    GpuSketchAttr withEpilogue(EpilogueAttr epilogue) const;
  }];
}

#endif // TENSOROP_ATTRS_TD

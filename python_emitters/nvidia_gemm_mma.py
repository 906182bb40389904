#!/usr/bin/env python3
"""Emit a multistage mma.sync GEMM kernel (sm_80 and later) as PTX.

C[M][N] = A[M][K] * B[K][N] (+ C when "accumulate"), all row-major and
contiguous, fp32 accumulation.  Inputs bf16 or f16 (mma.sync m16n8k16) or
fp32 rounded to tf32 (m16n8k8); output f32, bf16 or f16.

The kernel: a 1-D grid of BM x BN tiles in grouped (L2-friendly) order; 32 *
warps_m * warps_n threads; each warp owns a (BM/warps_m) x (BN/warps_n) block
of C in registers.  A `stages`-deep ring of shared-memory tiles is filled with
cp.async (16-byte chunks, zero-filled past the matrix edges through src-size)
and drained with ldmatrix (A; B transposed) and mma.sync.  Shared rows are
padded by 16 bytes (32 for tf32 B) so the 8 row addresses of an ldmatrix
fall in distinct banks.  When K or N is not a multiple of 16 bytes the tiles
are loaded element by element instead (any shape is correct).

Spec (JSON on stdin):
  name, m, n, k, a_dtype (bf16|f16|tf32), c_dtype (f32|bf16|f16),
  accumulate (false), sm (80|90),
  block_m, block_n, block_k, warps_m, warps_n, stages, group_m (8),
  tf32_round ("rna": cvt.rna.tf32 on every fragment, or "truncate"),
  epilogue ([]: fused steps applied to the fp32 accumulators before C is
  converted and stored, tensorop_emit/nvidia_epilogue.py)
Answer: JSON with the inline-asm body ("asm", operands $0=A $1=B $2=C as
64-bit addresses, then bias and R when the epilogue reads them, and last the
shared-memory window's 32-bit address, $3 without an epilogue), the
launch ("grid", "threads", "shared_bytes") and the kernel parameters.
--format=ptx prints a complete PTX module instead.
"""

from tensorop_emit.nvidia_conv import conv_geometry
from tensorop_emit.nvidia_epilogue import PtxEpilogue, parse_epilogue
from tensorop_emit.nvidia_ptx import (
    ELEM_BYTES, PtxBody, SpecError, ceil_div, common_spec, declare_store_temps,
    finish, gemm_answer, get_choice, get_int, grouped_tile, main, out_store)

FAMILY = "nvidia_gemm_mma"


def emit(spec, fmt):
    c = common_spec(spec, ("block_m", "block_n", "block_k", "warps_m", "warps_n",
                           "stages", "group_m", "tf32_round", "conv", "epilogue"))
    if c["a_dtype"] == "f32":
        raise SpecError("a_dtype", "plain fp32 has no mma.sync; use nvidia_gemm_ffma "
                                   "(or a_dtype \"tf32\")")
    m, n, k = c["m"], c["n"], c["k"]
    dt, cdt = c["a_dtype"], c["c_dtype"]
    tf32 = dt == "tf32"
    es = ELEM_BYTES[dt]
    oes = ELEM_BYTES[cdt]
    bm = get_int(spec, "block_m", default=128, lo=16, hi=256)
    bn = get_int(spec, "block_n", default=128, lo=16, hi=256)
    bk = get_int(spec, "block_k", default=32 if not tf32 else 16, lo=8, hi=128)
    wm = get_int(spec, "warps_m", default=2, lo=1, hi=8)
    wn = get_int(spec, "warps_n", default=4, lo=1, hi=8)
    stages = get_int(spec, "stages", default=4, lo=2, hi=8)
    group_m = get_int(spec, "group_m", default=8, lo=1, hi=64)
    # tf32: round the fp32 fragments to nearest (cvt.rna) or let the tensor
    # cores truncate (ignore the low 13 bits): fewer instructions, twice the
    # input rounding error.
    tf32_round = get_choice(spec, "tf32_round", ("rna", "truncate"), default="rna")
    rna = tf32 and tf32_round == "rna"
    kstep = 8 if tf32 else 16                    # K of one mma
    if bm % (16 * wm):
        raise SpecError("block_m", "must be a multiple of 16 * warps_m")
    if bn % (16 * wn):
        raise SpecError("block_n", "must be a multiple of 16 * warps_n")
    if (bk * es) % 32:
        raise SpecError("block_k", "must span a multiple of 32 bytes (16 bf16/f16, 8 tf32)")
    threads = 32 * wm * wn
    if threads > 1024:
        raise SpecError("warps_m", "more than 1024 threads")
    tm_w, tn_w = bm // wm, bn // wn              # warp tile
    mt, nt = tm_w // 16, tn_w // 8               # mma tiles per warp
    # Shared layout (bytes): row strides padded so ldmatrix rows hit distinct banks.
    sa = bk * es + 16
    sb = bn * es + (32 if tf32 else 16)
    a_stage = bm * sa
    b_stage = bk * sb
    stage = ceil_div(a_stage + b_stage, 128) * 128
    smem = stages * stage
    max_smem = 232448 if c["sm"] == 90 else 166912
    if smem > max_smem:
        raise SpecError("stages", "%d bytes of shared memory (more than %d)" % (smem, max_smem))
    ca = bk * es // 16                           # 16-byte chunks per A row
    cb = bn * es // 16                           # per B row
    if (bm * ca) % threads or threads % ca:
        raise SpecError("block_k", "A tile chunks (%d) do not divide among %d threads"
                        % (bm * ca, threads))
    if (bk * cb) % threads or threads % cb:
        raise SpecError("block_n", "B tile chunks (%d) do not divide among %d threads"
                        % (bk * cb, threads))
    na, nb = bm * ca // threads, bk * cb // threads
    epc = 16 // es                               # elements per chunk
    aligned = (k * es) % 16 == 0 and (n * es) % 16 == 0
    conv = conv_geometry(spec, m, n, k)
    steps = parse_epilogue(spec)
    if steps and conv is not None:
        raise SpecError("epilogue", "convolutions take no fused epilogue")
    conv_elements = False
    if conv is not None:
        # A row (output pixel) chunk of 8 channels never crosses a filter
        # tap when C is a multiple of 8: one computed address per chunk.
        # Other C (conv1's 3 channels): the 8 elements of a chunk are loaded
        # one by one, each at its own (tap, channel) address.
        if tf32:
            raise SpecError("a_dtype", "convolutions take bf16 or f16")
        if (n * es) % 16:
            raise SpecError("conv", "the filter is loaded in 16-byte chunks of 8 filters: F "
                                    "must be a multiple of 8 (got F=%d)" % conv["f"])
        conv_elements = conv["c"] % epc != 0
    tiles_m, tiles_n = ceil_div(m, bm), ceil_div(n, bn)
    kt_total = ceil_div(k, bk)
    acc_regs = mt * nt * 4
    # Two CTAs per SM when registers and shared memory allow it.
    # (at most 128 registers a thread then: only with 64 accumulators or fewer).
    minctas = 2 if (acc_regs <= 64 and threads * 128 * 2 <= 65536 and
                    2 * smem <= max_smem) else 1

    b = PtxBody()
    R = b.reg
    R("b64", "%qgA"), R("b64", "%qgB"), R("b64", "%qgC")
    R("b32", "%qsmem")
    R("b32", "%qtid"), R("b32", "%qlane"), R("b32", "%qwarp"), R("b32", "%qwm"), R("b32", "%qwn")
    R("b32", "%qbid"), R("b32", "%qtm"), R("b32", "%qtn"), R("b32", "%qt", 8)
    R("b32", "%qm0"), R("b32", "%qn0")
    R("pred", "%qp", 8)
    R("f32", "%qacc", acc_regs)
    R("b32", "%qfa", mt * 4)
    R("b32", "%qfb", nt * 2)
    R("b32", "%qkt"), R("b32", "%qkl"), R("b32", "%qslotc"), R("b32", "%qslotl")
    R("b32", "%qldA"), R("b32", "%qldB"), R("b32", "%qlaneA"), R("b32", "%qlaneB")
    R("b64", "%qpa", na), R("b64", "%qpb")          # global chunk pointers (A rows, B column)
    R("b32", "%qsa", na), R("b32", "%qsb", nb)      # per-chunk shared offsets
    R("pred", "%qrowa", na), R("pred", "%qcolb")
    R("b32", "%qka"), R("b32", "%qkb", nb), R("b32", "%qsz")
    R("b64", "%qg"), R("b64", "%qw64")
    R("b32", "%qs"), R("b32", "%qu", 4)
    R("b16", "%qh", 8)
    R("f32", "%qe", 4)
    R("b64", "%qcrow")
    if conv is not None:
        # per A row: input row/column of the window's corner; per k step:
        # the tap's row/column shift and channel
        R("b32", "%qih", na), R("b32", "%qiw", na), R("b32", "%qcv", 4)
        if conv_elements:
            R("b16", "%qhc", na * epc), R("pred", "%qpe")
    declare_store_temps(b)
    # A fused epilogue's operands (bias, R) follow A, B and C.
    ep = PtxEpilogue(b, steps, cdt, m, n, c["accumulate"], 3) if steps else None
    if ep:
        ep.declare(2 * mt)
    nparams = 3 + (len(ep.params) if ep else 0)

    b.comment("TensorOp %s: %dx%dx%d %s -> %s, block %dx%dx%d, warps %dx%d, %d stages%s"
              % (FAMILY, m, n, k, dt, cdt, bm, bn, bk, wm, wn, stages,
                 "" if aligned else ", element loads"))
    b.ins("mov.b64 %qgA, $0")
    b.ins("mov.b64 %qgB, $1")
    b.ins("mov.b64 %qgC, $2")
    b.ins("mov.u32 %%qsmem, $%d" % nparams)
    if ep:
        ep.load_operands()
    b.ins("mov.u32 %qtid, %tid.x")
    b.ins("and.b32 %qlane, %qtid, 31")
    b.ins("shr.u32 %qwarp, %qtid, 5")
    b.ins("rem.u32 %%qwm, %%qwarp, %d" % wm)
    b.ins("div.u32 %%qwn, %%qwarp, %d" % wm)
    b.ins("mov.u32 %qbid, %ctaid.x")
    grouped_tile(b, "%qbid", tiles_m, tiles_n, group_m, "%qtm", "%qtn", "%qt")
    b.ins("mul.lo.u32 %%qm0, %%qtm, %d" % bm)
    b.ins("mul.lo.u32 %%qn0, %%qtn, %d" % bn)
    for i in range(acc_regs):
        b.ins("mov.f32 %%qacc%d, 0f00000000" % i)

    # ---- per-thread load assignments (constant over the K loop) ----
    b.comment("A chunks: row = tid / ca + i * (threads / ca), chunk column = tid % ca")
    b.ins("rem.u32 %%qt0, %%qtid, %d" % ca)           # chunk column
    b.ins("div.u32 %%qt1, %%qtid, %d" % ca)           # first row
    b.ins("mul.lo.u32 %%qka, %%qt0, %d" % epc)        # k offset of the chunk in the tile
    for i in range(na):
        row_step = i * (threads // ca)
        b.ins("add.u32 %%qt2, %%qt1, %d" % row_step)
        b.ins("add.u32 %qt3, %qt2, %qm0")                    # global row
        b.ins("setp.lt.u32 %%qrowa%d, %%qt3, %d" % (i, m))
        b.ins("min.u32 %%qt3, %%qt3, %d" % (m - 1))          # clamp: address stays inside A
        if conv is not None:
            # output pixel (image, oh, ow) of the row: the image's base, the
            # input row/column its window starts at (may be negative: padding)
            ohw = conv["out_h"] * conv["out_w"]
            b.ins("div.u32 %%qt4, %%qt3, %d" % ohw)
            b.ins("mul.wide.u32 %%qw64, %%qt4, %d" % (conv["h"] * conv["w"] * conv["c"] * es))
            b.ins("add.s64 %%qpa%d, %%qgA, %%qw64" % i)
            b.ins("rem.u32 %%qt4, %%qt3, %d" % ohw)
            b.ins("div.u32 %%qih%d, %%qt4, %d" % (i, conv["out_w"]))
            b.ins("rem.u32 %%qiw%d, %%qt4, %d" % (i, conv["out_w"]))
            b.ins("mad.lo.s32 %%qih%d, %%qih%d, %d, %d" % (i, i, conv["stride_h"], -conv["pad_top"]))
            b.ins("mad.lo.s32 %%qiw%d, %%qiw%d, %d, %d" % (i, i, conv["stride_w"], -conv["pad_left"]))
        else:
            b.ins("mul.wide.u32 %%qw64, %%qt3, %d" % (k * es))
            b.ins("add.s64 %%qpa%d, %%qgA, %%qw64" % i)
        b.ins("mul.lo.u32 %%qt3, %%qt2, %d" % sa)
        b.ins("mul.lo.u32 %%qt4, %%qt0, 16")
        b.ins("add.u32 %%qsa%d, %%qt3, %%qt4" % i)
    b.comment("B chunks: k row = tid / cb + i * (threads / cb), column = n0 + (tid % cb) * epc")
    b.ins("rem.u32 %%qt0, %%qtid, %d" % cb)
    b.ins("div.u32 %%qt1, %%qtid, %d" % cb)
    b.ins("mul.lo.u32 %%qt7, %%qt0, %d" % epc)
    b.ins("add.u32 %qt7, %qt7, %qn0")                         # global column of the chunk
    b.ins("setp.lt.u32 %%qcolb, %%qt7, %d" % n)
    b.ins("min.u32 %%qt6, %%qt7, %d" % (n - 1))
    b.ins("mul.wide.u32 %%qw64, %%qt6, %d" % es)
    b.ins("add.s64 %qpb, %qgB, %qw64")                        # column base pointer
    for i in range(nb):
        b.ins("add.u32 %%qkb%d, %%qt1, %d" % (i, i * (threads // cb)))   # k row in the tile
        b.ins("mad.lo.u32 %%qt3, %%qkb%d, %d, %d" % (i, sb, a_stage))   # B follows A in a stage
        b.ins("mul.lo.u32 %qt4, %qt0, 16")
        b.ins("add.u32 %%qsb%d, %%qt3, %%qt4" % i)

    # ---- ldmatrix / fragment lane offsets ----
    b.comment("fragment addresses of this lane inside a stage")
    # A (ldmatrix x4): row = warp_m * tm_w + lane % 16, 16-byte column = lane / 16
    b.ins("and.b32 %qt0, %qlane, 15")
    b.ins("mad.lo.u32 %%qt0, %%qwm, %d, %%qt0" % tm_w)
    b.ins("mul.lo.u32 %%qlaneA, %%qt0, %d" % sa)
    b.ins("shr.u32 %qt1, %qlane, 4")
    b.ins("shl.b32 %qt1, %qt1, 4")
    b.ins("add.u32 %qlaneA, %qlaneA, %qt1")
    if not tf32:
        # B (ldmatrix x4 .trans): k = lane % 8 + 8 * ((lane / 8) % 2), n = warp_n * tn_w + 8 * (lane / 16)
        b.ins("and.b32 %qt0, %qlane, 7")
        b.ins("shr.u32 %qt1, %qlane, 3")
        b.ins("and.b32 %qt1, %qt1, 1")
        b.ins("mad.lo.u32 %qt0, %qt1, 8, %qt0")
        b.ins("mul.lo.u32 %%qlaneB, %%qt0, %d" % sb)
        b.ins("shr.u32 %qt1, %qlane, 4")
        b.ins("mul.lo.u32 %qt1, %qt1, 8")
        b.ins("mad.lo.u32 %%qt1, %%qwn, %d, %%qt1" % tn_w)
        b.ins("mad.lo.u32 %%qlaneB, %%qt1, %d, %%qlaneB" % es)
    else:
        # tf32 B fragment (32-bit loads): k = lane % 4 (+4), n = warp_n * tn_w + lane / 4 (+8j)
        b.ins("and.b32 %qt0, %qlane, 3")
        b.ins("mul.lo.u32 %%qlaneB, %%qt0, %d" % sb)
        b.ins("shr.u32 %qt1, %qlane, 2")
        b.ins("mad.lo.u32 %%qt1, %%qwn, %d, %%qt1" % tn_w)
        b.ins("mad.lo.u32 %qlaneB, %qt1, 4, %qlaneB")

    # ---- tile loads ----
    def load_tile(kt_reg, slot_reg, static_kt=None):
        """Issues the loads of k-tile kt_reg into the stage at byte offset slot_reg."""
        # k of this thread's A chunk: kt * bk + ka
        b.ins("mul.lo.u32 %%qt0, %s, %d" % (kt_reg, bk))
        b.ins("add.u32 %qt1, %qt0, %qka")
        b.ins("add.u32 %%qt2, %%qsmem, %s" % slot_reg)          # stage base
        if conv_elements:
            load_conv_a_elements()
            load_b_chunks()
        elif conv is not None:
            load_conv_a()
            load_b_chunks()
        elif aligned:
            b.ins("setp.lt.u32 %%qp0, %%qt1, %d" % k)
            b.ins("min.u32 %%qt3, %%qt1, %d" % (k - 1))
            b.ins("mul.wide.u32 %%qw64, %%qt3, %d" % es)
            for i in range(na):
                b.ins("and.pred %%qp1, %%qp0, %%qrowa%d" % i)
                b.ins("selp.u32 %qsz, 16, 0, %qp1")
                b.ins("add.s64 %%qg, %%qpa%d, %%qw64" % i)
                b.ins("add.u32 %%qs, %%qt2, %%qsa%d" % i)
                b.ins("cp.async.cg.shared.global [%qs], [%qg], 16, %qsz")
            load_b_chunks()
        else:
            load_elements_a(kt_reg)
            load_elements_b()

    def conv_tap(k_reg, k_pred):
        """The (tap r, s; channel) of GEMM column k_reg: %qcv1 = r * dh, %qcv2
        = s * dw, %qcv3 = channel; k_pred = k < K (the index clamped)."""
        g = conv
        b.ins("setp.lt.u32 %s, %s, %d" % (k_pred, k_reg, k))
        b.ins("min.u32 %%qt3, %s, %d" % (k_reg, k - 1))
        b.ins("div.u32 %%qcv0, %%qt3, %d" % g["c"])              # tap
        b.ins("rem.u32 %%qcv3, %%qt3, %d" % g["c"])              # channel
        b.ins("div.u32 %%qcv1, %%qcv0, %d" % g["s"])             # r
        b.ins("rem.u32 %%qcv2, %%qcv0, %d" % g["s"])             # s
        b.ins("mul.lo.u32 %%qcv1, %%qcv1, %d" % g["dilation_h"])
        b.ins("mul.lo.u32 %%qcv2, %%qcv2, %d" % g["dilation_w"])

    def conv_row_offset(i, k_pred):
        """Row i's input element at conv_tap's tap and channel: %qt4 = its
        offset from the image base (0 when outside), %qp1 = inside the image,
        the row inside M and k_pred."""
        g = conv
        b.ins("add.s32 %%qt4, %%qih%d, %%qcv1" % i)               # input row
        b.ins("add.s32 %%qt5, %%qiw%d, %%qcv2" % i)               # input column
        b.ins("setp.lt.u32 %%qp1, %%qt4, %d" % g["h"])           # unsigned: < 0 fails too
        b.ins("setp.lt.u32 %%qp2, %%qt5, %d" % g["w"])
        b.ins("and.pred %qp1, %qp1, %qp2")
        b.ins("and.pred %%qp1, %%qp1, %%qrowa%d" % i)
        b.ins("and.pred %%qp1, %%qp1, %s" % k_pred)
        b.ins("mad.lo.s32 %%qt4, %%qt4, %d, %%qt5" % g["w"])
        b.ins("mad.lo.s32 %%qt4, %%qt4, %d, %%qcv3" % g["c"])
        b.ins("selp.u32 %qt4, %qt4, 0, %qp1")

    def load_conv_a():
        """A chunks of a convolution: k = kt * bk + ka is (tap r, s; channel
        c); each row reads input[image][ih + r*dh][iw + s*dw][c..c+7], zero
        (src-size 0, address clamped to the image base) outside the image."""
        conv_tap("%qt1", "%qp0")
        for i in range(na):
            conv_row_offset(i, "%qp0")
            b.ins("selp.u32 %qsz, 16, 0, %qp1")
            b.ins("mul.wide.u32 %%qw64, %%qt4, %d" % es)
            b.ins("add.s64 %%qg, %%qpa%d, %%qw64" % i)
            b.ins("add.u32 %%qs, %%qt2, %%qsa%d" % i)
            b.ins("cp.async.cg.shared.global [%qs], [%qg], 16, %qsz")

    def load_conv_a_elements():
        """A chunks of a convolution whose C is not a multiple of 8: element
        e of a chunk is k = kt * bk + ka + e, its own (tap r, s; channel c);
        each row reads input[image][ih + r*dh][iw + s*dw][c], zero outside
        the image or past K. The tap and channel of an element are the same
        for every row, so they are computed once per element."""
        for e in range(epc):
            b.ins("add.u32 %%qt3, %%qt1, %d" % e)
            conv_tap("%qt3", "%qpe")
            for i in range(na):
                conv_row_offset(i, "%qpe")
                b.ins("mul.wide.u32 %%qw64, %%qt4, %d" % es)
                b.ins("add.s64 %%qg, %%qpa%d, %%qw64" % i)
                b.ins("mov.b16 %%qhc%d, 0" % (i * epc + e))
                b.ins("@%%qp1 ld.global.nc.b16 %%qhc%d, [%%qg]" % (i * epc + e))
        for i in range(na):
            b.ins("add.u32 %%qs, %%qt2, %%qsa%d" % i)
            for w in range(4):
                b.ins("mov.b32 %%qu%d, {%%qhc%d, %%qhc%d}" % (w, i * epc + 2 * w,
                                                            i * epc + 2 * w + 1))
            b.ins("st.shared.v4.b32 [%qs], {%qu0, %qu1, %qu2, %qu3}")

    def load_b_chunks():
        """B chunks (16-byte aligned rows): %qt0 = kt * bk, %qt2 = stage base."""
        for i in range(nb):
            b.ins("add.u32 %%qt3, %%qt0, %%qkb%d" % i)       # global k row
            b.ins("setp.lt.u32 %%qp1, %%qt3, %d" % k)
            b.ins("and.pred %qp1, %qp1, %qcolb")
            b.ins("selp.u32 %qsz, 16, 0, %qp1")
            b.ins("min.u32 %%qt3, %%qt3, %d" % (k - 1))
            b.ins("mul.wide.u32 %%qw64, %%qt3, %d" % (n * es))
            b.ins("add.s64 %qg, %qpb, %qw64")
            b.ins("add.u32 %%qs, %%qt2, %%qsb%d" % i)
            b.ins("cp.async.cg.shared.global [%qs], [%qg], 16, %qsz")

    def load_elements_a(kt_reg):
        # %qt1 = k of the chunk's first element, %qt2 = stage base
        for i in range(na):
            for e in range(epc):
                b.ins("add.u32 %%qt3, %%qt1, %d" % e)
                b.ins("setp.lt.u32 %%qp1, %%qt3, %d" % k)
                b.ins("and.pred %%qp1, %%qp1, %%qrowa%d" % i)
                b.ins("min.u32 %%qt3, %%qt3, %d" % (k - 1))
                b.ins("mul.wide.u32 %%qw64, %%qt3, %d" % es)
                b.ins("add.s64 %%qg, %%qpa%d, %%qw64" % i)
                load_element(e)
            store_chunk("%%qsa%d" % i)

    def load_elements_b():
        # %qt0 = kt * bk, %qt2 = stage base, %qt7 = first column of the chunk
        for i in range(nb):
            b.ins("add.u32 %%qt3, %%qt0, %%qkb%d" % i)
            b.ins("setp.lt.u32 %qp2, %qt3, " + str(k))
            b.ins("min.u32 %%qt3, %%qt3, %d" % (k - 1))
            b.ins("mul.wide.u32 %%qw64, %%qt3, %d" % (n * es))
            b.ins("add.s64 %%qw64, %%qgB, %%qw64")
            for e in range(epc):
                b.ins("add.u32 %%qt4, %%qt7, %d" % e)
                b.ins("setp.lt.u32 %%qp1, %%qt4, %d" % n)
                b.ins("and.pred %qp1, %qp1, %qp2")
                b.ins("min.u32 %%qt4, %%qt4, %d" % (n - 1))
                b.ins("mul.wide.u32 %%qg, %%qt4, %d" % es)
                b.ins("add.s64 %qg, %qg, %qw64")
                load_element(e)
            store_chunk("%%qsb%d" % i)

    def load_element(e):
        """Loads element e of a chunk from [%qg] under %qp1 (else zero)."""
        if es == 2:
            b.ins("mov.b16 %%qh%d, 0" % e)
            b.ins("@%%qp1 ld.global.nc.b16 %%qh%d, [%%qg]" % e)
        else:
            b.ins("mov.b32 %%qe%d, 0f00000000" % e)
            b.ins("@%%qp1 ld.global.nc.f32 %%qe%d, [%%qg]" % e)

    def store_chunk(off_reg):
        b.ins("add.u32 %%qs, %%qt2, %s" % off_reg)
        if es == 2:
            for w in range(4):
                b.ins("mov.b32 %%qu%d, {%%qh%d, %%qh%d}" % (w, 2 * w, 2 * w + 1))
            b.ins("st.shared.v4.b32 [%qs], {%qu0, %qu1, %qu2, %qu3}")
        else:
            b.ins("st.shared.v4.f32 [%qs], {%qe0, %qe1, %qe2, %qe3}")

    # ---- prologue: stages - 1 tiles in flight ----
    b.comment("prologue")
    b.ins("mov.u32 %qslotl, 0")
    for s in range(stages - 1):
        if s < kt_total:
            b.ins("mov.u32 %%qkl, %d" % s)
            load_tile("%qkl", "%qslotl")
        b.ins("cp.async.commit_group")
        b.ins("add.u32 %%qslotl, %%qslotl, %d" % stage)
    b.ins("mov.u32 %%qkl, %d" % (stages - 1))
    b.ins("mov.u32 %qslotc, 0")
    b.ins("mov.u32 %qkt, 0")

    loop = b.new_label("kloop")
    skip = b.new_label("noload")
    b.label(loop)
    b.ins("cp.async.wait_group %d" % (stages - 2))
    b.ins("bar.sync 0")
    b.ins("setp.ge.u32 %%qp3, %%qkl, %d" % kt_total)
    b.ins("@%qp3 bra " + skip)
    load_tile("%qkl", "%qslotl")
    b.label(skip)
    b.ins("cp.async.commit_group")
    # compute on the stage at %qslotc
    b.ins("add.u32 %qt0, %qsmem, %qslotc")
    b.ins("add.u32 %qldA, %qt0, %qlaneA")
    b.ins("add.u32 %%qt0, %%qt0, %d" % a_stage)
    b.ins("add.u32 %qldB, %qt0, %qlaneB")
    for kk in range(bk // kstep):
        for i in range(mt):
            off = 16 * i * sa + kk * kstep * es
            regs = ", ".join("%%qfa%d" % (4 * i + j) for j in range(4))
            b.ins("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%s}, [%%qldA+%d]" % (regs, off))
            if rna:
                for j in range(4):
                    b.ins("cvt.rna.tf32.f32 %%qfa%d, %%qfa%d" % (4 * i + j, 4 * i + j))
        if not tf32:
            for p in range(nt // 2):
                off = kk * 16 * sb + 32 * p
                regs = "%%qfb%d, %%qfb%d, %%qfb%d, %%qfb%d" % (4 * p, 4 * p + 1, 4 * p + 2, 4 * p + 3)
                b.ins("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%s}, [%%qldB+%d]" % (regs, off))
        else:
            for j in range(nt):
                off = kk * 8 * sb + 32 * j
                b.ins("ld.shared.b32 %%qfb%d, [%%qldB+%d]" % (2 * j, off))
                b.ins("ld.shared.b32 %%qfb%d, [%%qldB+%d]" % (2 * j + 1, off + 4 * sb))
                if rna:
                    b.ins("cvt.rna.tf32.f32 %%qfb%d, %%qfb%d" % (2 * j, 2 * j))
                    b.ins("cvt.rna.tf32.f32 %%qfb%d, %%qfb%d" % (2 * j + 1, 2 * j + 1))
        shape = "m16n8k8" if tf32 else "m16n8k16"
        for i in range(mt):
            for j in range(nt):
                d = ", ".join("%%qacc%d" % ((i * nt + j) * 4 + q) for q in range(4))
                a = ", ".join("%%qfa%d" % (4 * i + q) for q in range(4))
                bb = "%%qfb%d, %%qfb%d" % (2 * j, 2 * j + 1)
                b.ins("mma.sync.aligned.%s.row.col.f32.%s.%s.f32 {%s}, {%s}, {%s}, {%s}"
                      % (shape, dt, dt, d, a, bb, d))
    # advance the ring
    b.ins("add.u32 %%qslotc, %%qslotc, %d" % stage)
    b.ins("setp.ge.u32 %%qp3, %%qslotc, %d" % smem)
    b.ins("@%%qp3 sub.u32 %%qslotc, %%qslotc, %d" % smem)
    b.ins("add.u32 %%qslotl, %%qslotl, %d" % stage)
    b.ins("setp.ge.u32 %%qp3, %%qslotl, %d" % smem)
    b.ins("@%%qp3 sub.u32 %%qslotl, %%qslotl, %d" % smem)
    b.ins("add.u32 %qkl, %qkl, 1")
    b.ins("add.u32 %qkt, %qkt, 1")
    b.ins("setp.lt.u32 %%qp3, %%qkt, %d" % kt_total)
    b.ins("@%qp3 bra " + loop)
    b.ins("cp.async.wait_group 0")

    # ---- epilogue: accumulators -> C ----
    b.comment("epilogue: row = m0 + warp_m * tm_w + 16 i + lane / 4 (+8), "
              "col = n0 + warp_n * tn_w + 8 j + 2 (lane % 4)")
    b.ins("shr.u32 %qt0, %qlane, 2")
    b.ins("mad.lo.u32 %%qt0, %%qwm, %d, %%qt0" % tm_w)
    b.ins("add.u32 %qt0, %qt0, %qm0")                        # row of acc[.][0]
    b.ins("and.b32 %qt1, %qlane, 3")
    b.ins("shl.b32 %qt1, %qt1, 1")
    b.ins("mad.lo.u32 %%qt1, %%qwn, %d, %%qt1" % tn_w)
    b.ins("add.u32 %qt1, %qt1, %qn0")                        # column of acc[.][0]
    pair = (n % 2 == 0)
    if ep:
        b.comment("fused epilogue: " + ", ".join(spec["epilogue"]))
        ep.store("%qt0", "%qt1", [16 * i + 8 * half for i in range(mt) for half in range(2)],
                 [8 * j for j in range(nt)],
                 lambda slot, j: ["%%qacc%d" % ((slot // 2 * nt + j) * 4 + 2 * (slot % 2) + q)
                                  for q in range(2)],
                 pair, "%qgC")
    for i in range(mt if not ep else 0):
        for half in range(2):
            b.ins("add.u32 %%qt2, %%qt0, %d" % (16 * i + 8 * half))
            b.ins("setp.lt.u32 %%qp4, %%qt2, %d" % m)
            b.ins("min.u32 %%qt2, %%qt2, %d" % (m - 1))
            b.ins("mul.wide.u32 %%qcrow, %%qt2, %d" % (n * oes))
            b.ins("add.s64 %qcrow, %qcrow, %qgC")
            b.ins("mul.wide.u32 %%qw64, %%qt1, %d" % oes)
            b.ins("add.s64 %qcrow, %qcrow, %qw64")
            for j in range(nt):
                r0 = (i * nt + j) * 4 + 2 * half
                vals = ["%%qacc%d" % r0, "%%qacc%d" % (r0 + 1)]
                b.ins("add.u32 %%qt3, %%qt1, %d" % (8 * j))
                if pair:
                    b.ins("setp.lt.u32 %%qp5, %%qt3, %d" % n)
                    b.ins("and.pred %qp5, %qp5, %qp4")
                    out_store(b, cdt, "%qcrow", 8 * j * oes, vals, "%qp5", c["accumulate"])
                else:
                    for q in range(2):
                        b.ins("setp.lt.u32 %%qp5, %%qt3, %d" % (n - q))
                        b.ins("and.pred %qp5, %qp5, %qp4")
                        out_store(b, cdt, "%qcrow", (8 * j + q) * oes, [vals[q]], "%qp5",
                                  c["accumulate"])

    grid = tiles_m * tiles_n
    result = gemm_answer(
        c, FAMILY, dt, cdt, [], grid, threads, smem, minctas,
        {"block_m": bm, "block_n": bn, "block_k": bk, "warps_m": wm, "warps_n": wn,
         "stages": stages, "group_m": group_m},
        "cp.async 16B (zero-fill at edges)" if aligned else "element loads (unaligned rows)",
        "mma.sync.aligned.%s" % ("m16n8k8 tf32" if tf32 else "m16n8k16 " + dt))
    if ep:
        result["params"] += ep.params
        result["epilogue"] = list(spec["epilogue"])
    if conv is not None:
        result["conv"] = conv
        result["loads"] = ("cp.async 16B of the NHWC input at computed addresses "
                           "(implicit im2col; zero-fill in the padding)")
    return finish(result, b, fmt)


if __name__ == "__main__":
    main(emit, __doc__.split("\n")[0], __doc__)

//===- Passes.td - TensorOp passes -------------------------*- tablegen -*-===//

#ifndef TENSOROP_PASSES_TD
#define TENSOROP_PASSES_TD

include "mlir/Pass/PassBase.td"

def TensorOpDecomposeBatchMatmul
    : Pass<"tensorop-decompose-batch-matmul", "ModuleOp"> {
  let summary = "Turn batch matmuls into loops of matmuls for the sketch path";
  let description = [{
    Rewrites each f32 `linalg.batch_matmul` (C[b] += A[b] * B[b]) and
    `linalg.batch_reduce_matmul` (C += sum_b A[b] * B[b]), on tensors or
    memrefs, static or dynamic, into an `scf.for` over the (runtime) batch
    whose body is one
    `linalg.matmul` on rank-reduced 2-D slices, so every slice takes the
    sketch path (annotate, apply, microkernel) like any GEMM. Transposed
    operands carry over as the slice matmul's indexing maps; a
    `tensorop.sketch` on the batch op is copied to the slice. Each rewritten
    op gets a remark; an op it cannot rewrite (other element types, a batch
    dimension not first) gets a remark naming why and
    is left to the upstream lowering. `--tensorop-pipeline` runs this pass
    before `tensorop-annotate-sketch` on CPU targets.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect"];
}

def TensorOpConvToNhwc : Pass<"tensorop-conv-to-nhwc", "ModuleOp"> {
  let summary = "Compute NCHW convolutions on tensors as NHWC ones";
  let description = [{
    Rewrites each static f32 `linalg.conv_2d_nchw_fchw` on tensors into
    `linalg.conv_2d_nhwc_hwcf` between transposes: input NCHW -> NHWC (a
    zero `tensor.pad` of H and W producing the input is moved behind the
    transpose, so it still folds into the kernel's padding), filter
    FCHW -> HWCF, the result NHWF -> NFHW (a zero-filled init is filled in
    NHWF instead of transposed). The NHWC convolution then takes the CPU
    sketch path. The transposes are copies, linear in the tensors' sizes,
    tiled in blocks of up to 16 x 16 elements between the input's and the
    output's innermost dimensions and vectorized (upstream tiling and
    `linalg::vectorize`); a remark on each rewritten op says they are
    there. The NCHW pad and zero fill the rewrite leaves unused are erased.
    Memrefs and other element types are left as they are, with a remark.
    `--tensorop-pipeline` runs this pass before `tensorop-annotate-sketch`
    on CPU targets.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::vector::VectorDialect"];
}

def TensorOpDepthwiseConv : Pass<"tensorop-depthwise-conv", "ModuleOp"> {
  let summary = "Compute depthwise convolutions in register-blocked loops of their own";
  let description = [{
    A depthwise convolution has no reduction over channels, so it is not a
    GEMM for the microkernels; it is memory bound and fast when a block of
    output pixels x channels stays in vector registers over the whole
    filter window and is written once. For each static f32
    `linalg.depthwise_conv_2d_nhwc_hwc` (on tensors or memrefs) this pass
    builds that loop nest on buffers: blocks of up to 16 output pixels x
    16-lane channel vectors (two vectors where C allows; the last vector of
    a row masked past C), `vector.fma` per tap. Output rows and columns
    whose window lies inside the image run without checks; the border ones
    are emitted one by one (an `scf.index_switch` on the row) with their
    outside taps left out, so a zero `tensor.pad` producer of the input is
    folded and a zero-filled init is never filled. On tensors the operands
    are read through read-only buffers and the result is computed in the
    function argument it is materialized into (restrict, writable), or
    else in a new buffer. With `threads` > 1 an `scf.forall` splits the
    output rows (all images' rows in one range) into contiguous chunks, or,
    where they divide more evenly among the threads (a 14x14 stride-2
    layer's 7 rows on 2 threads), the channel blocks. A remark gives the
    blocks and the split; other depthwise
    convolutions (dynamic shapes, other element types) get a remark and
    the upstream lowering. `--tensorop-pipeline` runs it before
    `tensorop-annotate-sketch` on CPU targets, with its `threads`.
  }];
  let options = [
    Option<"threads", "threads", "unsigned", /*default=*/"1",
           "Threads that split the output rows (an scf.forall, lowered to an OpenMP team by --tensorop-pipeline)">,
    Option<"minFlopsPerThread", "min-flops-per-thread", "unsigned",
           /*default=*/"::mlir::tensorop::kDefaultMinFlopsPerThread",
           "With threads > 1: a convolution whose 2*N*OH*OW*C*R*S flops give a thread less than this runs on fewer threads (one at the least), its share being shorter than a team's fork and join; 0: always the threads asked">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::bufferization::BufferizationDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::vector::VectorDialect"];
}

def TensorOpAnnotateSketch : Pass<"tensorop-annotate-sketch", "ModuleOp"> {
  let summary = "Attach an advisor-chosen #tensorop.sketch to each supported GEMM";
  let description = [{
    Visits every `linalg.matmul` (on tensors or memrefs, including transposed
    operands through `indexing_maps`). For f32 matmuls it asks the advisor
    for a sketch, validates it against the target and attaches it as the
    `tensorop.sketch` attribute. Dynamic dimensions are chosen for a
    representative size: the op's `tensorop.size_hint = array<i64: M, N, K>`
    or 512 (a remark says which); the loops then run to the runtime sizes.
    Anything else (other element types, broadcasting maps) is left for the
    upstream lowering, with a remark that says why. An unknown target or advisor is an error where
    the options are given, before any input is read.

    Each static f32 `linalg.conv_2d_nhwc_hwcf` gets a
    `#tensorop.conv_sketch` under the same attribute name: with `db=`, the
    database's best verified record for the convolution's signature on
    this target (`tensorop tune`; source "db:HASH", a remark saying "from
    the tuning database"), else the advisor's choice (the builtin one by
    default); a zero `tensor.pad` producing its input is marked
    (`tensorop.conv_padding`) for apply to fold into the kernel. A 1x1,
    stride-1, unpadded convolution on tensors becomes a `linalg.matmul`
    over the pixels (collapse, multiply, expand) and takes the GEMM path.
    Every other convolution (`linalg.conv_2d_nchw_fchw`,
    `linalg.depthwise_conv_2d_nhwc_hwc`, ...) gets a remark naming it and
    is lowered by the upstream pipeline.
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"host\"",
           "Target: host, x86-avx512, x86-avx2, riscv-rvv, arm-neon">,
    Option<"advisor", "advisor", "std::string", /*default=*/"\"builtin\"",
           "Advisor: builtin, llm, replay:DIR">,
    Option<"db", "db", "std::string", /*default=*/"\"\"",
           "Tuning database (tensorop tune) to read each op's best record on this machine from (confirmed records first); ops without a record fall back to the advisor">,
    Option<"hintsDir", "hints-dir", "std::string", /*default=*/"\"\"",
           "Directory of target hints (default: $TENSOROP_HINTS_DIR or the source tree's hints/)">,
    Option<"threads", "threads", "unsigned", /*default=*/"1",
           "Threads of each sketch the advisor chooses (sketches from the db or the input keep theirs)">,
    Option<"minFlopsPerThread", "min-flops-per-thread", "int64_t",
           /*default=*/"::mlir::tensorop::kTargetMinFlopsPerThread",
           "With threads > 1: a static GEMM whose 2*M*N*K flops give a thread less than this runs on fewer threads (one at the least; a remark says why), since its share would take less time than forking and joining the OpenMP team; 0: always the threads asked; -1 (the default): the target's threads.team_cost_us times its peak_gflops_f32_per_core (640000 where its hints give no team cost). The team is decided before the advisor chooses the sketch, which may depend on it">,
    Option<"acceptUnverifiedEmitters", "accept-unverified-emitters", "bool",
           /*default=*/"false",
           "advisor=llm/replay: accept emitter scripts the model wrote although nothing here runs their kernels to verify them (the sketch's source says 'unverified'); off: such answers are refused">,
  ];
  let dependentDialects = ["::mlir::tensorop::TensorOpDialect",
                           "::mlir::memref::MemRefDialect"];
}

def TensorOpFuseEpilogues : Pass<"tensorop-fuse-epilogues", "ModuleOp"> {
  let summary = "Record elementwise consumers of sketched GEMMs as fused epilogues";
  let description = [{
    For each `linalg.matmul` carrying a `#tensorop.sketch` (run after
    `tensorop-annotate-sketch`, on tensors or memrefs), reads the chain of
    elementwise consumers after it as epilogue steps: the single user of
    its result tensor, then the single user of that consumer's result, and
    so on (on memrefs: the op right after it that writes C in place, then
    the next one, ...). Steps: a bias along N or M, a residual M x N
    operand, a scale, a clamp, ReLU, tanh, sigmoid, SiLU, GELU (tanh or erf
    form); at most one bias and one residual in a chain. Named elementwise
    ops (`linalg.add`, `linalg.max`, ...) are read in their generic form.
    Which function a run of ops computes is decided by evaluating it on a
    grid of inputs, so the usual spellings all match. The steps of every
    consumer fused are recorded on the sketch (`epilogue =
    #tensorop.epilogue<...>`); each such consumer is rewritten to work in
    place on the value before it and marked `tensorop.fused_epilogue`;
    `tensorop-apply-sketch` passes their operands to the microkernel, which
    applies the steps after the last K panel as it stores C, and erases
    them. The matmul gets a remark listing the steps; the consumer the
    chain stops at gets one saying why (it and what follows run as separate
    ops), as does a chain that ends at a value with several users. The
    x86_gemm_fma, riscv_gemm_rvv and arm_gemm_neon microkernels apply
    epilogues; a matmul with a dynamic K is not fused (at K = 0 no
    microkernel would run to apply it).

    Convolutions likewise: the elementwise consumer of a
    `linalg.conv_2d_nhwc_hwcf` carrying a `#tensorop.conv_sketch` (a bias
    per output channel, an N x OH x OW x F residual and the unary steps)
    goes onto the conv sketch's `epilogue`, applied by the x86 kernel as it
    stores each output block after its last filter tap. The 4-D consumers
    of a 1x1 convolution that `tensorop-annotate-sketch` turned into a
    matmul are first rewritten on the matmul's (N*H*W) x F rows, so that
    they fuse like any GEMM consumer.
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "The target the sketches were planned for: `host` reads, for sketches whose target is the one host resolves to, the hints tensorop-annotate-sketch planned them with (this machine's caches and CPU facts over the file); empty or a named target: each sketch's hints file">,
    Option<"hintsDir", "hints-dir", "std::string", /*default=*/"\"\"",
           "Directory of target hints (default: $TENSOROP_HINTS_DIR or the source tree's hints/); the one tensorop-annotate-sketch planned with">,
  ];
  let dependentDialects = ["::mlir::tensorop::TensorOpDialect",
                           "::mlir::linalg::LinalgDialect"];
}

def TensorOpApplySketch : Pass<"tensorop-apply-sketch", "ModuleOp"> {
  let summary = "Tile, pack and microkernel-ize each sketched memref GEMM";
  let description = [{
    For each `linalg.matmul` on memrefs that carries a `tensorop.sketch`:
    tiles it with `scf::tileUsingSCF` (cache tiles in the sketch's loop
    order), packs the A and B blocks into k-major panels (upstream
    `linalg.transpose` / `linalg.copy` / `linalg.fill` on subviews) at the
    loop level where each block becomes invariant, and replaces the inner
    block by register-block loops of `tensorop.ukernel` ops whose code an
    emitter script prints. The emitter runs with a timeout; its output is
    checked with the LLVM MC assembler of the target and cached by content
    hash.

    A sketch with `threads` > 1 first splits the GEMM into that many chunks
    of C (rows, unless each thread would get fewer than 32; chunks are
    whole register blocks) with an `scf.forall`; the loop nest above is
    built inside its body for one chunk, with its own packing buffers, so
    threads share nothing they write. `--tensorop-pipeline` lowers the
    forall to OpenMP (`convert-scf-to-openmp`); running the result needs
    LLVM's `libomp`.

    With `pack_b = "kmajor_nr_shared"` (threads > 1) the threads share one
    packed B instead: the n and k block loops run outside the threads, and
    per (k, n) block one `scf.forall` packs the block's panels
    cooperatively into one buffer and a second runs each thread's part of
    C on it (rows, or the block's columns where M is thin); each forall's
    join is the barrier that publishes or frees the block.

    A `linalg.conv_2d_nhwc_hwcf` on memrefs carrying a
    `#tensorop.conv_sketch` becomes loops over output rows, pixel blocks
    and channel blocks of microkernel calls, one per filter tap (or one per
    filter row in the interior), reading the input in place (or through a
    k-major panel) and a filter packed once; a bufferized zero pad in front
    of it is traced and folded into the kernel (its copy erased), or, when
    it cannot be traced, left to run with a remark. A zero fill of its
    output right before it is dropped: each register block is zeroed in
    the nest just before its first call, by the thread that computes it.
    With `threads` > 1 one `scf.forall` splits the output rows, or the
    filter panels where those divide more evenly (or the loop order packs
    each filter block in the nest); a filter packed per call is packed by
    all threads, a chunk of panels each.
  }];
  let options = [
    Option<"emitterDir", "emitter-dir", "std::string", /*default=*/"\"\"",
           "Directory of emitter scripts (default: $TENSOROP_EMITTER_DIR or the source tree's python_emitters/)">,
    Option<"emitterTimeout", "emitter-timeout", "unsigned", /*default=*/"30",
           "Seconds an emitter script may run">,
    Option<"hintsDir", "hints-dir", "std::string", /*default=*/"\"\"",
           "Directory of target hints (default: $TENSOROP_HINTS_DIR or the source tree's hints/)">,
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "The target the sketches were planned for: `host` applies GEMM, k-dot and convolution sketches whose target is the one host resolves to with this machine's hints (target=host's caches from sysfs and CPU facts, as tensorop-annotate-sketch read them), read once per run; empty or a named target: each sketch's hints file">,
  ];
  let dependentDialects = [
    "::mlir::tensorop::TensorOpDialect", "::mlir::scf::SCFDialect",
    "::mlir::memref::MemRefDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::arith::ArithDialect", "::mlir::affine::AffineDialect",
    "::mlir::vector::VectorDialect"];
}

def TensorOpLowerUKernel : Pass<"tensorop-lower-ukernel", "ModuleOp"> {
  let summary = "Splice tensorop.ukernel code in as llvm.inline_asm";
  let description = [{
    Replaces each `tensorop.ukernel` by the address computations of its
    memref operands and one `llvm.inline_asm` op carrying the emitted code.
  }];
  let dependentDialects = [
    "::mlir::LLVM::LLVMDialect", "::mlir::memref::MemRefDialect",
    "::mlir::arith::ArithDialect"];
}

def TensorOpKeepUKernelLoops
    : Pass<"tensorop-keep-ukernel-loops", "ModuleOp"> {
  let summary = "Keep LLVM from unrolling the loops around microkernels";
  let description = [{
    LLVM's loop unroller costs an `llvm.inline_asm` as one instruction, so
    at -O2/-O3 it fully unrolls a loop of a few register tiles around a
    microkernel, and every iteration gets its own copy of the emitted code
    (several KB each: the K loop unrolled, one variant per m_rem). A
    99x74x11 GEMM got 22 copies, 160 KB of code around 2 KB of hot
    instructions, past the instruction cache (docs/benchmarks/
    cpu-gemm-classes.md, "Unrolled tile loops"). On the LLVM dialect, after
    control flow is lowered, this pass sets `llvm.loop.unroll.disable` (a
    `loop_annotation` on the latch branches) on every loop that holds a
    microkernel, i.e. an `llvm.inline_asm` marked `tensorop.microkernel` by
    `tensorop-lower-ukernel`, and on the loops around those. Other
    loops (copies, epilogues) keep LLVM's choice; other loop annotations on
    the same branches are kept.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def TensorOpStridedCopyToLinalg
    : Pass<"tensorop-strided-copy-to-linalg", "ModuleOp"> {
  let summary = "Turn memref.copy between non-contiguous views into linalg.copy";
  let description = [{
    The LLVM lowering of a `memref.copy` whose operands are not both
    contiguous (a copy into a subview, as bufferization makes of a
    `tensor.pad` or `tensor.insert_slice`) is a call to `memrefCopy` from
    MLIR's C runner utilities, which an object shipped on its own (the
    output of `tensorop gen`) cannot resolve. This pass rewrites such
    copies into `linalg.copy`, which `convert-linalg-to-loops` turns into
    plain loops; contiguous copies stay (they become a memcpy intrinsic).
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def TensorOpOmpTeamSize : Pass<"tensorop-omp-team-size", "ModuleOp"> {
  let summary = "Size each OpenMP team by the iterations it shares";
  let description = [{
    `convert-scf-to-openmp` leaves the team size to the OpenMP runtime
    (`OMP_NUM_THREADS`, else one thread per core). A threaded sketch's
    `scf.forall` has exactly `threads` iterations, so a larger team only
    wakes threads that find no work. This pass sets `num_threads` of each
    `omp.parallel` that runs a sketch's chunks (an op in it carries
    `tensorop.sketch`) and has none, whose worksharing loop has constant
    bounds, to that loop's trip count. Other parallel loops keep the
    runtime's default team. The runtime still caps teams at
    `OMP_THREAD_LIMIT`.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def TensorOpDeallocateBuffers
    : Pass<"tensorop-deallocate-buffers", "ModuleOp"> {
  let summary = "Run the upstream buffer-deallocation-pipeline where it applies";
  let description = [{
    Upstream ownership-based deallocation rejects modules that already free
    memory themselves (`memref.dealloc`). This pass runs
    `buffer-deallocation-pipeline` on modules without explicit deallocations
    and, on modules that have them, leaves buffers as they are with a remark
    saying that buffers created by bufferization are not freed.
  }];
}

def TensorOpApproximateMath : Pass<"tensorop-approximate-math", "ModuleOp"> {
  let summary = "Replace f32 math calls by upstream's polynomial approximations";
  let description = [{
    `math.tanh`, `math.exp`, `math.erf`, `math.log` and the other f32 math
    ops that upstream MLIR approximates (`populateMathPolynomialApproximation
    Patterns`) become plain arithmetic, so the loops that hold them (an
    unfused GELU, SiLU or softmax after a matmul) vectorize instead of
    calling libm once per element. The approximations are those IREE uses;
    their error is a few ulp (docs/UserGuide.md). Ops of other element
    types keep their libm calls.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::vector::VectorDialect"];
}

def TensorOpBindWorkspace
    : Pass<"tensorop-bind-workspace", "ModuleOp"> {
  let summary = "Place a function's buffers in its caller-provided workspace";
  let description = [{
    In a function with an argument marked `tensorop.workspace` (a
    `memref<1xi8>`: the pointer of a caller's buffer), every `memref.alloc`
    of a static shape (the sketch's packing buffers, scratch copies) becomes
    a `memref.view` of that workspace at its own offset, and its
    `memref.dealloc` is erased, so the function allocates nothing. Buffers
    inside a thread chunk (`scf.forall`) get one region per chunk. Offsets
    are 64-byte aligned from the first 64-byte boundary of the workspace, so
    any pointer works. A function marked `tensorop.workspace_size` then
    returns the largest size needed (bytes, alignment slack included).
    A dynamically sized allocation there is an error.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

def TensorOpStaticScratch
    : Pass<"tensorop-static-scratch", "ModuleOp"> {
  let summary = "Keep a function's temporary buffers in a static scratch "
                "area reused across calls";
  let description = [{
    Bufferization allocates a function's temporaries (an NCHW
    convolution's transposed copies, a block's intermediate tensors, packing
    panels) with `memref.alloc` and frees them before it returns: one
    malloc/free pair per buffer per call. Above glibc's mmap threshold, or
    when the freed top of the heap exceeds its trim threshold, every call
    then maps fresh pages and faults on each of them (on the 2-core VM this
    made an NCHW 3x3 layer 5x slower than its kernel: docs/benchmarks/
    cpu-conv.md). This pass lays every static, identity-layout buffer that
    the function frees itself (a `memref.dealloc` of it in the function) out
    in one byte region, as tensorop-bind-workspace does with a workspace
    argument, and takes that region from a module-level buffer
    (`memref.global`, 64-byte aligned, zero pages until first touched) that
    a busy flag guards: a call claims it with an atomic exchange and
    releases it before returning; a call that finds it claimed (another
    thread's call in flight) allocates the region instead, as before, so
    concurrent calls stay safe. The memory stays with the program (at most
    `max-bytes` per function; larger functions keep their allocations).
  }];
  let options = [
    Option<"maxBytes", "max-bytes", "int64_t", /*default=*/"256 << 20",
           "Largest static scratch area per function, in bytes">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

#endif // TENSOROP_PASSES_TD

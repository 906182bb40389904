//===- Passes.td - TensorOp passes -------------------------*- tablegen -*-===//

#ifndef TENSOROP_PASSES_TD
#define TENSOROP_PASSES_TD

include "mlir/Pass/PassBase.td"

def TensorOpAnnotateSketch : Pass<"tensorop-annotate-sketch", "ModuleOp"> {
  let summary = "Attach an advisor-chosen #tensorop.sketch to each supported GEMM";
  let description = [{
    Visits every `linalg.matmul` (on tensors or memrefs, including transposed
    operands through `indexing_maps`). For static f32 matmuls it asks the
    advisor for a sketch, validates it against the target and attaches it as
    the `tensorop.sketch` attribute. Anything else (dynamic dimensions, other
    element types, broadcasting maps) is left for the upstream lowering, with
    a remark that says why. An unknown target or advisor is an error where
    the options are given, before any input is read.
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
  ];
  let dependentDialects = ["::mlir::tensorop::TensorOpDialect"];
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
  }];
  let options = [
    Option<"emitterDir", "emitter-dir", "std::string", /*default=*/"\"\"",
           "Directory of emitter scripts (default: $TENSOROP_EMITTER_DIR or the source tree's python_emitters/)">,
    Option<"emitterTimeout", "emitter-timeout", "unsigned", /*default=*/"30",
           "Seconds an emitter script may run">,
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

#endif // TENSOROP_PASSES_TD

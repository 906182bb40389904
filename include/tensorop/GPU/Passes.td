//===- Passes.td - TensorOp NVIDIA GPU passes --------------*- tablegen -*-===//

#ifndef TENSOROP_GPU_PASSES_TD
#define TENSOROP_GPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def TensorOpGpuAnnotateSketch
    : Pass<"tensorop-gpu-annotate-sketch", "ModuleOp"> {
  let summary = "Attach a #tensorop.gpu_sketch to each linalg.matmul for an "
                "NVIDIA target";
  let description = [{
    The NVIDIA counterpart of `tensorop-annotate-sketch`. For each
    `linalg.matmul` (static row-major tensors or memrefs, bf16, f16 or f32
    inputs, f32, bf16 or f16 output, `tensorop.precision = "tf32"`
    honoured): takes the best verified record of the tuning database
    (`db=`, said in a remark), else asks the advisor, checks the sketch
    against the target and the problem and attaches it as the
    `tensorop.gpu_sketch` attribute. A matmul that already carries a
    `#tensorop.gpu_sketch` keeps it when it is for this target. A matmul the
    NVIDIA path cannot take is an error that says why (there is no other
    lowering of a GEMM on device memory).
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"nvidia-sm90\"",
           "Target: nvidia-sm80, nvidia-sm90">,
    Option<"advisor", "advisor", "std::string", /*default=*/"\"builtin\"",
           "Advisor: builtin, or llm (an OpenAI-compatible model from "
           "TENSOROP_LLM_URL/MODEL; its answer checked, builtin fallback)">,
    Option<"hintsDir", "hints-dir", "std::string", /*default=*/"\"\"",
           "Directory of target hints (default: $TENSOROP_HINTS_DIR or the source tree's hints/)">,
    Option<"db", "db", "std::string", /*default=*/"\"\"",
           "Tuning database (tensorop tune --target=nvidia-*): a matmul with "
           "no sketch of its own takes the best record for its shape, types "
           "and target (confirmed records first), and says so in a remark">,
  ];
  let dependentDialects = ["::mlir::tensorop::TensorOpDialect"];
}

def TensorOpGpuApplySketch : Pass<"tensorop-gpu-apply-sketch", "ModuleOp"> {
  let summary = "Turn each sketched memref linalg.matmul into a "
                "gpu.launch_func of an emitted PTX kernel";
  let description = [{
    For each `linalg.matmul` on static memrefs (device memory) that carries
    a `#tensorop.gpu_sketch`: checks the sketch against the problem and its
    target's hints (the attribute's verifier has checked its own rules),
    runs the emitter script the sketch names
    (`python_emitters/nvidia_gemm_{wgmma,mma,ffma}.py`), and replaces the
    matmul with a `gpu.launch_func` of a `gpu.func` whose body is the
    emitted PTX in one `llvm.inline_asm` taking the kernel arguments. A
    `linalg.fill` of zero into the matmul's output right before it becomes
    the kernel's beta = 0; otherwise the kernel accumulates into C. TMA
    kernels get their tensor maps from `tensoropGpuTensorMap2D`
    (libtensorop_cuda_runtime) on the host. f32 inputs use plain fp32 FMA
    unless the matmul carries `tensorop.precision = "tf32"`. A matmul
    without a sketch is an error (`tensorop-gpu-annotate-sketch` attaches
    one). A bf16/f16 GEMM on the wgmma kernel whose A or B rows are not
    16-byte aligned (K or N not a multiple of 8) reads padded copies: a
    workspace from the runtime's stream-ordered pool
    (`tensoropGpuWorkspaceAcquire`/`Release`) and a `nvidia_pad.py` kernel
    per copy, launched before the GEMM in the same `gpu.module` (a remark
    says so); nothing is launched when the workspace cannot be had.
  }];
  let options = [
    Option<"hintsDir", "hints-dir", "std::string", /*default=*/"\"\"",
           "Directory of target hints (default: $TENSOROP_HINTS_DIR or the source tree's hints/)">,
    Option<"emitterDir", "emitter-dir", "std::string", /*default=*/"\"\"",
           "Directory of emitter scripts (default: $TENSOROP_EMITTER_DIR or python_emitters/)">,
    Option<"emitterTimeout", "emitter-timeout", "unsigned", /*default=*/"60",
           "Seconds an emitter script may run">,
  ];
  let dependentDialects = [
    "::mlir::tensorop::TensorOpDialect", "::mlir::gpu::GPUDialect",
    "::mlir::NVVM::NVVMDialect", "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect", "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect", "::mlir::scf::SCFDialect"];
}

def TensorOpGpuLowerMatmul : Pass<"tensorop-gpu-lower-matmul", "ModuleOp"> {
  let summary = "tensorop-gpu-annotate-sketch then tensorop-gpu-apply-sketch";
  let description = [{
    Both halves of the NVIDIA GEMM lowering with one set of options: a
    `#tensorop.gpu_sketch` on each `linalg.matmul` (the one it carries, the
    tuning database's or the advisor's; see `tensorop-gpu-annotate-sketch`),
    then the emitted PTX kernel and its launch in place of the matmul (see
    `tensorop-gpu-apply-sketch`).
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"nvidia-sm90\"",
           "Target: nvidia-sm80, nvidia-sm90">,
    Option<"advisor", "advisor", "std::string", /*default=*/"\"builtin\"",
           "Advisor: builtin, or llm (an OpenAI-compatible model from "
           "TENSOROP_LLM_URL/MODEL; its answer checked, builtin fallback)">,
    Option<"hintsDir", "hints-dir", "std::string", /*default=*/"\"\"",
           "Directory of target hints (default: $TENSOROP_HINTS_DIR or the source tree's hints/)">,
    Option<"emitterDir", "emitter-dir", "std::string", /*default=*/"\"\"",
           "Directory of emitter scripts (default: $TENSOROP_EMITTER_DIR or python_emitters/)">,
    Option<"emitterTimeout", "emitter-timeout", "unsigned", /*default=*/"60",
           "Seconds an emitter script may run">,
    Option<"db", "db", "std::string", /*default=*/"\"\"",
           "Tuning database (tensorop tune --target=nvidia-*): a matmul with "
           "no sketch of its own takes the best record for its shape, types "
           "and target (confirmed records first), and says so in a remark">,
  ];
  let dependentDialects = [
    "::mlir::tensorop::TensorOpDialect", "::mlir::gpu::GPUDialect",
    "::mlir::NVVM::NVVMDialect", "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect", "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect", "::mlir::scf::SCFDialect"];
}

def TensorOpGpuLowerConv : Pass<"tensorop-gpu-lower-conv", "ModuleOp"> {
  let summary = "Turn each linalg.conv_2d_nhwc_hwcf on device memory into a "
                "gpu.launch_func of an implicit-GEMM tensor-core kernel";
  let description = [{
    Convolutions as implicit GEMMs (M = N*OH*OW output pixels, N = F
    filters, K = R*S*C), no im2col buffer: on sm_90a the wgmma kernel,
    whose producer loads the input with TMA in im2col mode
    (`tensoropGpuTensorMapIm2colNHWC`; padding and image edges by TMA's
    zero fill); on sm_80, or where TMA cannot take the convolution, the
    mma.sync kernel with cp.async copies at computed addresses (zero-fill
    in the padding). Takes
    `linalg.conv_2d_nhwc_hwcf` (bf16 or f16 input and filter, f32/bf16/f16
    output; or f32 throughout marked `tensorop.precision = "tf32"`, on
    the sm_90a TF32 kernel) in two forms: on static memrefs (device memory; no padding),
    and the tensor form `tensorop gen` writes (`bufferization.to_tensor` of
    the input memref, an optional zero `tensor.pad`, the conv into a
    zero-filled `tensor.empty`, `bufferization.materialize_in_destination`
    into the output memref). Runs before bufferization. The
    `#tensorop.gpu_sketch` on the conv is used as given (checked), else the
    tuning database's best verified record (db=), else the builtin
    advisor's. What no kernel takes (F not a multiple of 8,
    f32 without the TF32 mark, TF32 that the TMA kernel cannot take) is an
    error that says why.
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"nvidia-sm90\"",
           "Target: nvidia-sm80, nvidia-sm90">,
    Option<"advisor", "advisor", "std::string", /*default=*/"\"builtin\"",
           "Advisor: builtin (llm is refused for convolutions)">,
    Option<"db", "db", "std::string", /*default=*/"\"\"",
           "Tuning database (SQLite): its best verified record for the "
           "convolution on this target, when it has one (`tensorop tune`)">,
    Option<"hintsDir", "hints-dir", "std::string", /*default=*/"\"\"",
           "Directory of target hints (default: $TENSOROP_HINTS_DIR or the source tree's hints/)">,
    Option<"emitterDir", "emitter-dir", "std::string", /*default=*/"\"\"",
           "Directory of emitter scripts (default: $TENSOROP_EMITTER_DIR or python_emitters/)">,
    Option<"emitterTimeout", "emitter-timeout", "unsigned", /*default=*/"60",
           "Seconds an emitter script may run">,
  ];
  let dependentDialects = [
    "::mlir::tensorop::TensorOpDialect", "::mlir::gpu::GPUDialect",
    "::mlir::NVVM::NVVMDialect", "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect", "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect"];
}

#endif // TENSOROP_GPU_PASSES_TD

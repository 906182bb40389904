//===- Passes.td - TensorOp NVIDIA GPU passes --------------*- tablegen -*-===//

#ifndef TENSOROP_GPU_PASSES_TD
#define TENSOROP_GPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def TensorOpGpuLowerMatmul : Pass<"tensorop-gpu-lower-matmul", "ModuleOp"> {
  let summary = "Turn each memref linalg.matmul into a gpu.launch_func of an "
                "emitted PTX kernel";
  let description = [{
    For each `linalg.matmul` on static memrefs (device memory) with bf16, f16
    or f32 inputs and f32, bf16 or f16 output: takes its
    `#tensorop.gpu_sketch` (or asks the advisor for one and attaches it),
    checks it against the target and the problem, runs the emitter script
    the sketch names (`python_emitters/nvidia_gemm_{wgmma,mma,ffma}.py`),
    and replaces the matmul with a `gpu.launch_func` of a `gpu.func` whose
    body is the emitted PTX in one `llvm.inline_asm` taking the kernel
    arguments. A `linalg.fill` of zero into the matmul's output right
    before it becomes the kernel's beta = 0; otherwise the kernel
    accumulates into C. TMA kernels get their tensor maps from
    `tensoropGpuTensorMap2D` (libtensorop_cuda_runtime) on the host.
    f32 inputs use plain fp32 FMA unless the matmul carries
    `tensorop.precision = "tf32"`.
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
    "::mlir::func::FuncDialect"];
}

#endif // TENSOROP_GPU_PASSES_TD

//===- GpuLLMAdvisor.h - The NVIDIA path's llm advisor ----------*- C++ -*-===//
//
// TensorOpGPULLM: the glue between TensorOp::NVIDIA and TensorOp::LLM, a
// library of its own so that neither needs the other.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_GPU_GPULLMADVISOR_H
#define TENSOROP_GPU_GPULLMADVISOR_H

namespace mlir::tensorop {

/// Makes advisor=llm work for nvidia-* targets (registerGpuLLMProposer).
void registerGpuLLMAdvisor();

} // namespace mlir::tensorop

#endif // TENSOROP_GPU_GPULLMADVISOR_H

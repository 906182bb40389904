//===- CheckedGpuPassOptions.h - target=/advisor= checked early -*- C++ -*-===//
//
// The NVIDIA passes that take target= and advisor= (annotate-sketch and
// lower-matmul) refuse a bad name where the options were written, before any
// input is read; the pipeline checks the same names (checkGpuPassOptions).
// A mixin over the tablegen'd pass base, so the override exists once.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_LIB_GPU_CHECKEDGPUPASSOPTIONS_H
#define TENSOROP_LIB_GPU_CHECKEDGPUPASSOPTIONS_H

#include "tensorop/GPU/Passes.h"

#include "mlir/Pass/Pass.h"
#include "llvm/Support/Error.h"

namespace mlir::tensorop {

template <typename GeneratedBase>
struct CheckedGpuPassOptions : public GeneratedBase {
  using GeneratedBase::GeneratedBase;

  LogicalResult initializeOptions(
      StringRef options,
      function_ref<LogicalResult(const Twine &)> errorHandler) override {
    if (failed(Pass::initializeOptions(options, errorHandler)))
      return failure();
    if (llvm::Error e = checkGpuPassOptions(this->getArgument(), this->target,
                                            this->advisor))
      return errorHandler(llvm::toString(std::move(e)));
    return success();
  }
};

} // namespace mlir::tensorop

#endif // TENSOROP_LIB_GPU_CHECKEDGPUPASSOPTIONS_H

//===- OpenMPRuntime.cpp - libomp for JIT-run threaded kernels ------------===//

#include "tensorop/Runtime/OpenMPRuntime.h"

#include "llvm/Support/DynamicLibrary.h"

#include <mutex>
#include <string>

using namespace mlir::tensorop;

llvm::StringRef mlir::tensorop::openMPRuntimePath() {
  return TENSOROP_LIBOMP_PATH;
}

llvm::Error mlir::tensorop::loadOpenMPRuntime() {
  static std::once_flag once;
  static std::string error;
  std::call_once(once, [] {
    std::string path = openMPRuntimePath().str();
    if (path.empty()) {
      error = "libomp was not found when TensorOp was built (apt-get "
              "install libomp-22-dev and reconfigure)";
      return;
    }
    // Permanent and global: ORC's process-symbol lookup then finds it.
    std::string why;
    if (llvm::sys::DynamicLibrary::LoadLibraryPermanently(path.c_str(), &why))
      error = "cannot load " + path + ": " + why;
  });
  if (!error.empty())
    return llvm::createStringError(error);
  return llvm::Error::success();
}

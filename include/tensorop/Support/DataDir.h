//===- DataDir.h - Where TensorOp's data files are found --------*- C++ -*-===//
//
// The hints (hints/), the shipped emitter scripts (python_emitters/) and the
// cross-check harness (harness/) are data, installed under
// <prefix>/share/tensorop and found relative to the running binary, so a
// moved install prefix keeps working without the source tree.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_SUPPORT_DATADIR_H
#define TENSOROP_SUPPORT_DATADIR_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir::tensorop {

/// The root of TensorOp's data, the first of these that holds a hints/
/// directory:
///  1. $TENSOROP_DATA_DIR;
///  2. <directory of the binary or shared library holding this code>/../share/tensorop
///     (an installed tool or TensorOpPlugin.so; build/bin and build/lib in the
///     build tree, whose build/share/tensorop links to the source tree);
///  3. <directory of the main executable>/../share/tensorop;
///  4. the directory given to setPackageDataDir (InitAllTensorOp.h passes the
///     installed package's share/tensorop, found by find_package, so an
///     out-of-tree tool works wherever it lives);
///  5. build-tree fallback: the build tree's share/tensorop, compiled in.
/// Empty if none exists. $TENSOROP_HINTS_DIR and $TENSOROP_EMITTER_DIR still
/// override the two directories individually (defaultHintsDir,
/// defaultEmitterDir).
std::string dataDir();

/// `relative` under dataDir() (e.g. "harness/gemm_check.c").
std::string dataPath(llvm::StringRef relative);

/// Adds a candidate for dataDir() (step 4). Later calls replace earlier ones.
void setPackageDataDir(llvm::StringRef dir);

} // namespace mlir::tensorop

#endif // TENSOROP_SUPPORT_DATADIR_H

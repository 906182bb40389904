//===- CpuGemmEntries.h - gen's check of the BLAS-like entries --*- C++ -*-===//
//
// Internal to lib/Driver: what CpuBackend::generate records about the
// entries besides NAME (NAME_ex, NAME_ex_ws, NAME_batched, ...) of a GEMM
// object it loaded back (lib/Verify/GemmEntryCheck.h), as a report.json
// object and report.md text; and the C declarations the header gives them.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_LIB_DRIVER_CPUGEMMENTRIES_H
#define TENSOROP_LIB_DRIVER_CPUGEMMENTRIES_H

#include "tensorop/Driver/Operator.h"
#include "tensorop/Runtime/ObjectFile.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <string>

namespace tensorop {

struct GemmEntriesCheck {
  std::string error; ///< a symbol is missing
  bool passed = false;
  llvm::json::Object verification; ///< report.json's "entry_points"
  std::string markdown;            ///< report.md's section
  std::string summary;             ///< the line gen prints
};

/// Checks every entry of `object` besides NAME's timing (NAME is checked in
/// the request's layout too) and, when `time`, times NAME_ex against NAME.
GemmEntriesCheck checkGemmEntriesObject(const mlir::tensorop::LoadedObject &object,
                                        llvm::StringRef name,
                                        const Operator &op, unsigned seed,
                                        bool time);

/// The header's part about the entries besides NAME: declarations and what
/// they compute (op() spelled out for the request's layout).
std::string gemmEntriesHeader(const Operator &op, llvm::StringRef name);

} // namespace tensorop

#endif // TENSOROP_LIB_DRIVER_CPUGEMMENTRIES_H

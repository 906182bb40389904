//===- SharedPackB.h - When threads share one packed B ----------*- C++ -*-===//
//
// With threads > 1 a sketch either splits C into one chunk per thread, each
// thread packing all the B it reads (pack_b = "kmajor_nr"), or packs each
// B block once into a buffer all threads read, at the cost of two OpenMP
// fork/joins per (k, n) block (pack_b = "kmajor_nr_shared"). The builtin
// advisor does not choose the shared form yet (it has not been measured on
// a quiet machine: bench/cpu/shared_b_ab.sh); the tuner's share_b knob and
// sketches written by hand or read from a database do.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_ADVISOR_SHAREDPACKB_H
#define TENSOROP_ADVISOR_SHAREDPACKB_H

#include "llvm/ADT/StringRef.h"

namespace mlir::tensorop {

/// The pack_b layout of the shared-B form.
constexpr llvm::StringLiteral kSharedPackB = "kmajor_nr_shared";

} // namespace mlir::tensorop

#endif // TENSOROP_ADVISOR_SHAREDPACKB_H

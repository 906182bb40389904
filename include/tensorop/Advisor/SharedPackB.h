//===- SharedPackB.h - When threads share one packed B ----------*- C++ -*-===//
//
// With threads > 1 a sketch either splits C into one chunk per thread, each
// thread packing all the B it reads (pack_b = "kmajor_nr"), or packs each
// B block once into a buffer all threads read, at the cost of two OpenMP
// fork/joins per (k, n) block (pack_b = "kmajor_nr_shared"). The builtin
// advisor does not choose the shared form: measured quietly at 2 threads
// (bench/cpu/shared_b_quiet.sh, session 13), it was slower on every shape,
// 1.02-1.03x the time of a packed B per thread on large ones and
// 1.28-1.79x where blocks are small (two fork/joins per (k, n) block cost
// more than the copy each thread saves; docs/benchmarks/cpu-gemm-classes.md,
// "One shared packed B for 2 threads, quietly"). The tuner's share_b knob
// and sketches written by hand or read from a database choose it.
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

//===- SharedPackB.h - When threads share one packed B ----------*- C++ -*-===//
//
// With threads > 1 a sketch either splits C into one chunk per thread, each
// thread packing all the B it reads (pack_b = "kmajor_nr"), or packs each
// B block once into a buffer all threads read, at the cost of two OpenMP
// fork/joins per (k, n) block (pack_b = "kmajor_nr_shared"). This decides
// which one the builtin advisor's sketches use.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_ADVISOR_SHAREDPACKB_H
#define TENSOROP_ADVISOR_SHAREDPACKB_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace mlir::tensorop {

struct GemmProblem;
struct SketchChoice;

/// The pack_b layout of the shared-B form.
constexpr llvm::StringLiteral kSharedPackB = "kmajor_nr_shared";

/// Whether `choice` (pack_b = "kmajor_nr", `choice.threads` > 1) should
/// share its packed B blocks among the threads; `why` gets one sentence
/// either way.
bool preferSharedPackB(const GemmProblem &problem, const SketchChoice &choice,
                       std::string &why);

} // namespace mlir::tensorop

#endif // TENSOROP_ADVISOR_SHAREDPACKB_H

//===- SketchText.h - A sketch given on the command line --------*- C++ -*-===//
//
// `tensorop bench --sketch=...` takes a sketch attribute as text. It is
// parsed and verified once, before anything is timed, so a malformed or
// illegal sketch is an error about the option (with the verifier's reason)
// rather than a failure inside each shape's module.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_DRIVER_SKETCHTEXT_H
#define TENSOROP_DRIVER_SKETCHTEXT_H

#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace tensorop {
/// Which attribute the text must be.
enum class SketchKind { Gemm, Conv };

/// Success when `text` parses as a #tensorop.sketch (Gemm) or
/// #tensorop.conv_sketch (Conv) that its verifier accepts; otherwise the
/// parser's or verifier's messages, column included.
llvm::Error checkSketchText(mlir::MLIRContext &ctx, llvm::StringRef text,
                            SketchKind kind);
} // namespace tensorop

#endif

//===- ConvRequest.h - The shape words of a convolution request -*- C++ -*-===//
//
// Internal to lib/Advisor: parseRequest (Request.cpp) reads the operator,
// element type and target of every request; for a convolution it hands the
// rest of the text to parseConvShape.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_LIB_ADVISOR_CONVREQUEST_H
#define TENSOROP_LIB_ADVISOR_CONVREQUEST_H

#include "tensorop/Advisor/ConvShape.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace mlir::tensorop {

/// Reads the geometry of a convolution from `lower` (the request in lower
/// case, output-type phrase removed). `isKnownWord` is true for the words
/// parseRequest already read (operator, element type, target). Every other
/// word must belong to a shape phrase or be a filler word; the first that
/// does not is refused by name. Missing, zero, conflicting or impossible
/// dimensions are errors with the numbers. Every error has the code
/// std::errc::not_supported (final: the LLM reader cannot carry a
/// convolution either).
/// Reads the convolution's shape from `lower` and its epilogue words
/// ("with bias and ReLU": bias per output channel, relu, relu6, gelu,
/// gelu-tanh, silu, sigmoid, tanh, residual) into `epilogue`, in order.
llvm::Error
parseConvShape(llvm::StringRef lower, ::tensorop::Conv2DShape &shape,
               llvm::function_ref<bool(llvm::StringRef)> isKnownWord,
               std::vector<std::string> &epilogue);

} // namespace mlir::tensorop

#endif // TENSOROP_LIB_ADVISOR_CONVREQUEST_H

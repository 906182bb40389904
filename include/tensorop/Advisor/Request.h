//===- Request.h - One-line operator requests -------------------*- C++ -*-===//
//
// `tensorop gen "97x131x67 fp32 GEMM for x86-avx512"`: the builtin parser
// turns the common phrasings of op, shape, element type and target into an
// OpRequest, or says what it understood and what is missing.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_ADVISOR_REQUEST_H
#define TENSOROP_ADVISOR_REQUEST_H

#include "tensorop/Advisor/ConvShape.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace mlir::tensorop {

struct OpRequest {
  std::string op;     ///< "gemm" or "conv2d"
  int64_t m = 0, n = 0, k = 0;
  /// The geometry of a "conv2d" request (lib/Advisor/ConvRequest.cpp).
  ::tensorop::Conv2DShape conv;
  std::string dtype;  ///< "f32", "bf16", "f16", "tf32", "f64"
  /// The output type when the request names one ("... with f32 output");
  /// "" = the input type.
  std::string cType;
  std::string target; ///< "host", "x86-avx512", ..., "nvidia-sm90"
  /// The request's words name the target ("for H200", "this CPU"); false:
  /// `target` is the default, host.
  bool targetNamed = false;
  /// A GEMM's fused epilogue ("... with bias and ReLU"), as
  /// #tensorop.epilogue steps in the order written; empty: C = A*B.
  std::vector<std::string> epilogue;
  /// GEMM operand layouts the request names ("B transposed", "NT", "A^T"):
  /// A stored K x M, B stored N x K (row-major).
  bool transposeA = false, transposeB = false;
  /// "batch" / "batch 8": gen also writes NAME_batched; `batchCount` is the
  /// count named (0: none), the one gen verifies with.
  bool batched = false;
  int64_t batchCount = 0;
  std::string text;   ///< The request as given.

  /// A C identifier naming the kernel, e.g. gemm_97x131x67_f32,
  /// gemm_97x131x67_f32_nt (B transposed) or
  /// conv2d_n1_56x56x64_f64_3x3_s1_p1_f32.
  std::string defaultName() const;
  std::string describe() const;
};

/// Parses a one-line request. Missing element type defaults to f32 and a
/// missing target to "host" (both noted in the result's description);
/// a missing shape, a conflicting or an unknown part is an error that says
/// what was understood and what is missing. Every word of a GEMM request
/// must be understood: transposes, batch and the words of NAME_ex's run-time
/// arguments are read by lib/Advisor/GemmModifiers.cpp; a modifier gen does
/// not support (column-major, an epilogue, a value for alpha or lda) is an
/// error with the code
/// std::errc::not_supported that names the word; any other unknown word is
/// std::errc::invalid_argument (not_supported too when the request also
/// names a layout, batch or NAME_ex argument, which an LLM reading of the
/// text could not carry). A convolution request ("conv2d N=1 H=56 ...",
/// "3x3 convolution, 64 to 128 channels, 28x28 input") is read by
/// lib/Advisor/ConvRequest.cpp; its errors are all std::errc::not_supported.
llvm::Expected<OpRequest> parseRequest(llvm::StringRef text);

/// The epilogue step one request word names ("bias" -> "bias_n", "relu6"
/// -> "clamp(0, 6)", ...), "" if none (lib/Advisor/EpilogueRequest.cpp).
llvm::StringRef epilogueStepOfWord(llvm::StringRef word);

/// Takes the epilogue words of a GEMM request ("bias", "relu", "gelu",
/// "gelu-tanh", "silu", "swish", "sigmoid", "tanh", "residual") out of
/// `tokens` and appends their steps to `steps`, in the order written
/// (lib/Advisor/EpilogueRequest.cpp).
void takeEpilogueWords(llvm::SmallVectorImpl<llvm::StringRef> &tokens,
                       std::vector<std::string> &steps,
                       llvm::ArrayRef<std::string> numberedSteps = {});

/// Takes the epilogue phrases with numbers ("scale 0.5", "scaled by 2",
/// "clamp to [-1, 1]", "clamp(-1, 1)", "clamped between 0 and 6") out of
/// the lower-cased request `lower`, in the order written: each is replaced
/// by a placeholder word that takeEpilogueWords reads back as the I-th of
/// `steps` (their step texts, "scale(0.5)", "clamp(-1, 1)"). "" or why a
/// phrase is not a valid step (clamp bounds out of order, ...).
std::string takeEpilogueNumberPhrases(std::string &lower,
                                      std::vector<std::string> &steps);

/// "N=1 H=56 W=56 C=64 F=64 R=3 S=3 stride=1 pad=1 dilation=1 (output
/// 56x56)": a convolution's geometry for messages and reports.
std::string describeConvShape(const ::tensorop::Conv2DShape &shape);
/// "n1_56x56x64_f64_3x3_s1_p1" (plus _d2 with a dilation): the part of a
/// convolution kernel's default name after "conv2d_".
std::string convShapeName(const ::tensorop::Conv2DShape &shape);

} // namespace mlir::tensorop

#endif

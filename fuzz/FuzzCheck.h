//===- FuzzCheck.h - What a fuzzer treats as a bug ------------*- C++ -*-===//
//
// The sanitizers catch memory errors, leaks and undefined behaviour; these
// checks catch results that are wrong without being undefined (a request
// accepted with a zero extent, a hints file accepted with a value outside
// its stated range). A failed check stops the fuzzer like a crash does, so
// libFuzzer saves the input.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_FUZZ_FUZZCHECK_H
#define TENSOROP_FUZZ_FUZZCHECK_H

#include "tensorop/Advisor/Advisor.h"
#include "tensorop/Dialect/TensorOpDialect.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#define FUZZ_CHECK(cond, what)                                                 \
  do {                                                                         \
    if (!(cond)) {                                                             \
      llvm::errs() << "fuzz check failed: " << (what) << " (" #cond ")\n";     \
      llvm::errs().flush();                                                    \
      __builtin_trap();                                                        \
    }                                                                          \
  } while (false)

/// A rejected input's error must say why; consumes it.
#define FUZZ_CHECK_REJECTION_SAYS_WHY(error)                                   \
  FUZZ_CHECK(!llvm::toString(error).empty(), "a rejection says why")

namespace mlir::tensorop::fuzz {

/// One context with the TensorOp dialect for the fuzzer's whole run: building
/// attributes must not cost a context per input.
inline mlir::MLIRContext &sharedContext() {
  static mlir::MLIRContext *ctx = [] {
    auto *c = new mlir::MLIRContext();
    c->getOrLoadDialect<TensorOpDialect>();
    return c;
  }();
  return *ctx;
}

/// The value of a fixture the harness cannot run without (a shipped hints
/// file, a builtin sketch); stops the fuzzer before the first input if not.
template <typename T> T fixture(llvm::Expected<T> value) {
  if (!value) {
    llvm::errs() << "fuzz fixture failed: " << llvm::toString(value.takeError())
                 << "\n";
    __builtin_trap();
  }
  return std::move(*value);
}

/// An fp32 GEMM fixture, by field name (GemmProblem grows fields; an
/// aggregate initializer would silently shift its booleans).
inline GemmProblem gemmProblem(int64_t m, int64_t n, int64_t k,
                               bool transposeA, bool transposeB,
                               bool aRowsInPlace) {
  GemmProblem p;
  p.m = m;
  p.n = n;
  p.k = k;
  p.transposeA = transposeA;
  p.transposeB = transposeB;
  p.aRowsInPlace = aRowsInPlace;
  return p;
}

} // namespace mlir::tensorop::fuzz

#endif // TENSOROP_FUZZ_FUZZCHECK_H

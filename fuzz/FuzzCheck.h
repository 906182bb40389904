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

#include "llvm/Support/raw_ostream.h"

#define FUZZ_CHECK(cond, what)                                                 \
  do {                                                                         \
    if (!(cond)) {                                                             \
      llvm::errs() << "fuzz check failed: " << (what) << " (" #cond ")\n";     \
      llvm::errs().flush();                                                    \
      __builtin_trap();                                                        \
    }                                                                          \
  } while (false)

#endif // TENSOROP_FUZZ_FUZZCHECK_H

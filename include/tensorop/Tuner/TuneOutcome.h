//===- TuneOutcome.h - What tuning one op came to ---------------*- C++ -*-===//
//
// The line `tensorop tune` prints on stdout per op, for CPU and GPU tuners
// alike: the best sketch against the builtin advisor's, their ratio, and
// whether the final confirmation (both timed again, interleaved) backs it.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_TUNER_TUNEOUTCOME_H
#define TENSOROP_TUNER_TUNEOUTCOME_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir::tensorop {

struct TuneOutcome {
  std::string op, target;
  /// "GFLOP/s" (CPU) or "TFLOP/s" (GPU).
  std::string unit;
  /// The speeds compared: from the confirmation if it ran, else from the
  /// search (0 if unknown).
  double best = 0, builtin = 0;
  /// The builtin and the best were timed again, interleaved, and `best` and
  /// `builtin` are those figures.
  bool confirmed = false;
  /// Why not, when not confirmed.
  std::string notConfirmedBecause;
  /// The database row the pipeline's db= now picks ("" if none).
  std::string recordHash;
};

/// One line, e.g. "m64n64k64_f32 on x86-avx512: best 102.3 GFLOP/s vs builtin
/// 80.1 GFLOP/s: 1.277x, confirmed (timed again interleaved); db record
/// 1a2b3c".
std::string formatTuneOutcome(const TuneOutcome &outcome);

} // namespace mlir::tensorop

#endif // TENSOROP_TUNER_TUNEOUTCOME_H

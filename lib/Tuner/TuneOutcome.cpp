//===- TuneOutcome.cpp - What tuning one op came to -----------------------===//

#include "tensorop/Tuner/TuneOutcome.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir::tensorop;

std::string mlir::tensorop::formatTuneOutcome(const TuneOutcome &o) {
  std::string line = o.op + " on " + o.target + ": ";
  if (o.best > 0)
    line += llvm::formatv("best {0:F1} {1}", o.best, o.unit).str();
  else
    line += "no verified candidate";
  if (o.builtin > 0)
    line += llvm::formatv(" vs builtin {0:F1} {1}", o.builtin, o.unit).str();
  else
    line += " vs builtin (not measured)";
  if (o.best > 0 && o.builtin > 0)
    line += llvm::formatv(": {0:F3}x", o.best / o.builtin).str();
  line += o.confirmed ? ", confirmed (timed again, interleaved)"
                      : ", not confirmed (" + o.notConfirmedBecause + ")";
  if (!o.recordHash.empty())
    line += "; db record " + o.recordHash;
  return line;
}

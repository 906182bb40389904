//===- Settle.h - When a GPU's clocks have settled; sample spread -*- C++ -*-===//
//
// A GPU boosts its clocks when work starts and lowers them as power and
// temperature climb, so the first seconds of a timing differ from the rest.
// Timed rounds start once the clocks have settled, by the rule below, and
// every timing reports its spread beside its median.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_VERIFY_SETTLE_H
#define TENSOROP_VERIFY_SETTLE_H

#include <string>
#include <vector>

namespace tensorop {

/// Warm-up samples go on until, over the last `window` samples, the SM
/// clock varied by at most `clockTolerance` (relative; skipped when no
/// clock is read) and the sample times by at most `timeTolerance`, after at
/// least `minSeconds` of warm-up; or until `maxSeconds` (then not settled,
/// which the tools report).
struct SettleRule {
  int window = 5;
  double clockTolerance = 0.01;
  double timeTolerance = 0.03;
  double minSeconds = 1.0;
  double maxSeconds = 10.0;

  /// The rule in words, for the tools' output.
  std::string describe() const;
  /// Whether the samples so far (oldest first; `clocksMHz` empty without
  /// NVML) meet the rule.
  bool settled(const std::vector<double> &clocksMHz,
               const std::vector<double> &sampleSeconds,
               double elapsedSeconds) const;
};

/// min / median / max of a set of samples and the relative spread
/// (max - min) / median.
struct Spread {
  double min = 0, median = 0, max = 0, relative = 0;
};
Spread spreadOf(const std::vector<double> &samples);

} // namespace tensorop

#endif // TENSOROP_VERIFY_SETTLE_H

//===- Settle.cpp - When a GPU's clocks have settled; sample spread -------===//

#include "tensorop/Verify/Settle.h"
#include "tensorop/Verify/Timing.h"

#include <algorithm>
#include <cstdio>

using namespace tensorop;

namespace {
/// (max - min) / max of the last `n` values; 1 when there are fewer.
double relativeRange(const std::vector<double> &v, int n) {
  if (n <= 0 || v.size() < size_t(n))
    return 1;
  auto [lo, hi] = std::minmax_element(v.end() - n, v.end());
  return *hi > 0 ? (*hi - *lo) / *hi : 1;
}
} // namespace

std::string SettleRule::describe() const {
  char buf[320];
  std::snprintf(buf, sizeof(buf),
                "warm-up samples until the last %d agree: SM clock within "
                "%.0f%% (when NVML reads it) and sample time within %.0f%%, "
                "after at least %.1f s; at most %.1f s (then 'settled' is "
                "false)",
                window, clockTolerance * 100, timeTolerance * 100, minSeconds,
                maxSeconds);
  return buf;
}

bool SettleRule::settled(const std::vector<double> &clocksMHz,
                         const std::vector<double> &sampleSeconds,
                         double elapsedSeconds) const {
  if (elapsedSeconds < minSeconds)
    return false;
  if (!clocksMHz.empty() && relativeRange(clocksMHz, window) > clockTolerance)
    return false;
  return relativeRange(sampleSeconds, window) <= timeTolerance;
}

Spread tensorop::spreadOf(const std::vector<double> &samples) {
  Spread s;
  if (samples.empty())
    return s;
  auto [lo, hi] = std::minmax_element(samples.begin(), samples.end());
  s.min = *lo;
  s.max = *hi;
  s.median = median(samples);
  s.relative = s.median > 0 ? (s.max - s.min) / s.median : 0;
  return s;
}

// The timing tools' warm-up rule, spread and NVML fallback, without a GPU
// (test/GPU/runner-timing.test).
#include "tensorop/GPU/NvmlSampler.h"
#include "tensorop/Verify/Settle.h"

#include <cstdio>
#include <vector>

int main() {
  tensorop::SettleRule rule; // window 5, 1% clock, 3% time, 1 s .. 10 s
  std::vector<double> ramp = {1200, 1500, 1755, 1980, 1980, 1980, 1980, 1980};
  std::vector<double> times = {2.0, 1.6, 1.3, 1.0, 1.0, 1.0, 1.01, 1.0};
  std::vector<double> last5Clocks(ramp.end() - 5, ramp.end());
  std::vector<double> last5Times(times.end() - 5, times.end());
  std::vector<double> firstClocks(ramp.begin(), ramp.begin() + 5);
  std::vector<double> firstTimes(times.begin(), times.begin() + 5);
  std::printf("ramping: %d\n", rule.settled(firstClocks, firstTimes, 2.0));
  std::printf("flat: %d\n", rule.settled(last5Clocks, last5Times, 2.0));
  std::printf("flat but too early: %d\n",
              rule.settled(last5Clocks, last5Times, 0.5));
  std::printf("flat without NVML: %d\n", rule.settled({}, last5Times, 2.0));
  std::vector<double> clockDrop = {1980, 1980, 1980, 1980, 1900};
  std::printf("clock dropping: %d\n",
              rule.settled(clockDrop, last5Times, 2.0));
  tensorop::Spread s = tensorop::spreadOf({3, 1, 2, 5, 4});
  std::printf("spread: min %g median %g max %g relative %g\n", s.min,
              s.median, s.max, s.relative);
  std::printf("rule: %s\n", rule.describe().c_str());
  tensorop::NvmlSampler nvml("0000:00:00.0");
  std::printf("nvml available: %d; reason: %s; read: %d\n", nvml.available(),
              nvml.unavailableReason().c_str(), bool(nvml.read()));
  return 0;
}

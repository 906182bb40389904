//===- NvmlSampler.h - SM clock, power, temperature through NVML -*- C++ -*-===//
//
// What the GPU is doing while a kernel is timed: the SM and memory clocks,
// the board power, the temperature and the reasons the clocks are held
// down, read through NVML. libnvidia-ml.so.1 is opened with dlopen at run
// time, so programs using this build where no driver is installed and run
// on machines without NVML: the sampler then says it is unavailable, and
// why, instead of failing.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_GPU_NVMLSAMPLER_H
#define TENSOROP_GPU_NVMLSAMPLER_H

#include <cstdint>
#include <optional>
#include <string>

namespace tensorop {

struct GpuSample {
  unsigned smClockMHz = 0;
  unsigned memClockMHz = 0;
  double powerWatts = 0;
  unsigned temperatureC = 0;
  /// NVML's clocks-event (throttle) reason bits; 0 means none, 1 idle.
  uint64_t clockEventReasons = 0;
  bool haveReasons = false;
};

/// Reads one GPU's state through NVML. Not thread-safe; one per process.
class NvmlSampler {
public:
  /// The GPU with this PCI bus id (cuDeviceGetPCIBusId's "0000:xx:yy.z").
  explicit NvmlSampler(const std::string &pciBusId);
  ~NvmlSampler();
  NvmlSampler(const NvmlSampler &) = delete;
  NvmlSampler &operator=(const NvmlSampler &) = delete;

  bool available() const { return device != nullptr; }
  /// Why NVML is unavailable ("" when it is available).
  const std::string &unavailableReason() const { return reason; }
  /// The driver version NVML reports ("" if unavailable).
  const std::string &driverVersion() const { return driver; }
  /// The current state; nullopt when unavailable or a read failed.
  std::optional<GpuSample> read();

private:
  void *library = nullptr;
  void *device = nullptr;
  std::string reason, driver;
  // The NVML entry points used, found with dlsym.
  int (*getClock)(void *, int, unsigned *) = nullptr;
  int (*getPower)(void *, unsigned *) = nullptr;
  int (*getTemperature)(void *, int, unsigned *) = nullptr;
  int (*getReasons)(void *, unsigned long long *) = nullptr;
  int (*shutdown)() = nullptr;
};

} // namespace tensorop

#endif // TENSOROP_GPU_NVMLSAMPLER_H

//===- NvmlSampler.cpp - SM clock, power, temperature through NVML --------===//
//
// NVML's C API, declared here by hand (the toolkit on the build machine
// ships no nvml.h): handles are opaque pointers, every call returns 0 on
// success. The constants are NVML's: NVML_CLOCK_SM = 1, NVML_CLOCK_MEM = 2,
// NVML_TEMPERATURE_GPU = 0.
//
//===----------------------------------------------------------------------===//

#include "tensorop/GPU/NvmlSampler.h"

#include <dlfcn.h>

using namespace tensorop;

namespace {
constexpr int kClockSm = 1, kClockMem = 2, kTemperatureGpu = 0;

template <typename F> F symbol(void *library, const char *name) {
  return reinterpret_cast<F>(dlsym(library, name));
}
} // namespace

NvmlSampler::NvmlSampler(const std::string &pciBusId) {
  library = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char *why = dlerror();
    reason = std::string("cannot open libnvidia-ml.so.1: ") +
             (why ? why : "unknown error");
    return;
  }
  auto init = symbol<int (*)()>(library, "nvmlInit_v2");
  auto byBusId = symbol<int (*)(const char *, void **)>(
      library, "nvmlDeviceGetHandleByPciBusId_v2");
  auto driverVersion =
      symbol<int (*)(char *, unsigned)>(library, "nvmlSystemGetDriverVersion");
  getClock = symbol<int (*)(void *, int, unsigned *)>(library,
                                                      "nvmlDeviceGetClockInfo");
  getPower =
      symbol<int (*)(void *, unsigned *)>(library, "nvmlDeviceGetPowerUsage");
  getTemperature = symbol<int (*)(void *, int, unsigned *)>(
      library, "nvmlDeviceGetTemperature");
  // The newer name first; the older one is kept by current drivers too.
  getReasons = symbol<int (*)(void *, unsigned long long *)>(
      library, "nvmlDeviceGetCurrentClocksEventReasons");
  if (!getReasons)
    getReasons = symbol<int (*)(void *, unsigned long long *)>(
        library, "nvmlDeviceGetCurrentClocksThrottleReasons");
  shutdown = symbol<int (*)()>(library, "nvmlShutdown");
  if (!init || !byBusId || !getClock || !getPower || !getTemperature) {
    reason = "libnvidia-ml.so.1 lacks nvmlInit_v2, "
             "nvmlDeviceGetHandleByPciBusId_v2 or a clock/power/temperature "
             "query";
    return;
  }
  if (int rc = init()) {
    reason = "nvmlInit_v2 failed (NVML error " + std::to_string(rc) + ")";
    shutdown = nullptr;
    return;
  }
  void *handle = nullptr;
  if (int rc = byBusId(pciBusId.c_str(), &handle)) {
    reason = "NVML has no GPU at PCI bus id " + pciBusId + " (NVML error " +
             std::to_string(rc) + ")";
    return;
  }
  char version[96] = {0};
  if (driverVersion && driverVersion(version, sizeof(version)) == 0)
    driver = version;
  device = handle;
}

NvmlSampler::~NvmlSampler() {
  if (shutdown)
    shutdown();
  if (library)
    dlclose(library);
}

std::optional<GpuSample> NvmlSampler::read() {
  if (!device)
    return std::nullopt;
  GpuSample s;
  unsigned milliwatts = 0;
  if (getClock(device, kClockSm, &s.smClockMHz) ||
      getClock(device, kClockMem, &s.memClockMHz) ||
      getPower(device, &milliwatts) ||
      getTemperature(device, kTemperatureGpu, &s.temperatureC))
    return std::nullopt;
  s.powerWatts = milliwatts / 1000.0;
  unsigned long long reasons = 0;
  if (getReasons && getReasons(device, &reasons) == 0) {
    s.clockEventReasons = reasons;
    s.haveReasons = true;
  }
  return s;
}

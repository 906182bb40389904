//===- HostHints.h - What target=host reads about this machine --*- C++ -*-===//
//
// target=host picks a hints file by the CPU's features (resolveTargetName),
// then describes the machine it runs on: the cache geometry from sysfs and
// the facts of its CPU (LLVM's host CPU name) from the file's "cpus" object,
// each overlaid field with its source. Anything it cannot read keeps the
// file's values with a remark.
//
// Test hooks (lit describes a Zen 4 and a Zen 5 host on any machine):
//   TENSOROP_HOST_SYSFS=DIR  read DIR/devices/system/cpu/cpu0/cache/index*
//                            instead of /sys/...
//   TENSOROP_HOST_CPU=NAME   take NAME as the host CPU (e.g. znver5)
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_TARGETS_HOSTHINTS_H
#define TENSOROP_TARGETS_HOSTHINTS_H

#include "tensorop/Targets/TargetHints.h"

#include "llvm/Support/JSON.h"

namespace mlir {
namespace tensorop {

/// What target=host found out about the machine.
struct HostMachine {
  std::string cpuName;   ///< LLVM's name for the CPU, e.g. "znver4".
  std::string cpuSource; ///< Where the name came from.
  /// Data and unified caches from sysfs, by level; empty if not read.
  std::vector<CacheLevel> caches;
  std::vector<std::string> cacheSources; ///< The sysfs directory of each.
  std::string cacheError; ///< Why the caches were not read (else empty).
};

/// Reads the cache levels under `cacheDir` (a sysfs
/// .../cpu0/cache directory): index*/{level,type,size,ways_of_associativity,
/// coherency_line_size,shared_cpu_list}. Instruction caches are skipped;
/// shared_by_cores counts the CPUs sharing a level divided by those sharing
/// L1 data (SMT threads of one core). Fails, naming the file and its text,
/// on anything missing or garbled, and without an L1 and an L2.
llvm::Error readSysfsCaches(llvm::StringRef cacheDir, HostMachine &out);

/// This machine, or the one TENSOROP_HOST_SYSFS / TENSOROP_HOST_CPU name.
HostMachine readHostMachine();

/// Puts `m` over `h` (hints of the file resolveTargetName chose): the
/// caches, and the facts of h.cpuFacts[m.cpuName]; records each field in
/// h.hostOverlay and each thing it could not use in h.hostRemarks.
void overlayHostMachine(TargetHints &h, const HostMachine &m);

/// True the first time this process asks about `remark` (one of
/// TargetHints::hostRemarks), false after: the remarks describe the
/// machine, not the module, so a pass says each once per process rather
/// than for every module it compiles (-split-input-file, a driver that
/// lowers many candidates). Reports keep all of them. Thread-safe.
bool firstTimeInProcess(llvm::StringRef remark);

/// For reports (gen's report.json "host"): null for a named target, else
/// {"cpu", "overlay": [{"field", "value", "source"}], "remarks": [...]}.
llvm::json::Value hostOverlayJson(const TargetHints &h);

/// The same as a report.md section ("" for a named target).
std::string hostOverlayMarkdown(const TargetHints &h);

} // namespace tensorop
} // namespace mlir

#endif // TENSOROP_TARGETS_HOSTHINTS_H

//===- BenchReport.h - What both bench drivers report alike -----*- C++ -*-===//
//
// `tensorop bench` (BenchDriver.cpp) and `tensorop bench --conv`
// (ConvBench.cpp) date their JSON alike and treat a verified kernel timed
// above the FMA peak alike: here once.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_LIB_DRIVER_BENCHREPORT_H
#define TENSOROP_LIB_DRIVER_BENCHREPORT_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace tensorop {

/// Today's date (UTC), YYYY-MM-DD: the JSON's "date".
std::string benchDate();

/// Where a verified kernel's best sample `bestGflops` was above the FMA
/// peak (`fasterThanPeak`, against `peakPerCore` x `threads`): a peak
/// measured once, at start, on a shared machine is most likely a peak
/// measurement slowed by other load, so it is measured again (not when the
/// user gave it, `peakGiven`), and a sample still above it is reported in a
/// warning on stderr, not failed: `tool` starts the line ("tensorop
/// bench"), `label` names the shape or layer, `suspectWhy` follows "the
/// peak figure is suspect" ("" or " (...)"), `subject` ends it ("shape",
/// "layer"). `fasterThanPeak` ends as whether the sample stayed above.
void warnAboveFmaPeak(bool &fasterThanPeak, double bestGflops,
                      double peakPerCore, unsigned threads, bool peakGiven,
                      llvm::StringRef tool, llvm::StringRef label,
                      llvm::StringRef suspectWhy, llvm::StringRef subject);

/// "" if a report can be written at `path` ("" too: none asked for), else
/// why not (its directory is missing): checked before anything is measured,
/// where the write failed only after every shape was timed.
std::string checkReportPath(llvm::StringRef path);

} // namespace tensorop

#endif // TENSOROP_LIB_DRIVER_BENCHREPORT_H

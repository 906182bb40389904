//===- BenchReport.cpp - What both bench drivers report alike -------------===//

#include "BenchReport.h"

#include "tensorop/Verify/Timing.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <ctime>

using namespace llvm;

std::string tensorop::benchDate() {
  std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y-%m-%d", std::gmtime(&t));
  return buf;
}

void tensorop::warnAboveFmaPeak(bool &fasterThanPeak, double bestGflops,
                                double peakPerCore, unsigned threads,
                                bool peakGiven, StringRef tool,
                                StringRef label, StringRef suspectWhy,
                                StringRef subject) {
  double peak = peakPerCore * threads;
  if (fasterThanPeak && !peakGiven)
    fasterThanPeak = fasterThanRemeasuredPeak(bestGflops, peak, threads);
  if (fasterThanPeak)
    errs() << formatv("{0}: warning: {1}: best sample {2:F1} GFLOP/s is above "
                      "the FMA peak ({3:F1} GFLOP/s for {4} thread(s), {5}); "
                      "the result verified, so the peak figure is "
                      "suspect{6}: treat this {7}'s timings with care\n",
                      tool, label, bestGflops, peak, threads,
                      peakGiven ? "given with --peak"
                                : "measured at start and again",
                      suspectWhy, subject)
                  .str();
}

std::string tensorop::checkReportPath(llvm::StringRef path) {
  if (path.empty())
    return "";
  llvm::StringRef dir = llvm::sys::path::parent_path(path);
  if (!dir.empty() && !llvm::sys::fs::is_directory(dir))
    return ("cannot write " + path + ": no directory '" + dir + "'").str();
  if (llvm::sys::fs::is_directory(path))
    return ("cannot write " + path + ": it is a directory").str();
  return "";
}

//===- DbDriver.h - tensorop db: inspect a tuning database ------*- C++ -*-===//
//
// The library behind `tensorop db list|show|export|prune`: rows of a tuning
// database (CPU and NVIDIA sketches alike, config hashes recomputed from the
// sketch text so tampered rows are flagged), as a table or JSON.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_DRIVER_DBDRIVER_H
#define TENSOROP_DRIVER_DBDRIVER_H

#include <string>
#include <vector>

namespace tensorop {

struct DbOptions {
  /// The action and its argument: {"list"}, {"show", ID-or-hash},
  /// {"export"} or {"prune"}.
  std::vector<std::string> args;
  std::string dbPath;
  bool json = false;      ///< list as JSON
  std::string opFilter;   ///< only rows of this op signature ("" = all)
  int keepBest = 0;       ///< prune: keep the best N verified rows (0 = all)
};

/// Runs `tensorop db`; returns the exit status.
int inspectTuningDb(const DbOptions &options);

} // namespace tensorop

#endif // TENSOROP_DRIVER_DBDRIVER_H

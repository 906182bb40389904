//===- SketchOrigin.h - Who chose a generated kernel's sketch ---*- C++ -*-===//
//
// gen's reports say where the sketch came from: the advisor, or a tuning
// database's record (gen --db), which the sketch's `source = "db:HASH"`
// records. Both backends say it the same way.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_DRIVER_SKETCHORIGIN_H
#define TENSOROP_DRIVER_SKETCHORIGIN_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace tensorop {
/// The record hash of a sketch printed with `source = "db:HASH"`; "" when
/// the sketch did not come from a tuning database.
std::string sketchDbRecord(llvm::StringRef sketchText);

/// report.json's `sketch_source`: "tuning database DB" or "advisor NAME"
/// ("none: upstream lowering" for an empty sketch).
std::string sketchSourceField(llvm::StringRef sketchText,
                              llvm::StringRef advisor, llvm::StringRef db);

/// report.md's sketch heading: "Sketch (record HASH of the tuning database
/// `DB`)" or "Sketch (chosen by the `NAME` advisor)".
std::string sketchHeading(llvm::StringRef sketchText, llvm::StringRef advisor,
                          llvm::StringRef db);
} // namespace tensorop

#endif

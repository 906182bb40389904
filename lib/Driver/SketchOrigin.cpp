//===- SketchOrigin.cpp - Who chose a generated kernel's sketch -----------===//

#include "tensorop/Driver/SketchOrigin.h"

using namespace llvm;

std::string tensorop::sketchDbRecord(StringRef sketchText) {
  size_t at = sketchText.find("source = \"db:");
  if (at == StringRef::npos)
    return "";
  return sketchText.drop_front(at + 13)
      .take_until([](char c) { return c == '"'; })
      .str();
}

std::string tensorop::sketchSourceField(StringRef sketchText,
                                        StringRef advisor, StringRef db) {
  if (sketchText.empty())
    return "none: upstream lowering";
  if (!sketchDbRecord(sketchText).empty())
    return "tuning database " + db.str();
  return "advisor " + advisor.str();
}

std::string tensorop::sketchHeading(StringRef sketchText, StringRef advisor,
                                    StringRef db) {
  std::string record = sketchDbRecord(sketchText);
  if (!record.empty())
    return "Sketch (record " + record + " of the tuning database `" +
           db.str() + "`)";
  return "Sketch (chosen by the `" + advisor.str() + "` advisor)";
}

//===- SharedPackB.cpp - When threads share one packed B ------------------===//
//
// PLACEHOLDER: calibrated below from the A/B measurements.
//
//===----------------------------------------------------------------------===//

#include "tensorop/Advisor/SharedPackB.h"
#include "tensorop/Advisor/Advisor.h"

using namespace mlir::tensorop;

bool mlir::tensorop::preferSharedPackB(const GemmProblem &p,
                                       const SketchChoice &c,
                                       std::string &why) {
  (void)p;
  (void)c;
  why = "not calibrated";
  return false;
}

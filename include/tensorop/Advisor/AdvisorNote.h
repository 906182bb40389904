//===- AdvisorNote.h - What an advisor went through -------------*- C++ -*-===//
//
// Advisors that can be wrong (llm, replay; CPU and NVIDIA) say what happened
// while they chose a sketch: an answer accepted, an answer rejected and why,
// the endpoint failing, a fallback to the builtin sketch. Callers decide
// how loud each note is from its severity, never from its wording.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_ADVISOR_ADVISORNOTE_H
#define TENSOROP_ADVISOR_ADVISORNOTE_H

#include <string>

namespace mlir::tensorop {

struct AdvisorNote {
  enum class Severity {
    /// What happened: an answer accepted, tokens used.
    Info,
    /// Something went wrong and the advisor carried on: the endpoint
    /// failed, the builtin sketch was used instead.
    Warning,
    /// An answer was refused (schema, legality, the validator); the text
    /// says why, as it was fed back to the model.
    Rejection,
  };
  Severity severity = Severity::Info;
  std::string text;

  static AdvisorNote info(std::string text) {
    return {Severity::Info, std::move(text)};
  }
  static AdvisorNote warning(std::string text) {
    return {Severity::Warning, std::move(text)};
  }
  static AdvisorNote rejection(std::string text) {
    return {Severity::Rejection, std::move(text)};
  }
  /// Rejections and warnings: what a user should be told about loudly.
  bool isProblem() const { return severity != Severity::Info; }
};

} // namespace mlir::tensorop

#endif // TENSOROP_ADVISOR_ADVISORNOTE_H

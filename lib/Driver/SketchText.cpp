//===- SketchText.cpp - A sketch given on the command line ----------------===//

#include "tensorop/Driver/SketchText.h"

#include "tensorop/Dialect/TensorOpDialect.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Diagnostics.h"

using namespace llvm;

Error tensorop::checkSketchText(mlir::MLIRContext &ctx, StringRef text,
                                SketchKind kind) {
  std::string messages;
  mlir::ScopedDiagnosticHandler handler(&ctx, [&](mlir::Diagnostic &diag) {
    if (diag.getSeverity() == mlir::DiagnosticSeverity::Error) {
      // The location is the option's own text ("-":1:COLUMN): the column.
      std::string where;
      if (auto loc = dyn_cast<mlir::FileLineColLoc>(diag.getLocation()))
        where = "column " + std::to_string(loc.getColumn()) + ": ";
      messages += (messages.empty() ? "" : "; ") + where + diag.str();
    }
    return mlir::success();
  });
  ctx.getOrLoadDialect<mlir::tensorop::TensorOpDialect>();
  // (The whole text must be the attribute: trailing text is an error.)
  mlir::Attribute attr = mlir::parseAttribute(text, &ctx);
  if (!attr)
    return createStringError(messages.empty() ? "cannot parse the sketch"
                                              : messages);
  bool right = kind == SketchKind::Gemm
                   ? isa<mlir::tensorop::SketchAttr>(attr)
                   : isa<mlir::tensorop::ConvSketchAttr>(attr);
  if (!right)
    return createStringError(kind == SketchKind::Gemm
                                 ? "expected a #tensorop.sketch<...>"
                                 : "expected a #tensorop.conv_sketch<...>");
  return Error::success();
}

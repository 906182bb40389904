//===- HintsFuzzer.cpp - Fuzz the hints/<target>.json reader -------------===//
//
// A hints file is data a user may edit (TENSOROP_HINTS_DIR). Any text either
// validates into TargetHints whose fields lie in the ranges the reader
// states, or is an error naming the file; hints that validate then go
// through the builtin advisor and the sketch verifier, whose arithmetic
// reads every field (the sanitizers check it).
//
//===----------------------------------------------------------------------===//

#include "FuzzCheck.h"

#include "tensorop/Advisor/Advisor.h"
#include "tensorop/Dialect/TensorOpDialect.h"
#include "tensorop/Targets/TargetHints.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/JSON.h"

using namespace mlir;
using namespace mlir::tensorop;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  // The reader checks the file is for the target asked for; ask for the one
  // it names, so every CPU target's seed reaches the rest of the checks.
  std::string target = "x86-avx512";
  if (llvm::Expected<llvm::json::Value> doc = llvm::json::parse(text)) {
    if (const llvm::json::Object *o = doc->getAsObject())
      if (std::optional<llvm::StringRef> t = o->getString("target"))
        target = t->str();
  } else {
    llvm::consumeError(doc.takeError());
  }
  llvm::Expected<TargetHints> hints =
      parseTargetHints(text, target, "fuzz.json");
  if (!hints) {
    std::string why = llvm::toString(hints.takeError());
    FUZZ_CHECK(llvm::StringRef(why).starts_with("fuzz.json") ||
                   llvm::StringRef(why).contains("fuzz.json"),
               "an error names the file");
    return 0;
  }
  FUZZ_CHECK(hints->vectorBits >= 64 && hints->vectorBits % 32 == 0,
             "vector.bits in range");
  FUZZ_CHECK(hints->vectorRegisters >= 1 && hints->vectorRegisters <= 256,
             "vector.registers in range");
  FUZZ_CHECK(hints->cacheBytes(1) > 0 && hints->cacheBytes(2) > 0,
             "levels 1 and 2 present");

  MLIRContext *ctx = &fuzz::sharedContext();
  std::unique_ptr<Advisor> advisor = createBuiltinAdvisor();
  for (GemmProblem p :
       {fuzz::gemmProblem(97, 131, 67, false, false, false),
        fuzz::gemmProblem(1, 1, 1, false, false, false),
        fuzz::gemmProblem(4096, 4096, 4096, true, true, false),
        fuzz::gemmProblem(2147483647, 2147483647, 2147483647, false, false,
                          true)}) {
    llvm::Expected<SketchChoice> choice = advisor->propose(p, *hints);
    if (!choice) {
      llvm::consumeError(choice.takeError());
      continue;
    }
    // Legal or not, building the attribute runs the verifier's rules
    // against these hints; an illegal choice is reported by the annotate
    // pass as an error (test/Targets).
    std::string illegal;
    (void)choice->toAttr(ctx, *hints, illegal);
  }
  return 0;
}

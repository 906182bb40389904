//===- UKernelOperands.cpp - The CPU microkernel's asm operands -----------===//

#include "tensorop/Emitters/UKernelOperands.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"

using namespace llvm;

Error mlir::tensorop::checkUKernelConstraints(StringRef constraints,
                                              unsigned numOperands) {
  SmallVector<StringRef> parts;
  constraints.split(parts, ',');
  auto fail = [&](const Twine &why) {
    return createStringError("constraints '" + constraints + "' break the " +
                             Twine(unsigned(numOperands)) +
                             "-operand contract (=r x" +
                             Twine(unsigned(numOperands)) +
                             ", then 0..." +
                             Twine(unsigned(numOperands) - 1) +
                             ", then ~{clobbers}): " + why);
  };
  if (parts.size() < 2 * numOperands)
    return fail("fewer than " + Twine(2 * unsigned(numOperands)) +
                " entries");
  for (unsigned i = 0; i < numOperands; ++i)
    if (parts[i] != "=r" && parts[i] != "=&r")
      return fail("entry " + Twine(i) + " is '" + parts[i] +
                  "', not an integer register output");
  for (unsigned i = 0; i < numOperands; ++i)
    if (parts[numOperands + i] != std::to_string(i))
      return fail("entry " + Twine(numOperands + i) + " is '" +
                  parts[numOperands + i] + "', not the tied input '" +
                  Twine(i) + "'");
  for (size_t i = 2 * numOperands; i < parts.size(); ++i)
    if (!parts[i].starts_with("~{") || !parts[i].ends_with("}"))
      return fail("entry " + Twine(i) + " is '" + parts[i] +
                  "', not a clobber");
  return Error::success();
}

//===- UKernelOperands.cpp - The CPU microkernel's asm operands -----------===//

#include "tensorop/Emitters/UKernelOperands.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"

using namespace llvm;

Error mlir::tensorop::checkUKernelConstraints(StringRef constraints) {
  SmallVector<StringRef> parts;
  constraints.split(parts, ',');
  auto fail = [&](const Twine &why) {
    return createStringError("constraints '" + constraints + "' break the " +
                             Twine(unsigned(kNumUKernelOperands)) +
                             "-operand contract (=r x" +
                             Twine(unsigned(kNumUKernelOperands)) +
                             ", then 0..." +
                             Twine(unsigned(kNumUKernelOperands) - 1) +
                             ", then ~{clobbers}): " + why);
  };
  if (parts.size() < 2 * kNumUKernelOperands)
    return fail("fewer than " + Twine(2 * unsigned(kNumUKernelOperands)) +
                " entries");
  for (unsigned i = 0; i < kNumUKernelOperands; ++i)
    if (parts[i] != "=r" && parts[i] != "=&r")
      return fail("entry " + Twine(i) + " is '" + parts[i] +
                  "', not an integer register output");
  for (unsigned i = 0; i < kNumUKernelOperands; ++i)
    if (parts[kNumUKernelOperands + i] != std::to_string(i))
      return fail("entry " + Twine(kNumUKernelOperands + i) + " is '" +
                  parts[kNumUKernelOperands + i] + "', not the tied input '" +
                  Twine(i) + "'");
  for (size_t i = 2 * kNumUKernelOperands; i < parts.size(); ++i)
    if (!parts[i].starts_with("~{") || !parts[i].ends_with("}"))
      return fail("entry " + Twine(i) + " is '" + parts[i] +
                  "', not a clobber");
  return Error::success();
}

//===- KernelName.h - Which names a generated kernel may take ---*- C++ -*-===//
//
// `tensorop gen --name=NAME` names the kernel's C entry point, which is
// linked into the user's program next to the C library, POSIX and the C++
// runtime. A kernel called memcpy or malloc would replace the program's
// own (the generated code itself calls malloc, free and memset), and a
// keyword cannot be declared at all, so such names are refused up front.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_DRIVER_KERNELNAME_H
#define TENSOROP_DRIVER_KERNELNAME_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace tensorop {

/// Why `name` cannot name a kernel ("" when it can): not a C identifier, a
/// C or C++ keyword, a name reserved to the implementation (`__x`, `_X`),
/// a C library, POSIX or C++ runtime symbol, or one the generated object
/// uses itself (malloc, free, memset, the OpenMP runtime's __kmpc_*).
std::string reservedKernelName(llvm::StringRef name);

} // namespace tensorop

#endif // TENSOROP_DRIVER_KERNELNAME_H

/*===- SanitizeWithSystemLLVM.h - ASan over an uninstrumented LLVM -------===*
 *
 * Force-included into our C++ under TENSOROP_SANITIZERS=address (the
 * top-level CMakeLists.txt). LLVM's headers poison and unpoison memory of
 * their allocators (BumpPtrAllocator, Recycler, json::Value) when the
 * including code is built with ASan, assuming all of LLVM is. Debian's
 * libLLVM.so and libMLIR.so are not: an MLIRContext's allocator, shared by
 * their code and ours, had a slab poisoned by our inline copy of
 * BumpPtrAllocator and then handed out by theirs, which does not unpoison,
 * so the next write read as use-after-poison (the first finding of the
 * pipeline fuzzer; a false positive). Here the annotations are switched off
 * as they are in Debian's build; ASan still checks every heap, stack and
 * global access of our code.
 *
 *===----------------------------------------------------------------------===*/

#ifndef TENSOROP_SANITIZEWITHSYSTEMLLVM_H
#define TENSOROP_SANITIZEWITHSYSTEMLLVM_H

#ifdef __cplusplus
#include "llvm/Support/Compiler.h"
#undef LLVM_ADDRESS_SANITIZER_BUILD
#define LLVM_ADDRESS_SANITIZER_BUILD 0
#define __asan_poison_memory_region(p, size) ((void)(p), (void)(size))
#define __asan_unpoison_memory_region(p, size) ((void)(p), (void)(size))
#endif

#endif // TENSOROP_SANITIZEWITHSYSTEMLLVM_H

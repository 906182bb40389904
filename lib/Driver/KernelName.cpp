//===- KernelName.cpp - Which names a generated kernel may take -----------===//

#include "tensorop/Driver/KernelName.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace {
/// C (C23) and C++ (C++23) keywords and alternative tokens.
constexpr StringLiteral kKeywords[] = {
    "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor",
    "bool", "break", "case", "catch", "char", "char8_t", "char16_t",
    "char32_t", "class", "co_await", "co_return", "co_yield", "compl",
    "concept", "const", "const_cast", "consteval", "constexpr", "constinit",
    "continue", "decltype", "default", "delete", "do", "double",
    "dynamic_cast", "else", "enum", "explicit", "export", "extern", "false",
    "float", "for", "friend", "goto", "if", "inline", "int", "long",
    "mutable", "namespace", "new", "noexcept", "not", "not_eq", "nullptr",
    "operator", "or", "or_eq", "private", "protected", "public", "register",
    "reinterpret_cast", "requires", "restrict", "return", "short", "signed",
    "sizeof", "static", "static_assert", "static_cast", "struct", "switch",
    "template", "this", "thread_local", "throw", "true", "try", "typedef",
    "typeid", "typename", "typeof", "typeof_unqual", "union", "unsigned",
    "using", "virtual", "void", "volatile", "wchar_t", "while", "xor",
    "xor_eq"};

/// Functions and objects of the C library, POSIX and the C/C++ runtime
/// that a program links anyway: the common ones of <stdlib.h>, <string.h>,
/// <stdio.h>, <math.h>, <unistd.h>, <pthread.h>, <setjmp.h>, <signal.h>,
/// <time.h>, <fcntl.h>, <sys/mman.h>, and the entry and exit points.
constexpr StringLiteral kRuntimeSymbols[] = {
    // Program entry and exit, errors.
    "main", "exit", "_exit", "_Exit", "abort", "atexit", "at_quick_exit",
    "quick_exit", "errno", "environ", "assert", "raise", "signal", "sigaction",
    "kill", "longjmp", "setjmp", "siglongjmp", "sigsetjmp",
    // Memory (the generated object calls malloc, free and memset itself).
    "malloc", "calloc", "realloc", "reallocarray", "free", "aligned_alloc",
    "posix_memalign", "memalign", "valloc", "pvalloc", "malloc_usable_size",
    "alloca", "memcpy", "memmove", "memset", "memcmp", "memchr", "memrchr",
    "mempcpy", "memccpy", "bzero", "bcopy", "bcmp", "explicit_bzero",
    // Strings.
    "strlen", "strnlen", "strcpy", "strncpy", "strcat", "strncat", "strcmp",
    "strncmp", "strcoll", "strxfrm", "strchr", "strrchr", "strstr",
    "strtok", "strtok_r", "strdup", "strndup", "strerror", "strerror_r",
    "strspn", "strcspn", "strpbrk", "strcasecmp", "strncasecmp", "stpcpy",
    "strtol", "strtoll", "strtoul", "strtoull", "strtod", "strtof",
    "strtold", "atoi", "atol", "atoll", "atof", "qsort", "bsearch", "rand",
    "srand", "random", "srandom", "getenv", "setenv", "unsetenv", "putenv",
    "system", "abs", "labs", "llabs", "div", "ldiv", "lldiv",
    // Standard I/O.
    "printf", "fprintf", "sprintf", "snprintf", "vprintf", "vfprintf",
    "vsprintf", "vsnprintf", "dprintf", "scanf", "fscanf", "sscanf", "puts",
    "fputs", "putchar", "fputc", "putc", "getchar", "fgetc", "getc", "gets",
    "fgets", "ungetc", "fopen", "fdopen", "freopen", "fclose", "fflush",
    "fread", "fwrite", "fseek", "ftell", "rewind", "feof", "ferror",
    "perror", "remove", "rename", "tmpfile", "tmpnam", "setvbuf", "setbuf",
    "stdin", "stdout", "stderr",
    // Math.
    "sqrt", "sqrtf", "exp", "expf", "exp2", "log", "logf", "log2", "log10",
    "pow", "powf", "sin", "sinf", "cos", "cosf", "tan", "tanh", "fabs",
    "fabsf", "floor", "ceil", "round", "trunc", "fma", "fmaf", "fmin",
    "fmax", "fmod", "ldexp", "frexp", "modf", "nan", "nanf",
    // POSIX.
    "open", "openat", "creat", "close", "read", "write", "pread", "pwrite",
    "lseek", "dup", "dup2", "pipe", "fork", "vfork", "execve", "execv",
    "execvp", "execl", "execlp", "wait", "waitpid", "getpid", "getppid",
    "getuid", "geteuid", "sleep", "usleep", "nanosleep", "alarm", "pause",
    "unlink", "rmdir", "mkdir", "chdir", "getcwd", "stat", "fstat", "lstat",
    "access", "chmod", "chown", "ioctl", "fcntl", "mmap", "munmap",
    "mprotect", "madvise", "brk", "sbrk", "sysconf", "syscall", "socket",
    "connect", "bind", "listen", "accept", "send", "recv", "select", "poll",
    "time", "clock", "clock_gettime", "gettimeofday", "localtime", "gmtime",
    "mktime", "strftime", "dlopen", "dlsym", "dlclose", "dlerror",
    "pthread_create", "pthread_join", "pthread_exit", "pthread_self",
    "pthread_mutex_lock", "pthread_mutex_unlock", "sched_yield",
    // The C++ runtime's C-named pieces.
    "terminate", "unexpected"};

bool isCIdentifier(StringRef s) {
  if (s.empty() || !(isAlpha(s[0]) || s[0] == '_'))
    return false;
  return all_of(s, [](char c) { return isAlnum(c) || c == '_'; });
}
} // namespace

std::string tensorop::reservedKernelName(StringRef name) {
  if (!isCIdentifier(name))
    return "is not a C identifier (letters, digits and '_', not starting "
           "with a digit)";
  if (is_contained(kKeywords, name))
    return "is a C or C++ keyword";
  if (name.starts_with("__") || (name.size() > 1 && name[0] == '_' &&
                                 isUpper(name[1])))
    return "is reserved to the C implementation (names beginning with '__' "
           "or '_' and a capital letter)";
  if (is_contained(kRuntimeSymbols, name))
    return "is a symbol of the C library, POSIX or the C/C++ runtime that "
           "the program the kernel is linked into already has (the "
           "generated object itself calls malloc, free and memset)";
  // The header's own typedefs and those it takes from <stddef.h> and
  // <stdint.h>: `void tensorop_bf16(const tensorop_bf16 *A, ...)` does not
  // compile.
  if (is_contained({"tensorop_bf16", "tensorop_f16", "size_t", "ptrdiff_t",
                    "uint16_t", "int8_t", "int16_t", "int32_t", "int64_t",
                    "uint8_t", "uint32_t", "uint64_t", "intptr_t",
                    "uintptr_t"},
                   name))
    return "is a type name the generated header declares or uses "
           "(tensorop_bf16, tensorop_f16, size_t and <stdint.h>'s)";
  // The NVIDIA objects call the MLIR GPU runtime's mgpu* functions and
  // libtensorop_cuda_runtime's tensoropGpu* ones.
  if (name.starts_with("mgpu") || name.starts_with("tensoropGpu"))
    return "begins like the symbols of the GPU runtime an NVIDIA kernel "
           "links (the MLIR GPU runtime's mgpu*, libtensorop_cuda_runtime's "
           "tensoropGpu*)";
  if (name.starts_with("__kmpc_") || name.starts_with("omp_") ||
      name.starts_with("cblas_") || name.starts_with("pthread_") ||
      name.starts_with("_mlir_"))
    return "begins like the symbols of a runtime the kernel or its "
           "verification links (OpenMP's __kmpc_/omp_, cblas_, pthread_, "
           "MLIR's _mlir_)";
  return "";
}

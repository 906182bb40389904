//===- SeccompFilter.h - The syscall filter of the emitter sandbox -*- C++ -*-===//
//
// A classic-BPF seccomp program that bwrap installs (`--seccomp FD`) right
// before it starts an untrusted emitter script. The namespaces, the
// read-only mounts and the unprivileged uid already contain the script; the
// filter takes away the kernel interfaces it has no use for and that widen
// the kernel's attack surface or undo containment: tracing other processes,
// new namespaces and mounts, kernel modules, BPF, perf, io_uring, keyrings,
// userfaultfd, the rare socket families (packet, alg, vsock, ...), clocks,
// personality. Python and
// the shipped emitters need none of them. Denied calls fail with EPERM (a
// script sees an error, not a kill); clone3 fails with ENOSYS so that glibc
// falls back to clone, whose namespace flags the filter can inspect.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_EMITTERS_SECCOMPFILTER_H
#define TENSOROP_EMITTERS_SECCOMPFILTER_H

#include <optional>
#include <string>
#include <vector>

namespace mlir::tensorop {

/// The program's bytes (an array of struct sock_filter, as bwrap reads it)
/// for this host's architecture; nullopt where none is built (then the
/// sandbox runs without a filter and its description says so).
std::optional<std::string> emitterSeccompProgram();

/// The names of the system calls the program denies (for docs and the
/// sandbox description).
std::vector<std::string> emitterSeccompDeniedCalls();

} // namespace mlir::tensorop

#endif // TENSOROP_EMITTERS_SECCOMPFILTER_H

//===- SeccompFilter.cpp - The syscall filter of the emitter sandbox ------===//

#include "tensorop/Emitters/SeccompFilter.h"

#include <cerrno>
#include <cstddef>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <sys/socket.h>
#include <sys/syscall.h>

using namespace mlir::tensorop;

namespace {
struct DeniedCall {
  long nr;
  const char *name;
};

#define TENSOROP_DENY(name) {SYS_##name, #name},
/// Calls an emitter script never needs; each is guarded because not every
/// architecture has every call.
const DeniedCall kDenied[] = {
#ifdef SYS_ptrace
    TENSOROP_DENY(ptrace)
#endif
#ifdef SYS_process_vm_readv
    TENSOROP_DENY(process_vm_readv)
#endif
#ifdef SYS_process_vm_writev
    TENSOROP_DENY(process_vm_writev)
#endif
#ifdef SYS_pidfd_getfd
    TENSOROP_DENY(pidfd_getfd)
#endif
#ifdef SYS_kcmp
    TENSOROP_DENY(kcmp)
#endif
#ifdef SYS_mount
    TENSOROP_DENY(mount)
#endif
#ifdef SYS_umount2
    TENSOROP_DENY(umount2)
#endif
#ifdef SYS_pivot_root
    TENSOROP_DENY(pivot_root)
#endif
#ifdef SYS_chroot
    TENSOROP_DENY(chroot)
#endif
#ifdef SYS_unshare
    TENSOROP_DENY(unshare)
#endif
#ifdef SYS_setns
    TENSOROP_DENY(setns)
#endif
#ifdef SYS_fsopen
    TENSOROP_DENY(fsopen)
#endif
#ifdef SYS_fsconfig
    TENSOROP_DENY(fsconfig)
#endif
#ifdef SYS_fsmount
    TENSOROP_DENY(fsmount)
#endif
#ifdef SYS_fspick
    TENSOROP_DENY(fspick)
#endif
#ifdef SYS_move_mount
    TENSOROP_DENY(move_mount)
#endif
#ifdef SYS_open_tree
    TENSOROP_DENY(open_tree)
#endif
#ifdef SYS_mount_setattr
    TENSOROP_DENY(mount_setattr)
#endif
#ifdef SYS_kexec_load
    TENSOROP_DENY(kexec_load)
#endif
#ifdef SYS_kexec_file_load
    TENSOROP_DENY(kexec_file_load)
#endif
#ifdef SYS_init_module
    TENSOROP_DENY(init_module)
#endif
#ifdef SYS_finit_module
    TENSOROP_DENY(finit_module)
#endif
#ifdef SYS_delete_module
    TENSOROP_DENY(delete_module)
#endif
#ifdef SYS_bpf
    TENSOROP_DENY(bpf)
#endif
#ifdef SYS_perf_event_open
    TENSOROP_DENY(perf_event_open)
#endif
#ifdef SYS_userfaultfd
    TENSOROP_DENY(userfaultfd)
#endif
#ifdef SYS_keyctl
    TENSOROP_DENY(keyctl)
#endif
#ifdef SYS_add_key
    TENSOROP_DENY(add_key)
#endif
#ifdef SYS_request_key
    TENSOROP_DENY(request_key)
#endif
#ifdef SYS_io_uring_setup
    TENSOROP_DENY(io_uring_setup)
#endif
#ifdef SYS_io_uring_enter
    TENSOROP_DENY(io_uring_enter)
#endif
#ifdef SYS_io_uring_register
    TENSOROP_DENY(io_uring_register)
#endif
#ifdef SYS_reboot
    TENSOROP_DENY(reboot)
#endif
#ifdef SYS_swapon
    TENSOROP_DENY(swapon)
#endif
#ifdef SYS_swapoff
    TENSOROP_DENY(swapoff)
#endif
#ifdef SYS_acct
    TENSOROP_DENY(acct)
#endif
#ifdef SYS_quotactl
    TENSOROP_DENY(quotactl)
#endif
#ifdef SYS_open_by_handle_at
    TENSOROP_DENY(open_by_handle_at)
#endif
#ifdef SYS_name_to_handle_at
    TENSOROP_DENY(name_to_handle_at)
#endif
#ifdef SYS_syslog
    TENSOROP_DENY(syslog)
#endif
#ifdef SYS_settimeofday
    TENSOROP_DENY(settimeofday)
#endif
#ifdef SYS_clock_settime
    TENSOROP_DENY(clock_settime)
#endif
#ifdef SYS_adjtimex
    TENSOROP_DENY(adjtimex)
#endif
#ifdef SYS_clock_adjtime
    TENSOROP_DENY(clock_adjtime)
#endif
#ifdef SYS_iopl
    TENSOROP_DENY(iopl)
#endif
#ifdef SYS_ioperm
    TENSOROP_DENY(ioperm)
#endif
#ifdef SYS_mknod
    TENSOROP_DENY(mknod)
#endif
#ifdef SYS_mknodat
    TENSOROP_DENY(mknodat)
#endif
#ifdef SYS_personality
    TENSOROP_DENY(personality)
#endif
#ifdef SYS_vhangup
    TENSOROP_DENY(vhangup)
#endif
#ifdef SYS_sethostname
    TENSOROP_DENY(sethostname)
#endif
#ifdef SYS_setdomainname
    TENSOROP_DENY(setdomainname)
#endif
#ifdef SYS_fanotify_init
    TENSOROP_DENY(fanotify_init)
#endif
};
#undef TENSOROP_DENY

#if defined(__x86_64__)
constexpr unsigned kAuditArch = AUDIT_ARCH_X86_64;
#elif defined(__aarch64__)
constexpr unsigned kAuditArch = AUDIT_ARCH_AARCH64;
#endif

/// Namespace flags clone may not carry.
constexpr unsigned kNamespaceFlags = CLONE_NEWNS | CLONE_NEWCGROUP |
                                     CLONE_NEWUTS | CLONE_NEWIPC |
                                     CLONE_NEWUSER | CLONE_NEWPID |
                                     CLONE_NEWNET | 0x80 /*CLONE_NEWTIME*/;

sock_filter stmt(unsigned short code, unsigned k) {
  return sock_filter{code, 0, 0, k};
}
sock_filter jump(unsigned short code, unsigned k, unsigned char jt,
                 unsigned char jf) {
  return sock_filter{code, jt, jf, k};
}
} // namespace

std::optional<std::string> mlir::tensorop::emitterSeccompProgram() {
#if !defined(__x86_64__) && !defined(__aarch64__)
  return std::nullopt;
#else
  constexpr unsigned kAllow = SECCOMP_RET_ALLOW;
  constexpr unsigned kDeny = SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA);
  // The low 32 bits of argument 0 (little-endian on both architectures).
  constexpr unsigned kArg0 = offsetof(seccomp_data, args[0]);
  std::vector<sock_filter> p;
  // A call made through another architecture's table would be read with
  // the wrong numbers: kill it.
  p.push_back(stmt(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch)));
  p.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, kAuditArch, 1, 0));
  p.push_back(stmt(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS));
  p.push_back(stmt(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)));
#if defined(__x86_64__)
  // x32 calls (bit 30) reach the same kernel code under other numbers.
  p.push_back(jump(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 1));
  p.push_back(stmt(BPF_RET | BPF_K, kDeny));
#endif
  for (const DeniedCall &call : kDenied) {
    p.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, unsigned(call.nr), 0, 1));
    p.push_back(stmt(BPF_RET | BPF_K, kDeny));
  }
  // clone3 passes its flags in memory the filter cannot read: ENOSYS makes
  // glibc fall back to clone.
#ifdef SYS_clone3
  p.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone3, 0, 1));
  p.push_back(stmt(BPF_RET | BPF_K,
                   SECCOMP_RET_ERRNO | (ENOSYS & SECCOMP_RET_DATA)));
#endif
  // clone: threads and processes yes, new namespaces no.
  p.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone, 0, 4));
  p.push_back(stmt(BPF_LD | BPF_W | BPF_ABS, kArg0));
  p.push_back(jump(BPF_JMP | BPF_JSET | BPF_K, kNamespaceFlags, 1, 0));
  p.push_back(stmt(BPF_RET | BPF_K, kAllow));
  p.push_back(stmt(BPF_RET | BPF_K, kDeny));
  // socket: the common families only (inet ones reach nothing from the
  // sandbox's own network namespace; netlink lists its interfaces); the
  // rarely used families (packet, alg, vsock, bluetooth, ...) are where
  // kernel socket bugs cluster.
  p.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, SYS_socket, 0, 7));
  p.push_back(stmt(BPF_LD | BPF_W | BPF_ABS, kArg0));
  p.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, AF_UNIX, 4, 0));
  p.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, AF_INET, 3, 0));
  p.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, AF_INET6, 2, 0));
  p.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, AF_NETLINK, 1, 0));
  p.push_back(stmt(BPF_RET | BPF_K, kDeny));
  p.push_back(stmt(BPF_RET | BPF_K, kAllow));
  p.push_back(stmt(BPF_RET | BPF_K, kAllow));
  return std::string(reinterpret_cast<const char *>(p.data()),
                     p.size() * sizeof(sock_filter));
#endif
}

std::vector<std::string> mlir::tensorop::emitterSeccompDeniedCalls() {
  std::vector<std::string> names;
  for (const DeniedCall &call : kDenied)
    names.push_back(call.name);
  names.push_back("clone3 (ENOSYS)");
  names.push_back("clone with namespace flags");
  names.push_back("socket other than AF_UNIX, AF_INET, AF_INET6, AF_NETLINK");
  return names;
}

# Tries kernel interfaces an emitter script has no use for; each line says
# whether the call was refused (EPERM/ENOSYS) or went through.
import ctypes
import errno
import json
import os
import socket
import sys

# {"skip": [...]}: calls not to make (PTRACE_TRACEME outside a sandbox would
# stop the script at its next exec, waiting for a tracer).
skip = set(json.load(sys.stdin).get("skip", []))

libc = ctypes.CDLL(None, use_errno=True)
NR = {  # x86-64 and AArch64 numbers
    "x86_64": {"ptrace": 101, "unshare": 272, "bpf": 321, "userfaultfd": 323,
               "keyctl": 250, "io_uring_setup": 425, "perf_event_open": 298,
               "personality": 135},
    "aarch64": {"ptrace": 117, "unshare": 97, "bpf": 280, "userfaultfd": 282,
                "keyctl": 219, "io_uring_setup": 425, "perf_event_open": 241,
                "personality": 92},
}[os.uname().machine]


def call(name, *args):
    if name in skip:
        return
    ctypes.set_errno(0)
    r = libc.syscall(NR[name], *args)
    e = ctypes.get_errno()
    print("%s: %s" % (name, "refused" if r == -1 and e == errno.EPERM
                      else "returned %d (%s)" % (r, errno.errorcode.get(e, e))))


call("ptrace", 0, 0, 0, 0)              # PTRACE_TRACEME
call("unshare", 0x10000000)             # CLONE_NEWUSER
call("bpf", 0, 0, 0)
call("userfaultfd", 0)
call("keyctl", 0, -1, 0)                # KEYCTL_GET_KEYRING_ID
call("io_uring_setup", 1, 0)
call("perf_event_open", 0, 0, -1, -1, 0)
call("personality", 0x0040000)          # ADDR_NO_RANDOMIZE
for family, name in [(17, "AF_PACKET"), (38, "AF_ALG")]:
    try:
        socket.socket(family, socket.SOCK_RAW if family == 17 else socket.SOCK_SEQPACKET)
        print("socket %s: created" % name)
    except PermissionError:
        print("socket %s: refused" % name)
    except OSError as e:
        print("socket %s: %s" % (name, errno.errorcode.get(e.errno, e.errno)))
# What a script does need still works: threads, a child process, AF_UNIX.
import subprocess
import threading
t = threading.Thread(target=lambda: None)
t.start()
t.join()
print("thread: ok")
print("child:", subprocess.run([sys.executable, "-c", "print('ok')"],
                               capture_output=True, text=True).stdout.strip())
a, b = socket.socketpair()
a.sendall(b"x")
print("unix socket:", b.recv(1).decode())

# Prints what the sandbox looks like from inside.
import os
import socket
import sys

print("uid=%d gid=%d groups=%s" % (os.getuid(), os.getgid(), os.getgroups()))
print("cwd=%s" % os.getcwd())
print("interfaces=%s" % ",".join(n for _, n in socket.if_nameindex()))
print("pids=%s" % sorted(int(p) for p in os.listdir("/proc") if p.isdigit())[:3])
print("env=%s" % ",".join(sorted(os.environ)))
st = os.statvfs("/tmp")
print("tmp_bytes=%d" % (st.f_blocks * st.f_frsize))
for path in ["/root", "/home", "/work", "/var", "/run", os.path.expanduser("~/.ssh")]:
    print("%s exists=%s" % (path, os.path.exists(path)))
print("caps=%s" % [l.split()[1] for l in open("/proc/self/status") if l.startswith("CapEff")][0])
print("no_new_privs=%s" % [l.split()[1] for l in open("/proc/self/status") if l.startswith("NoNewPrivs")][0])

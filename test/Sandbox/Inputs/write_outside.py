# Tries to write everywhere but /tmp. Every attempt must fail; /tmp works.
import os
import sys

wrote = []
for path in ["/usr/tensorop-x", "/etc/tensorop-x", "/tensorop-x", "/sandbox/script.py",
             "/sandbox/tensorop-x", "/dev/shm/tensorop-x", "/proc/tensorop-x",
             os.path.join(os.path.dirname(os.path.abspath(__file__)), "tensorop-x")]:
    try:
        with open(path, "a") as f:
            f.write("x")
        wrote.append(path)
        print("WROTE %s" % path)
    except OSError as e:
        print("refused %s: %s" % (path, type(e).__name__))
with open("/tmp/ok", "w") as f:
    f.write("fine")
print("tmp ok")
sys.exit(1 if wrote else 0)

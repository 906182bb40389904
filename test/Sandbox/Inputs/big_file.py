# Fills /tmp: one file, then many small ones. The writes must stop near the
# limit (a few MiB in the test), not at 64 MiB.
import os
import sys

chunk = b"x" * (1 << 20)
written = 0
try:
    with open("/tmp/big", "wb") as f:
        for _ in range(64):
            f.write(chunk)
            f.flush()
            written += 1
    print("WROTE 64 MiB")
except OSError as e:
    print("big file stopped after %d MiB: %s" % (written, os.strerror(e.errno)))
os.unlink("/tmp/big")
count = 0
try:
    for i in range(64):
        with open("/tmp/small%d" % i, "wb") as f:
            f.write(chunk)
        count += 1
    print("WROTE 64 files of 1 MiB")
except OSError as e:
    print("small files stopped after %d MiB: %s" % (count, os.strerror(e.errno)))

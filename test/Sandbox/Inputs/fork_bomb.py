# A fork bomb, capped by the script itself at 2^8 = 256 processes so that a
# broken sandbox cannot take the machine down: every process forks on each of
# the remaining rounds and then sleeps before it exits, so they pile up.
# Every process reports its successful and refused forks through a pipe; the
# first one adds them up once all are gone (the pipe's EOF). Under
# RLIMIT_NPROC=16 fewer than 16 forks succeed in all and the rest fail.
# Every process is named after the spec's "name" (at most 15 characters),
# for pgrep in the test.
import ctypes
import json
import os
import sys
import time

NAME = json.load(sys.stdin).get("name", "fork_bomb").encode()[:15]


def name_me():
    try:
        ctypes.CDLL(None).prctl(15, NAME, 0, 0, 0)  # PR_SET_NAME
    except Exception:
        pass


name_me()
read_end, write_end = os.pipe()
forked = refused = 0
is_child = False
for round in range(8):
    try:
        pid = os.fork()
    except OSError:
        refused += 1
        continue
    if pid == 0:
        is_child = True
        forked = refused = 0
        name_me()
    else:
        forked += 1
if is_child:
    os.close(read_end)
    time.sleep(2)
    os.write(write_end, b"%d %d\n" % (forked, refused))
    os._exit(0)
os.close(write_end)
data = b""
while True:
    chunk = os.read(read_end, 65536)
    if not chunk:
        break
    data += chunk
for line in data.split(b"\n"):
    if line:
        f, r = line.split()
        forked += int(f)
        refused += int(r)
while True:
    try:
        os.wait()
    except ChildProcessError:
        break
print("forks: %d succeeded, %d refused" % (forked, refused))
print("fork bomb contained" if refused and forked < 16 else "FORK BOMB NOT CONTAINED")

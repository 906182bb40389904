"""no_worker_left.py MARK SECONDS: no 'tensorop worker' process started by a
tuner whose environment held TENSOROP_TEST_MARK=MARK survives (waits up to
SECONDS). Workers of other tests running at the same time are not ours."""
import os, sys, time
mark = ("TENSOROP_TEST_MARK=" + sys.argv[1]).encode()
limit = float(sys.argv[2])
end = time.time() + limit
while True:
    alive = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            cmd = open(f"/proc/{pid}/cmdline", "rb").read().split(b"\0")
            env = open(f"/proc/{pid}/environ", "rb").read().split(b"\0")
            state = open(f"/proc/{pid}/stat").read().split()[2]
        except OSError:
            continue
        if (len(cmd) > 1 and cmd[0].endswith(b"tensorop") and cmd[1] == b"worker"
                and mark in env and state != "Z"):
            alive.append(pid)
    if not alive:
        sys.exit(0)
    if time.time() > end:
        sys.exit(f"worker process(es) still running: {alive}")
    time.sleep(0.2)

"""no_worker_left.py DIR SECONDS: no 'tensorop worker' process whose object
file lives under DIR's tuner work directory survives (waits up to SECONDS)."""
import os, sys, time
limit = float(sys.argv[2])
end = time.time() + limit
while True:
    alive = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            cmd = open(f"/proc/{pid}/cmdline", "rb").read().split(b"\0")
        except OSError:
            continue
        if len(cmd) > 1 and cmd[0].endswith(b"tensorop") and cmd[1] == b"worker":
            try:
                state = open(f"/proc/{pid}/stat").read().split()[2]
            except OSError:
                continue
            if state != "Z":
                alive.append(pid)
    if not alive:
        sys.exit(0)
    if time.time() > end:
        sys.exit(f"worker process(es) still running: {alive}")
    time.sleep(0.2)

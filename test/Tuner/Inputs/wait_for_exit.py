"""wait_for_exit.py PID SECONDS: waits until the process is gone."""
import os, sys, time
pid, limit = int(sys.argv[1]), float(sys.argv[2])
end = time.time() + limit
while time.time() < end:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        sys.exit(0)
    time.sleep(0.1)
sys.exit(f"process {pid} still alive")
